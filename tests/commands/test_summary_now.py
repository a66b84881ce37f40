"""`/summary now`: folds the earlier turns at once (backoff or not), explains when it cannot, and Ctrl-C stops it."""

from __future__ import annotations

import pytest

from chatbot import commands
from chatbot.commands.effects import Note
from chatbot.errors import ChatbotError
from chatbot.providers.echo import EchoProvider


def test_summary_now_command(make_app):
    app = make_app(strategy="summary", summary_trigger=4, keep_turns=1)
    chat = app.open("n")
    with pytest.raises(ChatbotError, match="nothing to summarize"):
        commands.run(app, "/summary now")
    for text in ("one", "two", "three"):
        list(chat.send(text))
    result = commands.run(app, "/summary now")
    assert result == Note("summarized 2 earlier turn(s); the summary now covers turns 1-2")
    assert app.store.load("n").conversation.summary_covers == 2
    with pytest.raises(ChatbotError, match="usage: /summary"):
        commands.run(app, "/summary later")
    window = make_app(strategy="window")
    window.open("w")
    with pytest.raises(ChatbotError, match="use --memory summary"):
        commands.run(window, "/summary now")


def test_ctrl_c_during_summary_now_stops_the_command_and_changes_nothing(make_app):
    class Interrupted(EchoProvider):
        def complete(self, messages, *, model=None, max_tokens=None):
            raise KeyboardInterrupt

    app = make_app(Interrupted(delay=0), strategy="summary", summary_trigger=4, keep_turns=1)
    chat = app.open("k")
    for text in ("one", "two", "three"):
        list(chat.send(text))
    with pytest.raises(ChatbotError, match="/summary now stopped; the summary is unchanged"):
        commands.run(app, "/summary now")
    assert (chat.conversation.summary, chat.conversation.summary_covers) == ("", 0)
