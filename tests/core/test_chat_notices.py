"""What a turn tells the user when a reply or a summary comes back odd, and what is stored then."""

from __future__ import annotations

from chatbot.core.events import Notice, TurnDone
from chatbot.core.rounds import INCOMPLETE_MARK
from chatbot.core.turn_settings import TurnSettings
from chatbot.engine.reply_schema import JsonReply
from chatbot.providers.base import Completion, StreamEnd, TextDelta, Usage
from chatbot.providers.echo import EchoProvider


class Scripted(EchoProvider):
    """Streams ``parts`` and ends with ``finish`` (no StreamEnd at all when ``finish`` is "none"); summaries
    answer ``summary`` with ``summary_finish``."""

    def __init__(self, parts=("ok",), finish="stop", summary="the gist", summary_finish="stop") -> None:
        super().__init__(delay=0)
        self.parts, self.finish = parts, finish
        self.summary, self.summary_finish = summary, summary_finish

    def stream(self, messages, *, model=None, max_tokens=None, tools=None, options=None):
        for part in self.parts:
            yield TextDelta(part)
        if self.finish != "none":
            yield StreamEnd(Usage(10, 2, 12), self.finish)

    def complete(self, messages, *, model=None, max_tokens=None, tools=None, options=None):
        return Completion(self.summary, Usage(5, 5, 10), self.summary_finish)


def notices(chat, text):
    events = list(chat.send(text))
    assert isinstance(events[-1], TurnDone)
    return [e.text for e in events if isinstance(e, Notice)], events[-1]


def test_a_reply_cut_at_the_output_limit_is_kept_and_said_so(make_app):
    chat = make_app(Scripted(parts=("half a sen",), finish="length")).open("l")
    chat.run = TurnSettings(max_output_tokens=40)
    said, done = notices(chat, "q")
    assert said == ["the reply was cut off at the output limit (--max-output-tokens 40)"]
    assert done.turn.answer_text == "half a sen" and not done.turn.interrupted


def test_a_reply_the_server_cut_with_no_limit_set_is_not_blamed_on_the_flag(make_app):
    # a local server with no reply limit writes until its context window is full, and ends with "length"
    chat = make_app(Scripted(parts=("half a sen",), finish="length")).open("l")
    said, _done = notices(chat, "q")
    assert said == ["the reply was cut off by the server (its own reply limit, or the model's context window was full)"]


def test_an_empty_reply_is_stored_and_said_so(make_app):
    chat = make_app(Scripted(parts=("  ",))).open("e")
    said, done = notices(chat, "q")
    assert said == ["the model sent no answer text"]
    assert len(chat.conversation.turns) == 1


def test_a_stream_that_just_stops_is_kept_marked_incomplete(make_app):
    app = make_app(Scripted(parts=("most of it",), finish="none"))
    chat = app.open("i")
    said, done = notices(chat, "q")
    assert said == ["the server ended the reply without saying it was finished; it is kept, marked incomplete"]
    stored = app.store.load("i").conversation.turns[-1]
    assert stored.interrupted and stored.answer_text.endswith(INCOMPLETE_MARK)
    assert stored.answer_text.startswith("most of it")


def test_a_summary_cut_at_its_cap_is_refused_and_counted(make_app):
    app = make_app(Scripted(summary_finish="length"), summary_trigger=2, keep_turns=1)
    chat = app.open("s")
    said = []
    for q in ("one", "two", "three", "four"):
        said += notices(chat, q)[0]
    assert any("the summary was cut off at 2048 tokens" in n for n in said)
    assert (chat.conversation.summary, chat.conversation.summary_covers) == ("", 0)
    assert (chat.session.totals.summary_requests, chat.session.totals.summary_tokens) == (1, 10)


def test_no_notice_for_an_ordinary_reply(make_app):
    chat = make_app(Scripted(parts=("fine",))).open("o")
    said, done = notices(chat, "q")
    assert said == [] and done.turn.answer_text == "fine" and not done.turn.interrupted


def test_an_at_tool_line_without_tools_is_told_how_to_attach_one_once_a_session(make_app):
    chat = make_app().open("s")
    told = [[e for e in chat.send(text) if isinstance(e, Notice)] for text in ("plain", "@tool add {}", "@tool add {}")]
    assert told == [
        [],
        [
            Notice(
                "no tool is attached, so the @tool line is sent as plain text: start chatbot with --functions FILE.py "
                "or --mcp SERVER to give the model tools (/tools lists them)"
            )
        ],
        [],
    ]


def test_a_reply_asked_to_be_json_comes_back_checked_with_its_turn(make_app):
    chat = make_app(Scripted(parts=('{"a": ', "1}"))).open("j")
    assert notices(chat, "plain")[1].json is None  # no JSON asked for: nothing checked
    chat.set_option("response_format", {"type": "json_object"})
    said, done = notices(chat, "as JSON")
    assert done.json == JsonReply({"a": 1}, "") and not done.invalid_json
    chat = make_app(Scripted(parts=("not json",))).open("k")
    chat.set_option("response_format", {"type": "json_object"})
    said, done = notices(chat, "as JSON")
    assert done.json is not None and done.json.value is None and done.invalid_json
    assert done.json.problem.startswith("the reply is not JSON (")
    assert said == [done.json.problem]  # told in the chat too, whatever the front end


def dropped_said(chat, text):
    """The notices of sending ``text`` that say earlier turns are not sent."""
    return [t for t in notices(chat, text)[0] if "not sent" in t]


def test_dropped_turns_are_told_when_they_start_and_again_when_the_memory_settings_change(make_app):
    from dataclasses import replace

    told = "{} earlier turn(s) not sent (memory window / token budget)"
    chat = make_app(EchoProvider(delay=0), strategy="window", window_turns=2, window_step=1).open("d")
    assert [dropped_said(chat, f"m{n}") for n in range(1, 7)] == [[], [], [], [told.format(1)], [], []]
    memory = chat.conversation.memory
    chat.conversation.memory = replace(memory, window_turns=4)  # a wider window: fewer left out, told anew
    assert dropped_said(chat, "m7") == [told.format(2)]
    assert dropped_said(chat, "m8") == []
    chat.conversation.memory = replace(memory, strategy="full")  # everything fits: nothing to tell
    assert dropped_said(chat, "m9") == []
    chat.conversation.memory = memory  # left out again after a request that sent every turn: told again
    assert dropped_said(chat, "m10") == [told.format(7)]
