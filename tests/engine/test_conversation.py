"""The Conversation engine: what each request holds under every strategy and boundary."""

from __future__ import annotations

import json

import pytest

from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.summary_prompt import SUMMARY_HEADING
from chatbot.engine.turn import Turn, validate_request
from chatbot.errors import BudgetError, InvalidRequest, ProviderError
from chatbot.storage.session import Session
from tests.conftest import RecordingSummarizer, make_turn


def user_contents(messages):
    return [m["content"] for m in messages if m["role"] == "user"]


def run_turns(conv: Conversation, count: int, summarizer) -> list:
    """Send ``count`` turns through the engine as the app does; return each request."""
    requests = []
    for _ in range(count):
        i = len(conv.turns) + 1
        req = conv.build_request(f"q{i}", summarizer=summarizer)
        requests.append(req)
        conv.add_turn(Turn([req.messages[-1], {"role": "assistant", "content": f"r{i}"}]))
    return requests


# --- full ---------------------------------------------------------------------------------------------------------


def test_full_sends_every_turn_then_the_new_message(conv_factory):
    conv = conv_factory(5, strategy="full")
    req = conv.build_request("new")
    assert req.messages[0] == {"role": "system", "content": "sys"}
    assert req.messages[-1] == {"role": "user", "content": "new"}
    assert len(req.messages) == 1 + 5 * 2 + 1
    assert req.first_turn == 0 and req.dropped == 0


def test_empty_history_is_system_and_user(conv_factory):
    for strategy in ("full", "window", "summary"):
        req = conv_factory(0, strategy=strategy).build_request("hi")
        assert [m["role"] for m in req.messages] == ["system", "user"]


def test_request_never_mutates_callers_message_or_stored_turns(conv_factory):
    conv = conv_factory(2, strategy="full")
    mine = {"role": "user", "content": "hello"}
    req = conv.build_request(mine)
    req.messages[1]["content"] = "tampered"
    req.messages[-1]["content"] = "tampered"
    assert mine == {"role": "user", "content": "hello"}
    assert conv.turns[0].messages[0]["content"] == "u1 u1 u1"


# --- window -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stored", "window", "sent"), [(0, 3, 0), (2, 3, 2), (3, 3, 3), (4, 3, 3), (10, 3, 3), (5, 0, 0)]
)
def test_window_keeps_the_last_n_turns(conv_factory, stored, window, sent):
    conv = conv_factory(stored, strategy="window", window_turns=window)
    req = conv.build_request("new")
    assert user_contents(req.messages)[:-1] == [f"u{i} u{i} u{i}" for i in range(stored - sent + 1, stored + 1)]
    assert req.dropped == stored - sent


# --- summary ------------------------------------------------------------------------------------------------------


def test_spec_example_trigger_4_keep_2(conv_factory, summarizer):
    """SPEC.md: trigger 4 and keep 2: summaries happen before turns 6 and 9; turn 6 is sent with turns 4-5."""
    conv = conv_factory(0, strategy="summary", summary_trigger=4, keep_turns=2)
    requests = run_turns(conv, 10, summarizer)
    summarized_before = [n for n, r in enumerate(requests, start=1) if r.summarized]
    assert summarized_before == [6, 9]
    turn6 = requests[5]
    assert user_contents(turn6.messages) == ["q4", "q5", "q6"]
    assert turn6.summary_included and SUMMARY_HEADING in turn6.messages[0]["content"]
    assert "t1 t2 t3" in turn6.messages[0]["content"]
    # incremental: the second summary got the first one as input and folded turns 4-6
    assert summarizer.calls == [("", 1, 3), ("t1 t2 t3", 4, 3)]
    assert user_contents(requests[8].messages) == ["q7", "q8", "q9"]
    assert conv.summary_covers == 6


def test_summary_without_trigger_sends_everything_uncovered(conv_factory, summarizer):
    conv = conv_factory(4, strategy="summary", summary_trigger=4, keep_turns=2)
    req = conv.build_request("new", summarizer=summarizer)
    assert not summarizer.calls and req.summarized == 0
    assert len(user_contents(req.messages)) == 5


