"""A turn in progress (chatbot/core/rounds.py): tool rounds paired, repeated call ids made unique, usage added up over
the model calls of one turn, and the stored turn it becomes, finished or not."""

from __future__ import annotations

from chatbot.core.rounds import NOT_RUN, TurnSoFar
from chatbot.engine.turn import Turn
from chatbot.providers.base import StreamEnd, ToolCall, Usage
from tests.conftest import WordCounter

USER = {"role": "user", "content": "add them"}


def test_usage_adds_up_over_the_calls_of_a_turn_and_cached_only_when_both_report_it():
    progress = TurnSoFar(0.0)
    assert not progress.started()
    progress.end_round(StreamEnd(Usage(100, 5, 105, 40), "tool_calls"), 90)
    progress.end_round(StreamEnd(Usage(120, 7, 127, 60), "stop"), 110)
    assert progress.usage == Usage(220, 12, 232, 100)
    assert (progress.rounds, progress.estimated_prompt, progress.finish_reason) == (2, 200, "stop")
    progress.end_round(StreamEnd(Usage(1, 1, 2, None), "stop"), 0)
    assert progress.usage == Usage(221, 13, 234, None)
    progress.end_round(StreamEnd(None, "stop"), 0)
    assert progress.usage == Usage(221, 13, 234, None)


def test_repeated_call_ids_are_made_unique_and_every_call_gets_a_result():
    progress = TurnSoFar(0.0)
    progress.parts.append("let me add")
    first = progress.open_round([ToolCall("c", "add", "{}")])
    progress.add_result(first[0], "3")
    again = progress.open_round([ToolCall("c", "add", "{}"), ToolCall("c", "add", "{}"), ToolCall("d", "mul", "{}")])
    assert [c.id for c in again] == ["c_0", "c_1", "d"]
    assert progress.started() and progress.parts == []
    assert progress.messages[0]["content"] == "let me add"
    progress.add_result(again[0], "5")
    closed = progress.closed_messages()
    assert [(m["role"], m.get("tool_call_id"), m.get("content")) for m in closed[-3:]] == [
        ("tool", "c_0", "5"),
        ("tool", "c_1", NOT_RUN),
        ("tool", "d", NOT_RUN),
    ]
    assert progress.messages[-1]["tool_call_id"] == "c_0"  # the open calls are not stored as run


def test_a_finished_turn_stores_the_usage_and_estimates():
    counter = WordCounter()
    progress = TurnSoFar(0.0)
    call = progress.open_round([ToolCall("c", "add", "{}")])[0]
    progress.add_result(call, "3")
    progress.parts.append("it is three")
    progress.end_round(StreamEnd(Usage(50, 4, 54), "stop"), 44)
    turn = progress.to_turn(USER, 40, counter)
    assert [m["role"] for m in turn.messages] == ["user", "assistant", "tool", "assistant"]
    assert turn.answer_text == "it is three" and not turn.interrupted
    usage = turn.usage
    assert (usage["prompt_tokens"], usage["completion_tokens"], usage["source"]) == (50, 4, "provider")
    assert usage["estimated_prompt_tokens"] == 44  # the model call's own estimate, not the request's 40
    # the answer's 3 words and the call message (1 + 15 + 1 + 1)
    assert usage["estimated_completion_tokens"] == 3 + 18
    assert "model_calls" not in usage


def test_an_interrupted_turn_is_marked_and_falls_back_to_estimates():
    progress = TurnSoFar(0.0)
    progress.parts.append("partial  ")
    turn = progress.to_turn(USER, 40, WordCounter(), mark="[stopped]")
    assert turn.interrupted and turn.answer_text == "partial\n\n[stopped]"
    assert turn.usage["source"] == "estimate" and turn.usage["prompt_tokens"] is None
    assert turn.usage["estimated_prompt_tokens"] == 40
    assert TurnSoFar(0.0).answer("[x]") == "[x]"


def test_a_turn_of_several_calls_says_how_many():
    progress = TurnSoFar(0.0)
    progress.end_round(StreamEnd(None, "tool_calls"), 1)
    progress.end_round(StreamEnd(None, "stop"), 1)
    assert progress.to_turn(USER, 1, WordCounter()).usage["model_calls"] == 2


def test_the_latency_is_the_time_since_the_turn_began():
    import time

    started = time.monotonic() - 2.0
    latency = TurnSoFar(started).to_turn(USER, 1, WordCounter()).latency
    assert latency is not None and 2.0 <= latency < 10.0


