"""Undo, retry and interrupt at their edges, seen through what is stored and saved."""

from __future__ import annotations

import pytest

from chatbot.errors import UsageError
from chatbot.providers.base import ReasoningDelta, StreamEnd, TextDelta
from chatbot.providers.echo import EchoProvider


class ThinksFirst(EchoProvider):
    """Reasons (no answer text yet) before it answers."""

    def stream(self, messages, *, model=None, max_tokens=None, tools=None, options=None):
        yield ReasoningDelta("thinking...")
        yield TextDelta("the answer")
        yield StreamEnd(None, "stop")


def send(chat, text):
    return list(chat.send(text))


def test_undoing_the_only_summarized_turn_clears_the_summary_and_saves(make_app):
    app = make_app()
    chat = app.open("u")
    send(chat, "one")
    chat.conversation.set_summary("about one", 1)
    chat.open_session.save()
    assert chat.open_session.undo().user_text == "one"
    stored = app.store.load("u").conversation
    assert (stored.turns, stored.summary, stored.summary_covers) == ([], "", 0)
    assert chat.open_session.undo() is None


def test_undo_with_turns_left_keeps_the_summary_and_clamps_what_it_covers(make_app):
    app = make_app()
    chat = app.open("k")
    for q in ("one", "two", "three"):
        send(chat, q)
    chat.conversation.set_summary("about one to three", 3)
    chat.open_session.undo()
    stored = app.store.load("k").conversation
    assert (stored.summary, stored.summary_covers, len(stored.turns)) == ("about one to three", 2, 2)
    chat.conversation.set_summary("about one", 1)
    chat.open_session.undo()
    assert (chat.conversation.summary, chat.conversation.summary_covers) == ("about one", 1)


def test_ctrl_c_before_any_answer_text_stores_nothing_and_offers_retry(make_app):
    app = make_app(ThinksFirst(delay=0))
    chat = app.open("c")
    send(chat, "earlier")
    events = chat.send("question")
    assert isinstance(next(events), ReasoningDelta)
    events.close()  # Ctrl-C while the model only reasoned
    assert [t.user_text for t in chat.conversation.turns] == ["earlier"]
    assert [t.user_text for t in app.store.load("c").conversation.turns] == ["earlier"]
    assert chat.open_session.pending == "question" and chat.open_session.retry_text() == "question"


def test_retry_takes_the_last_turn_back_and_the_resend_is_stored_once(make_app):
    app = make_app()
    chat = app.open("r")
    send(chat, "first")
    send(chat, "second")
    assert chat.open_session.retry_text() == "second"
    # the file keeps the turn until its replacement is stored (a failed resend must not lose it)
    assert [t.user_text for t in app.store.load("r").conversation.turns] == ["first", "second"]
    send(chat, "second")
    assert [t.user_text for t in app.store.load("r").conversation.turns] == ["first", "second"]


def test_retry_with_nothing_to_retry_is_a_usage_error(make_app):
    chat = make_app().open("n")
    with pytest.raises(UsageError, match="nothing to retry yet"):
        chat.open_session.retry_text()


def test_edit_takes_back_the_last_turn_and_keeps_its_images(make_app):
    chat = make_app().open("e")
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
    send(chat, [{"type": "text", "text": "what is this"}, image])
    assert chat.open_session.take_back_for_edit("and now?") == [{"type": "text", "text": "and now?"}, image]
    assert chat.conversation.turns == []
    assert chat.open_session.take_back_for_edit("nothing left") == "nothing left"
