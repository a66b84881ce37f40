"""/recall TEXT shows which earlier turns TEXT would bring back, with their scores; /context for TEXT shows the
recalled turns as such, in the system message."""

from __future__ import annotations

import pytest

from chatbot import commands
from chatbot.commands.inspecting import NO_CUE, WRITES
from chatbot.errors import UsageError

TURNS = [
    "By the way, my gym locker code is 4711.",
    "How do I keep tomato plants healthy on a balcony?",
    "Why does a minor key sound sad?",
    "What defines Gothic architecture?",
    "How should green tea be brewed?",
]


@pytest.fixture
def chat_app(make_app):
    app = make_app(strategy="window", window_turns=2, recall=1)
    chat = app.open("r")
    for text in TURNS:
        list(chat.send(text))
    return app


def test_recall_lists_the_turns_that_match_with_the_evidence_and_what_would_come_back(chat_app):
    out = commands.run(chat_app, "/recall which numbers open my gym locker?").text
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("turn"))
    first, why = lines[at], lines[at + 1]
    assert first.split()[:2] == ["turn", "1"] and "recalled" in first
    assert "gym locker code is 4711" in first
    assert why.strip().startswith("words: share ") and ", cover " in why
    assert lines[-1].startswith("it would recall turn(s) 1: ") and lines[-1].endswith(
        " tokens added to the system message (as the request counts them)"
    )


def test_recall_counts_the_recalled_block_as_diff_and_timeline_do_with_the_learned_correction(chat_app):
    text = "which numbers open my gym locker?"
    for _ in range(20):  # the provider counted 30% more than the estimate, request after request
        chat_app.chat.conversation.counter.calibrate(1000, 1300)
    request = chat_app.chat.next_request(text)
    assert request.parts.recalled != request.recall_tokens  # raw tokens, before the correction
    out = commands.run(chat_app, f"/recall {text}").text
    assert out.splitlines()[-1].startswith(f"it would recall turn(s) 1: {request.parts.recalled} tokens added")


def test_recall_of_an_unrelated_message_says_nothing_would_come_back(chat_app):
    out = commands.run(chat_app, "/recall write a poem about the sea").text
    assert out.splitlines()[-1] == "it would recall nothing: no earlier turn shares a word with it"


def test_recall_needs_text(chat_app):
    with pytest.raises(UsageError, match="usage: /recall TEXT"):
        commands.run(chat_app, "/recall")


def test_context_for_a_message_marks_the_recalled_turns_in_the_system_row(chat_app):
    out = commands.run(chat_app, "/context for what was my gym locker code?").text
    system_row = out.splitlines()[2]
    assert system_row.split()[:2] == ["1", "system+R"] and "[+ recalled turn 1]" in system_row
    assert "system+R: the system message carries turn 1 again, verbatim (" in out
    left_out = next(line for line in out.splitlines() if "stored but not sent" in line)
    assert left_out.endswith("; recalled from them: turn 1")  # not left out after all: it comes back recalled
    plain = commands.run(chat_app, "/context").text
    assert "system+R" not in plain and plain.splitlines()[2].split()[1] == "system"


def test_context_for_a_message_says_its_total_counts_that_message(chat_app):
    out = commands.run(chat_app, "/context for what was my gym locker code?").text
    assert " tokens with that message (counter:" in out and "used with that message" in out
    assert "before your message" not in out
    plain = commands.run(chat_app, "/context").text
    assert " tokens before your message (counter:" in plain and "used before your message" in plain


def test_context_for_a_message_shows_recalled_turns_when_the_summary_is_left_out_for_the_budget(make_app):
    """The summary alone over the budget is left out (summary_included is False, not merely falsy), and the turn the
    message recalls still shows in the system row: a summary flag of None once crashed the row's label."""
    app = make_app(strategy="summary", summary_trigger=8, keep_turns=4, max_input_tokens=300, recall=1)
    chat = app.open("s")
    for text in TURNS:
        list(chat.send(text))
    chat.conversation.set_summary(" ".join(["summary"] * 400), 1)  # turn 1 covered, the summary far over budget
    request = chat.next_request("what was my gym locker code?")
    assert request.summary_included is False and request.recalled == (1,)
    out = commands.run(app, "/context for what was my gym locker code?").text
    system_row = out.splitlines()[2]
    assert system_row.split()[:2] == ["1", "system+R"] and "[+ summary" not in system_row


def test_a_relevant_turn_left_out_because_as_many_were_recalled_is_past_the_limit_not_passed_over(make_app):
    app = make_app(strategy="window", window_turns=1, recall=1)
    chat = app.open("r")
    for text in [
        "My gym locker code is 4711 and the gym opens at six.",
        "How should green tea be brewed?",
        "The gym locker next to mine belongs to Sam.",
        "What defines Gothic architecture?",
    ]:
        list(chat.send(text))
    lines = commands.run(app, "/recall what is my gym locker code?").text.splitlines()
    rows = {line.split()[1]: line for line in lines if line.strip().startswith("turn")}
    assert "recalled" in rows["1"]
    assert "past --recall" in rows["3"]  # below the look-alike level (0.85 of the best): the limit left it out
    assert not any("passed over" in row for row in rows.values())  # no turn was left out for want of room


def test_recall_says_what_in_the_message_points_back_at_the_conversation_or_that_nothing_does(chat_app):
    asked_back = commands.run(chat_app, "/recall what was my gym locker code again?").text.splitlines()
    assert "  it points back at the conversation by: first person 'my'" in asked_back
    general = commands.run(chat_app, "/recall any tips for choosing a gym?").text.splitlines()
    assert f"  {NO_CUE}" in general
    (why,) = [general[i + 1] for i, line in enumerate(general) if line.strip().startswith("turn    1")]
    assert "(one word: a cue or the whole message)" in why and general[-1].startswith("it would recall nothing")


def test_recall_says_a_request_to_write_something_is_not_about_an_earlier_turn_by_meaning(chat_app):
    lines = commands.run(chat_app, "/recall write a short poem about a gym locker").text.splitlines()
    assert f"  {NO_CUE}" in lines and f"  {WRITES}" in lines
    asked_back = commands.run(chat_app, "/recall please write my gym locker code on a note").text.splitlines()
    assert f"  {WRITES}" not in asked_back  # "my": it points back, and meaning may bring the turn back
