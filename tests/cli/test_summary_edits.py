"""`/summary clear` and `/summary redo` through the real command line, with both stores: a wrong summary is
forgotten (its turns are sent again, or folded afresh) or written again from the stored turns, and saved at once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chatbot import commands
from chatbot.errors import ChatbotError, UsageError
from tests.support.cli import assert_clean, run_chatbot
from tests.support.stores import is_postgres, sqlite_connection, sqlite_file

SUMMARY = ["--memory", "summary", "--summary-trigger", "3", "--keep-turns", "1"]


@pytest.fixture
def store(store_url: str) -> str:
    """Where the sessions of one test live (both stores: ``store_url`` of tests/conftest.py)."""
    return store_url


def stored_summary(store: str, sid: str) -> tuple[str, int]:
    if sqlite_file(store):
        with sqlite_connection(store) as conn:
            row = conn.execute("SELECT summary, summary_covers FROM sessions WHERE id = ?", (sid,)).fetchone()
            return row[0], row[1]
    if not is_postgres(store):
        summary = json.loads((Path(store) / f"{sid}.json").read_text())["summary"]
        return summary["text"], summary["covers"]
    from tests.support.stores import admin

    with admin(store) as conn:
        row = conn.execute("SELECT summary, summary_covers FROM chatbot_sessions WHERE id = %s", (sid,)).fetchone()
        return row[0], row[1]


def plant_summary(store: str, sid: str, text: str) -> None:
    """Replace the stored summary's text (a wrong summary, as a model may write)."""
    if sqlite_file(store):
        with sqlite_connection(store) as conn:
            conn.execute("UPDATE sessions SET summary = ? WHERE id = ?", (text, sid))
        return
    if not is_postgres(store):
        path = Path(store) / f"{sid}.json"
        doc = json.loads(path.read_text())
        doc["summary"]["text"] = text
        path.write_text(json.dumps(doc))
        return
    from tests.support.stores import admin

    with admin(store) as conn:
        conn.execute("UPDATE chatbot_sessions SET summary = %s WHERE id = %s", (text, sid))


def chat(store: str, tmp_path: Path, script: str, *flags: str):
    result = run_chatbot("--provider", "echo", "--store", store, "--session", "s", *SUMMARY, *flags,
                         stdin=script, cwd=tmp_path)  # fmt: skip
    assert_clean(result)
    return result


FIVE = "".join(f"fact {i}: the locker code is {1000 + i}\n" for i in range(1, 6))


def test_clear_forgets_the_summary_and_the_next_request_folds_the_turns_afresh(store, tmp_path):
    chat(store, tmp_path, FIVE)
    assert stored_summary(store, "s")[1] == 3
    plant_summary(store, "s", "- the user likes tea")
    result = chat(store, tmp_path, "/summary clear\n/summary\nfact 6\n/summary\n")
    assert (
        "chatbot: forgot the summary of turns 1-3; the next request folds turns 1-4 into a new summary first (one "
        "model call); /summary redo writes it now" in result.stderr
    )
    assert "no summary yet: 5 turn(s) stored" in result.stdout
    assert "summarized 4 earlier turn(s) into the rolling summary (it now covers turns 1-4)" in result.stderr
    text, covers = stored_summary(store, "s")
    assert covers == 4 and "tea" not in text and "turn 1" in text and "turn 4" in text


def test_cleared_turns_are_sent_again_while_the_trigger_is_not_reached(store, tmp_path):
    chat(store, tmp_path, "one\ntwo\nthree\n/summary now\n", "--summary-trigger", "8")
    assert stored_summary(store, "s")[1] == 2
    result = chat(store, tmp_path, "/summary clear\nfour\n", "--summary-trigger", "8")
    assert "the next request sends the last 3 turn(s) verbatim" in result.stderr
    assert "It holds 8 messages" in result.stdout  # the system message, three turns again, and the new message
    assert "No summary of earlier turns in this request." in result.stdout
    assert stored_summary(store, "s") == ("", 0)


