"""/diff compares a request with the one before by parts: the turns the window dropped, the next request by default,
recall coming and going; /context at N rebuilds a past request, and says when a turn kept no record."""

from __future__ import annotations

import re

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


def test_diff_refuses_a_request_that_is_not_there_and_names_the_next_one(make_app):
    app = make_app()
    list(app.open("x").send("one"))
    with pytest.raises(UsageError, match=r"there is no request 3: this session has requests 1 to 2 \(2: the next one"):
        commands.run(app, "/diff 3")
    with pytest.raises(UsageError, match="usage: /diff"):
        commands.run(app, "/diff two")
    assert commands.run(app, "/diff 1").text.startswith("request 1 is the first: ")


@pytest.mark.parametrize(
    ("arg", "said"),
    [
        ("0", "no turn 0: the session has 3 turns (/context at 1 to /context at 3; /context shows the next request)"),
        ("4", "no turn 4: the session has 3 turns (/context at 1 to /context at 3; /context shows the next request)"),
        ("-1", "no turn -1: the session has 3 turns"),
        ("two", "'two' is not a turn number: the session has 3 turns (/context at 1 to /context at 3;"),
        ("1.5", "'1.5' is not a turn number: the session has 3 turns"),
    ],
)
def test_context_at_a_turn_that_is_not_there_says_how_many_turns_the_session_has(make_app, arg, said):
    app = make_app(strategy="full")
    chat = app.open("three")
    for text in ("one", "two", "three"):
        list(chat.send(text))
    with pytest.raises(UsageError) as refused:
        commands.run(app, f"/context at {arg}")
    assert refused.value.message.startswith(said)


def test_context_at_names_the_first_and_the_last_turn_and_an_empty_session_has_none(make_app):
    app = make_app(strategy="full")
    chat = app.open("edges")
    nothing = r"^no turn 1: the session has no turns yet \(/context shows the next request\)$"
    with pytest.raises(UsageError, match=nothing):
        commands.run(app, "/context at 1")
    list(chat.send("one"))
    assert commands.run(app, "/context at 1").text.startswith("Request 1, the only one so far, as the model saw it")
    for text in ("two", "three"):
        list(chat.send(text))
    assert commands.run(app, "/context at 1").text.startswith("Request 1, the first of 3, as the model saw it")
    assert commands.run(app, "/context at 2").text.startswith("Request 2 of 3, as the model saw it")
    last = commands.run(app, "/context at 3").text
    assert last.startswith("Request 3, the last of 3, as the model saw it")
    users = [line for line in last.splitlines() if line.split()[1:2] == ["user"]]
    assert users[-1].endswith("three")  # its new message is turn 3's, not the next one's


def test_context_at_and_diff_say_when_the_system_message_changed_since(make_app):
    app = make_app(strategy="full")
    chat = app.open("s")
    list(chat.send("one"))
    commands.run(app, "/system You are terse.")
    list(chat.send("two"))
    assert "system: changed since (/system): shown as it is now" in commands.run(app, "/context at 1").text
    assert "system: changed" not in commands.run(app, "/context at 2").text
    assert "* the system message changed (/system)" in commands.run(app, "/diff 2").text


def test_diff_context_at_and_timeline_give_each_request_of_a_folded_session_the_same_tokens(make_app):
    app = make_app(strategy="summary", summary_trigger=6, keep_turns=2)
    chat = app.open("folded")
    for n in range(1, 11):
        list(chat.send(f"message number {n} about topic {n} with some words"))
    rows = commands.run(app, "/timeline").timeline.rows
    assert any(row.marks and row.marks[0].startswith("summary made") for row in rows)  # it did fold
    shown = {row.turn: row.tokens for row in rows}
    for n in range(2, 11):
        head = commands.run(app, f"/diff {n}").text.splitlines()[0]
        totals = re.search(r": (\d+) → (\d+) tokens", head)
        assert totals is not None, head
        assert (int(totals[1]), int(totals[2])) == (shown[n - 1], shown[n]), head
        at = commands.run(app, f"/context at {n}").text.splitlines()
        assert [line for line in at if line.startswith("total ")][0].startswith(f"total {shown[n]} tokens")


def test_context_at_rebuilds_a_request_that_carried_the_system_text_as_it_was_sent(make_app):
    import json

    app = make_app(strategy="full")
    chat = app.open("carried")
    sent_requests = []
    events = chat.provider.events
    chat.provider.events = lambda messages, call: sent_requests.append(list(messages)) or events(messages, call)
    commands.run(app, "/system You are terse.")
    list(chat.send("one"))
    chat.conversation.counter.calibration.drops_system = True  # as a server's counts teach it (core/budget.py)
    list(chat.send("two"))
    before, carried = commands.run(app, "/context at 1").text, commands.run(app, "/context at 2").text
    assert re.search(r"^  1  system ", before, re.M) and "user+sys" not in before
    assert re.search(r"^  1  user\+sys .*You are terse\. one", carried, re.M)  # turn 1's message, the head on it
    assert re.search(r"^  2  assistant ", carried, re.M) and re.search(r"^  3  user  +\d+  two$", carried, re.M)
    assert "user+sys: the server left out system messages, so the system message rode at the head" in carried
    sent = json.loads(commands.run(app, "/context at 2 json").text)
    assert [m["role"] for m in sent] == ["user", "assistant", "user"]
    assert sent[0]["content"] == "You are terse.\n\none" and sent == sent_requests[-1]


def test_context_at_names_the_images_a_message_carried_as_context_does(make_app):
    from tests.support.images import png

    app = make_app(strategy="full")
    chat = app.open("img")
    url = f"data:image/png;base64,{__import__('base64').b64encode(png(4, 4)).decode()}"
    list(chat.send([{"type": "text", "text": "What color?"}, {"type": "image_url", "image_url": {"url": url}}]))
    assert re.search(r"^  2  user +\d+  \[1 image\(s\)\] What color\?", commands.run(app, "/context at 1").text, re.M)
    list(chat.send("and now?"))
    assert "[1 image(s)] What color?" in commands.run(app, "/context").text  # the same words for the same message
