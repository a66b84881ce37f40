"""Chat's methods for what slash commands change: each one changes the session and saves it, through one path."""

from __future__ import annotations

import json

import pytest

from chatbot.errors import UsageError


def drain(events) -> list:
    return list(events)


def stored(app) -> dict:
    return json.loads((app.store.directory / f"{app.chat.session.id}.json").read_bytes())


def test_undo_drops_the_last_turn_and_saves(make_app):
    app = make_app()
    chat = app.open("u")
    drain(chat.send("one"))
    drain(chat.send("two"))
    turn = chat.open_session.undo()
    assert turn is not None and turn.user_text == "two"
    assert [t["messages"][0]["content"] for t in stored(app)["turns"]] == ["one"]
    assert chat.open_session.undo() is not None and chat.open_session.undo() is None
    assert stored(app)["turns"] == []


def test_reset_forgets_turns_and_summary_keeps_the_system_message(make_app):
    app = make_app(summary_trigger=1, keep_turns=0)
    chat = app.open("r")
    for text in ("a", "b", "c"):
        drain(chat.send(text))
    assert chat.conversation.summary
    assert chat.open_session.reset() == 3
    data = stored(app)
    assert data["turns"] == [] and data["summary"] == {"text": "", "covers": 0} and data["system"]


def test_set_system_and_rename_are_saved(make_app):
    app = make_app()
    chat = app.open("s")
    drain(chat.send("hi"))
    chat.open_session.set_system("You answer in French.")
    chat.open_session.rename("Bonjour")
    data = stored(app)
    assert data["system"] == "You answer in French." and data["title"] == "Bonjour"
    assert chat.next_request("x").messages[0]["content"] == "You answer in French."


def test_retry_replaces_the_last_turn_only_once_its_replacement_is_stored(make_app):
    app = make_app()
    chat = app.open("t")
    with pytest.raises(UsageError, match="nothing to retry"):
        chat.open_session.retry_text()
    drain(chat.send("question"))
    first_answer = stored(app)["turns"][0]["messages"][1]["content"]
    assert chat.open_session.retry_text() == "question"
    assert len(stored(app)["turns"]) == 1 and chat.open_session.pending is None  # still stored: nothing replaced it yet
    drain(chat.send("question"))
    turns = stored(app)["turns"]
    assert [t["messages"][0]["content"] for t in turns] == ["question"] and len(chat.conversation.turns) == 1
    assert turns[0]["messages"][1]["content"] == first_answer  # the echo answers the same request the same way


def test_set_model_switches_the_counter_and_saves(make_app):
    from chatbot.engine.tokens import HARMONY_FORMAT, TokenCounter

    app = make_app()
    chat = app.open("m")
    drain(chat.send("hi"))
    chat.set_model("other-model", TokenCounter(HARMONY_FORMAT))
    assert chat.conversation.counter.chat_format is HARMONY_FORMAT
    assert stored(app)["model"] == "other-model" and chat.model == "other-model"