def test_a_call_id_repeated_within_one_round_is_made_unique():
    calls = TurnSoFar(0.0).open_round([ToolCall("x", "add", "{}"), ToolCall("x", "add", "{}")])
    assert [c.id for c in calls] == ["x", "x_1"]


def test_an_id_repeated_in_every_round_takes_the_next_free_suffix():
    progress = TurnSoFar(0.0)
    ids = []
    for _ in range(3):  # a server that names every call "c"
        [call] = progress.open_round([ToolCall("c", "add", "{}")])
        progress.add_result(call, "3")
        ids.append(call.id)
    assert ids == ["c", "c_0", "c_1"]  # c_0 is taken by the second round: the third tries the next suffix, c_1


def test_the_stored_turn_holds_every_provider_count_its_sent_record_and_the_latency_in_ms(monkeypatch):
    import time

    progress = TurnSoFar(100.0)
    assert not TurnSoFar(0.0, ()).started() and not _with_parts(" ", "\n").started()  # blank text is not a start
    progress.parts += ["two ", "parts"]
    call = progress.open_round([ToolCall("c", "add", "{}")])[0]
    progress.add_result(call, "3")
    progress.add_result(call, "3 again")  # a second result for a call already answered is kept, not an error
    progress.end_round(StreamEnd(Usage(50, 4, 54, 20), "stop"), 44)
    monkeypatch.setattr(time, "monotonic", lambda: 101.23456)
    sent = {"budget": 1000}
    turn = progress.to_turn(USER, 40, WordCounter(), sent=sent)
    assert progress.messages[0]["content"] == "two parts" and progress.answer() == ""
    assert {k: turn.usage[k] for k in ("prompt_tokens", "completion_tokens", "total_tokens", "cached_tokens")} == {
        "prompt_tokens": 50, "completion_tokens": 4, "total_tokens": 54, "cached_tokens": 20,
    }  # fmt: skip
    assert turn.latency == 1.235 and turn.sent == sent


def test_the_sent_record_is_the_first_calls_request_with_the_providers_count_of_it():
    from chatbot.engine.conversation import Conversation
    from chatbot.engine.memory import MemoryConfig

    conv = Conversation("sys", MemoryConfig("full"), WordCounter())
    first, later = conv.build_request(USER), conv.build_request({"role": "user", "content": "a longer one here"})
    progress = TurnSoFar(0.0)
    progress.end_round(StreamEnd(Usage(50, 4, 54), "tool_calls"), 44, first)
    progress.end_round(StreamEnd(Usage(70, 4, 74), "stop"), 60, later)
    record = progress.record(later, 7)
    assert record["provider"] == 50 and record["tools"] == 7 and record["parts"] == first.parts.to_dict()
    assert TurnSoFar(0.0).record(first, 0)["provider"] is None


def _with_parts(*parts: str) -> TurnSoFar:
    progress = TurnSoFar(0.0)
    progress.parts += parts
    return progress


def test_a_later_round_over_the_budget_folds_older_turns_through_the_summarizer_and_keeps_the_turns_budget():
    from chatbot.core.rounds import fit_round
    from chatbot.engine.conversation import Conversation
    from chatbot.engine.memory import MemoryConfig
    from tests.conftest import make_turn

    conv = Conversation("sys", MemoryConfig("summary", summary_trigger=50, keep_turns=1), WordCounter())
    for i in range(1, 7):
        conv.add_turn(make_turn(i, words=20))
    request = conv.build_request(USER, budget=conv.build_request(USER).tokens + 10)  # every turn fits, but not
    rounds = [{"role": "tool", "tool_call_id": "c", "name": "add", "content": " ".join(["r"] * 60)}]  # beside these
    asked = []

    def summarizer(previous, turns, first):
        asked.append(first)
        return "s"

    steps = fit_round(conv, request, USER, rounds, summarizer)
    try:
        while True:
            next(steps)
    except StopIteration as done:
        smaller, sent = done.value
    assert asked and smaller.summarized > 0 and smaller.budget == request.budget and sent == rounds


def test_the_tool_calls_tokens_count_the_assistants_call_message_alone():
    progress = TurnSoFar(0.0)
    call = progress.open_round([ToolCall("c", "add", "{}")])[0]
    progress.add_result(call, "3")
    assert progress.call_tokens(WordCounter()) == 18  # the call message (1 + 15 + 1 + 1), not the result's


def test_a_call_id_an_earlier_turn_of_the_session_used_is_not_reused():
    earlier = Turn([USER, {"role": "assistant", "content": "", "tool_calls": [{"id": "c", "type": "function"}]}])
    [call] = TurnSoFar(0.0, [earlier]).open_round([ToolCall("c", "add", "{}")])
    assert call.id == "c_0"
