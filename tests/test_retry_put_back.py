"""/retry and /edit take the last turn back to replace it; when the replacement never comes (the server is down,
Ctrl-C before any answer) the turn is put back as it was, summary and coverage included, and the next /retry takes
it back again instead of adding a copy."""

from __future__ import annotations

import pytest

from chatbot.errors import ServerError
from chatbot.providers.echo import EchoProvider


class Switchable(EchoProvider):
    """Echo that can be down (every chat call fails before any answer), or see the user press Ctrl-C while it
    waits for the first piece."""

    down = False
    ctrl_c = False

    def stream(self, messages, **ask):
        if self.down:
            raise ServerError("the model is down")
        if self.ctrl_c:
            raise KeyboardInterrupt
        yield from super().stream(messages, **ask)


def state(chat):
    conv = chat.conversation
    return conv.summary, conv.summary_covers, [t.messages for t in conv.turns]


def stored(app, sid):
    conv = app.store.load(sid).conversation
    return conv.summary, conv.summary_covers, [t.messages for t in conv.turns]


@pytest.fixture
def summarized(make_app):
    """A chat of two turns, both folded into the summary (/summary now, keeping none)."""
    provider = Switchable(delay=0)
    app = make_app(provider, strategy="summary", summary_trigger=2, keep_turns=0)
    chat = app.open("s")
    for text in ("one", "two"):
        list(chat.send(text))
    assert chat.summarize_now()[0] == 2 and chat.conversation.summary_covers == 2
    return app, chat, provider


def test_a_retry_whose_resend_fails_puts_the_turn_back_with_its_summary(summarized):
    app, chat, provider = summarized
    before = state(chat)
    provider.down = True
    assert chat.open_session.retry_text() == "two"
    assert len(chat.conversation.turns) == 1  # taken back, to be replaced
    with pytest.raises(ServerError):
        list(chat.send("two"))
    assert state(chat) == before and stored(app, "s") == before
    assert chat.open_session.pending is None
    provider.down = False
    assert chat.open_session.retry_text() == "two"  # taken back again, not resent beside itself
    list(chat.send("two"))
    assert [t.user_text for t in chat.conversation.turns] == ["one", "two"]
    assert [t.user_text for t in app.store.load("s").conversation.turns] == ["one", "two"]


def test_ctrl_c_before_the_edited_message_is_answered_puts_the_old_turn_back(summarized):
    app, chat, provider = summarized
    before = state(chat)
    text = chat.open_session.take_back_for_edit("two, edited")
    provider.ctrl_c = True
    with pytest.raises(KeyboardInterrupt):
        list(chat.send(text))
    assert state(chat) == before and stored(app, "s") == before
