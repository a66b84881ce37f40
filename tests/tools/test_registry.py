"""The registry: which tool definitions fit in the input budget (the largest left out first), what the user is told
about those left out, and a registry joined with a chat's built-ins."""

from __future__ import annotations

import json
from typing import Any

from chatbot.engine.tokens import TokenCounter
from chatbot.errors import ToolFailed
from chatbot.tools.base import Tool, ToolOutcome, ToolSpec
from chatbot.tools.registry import Registry, cut_result


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


class Probe(Tool):
    """A tool that answers, fails or raises as its arguments say, and tells the timeout it was given."""

    def __init__(self, name: str = "probe", source: str = "tests", available: bool = True) -> None:
        properties = {"say": {"type": "string"}, "fail": {"type": "string"}, "n": {"type": "integer"}}
        self.spec = ToolSpec(name, "Answers as told.", {"type": "object", "properties": properties}, source)
        self.alive = available

    @property
    def available(self) -> bool:
        return self.alive

    def run(self, arguments: dict[str, Any], timeout: float) -> str:
        fail = arguments.get("fail")
        if fail == "chatbot":
            raise ToolFailed("told to fail")
        if fail == "exit":
            raise SystemExit(3)
        if fail:
            raise ValueError(fail)
        if "n" in arguments:
            return "x" * arguments["n"]
        return f"said {arguments.get('say', '')!r} within {timeout:g} s"


def test_every_way_a_call_ends_is_one_outcome_with_a_message_the_model_can_act_on():
    registry = Registry([Probe(), Probe("dead", "server-x", available=False), Probe("other")], timeout=7)
    cut = "x" * 16_000 + "\n[result cut: 16,000 of 16,001 characters kept]"
    calls = {
        ("probe", '{"say": "hi"}'): ToolOutcome("probe", "said 'hi' within 7 s"),
        ("probe", "  "): ToolOutcome("probe", "said '' within 7 s"),  # no arguments at all: an empty object
        ("nope", "{}"): ToolOutcome("nope", "Error: tool 'nope' does not exist; available tools: probe, other", True),
        ("dead", "{}"): ToolOutcome(
            "dead",
            "Error: tool 'dead' is no longer available (its server stopped); available tools: probe, other",
            True,
        ),
        ("probe", '{"say": '): ToolOutcome(
            "probe",
            "Error: the arguments are not valid JSON (Expecting value: line 1 column 9 (char 8)): '{\"say\": '",
            True,
        ),
        ("probe", '{"say": 1, "n": "2"}'): ToolOutcome(
            "probe",
            "Error: the arguments do not fit the tool's schema: "
            "'n' should be integer, not str '2'; 'say' should be string, not int 1",
            True,
        ),
        ("probe", '{"fail": "chatbot"}'): ToolOutcome("probe", "Error: told to fail", True),
        ("probe", '{"fail": "bad value"}'): ToolOutcome("probe", "Error: the tool raised ValueError: bad value", True),
        ("probe", '{"fail": "exit"}'): ToolOutcome("probe", "Error: the tool raised SystemExit: 3", True),
        ("probe", '{"n": 16001}'): ToolOutcome("probe", cut, notice="the result of probe was cut to 16,000 characters"),
        ("probe", '{"n": 16000}'): ToolOutcome("probe", "x" * 16_000),
    }
    assert {call: registry.call(*call) for call in calls} == calls
    assert Registry().call("nope", "{}").text == "Error: tool 'nope' does not exist; available tools: none"
    long = '{"say": "' + "y" * 300
    assert registry.call("probe", long).text.endswith(f": {long[:200]!r}")  # the bad JSON is quoted up to 200


def test_a_result_is_cut_only_beyond_the_limit():
    assert cut_result("abc", 3) == ("abc", False)
    assert cut_result("abcd", 3) == ("abc\n[result cut: 3 of 4 characters kept]", True)


def test_a_tool_name_taken_is_skipped_with_a_warning_and_the_rest_still_added():
    registry = Registry([Probe(), Probe(source="elsewhere"), Probe("second")])
    assert registry.warnings == ["tool 'probe' from elsewhere skipped: tests already has one"]
    assert names(registry.specs()) == ["probe", "second"]


def test_a_stopped_source_is_told_once_across_the_registries_joined_from_one_run():
    dying = Probe("dying", "server-x")
    run = Registry([dying, Probe()])
    first = run.joined([Probe("builtin", "chat")])
    assert first.gone() == []
    dying.alive = False
    assert first.gone() == ["server-x"]
    assert run.joined([]).gone() == [] and run.gone() == [] and first.gone() == []
