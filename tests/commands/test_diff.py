"""/diff compares a request with the one before by parts: the turns the window dropped, the next request by default,
recall coming and going; /context at N rebuilds a past request, and says when a turn kept no record."""

from __future__ import annotations

import pytest

from chatbot import commands
from chatbot.commands.timeline import plain
from chatbot.errors import UsageError


def test_the_window_drops_the_oldest_turn_and_diff_says_so(make_app):
    app = make_app(strategy="window", window_turns=2, recall=0)
    chat = app.open("w")
    for text in ("one", "two", "three", "four"):
        list(chat.send(text))
    out = commands.run(app, "/diff 4").text
    assert out.startswith("Request 4 against request 3: ")
    assert "+ turn 3 sent verbatim (the last exchange: its message and reply): " in out
    assert "- turn 1 dropped by the window or the budget: " in out and "(stored, not sent)" in out
    assert "folded" not in out


def test_diff_without_a_number_compares_the_next_request_with_the_last(make_app):
    app = make_app(strategy="full")
    chat = app.open("f")
    for text in ("one", "two"):
        list(chat.send(text))
    out = commands.run(app, "/diff").text
    assert out.startswith("Request 3 (the next one, before your message) against request 2: ")
    assert "(new: your next message is not written yet)" in out
    assert "+ turn 2 sent verbatim (the last exchange: its message and reply): " in out


def test_recall_coming_back_is_named_with_the_size_of_its_block(make_app):
    app = make_app(strategy="window", window_turns=1, recall=1)
    chat = app.open("r")
    for text in ("My gym locker code is 4711.", "Tomatoes like sun.", "Minor keys sound sad.",
                 "Which code opens my gym locker?"):  # fmt: skip
        list(chat.send(text))
    out = commands.run(app, "/diff 4").text
    assert "+ turn 1 recalled into the system message" in out
    assert "  the recalled block: 0 → " in out
    assert plain(commands.run(app, "/timeline").timeline).splitlines()[-1].endswith("recalled turn 1")


def test_diff_and_context_at_refuse_a_request_that_is_not_there(make_app):
    app = make_app()
    app.open("empty")
    with pytest.raises(UsageError, match=r"there is no request 99: this session has only request 1 \(the next one\)"):
        commands.run(app, "/context at 99")
    list(app.open("x").send("one"))
    with pytest.raises(UsageError, match="there is no request 3: this session has requests 1 to 2"):
        commands.run(app, "/diff 3")
    with pytest.raises(UsageError, match="usage: /context at N"):
        commands.run(app, "/context at two")
    assert commands.run(app, "/diff 1").text.startswith("request 1 is the first: ")


def test_context_at_and_diff_say_when_the_system_message_changed_since(make_app):
    app = make_app(strategy="full")
    chat = app.open("s")
    list(chat.send("one"))
    commands.run(app, "/system You are terse.")
    list(chat.send("two"))
    assert "system: changed since (/system): shown as it is now" in commands.run(app, "/context at 1").text
    assert "system: changed" not in commands.run(app, "/context at 2").text
    assert "* the system message changed (/system)" in commands.run(app, "/diff 2").text
