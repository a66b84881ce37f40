"""How each request was built (a turn's ``sent.refs``) and every summary a request sent (the document's
``summaries``): kept by both stores, checked like every other field, absent from older files and older PostgreSQL
rows, which still load (their turns say they kept no record)."""

from __future__ import annotations

import json

import pytest

from chatbot.engine.memory import MemoryConfig
from chatbot.engine.request_record import built_of, rebuild
from chatbot.storage.session import Session
from chatbot.storage.session_format import check_session_data
from tests.conftest import RecordingSummarizer, make_turn
from tests.support.stores import admin

MEMORY = MemoryConfig(strategy="summary", summary_trigger=2, keep_turns=1, recall=0)


def chat(session: Session, turns: int) -> list[list[dict]]:
    """Add ``turns`` turns as the chat does (each with its request's record); the messages each request sent."""
    conv, sent = session.conversation, []
    for _ in range(turns):
        request = conv.build_request(f"question {len(conv.turns) + 1}", summarizer=RecordingSummarizer())
        turn = make_turn(len(conv.turns) + 1)
        turn.messages[0] = request.messages[-1]
        turn.sent = {"budget": request.budget, "tools": 0, "parts": request.parts.to_dict(), "refs": request.refs}
        conv.add_turn(turn)
        sent.append(request.messages)
    return sent


def test_both_stores_keep_the_records_and_the_summaries_a_request_sent(open_test_store):
    store = open_test_store()
    with store.acquire("s"):
        session = store.create("s", system="sys", memory=MEMORY)
        sent = chat(session, 6)
        session.conversation.set_summary("replaced by /summary redo", session.conversation.summary_covers)
        store.save(session)
    again = open_test_store().load("s", MEMORY)
    conv = again.conversation
    assert len(conv.summaries) >= 2 and "replaced by /summary redo" not in conv.summaries
    for turn, messages in zip(conv.turns, sent, strict=True):
        built = built_of(turn)
        assert built is not None and rebuild(conv, built, turn.messages[0]) == messages


def test_an_older_file_without_records_or_summaries_loads_and_says_it_kept_none():
    session = Session.new("s", system="sys", memory=MEMORY)
    chat(session, 3)
    data = json.loads(session.to_json())
    del data["summaries"]
    for turn in data["turns"]:
        del turn["sent"]["refs"]
    assert check_session_data(data) == ""
    loaded = Session.from_dict(data, "s", MEMORY)
    assert loaded.conversation.summaries == [] and built_of(loaded.conversation.turns[0]) is None


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda d: d.update(summaries="text"), "'summaries' must be a list of strings"),
        (lambda d: d["turns"][0]["sent"].update(refs=[]), "turns[0].sent.refs must be an object"),
        (lambda d: d["turns"][0]["sent"]["refs"].update(recalled=["1"]), "turns[0].sent.refs.recalled must be a"),
        (lambda d: d["turns"][0]["sent"]["refs"].update(turns=-1), "turns[0].sent.refs.turns must be a whole number"),
        (lambda d: d["turns"][0]["sent"]["refs"].update(carried="yes"), "turns[0].sent.refs.carried must be true or"),
    ],
)
def test_a_record_a_reader_could_not_use_is_refused_by_name(change, problem):
    session = Session.new("s", system="sys", memory=MEMORY)
    chat(session, 1)
    data = json.loads(session.to_json())
    change(data)
    assert check_session_data(data).startswith(problem)


def test_an_older_postgresql_table_gets_the_summaries_column_and_its_rows_load_with_none(pg_url, open_pg):
    store = open_pg()
    with store.acquire("old"):
        store.save(store.create("old", system="sys"))
    store.close()
    with admin(pg_url) as conn:
        conn.execute("ALTER TABLE chatbot_sessions DROP COLUMN summaries")  # as the chatbot before it made it
    again = open_pg()
    assert again.load("old").conversation.summaries == []
    with again.acquire("old"):
        session = again.load("old", MEMORY)
        chat(session, 4)
        again.save(session)
    assert open_pg().load("old", MEMORY).conversation.summaries == session.conversation.summaries != []