def test_summary_is_in_the_single_system_message_with_alternation(conv_factory, summarizer):
    conv = conv_factory(0, strategy="summary", summary_trigger=2, keep_turns=1)
    req = run_turns(conv, 5, summarizer)[-1]
    roles = [m["role"] for m in req.messages]
    assert roles.count("system") == 1 and roles[0] == "system"
    body = roles[1:]
    assert body == ["user", "assistant"] * (len(body) // 2) + ["user"]


@pytest.mark.parametrize(
    ("behaviour", "warning"),
    [("raise", "failed"), ("empty", "empty"), ("longer", "not shorter"), ("provider", "failed")],
)
def test_failed_summary_changes_nothing_stored_and_sends_every_unsummarized_turn(conv_factory, behaviour, warning):
    conv = conv_factory(6, strategy="summary", summary_trigger=4, keep_turns=2)
    conv.summary, conv.summary_covers = "old", 0
    stored = [t.to_dict() for t in conv.turns]

    def bad(previous, turns, first):
        if behaviour == "raise":
            raise RuntimeError("boom")
        if behaviour == "provider":
            raise ProviderError("server said no")
        if behaviour == "empty":
            return "   "
        return " ".join(["much longer"] * 500)

    req = conv.build_request("new", summarizer=bad)
    assert conv.summary == "old" and conv.summary_covers == 0
    assert [t.to_dict() for t in conv.turns] == stored
    assert any(warning in w for w in req.warnings)
    # falls back to every unsummarized turn the budget has room for: here all of them
    assert user_contents(req.messages) == [f"u{i} u{i} u{i}" for i in range(1, 7)] + ["new"]
    assert req.summarized == 0 and req.dropped == 0


# --- budget -------------------------------------------------------------------------------------------------------


def test_budget_exactly_met_keeps_everything_one_less_drops_oldest(counter):
    # WordCounter: system "sys" = 2, each stored turn = 2 messages x (3 words + 1) = 8, "new" = 2
    conv = Conversation("sys", MemoryConfig(strategy="full", max_input_tokens=2 + 3 * 8 + 2), counter)
    for i in range(1, 4):
        conv.add_turn(make_turn(i))
    req = conv.build_request("new")
    assert req.tokens == req.budget == 28 and req.first_turn == 0
    conv.memory = MemoryConfig(strategy="full", max_input_tokens=27)
    req = conv.build_request("new")
    assert req.first_turn == 1 and req.dropped == 1 and req.tokens <= 27


def test_single_message_over_budget_is_a_typed_error_with_numbers(counter):
    conv = Conversation("sys", MemoryConfig(max_input_tokens=10), counter)
    with pytest.raises(BudgetError) as info:
        conv.build_request(" ".join(["w"] * 20))
    assert info.value.needed == 23 and info.value.budget == 10
    assert "23" in info.value.message and "10" in info.value.message


def test_a_message_over_a_budget_the_window_set_says_so_not_to_raise_the_flag(counter):
    # the budget here is what the model's window leaves, under --max-input-tokens: raising the flag would not help
    conv = Conversation("sys", MemoryConfig(max_input_tokens=6000), counter)
    counter.calibration.context = 40
    with pytest.raises(BudgetError) as info:
        conv.build_request(" ".join(["w"] * 20), budget=10)
    told = info.value.message
    assert "but 10 is all a request can take (the model's 40-token window less room for the reply)" in told
    assert "--max-input-tokens" not in told and told.endswith("shorten the message or attach less")


def test_a_message_over_the_budget_the_flag_set_names_the_flag(counter):
    conv = Conversation("sys", MemoryConfig(max_input_tokens=10), counter)
    with pytest.raises(BudgetError) as info:
        conv.build_request(" ".join(["w"] * 20))
    assert info.value.message.endswith(
        "but the budget (--max-input-tokens) is 10: shorten the message or raise the budget"
    )


def test_over_budget_summary_mode_summarizes_early(counter, summarizer):
    conv = Conversation("sys", MemoryConfig(summary_trigger=50, keep_turns=2, max_input_tokens=40), counter)
    for i in range(1, 8):
        conv.add_turn(make_turn(i))
    req = conv.build_request("new", summarizer=summarizer)
    assert req.summarized > 0 and conv.summary_covers == req.summarized
    assert req.summary_included and req.tokens <= 40
    assert req.first_turn == conv.summary_covers  # nothing dropped: summarized instead
    assert req.dropped == 0


def test_summary_too_long_for_budget_is_left_out(counter):
    conv = Conversation("sys", MemoryConfig(max_input_tokens=12), counter, summary=" ".join(["s"] * 30))
    conv.add_turn(make_turn(1))
    conv.summary_covers = 1
    req = conv.build_request("new")
    assert not req.summary_included and any("left out" in w for w in req.warnings)


def test_shrink_budget_halves_what_failed(conv_factory):
    conv = conv_factory(10, strategy="full")
    req = conv.build_request("new")
    smaller = conv.build_request("new", budget=conv.shrink_budget(req))
    assert smaller.tokens <= req.tokens // 2 and smaller.dropped > 0


# --- tool calls ---------------------------------------------------------------------------------------------------


def test_window_and_budget_move_whole_tool_turns(counter):
    conv = Conversation("sys", MemoryConfig(strategy="full", max_input_tokens=45), counter)
    for i in range(1, 6):
        conv.add_turn(make_turn(i, tool=True))
    req = conv.build_request("new")
    validate_request(req.messages)  # raises on a split pair
    ids = [m.get("tool_call_id") for m in req.messages if m["role"] == "tool"]
    calls = [c["id"] for m in req.messages for c in m.get("tool_calls") or []]
    assert ids == calls and req.dropped > 0


@pytest.mark.parametrize(
    "messages",
    [
        [{"role": "user", "content": "x"}],
        [{"role": "system", "content": "s"}, {"role": "system", "content": "s"}, {"role": "user", "content": "x"}],
        [
            {"role": "system", "content": "s"},
            {"role": "tool", "tool_call_id": "a", "content": "r"},
            {"role": "user", "content": "x"},
        ],
        [
            {"role": "system", "content": "s"},
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": None, "tool_calls": [{"id": "a"}]},
            {"role": "user", "content": "x"},
        ],
        [{"role": "system", "content": "s"}, {"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}],
        [{"role": "system", "content": "s"}, {"role": "robot", "content": "q"}, {"role": "user", "content": "q"}],
    ],
)
def test_validator_rejects_malformed_requests(messages):
    with pytest.raises(InvalidRequest):
        validate_request([])
    with pytest.raises(InvalidRequest):
        validate_request(messages)


def test_the_validator_says_which_end_of_a_request_is_wrong():
    system, user = {"role": "system", "content": "s"}, {"role": "user", "content": "q"}
    call = {"role": "assistant", "content": None, "tool_calls": [{"id": "a"}]}
    cases = [
        (([user], False), "a request starts with the system message"),
        (([system, user, call], False), "a request ends with the new user message"),
        (([system, user], True), "a request ends with the results of the tool calls"),
    ]
    for (messages, in_turn), message in cases:
        with pytest.raises(InvalidRequest) as caught:
            validate_request(messages, in_turn=in_turn)
        assert caught.value.message == message


def test_the_validator_names_what_is_wrong_in_the_middle_of_a_request():
    system, user = {"role": "system", "content": "s"}, {"role": "user", "content": "q"}
    calls = {"role": "assistant", "content": None, "tool_calls": [{"id": "b"}, {"id": "a"}, {"id": 7}]}

    def result(call_id):
        return {"role": "tool", "tool_call_id": call_id, "content": "r"}

    cases = [
        (([system, system, user], False), "a request holds exactly one system message"),
        (([system, user, {"role": "robot"}, user], False), "message 2 has an unknown role 'robot'"),
        (([system, user, calls, result("zz")], True), "message 3 answers a tool call that is not open ('zz')"),
        (([system, user, calls, result("a"), user], False), "tool calls ['7', 'b'] have no result before message 4"),
        (([system, user, calls, result("a"), result("7")], True), "tool calls ['b'] have no result"),
        (
            ([system, user, calls, result("a"), result("a")], True),
            "message 4 answers a tool call that is not open ('a')",
        ),
    ]
    for (messages, in_turn), message in cases:
        with pytest.raises(InvalidRequest) as caught:
            validate_request(messages, in_turn=in_turn)
        assert caught.value.message == message
    validate_request([system, user, calls, result("a"), result("b"), result("7")], in_turn=True)


def test_validator_accepts_paired_tool_calls():
    call = {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    validate_request(
        [
            {"role": "system", "content": "s"},
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "a", "content": "r"},
            {"role": "assistant", "content": "done"},
            {"role": "user", "content": "next"},
        ]
    )


# --- stored state -------------------------------------------------------------------------------------------------


def test_clearing_the_summary_unsummarizes_its_turns_and_ends_a_backoff(conv_factory):
    conv = conv_factory(9, strategy="summary", summary_trigger=8, keep_turns=4)

    def fail(prev, turns, first):
        raise RuntimeError("down")

    conv.build_request("hi", summarizer=fail)
    conv.set_summary("gist", 3)
    assert not conv.backoff.due(len(conv.turns))
    conv.clear_summary()
    assert (conv.summary, conv.summary_covers) == ("", 0) and conv.backoff.due(len(conv.turns))


def test_redoing_the_summary_folds_from_the_first_turn_without_the_old_summary(conv_factory, summarizer):
    conv = conv_factory(5, strategy="summary", summary_trigger=10, keep_turns=2)
    conv.set_summary("old gist", 2)
    assert conv.redo_summary(summarizer) == (3, [])
    assert summarizer.calls == [("", 1, 3)]  # no previous summary, turns 1-3
    assert (conv.summary, conv.summary_covers) == ("t1 t2 t3", 3)


def test_a_failed_redo_of_the_summary_keeps_the_old_one(conv_factory):
    conv = conv_factory(5, strategy="summary", summary_trigger=10, keep_turns=2)
    conv.set_summary("old gist", 2)

    def fail(prev, turns, first):
        raise RuntimeError("down")

    assert conv.redo_summary(fail) == (0, ["summarizing failed (down)"])
    assert (conv.summary, conv.summary_covers) == ("old gist", 2)


def test_a_preview_is_the_request_the_next_message_sends(conv_factory):
    conv = conv_factory(4, strategy="summary", summary_trigger=10, keep_turns=2)
    conv.set_summary("gist", 2)
    preview = conv.preview_request("next")
    sent = conv.build_request("next")
    assert (preview.messages, preview.tokens, preview.parts) == (sent.messages, sent.tokens, sent.parts)
    assert user_contents(preview.messages) == ["u3 u3 u3", "u4 u4 u4", "next"]  # the summary covers turns 1-2
    assert preview.tokens == sum(conv.counter.count_message(m) for m in preview.messages)  # counted by conv's counter
    assert conv.preview_request().messages[-1] == {"role": "user", "content": ""}  # nothing typed yet


def test_undo_reset_and_round_trip(conv_factory, summarizer):
    conv = conv_factory(0, strategy="summary", summary_trigger=2, keep_turns=1)
    run_turns(conv, 5, summarizer)
    document = json.loads(Session(id="s", conversation=conv).to_json())
    again = Session.from_dict(document, "s", conv.memory, conv.counter).conversation
    assert again.build_request("next").messages == conv.build_request("next").messages
    assert conv.undo() is not None and len(conv.turns) == 4
    assert conv.summary_covers <= 4
    conv.reset()
    assert conv.turns == [] and conv.summary == "" and conv.system == "sys"
    assert conv.undo() is None


def test_turn_token_count_is_cached(counter):
    calls = []

    class Counting(type(counter)):  # type: ignore[misc]
        def count(self, text):
            calls.append(text)
            return super().count(text)

    conv = Conversation("sys", MemoryConfig(strategy="full"), Counting())
    for i in range(1, 4):
        conv.add_turn(make_turn(i))
    conv.build_request("a")
    calls.clear()
    conv.build_request("b")
    assert calls == ["b"]  # stored turns and the system message come from the caches


def test_memory_config_rejects_keep_above_trigger():
    from chatbot.errors import UsageError

    with pytest.raises(UsageError):
        MemoryConfig(summary_trigger=3, keep_turns=4)


def test_recording_summarizer_is_shorter_than_input():
    s = RecordingSummarizer()
    assert s("", [[{"role": "user", "content": "x"}]], 1) == "t1"


def test_early_summary_that_grows_the_system_message_folds_again_rather_than_drop(counter):
    """A summary makes the system message longer; a turn it pushes out is folded too, not silently dropped."""

    def verbose(previous, turns, first):  # shorter than what it replaces, but not by much
        return " ".join([previous] + [f"t{first + k} said something notable" for k in range(len(turns))]).strip()

    # 5 turns of 14 tokens; only turn 1 needs to go, but its summary (with its heading) costs more than the turn
    conv = Conversation("sys", MemoryConfig(summary_trigger=50, keep_turns=4, max_input_tokens=60), counter)
    for i in range(1, 6):
        conv.add_turn(make_turn(i, words=6))
    req = conv.build_request("new", summarizer=verbose)
    assert req.summarized >= 2
    assert req.tokens <= 60 and req.summary_included
    assert req.dropped == 0 and req.first_turn == conv.summary_covers


def test_a_conversation_rebuilt_from_storage_keeps_a_summary_only_over_turns_it_has():
    turns = [make_turn(1), make_turn(2)]
    assert Conversation("s", turns=turns, summary="gist", summary_covers=5).summary_covers == 2
    assert Conversation("s", turns=turns, summary="gist", summary_covers=-3).summary_covers == 0
    kept = Conversation("s", turns=turns, summary="gist", summary_covers=1)
    assert (kept.summary, kept.summary_covers, kept.turns) == ("gist", 1, turns)
    assert kept.turns is not turns  # its own list: adding a turn leaves the caller's alone
    fresh = Conversation("s")
    assert (fresh.turns, fresh.summary, fresh.summary_covers, fresh.memory) == ([], "", 0, MemoryConfig())
