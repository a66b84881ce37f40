"""The registry: which tool definitions fit in the input budget (the largest left out first), what the user is told
about those left out, and a registry joined with a chat's built-ins."""

from __future__ import annotations

import json
from typing import Any

from chatbot.engine.tokens import TokenCounter
from chatbot.tools.base import Tool, ToolSpec
from chatbot.tools.registry import Registry


class Described(Tool):
    """A tool whose definition is as large as its description makes it."""

    def __init__(self, name: str, description_chars: int) -> None:
        self.spec = ToolSpec(name, "x" * description_chars, source="tests")

    def run(self, arguments: dict[str, Any], timeout: float) -> str:
        return "ok"


class CharCounter(TokenCounter):
    """One token per character: definitions' sizes a test can add up exactly."""

    def count(self, text: str) -> int:
        return len(text)


def size(tool: Tool, counter: TokenCounter) -> int:
    return counter.count(json.dumps(tool.spec.to_openai()))


def names(specs: list[ToolSpec]) -> list[str]:
    return [s.name for s in specs]


def test_definitions_beyond_half_the_budget_leave_the_largest_out_first_and_the_rest_offered():
    a, b, c, d = Described("a", 10), Described("b", 300), Described("c", 100), Described("d", 10)
    registry, counter = Registry([a, b, c, d]), CharCounter()
    exactly_fits = 2 * (size(a, counter) + size(c, counter) + size(d, counter))  # half of it holds a, c and d
    offered, left_out = registry.fitting(counter, exactly_fits)
    assert (names(offered), names(left_out)) == (["a", "c", "d"], ["b"])
    # a and d are the same size: of equals, the one added last goes first
    offered, left_out = registry.fitting(counter, 2 * size(a, counter))
    assert (names(offered), names(left_out)) == (["a"], ["b", "c", "d"])
    assert [t["function"]["name"] for t in registry.openai_tools(counter, exactly_fits)] == ["a", "c", "d"]
    assert registry.definition_tokens(counter, exactly_fits) == counter.count_tools(
        [t.spec.to_openai() for t in (a, c, d)]
    )
    assert registry.definition_tokens(counter) == counter.count_tools([t.spec.to_openai() for t in (a, b, c, d)])
    assert names(registry.fitting(counter, 10 * exactly_fits)[1]) == []


def test_definitions_are_sized_by_the_counter_asked_each_time():
    a, b = Described("a", 10), Described("b", 300)
    registry, rough = Registry([a, b]), TokenCounter()
    assert names(registry.fitting(CharCounter(), 2 * size(a, CharCounter()))[1]) == ["b"]
    assert names(registry.fitting(rough, 2 * (size(a, rough) + size(b, rough)))[1]) == []


def test_no_tools_add_no_definition_tokens():
    assert Registry().definition_tokens(CharCounter()) == 0
    assert Registry().definition_tokens(CharCounter(), 100) == 0


def test_the_user_is_told_which_tools_are_left_out_largest_first_once_and_again_when_that_changes():
    counter = CharCounter()
    tools = [Described(f"t{i}", 10 * i) for i in range(1, 8)]
    registry = Registry(tools)
    why = "left out, the largest first: their definitions do not fit in half the input budget (--max-input-tokens"

    def told(*kept: int) -> str:
        budget = 2 * sum(size(tools[i - 1], counter) for i in kept)
        return registry.left_out_notice(counter, budget), budget

    notice, budget = told(1, 2, 3, 4, 5, 6)
    assert notice == f"1 tool {why} {budget}): t7"
    assert told(1, 2, 3, 4, 5, 6)[0] == ""  # the same tools again: told once
    notice, budget = told(1, 2, 3, 4, 5)
    assert notice == f"2 tools {why} {budget}): t7, t6"
    notice, budget = told(1, 2)
    assert notice == f"5 tools {why} {budget}): t7, t6, t5, t4, t3"
    notice, budget = told(1)
    assert notice == f"6 tools {why} {budget}): t7, t6, t5, t4, t3 and 1 more"
    assert told(1, 2, 3, 4, 5, 6, 7)[0] == ""  # all fit: nothing to tell


def test_a_registry_joined_with_built_ins_keeps_the_runs_timeout():
    run = Registry([Described("a", 1)], timeout=7.5)
    joined = run.joined([Described("b", 1)])
    assert joined.timeout == 7.5
    assert names(joined.specs()) == ["a", "b"]
