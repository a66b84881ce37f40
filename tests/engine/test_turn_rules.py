"""Turns and messages at their edges: previews cut to width, text of content parts, the answer of a turn, what
invalidates the cached counts and JSON, what a stored turn rebuilds from; and the Conversation's own edges."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from chatbot.engine.conversation import Conversation
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import Turn, content_text, json_bytes
from chatbot.errors import InvalidRequest
from chatbot.text import preview
from tests.conftest import WordCounter, make_turn


def test_a_preview_flattens_and_cuts_to_exactly_the_width():
    assert preview(" a\n b\tc ", 5) == "a b c"  # exactly the width: kept whole
    assert preview("abcdef", 5) == "abcd…"
    assert len(preview("x" * 50, 10)) == 10


def test_content_text_reads_strings_parts_and_nothing():
    parts = [
        {"type": "text", "text": "one"},
        {"type": "image_url", "image_url": {"url": "data:"}},
        {"type": "text", "text": None},
        "stray",
        {"type": "text", "text": "two"},
    ]
    assert content_text(parts) == "one\n\ntwo"
    assert content_text(None) == "" and content_text("plain") == "plain" and content_text(7) == "7"


def test_json_bytes_is_compact_utf8_and_escapes_lone_surrogates():
    assert json_bytes({"a": "é", "b": [1, 2]}) == '{"a":"é","b":[1,2]}'.encode()
    escaped = json_bytes({"a": "\udc80é"})
    assert escaped == b'{"a":"\\udc80\\u00e9"}' and json.loads(escaped) == {"a": "\udc80é"}


def test_a_turn_is_stamped_with_the_utc_time_to_the_second():
    stamp = make_turn(1).created_at
    assert stamp.endswith("+00:00") and datetime.fromisoformat(stamp).tzinfo == timezone.utc
    assert abs(datetime.now(timezone.utc) - datetime.fromisoformat(stamp)) < timedelta(minutes=1)


def test_a_turns_count_is_cached_per_counter():
    turn = make_turn(1)  # two messages of three words
    words, rough = WordCounter(), TokenCounter()
    assert turn.tokens(words) == 8
    assert turn.tokens(rough) == rough.count_message(turn.messages[0]) + rough.count_message(turn.messages[1]) != 8
    assert turn.tokens(words) == 8


def test_a_cached_count_is_computed_once_per_key():
    turn, calls = make_turn(1), []

    def compute(n: int):
        calls.append(n)
        return n

    assert turn.cached_count("a", lambda: compute(5)) == 5
    assert turn.cached_count("a", lambda: compute(6)) == 5
    assert turn.cached_count("b", lambda: compute(7)) == 7
    assert calls == [5, 7]


def test_a_turn_must_start_with_a_user_message():
    for messages in ([], [{"role": "assistant", "content": "hi"}], [{"content": "no role"}]):
        with pytest.raises(InvalidRequest) as caught:
            Turn(messages)
        assert caught.value.message == "a turn starts with a user message"


def test_the_answer_is_the_last_assistant_message_with_content():
    turn = make_turn(1, tool=True)
    assert turn.answer_text == "a1 a1 a1" and turn.has_tool_calls
    only_call = Turn(turn.messages[:3])
    assert only_call.answer_text == "" and only_call.has_tool_calls
    assert not make_turn(2).has_tool_calls
    assert Turn([{"role": "user", "content": "q"}, {"role": "assistant", "content": ""}]).answer_text == ""


def test_replacing_the_messages_drops_the_cached_count_and_json():
    counter = WordCounter()
    turn = make_turn(1)
    before = turn.to_json()
    assert turn.tokens(counter) == 8
    turn.messages = [{"role": "user", "content": "one two three four five"}]
    assert turn.tokens(counter) == 6
    assert turn.to_json() != before and b"five" in turn.to_json()


def test_changing_any_other_field_drops_the_cached_json_only():
    turn = make_turn(1)
    before = turn.to_json()
    turn.interrupted = True
    assert json.loads(turn.to_json())["interrupted"] is True and turn.to_json() != before
    turn.latency = 1.5
    assert json.loads(turn.to_json())["latency"] == 1.5


def test_a_stored_turn_rebuilds_with_defaults_for_missing_fields():
    turn = Turn.from_dict({"messages": [{"role": "user", "content": "q"}], "created_at": ""})
    assert turn.created_at.startswith("20") and turn.interrupted is False and turn.usage is None
    full = make_turn(3)
    full.interrupted, full.latency, full.usage = True, 0.25, {"source": "provider"}
    full.sent = {"budget": 900, "tools": 0, "parts": {"system": 3}, "summarized": 0, "dropped": 1, "provider": 41}
    again = Turn.from_dict(json.loads(full.to_json()))
    assert again == full and again.created_at == full.created_at and again.sent == full.sent


def test_a_conversation_clamps_what_a_loaded_summary_covers():
    turns = [make_turn(1), make_turn(2)]
    assert Conversation("s", turns=turns, summary="x", summary_covers=5).summary_covers == 2
    assert Conversation("s", turns=turns, summary="x", summary_covers=-1).summary_covers == 0
    assert Conversation("s", turns=turns, summary="x", summary_covers=1).summary_covers == 1
    conv = Conversation("s", turns=turns)
    conv.set_summary("y", 9)
    assert conv.summary_covers == 2
    conv.set_summary("y", -3)
    assert conv.summary_covers == 0


def test_reset_forgets_turns_summary_and_a_summary_backoff(conv_factory):
    conv = conv_factory(9, summary_trigger=8, keep_turns=4)

    def fail(prev, turns, first):
        raise RuntimeError("down")

    conv.build_request("hi", summarizer=fail)
    assert not conv.backoff.due(len(conv.turns) + 3)  # after a failure, the summarizer is skipped for a while
    conv.reset()
    assert (conv.turns, conv.summary, conv.summary_covers) == ([], "", 0)
    assert conv.backoff.due(12) and conv.system == "sys"


def test_the_summary_rides_in_the_one_system_message_only_when_asked(conv_factory):
    conv = conv_factory(2)
    assert conv.system_message(True) == {"role": "system", "content": "sys"}  # no summary yet
    conv.set_summary("gist", 1)
    assert conv.system_message(False) == {"role": "system", "content": "sys"}
    assert conv.system_message(True)["content"].startswith("sys\n\n## Summary of the earlier conversation (turns 1-1")
    assert conv.system_tokens(False) == 2
    conv.system = "a longer system message"
    assert conv.system_tokens(False) == 5  # the cached count follows a changed system message


def test_a_conversation_built_from_turns_without_a_summary_sends_them_all():
    conv = Conversation("s", turns=[make_turn(1), make_turn(2)])
    assert conv.summary_covers == 0
    req = conv.build_request("hi")
    assert (req.first_turn, req.dropped, len(req.messages)) == (0, 0, 6)
