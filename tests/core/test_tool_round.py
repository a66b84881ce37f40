"""One round of tool calls: at most MAX_CALLS_PER_ROUND run, every other call is answered without running, and the
user is told once."""

from __future__ import annotations

from chatbot.core.events import Notice, ToolFinished, ToolStarted
from chatbot.core.rounds import TurnSoFar
from chatbot.core.tool_round import MAX_CALLS_PER_ROUND, NOT_RUN_OVER_CAP, run_round
from chatbot.providers.base import ToolCall
from chatbot.tools.registry import Registry


def test_calls_over_the_cap_are_answered_without_running_and_the_user_is_told_once():
    calls = [ToolCall(f"c{i}", "missing", "{}") for i in range(MAX_CALLS_PER_ROUND + 2)]
    progress = TurnSoFar(0.0)
    events = list(run_round(Registry(), None, calls, progress))
    assert events[0] == Notice(
        f"the model asked for {MAX_CALLS_PER_ROUND + 2} tool calls in one round: the first {MAX_CALLS_PER_ROUND} "
        f"ran, the other 2 were not run (at most {MAX_CALLS_PER_ROUND} a round)",
        True,
    )
    started = [e.call for e in events if isinstance(e, ToolStarted)]
    finished = [e.call for e in events if isinstance(e, ToolFinished)]
    assert started == finished == calls[:MAX_CALLS_PER_ROUND]
    results = progress.messages[1:]
    assert [m["tool_call_id"] for m in results] == [c.id for c in calls]
    assert results[-2:] == [
        {"role": "tool", "tool_call_id": c.id, "name": "missing", "content": NOT_RUN_OVER_CAP} for c in calls[-2:]
    ]
    assert progress.open == {}


def test_a_round_within_the_cap_tells_the_user_nothing():
    calls = [ToolCall("c0", "missing", "{}")]
    events = list(run_round(Registry(), None, calls, TurnSoFar(0.0)))
    assert not any(isinstance(e, Notice) for e in events)


def test_a_refused_call_finishes_as_an_error_naming_its_call():
    call = ToolCall("c0", "missing", "{}")
    progress = TurnSoFar(0.0)
    events = list(run_round(Registry(), lambda c: False, [call], progress))
    assert events == [ToolStarted(call), ToolFinished(call, "Error: the user refused this tool call.", True)]
    assert progress.messages[-1]["content"] == "Error: the user refused this tool call."