def test_redo_rewrites_the_summary_from_the_stored_turns_and_brings_one_back_after_a_clear(store, tmp_path):
    chat(store, tmp_path, FIVE)
    plant_summary(store, "s", "- the user likes tea")
    redone = chat(store, tmp_path, "/summary redo\n")
    assert "rewrote the summary from the stored turns: it covers turns 1-4 (the old one covered turns 1-3)" in (
        redone.stderr
    )
    text, covers = stored_summary(store, "s")
    assert covers == 4 and "tea" not in text and "1004" in text  # written from the turns, not from the old summary
    cleared = chat(store, tmp_path, "/summary clear\n")
    assert "forgot the summary of turns 1-4" in cleared.stderr and stored_summary(store, "s") == ("", 0)
    back = chat(store, tmp_path, "/summary redo\n/summary\n")
    assert "rewrote the summary from the stored turns: it covers turns 1-4\n" in back.stderr
    assert stored_summary(store, "s") == (text, 4)
    assert back.stdout.startswith("Summary of turns 1-4 of 5")


def test_redo_of_a_session_without_turns_does_not_claim_turns_are_uncovered(store, tmp_path):
    result = chat(store, tmp_path, "/summary redo\n/summary now\n")
    lines = [line for line in result.stderr.splitlines() if "no summary written" in line]
    assert lines == [
        "chatbot: no summary written: nothing to summarize: 0 turn(s) outside the summary, and the last 1 stay "
        "verbatim; the summary is unchanged",
        "chatbot: no summary written: nothing to summarize: 0 turn(s) outside the summary, and the last 1 stay "
        "verbatim",
    ]


def test_undoing_a_summarized_turn_says_the_summary_still_holds_it_and_redo_takes_it_out(store, tmp_path):
    chat(store, tmp_path, FIVE)
    assert stored_summary(store, "s")[1] == 3
    result = chat(store, tmp_path, "/undo\n/undo\n/undo\n/summary redo\n")
    notes = [line for line in result.stderr.splitlines() if line.startswith("chatbot: dropped the last turn")]
    assert len(notes) == 3 and "summary" not in notes[0] + notes[1]  # turns 5 and 4: the summary never held them
    assert notes[2] == (
        "chatbot: dropped the last turn (fact 3: the locker code is 1003); the summary was written from it and still "
        "tells the model of it: /summary redo rewrites it from the turns left, /summary clear forgets it"
    )
    text, covers = stored_summary(store, "s")
    assert covers == 1 and "1001" in text and "1003" not in text


def test_nothing_to_clear_or_redo_is_said_and_changes_nothing(store, tmp_path):
    result = chat(store, tmp_path, "/summary clear\nhello\n/summary redo\n/summary later\n")
    assert "chatbot: there is no summary to clear" in result.stderr
    assert (
        "no summary written: nothing to summarize: 1 turn(s) outside the summary, and the last 1 stay verbatim; the "
        "summary is unchanged" in result.stderr
    )
    assert "usage: /summary (show it), /summary now" in result.stderr and result.returncode == 2
    assert stored_summary(store, "s") == ("", 0)


def test_clear_and_redo_are_saved_at_once(make_app):
    app = make_app(strategy="summary", summary_trigger=3, keep_turns=1)
    chat = app.open("k")
    for text in ("one", "two", "three", "four", "five"):
        list(chat.send(text))
    assert app.store.load("k").conversation.summary_covers == 3
    commands.run(app, "/summary clear")
    assert (app.store.load("k").conversation.summary, chat.conversation.summary_covers) == ("", 0)
    commands.run(app, "/summary redo")
    assert app.store.load("k").conversation.summary_covers == 4 == chat.conversation.summary_covers


def test_a_failed_redo_keeps_the_old_summary(make_app):
    from chatbot.providers.echo import EchoProvider

    class Failing(EchoProvider):
        fail = False

        def complete(self, messages, **kw):
            if self.fail:
                raise ChatbotError("the model is away")
            return super().complete(messages, **kw)

    provider = Failing(delay=0)
    app = make_app(provider, strategy="summary", summary_trigger=3, keep_turns=1)
    chat = app.open("f")
    for text in ("one", "two", "three", "four", "five"):
        list(chat.send(text))
    before = chat.conversation.summary, chat.conversation.summary_covers
    provider.fail = True
    with pytest.raises(ChatbotError, match="the model is away.*the summary is unchanged"):
        commands.run(app, "/summary redo")
    assert (chat.conversation.summary, chat.conversation.summary_covers) == before
    window = make_app(strategy="window")
    window.open("w")
    with pytest.raises(UsageError, match="there is no summary to clear"):
        commands.run(window, "/summary clear")
