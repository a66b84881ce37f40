"""What only the PostgreSQL store has to show: rows written per save, a lost or unreachable database, its schema."""

from __future__ import annotations

import contextlib
import os
import socket

import pytest

from chatbot.app import App, Settings
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import Turn
from chatbot.errors import SessionCorrupt, StoreUnavailable
from chatbot.events import Notice
from chatbot.providers.echo import EchoProvider
from chatbot.storage.transfer import import_sessions
from tests.support.stores import admin, postgres_base_url, scratch_schema


@pytest.fixture
def url():
    with scratch_schema(postgres_base_url()) as u:
        yield u


@pytest.fixture
def pg(url, tmp_path):
    from chatbot.storage.postgres_store import PostgresStore

    stores = []

    def build():
        stores.append(PostgresStore(url, tmp_path / "rescue"))
        return stores[-1]

    yield build
    for s in stores:
        with contextlib.suppress(StoreUnavailable):
            s.close()


def turn(i: int) -> Turn:
    return Turn([{"role": "user", "content": f"{i} question"}, {"role": "assistant", "content": f"answer {i}"}])


def row_versions(url: str, sid: str) -> tuple[object, list[tuple[int, str]]]:
    """The transaction ids that last wrote the session row and each turn row (a rewritten row gets a new one)."""
    with admin(url) as conn:
        session = conn.execute("SELECT xmin::text FROM chatbot_sessions WHERE id = %s", (sid,)).fetchone()
        turns = conn.execute("SELECT n, xmin::text FROM chatbot_turns WHERE session_id = %s ORDER BY n", (sid,))
        return session, turns.fetchall()


def cut_connections() -> None:
    """The server drops this process's store connections, as a restart or a network cut would."""
    name = f"chatbot pid {os.getpid()} on {socket.gethostname()}"[:63]
    with admin(postgres_base_url()) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s", (name,))


def dead_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"postgresql://postgres@127.0.0.1:{port}/postgres?connect_timeout=2"


def test_a_save_writes_the_session_row_and_the_new_turn_only(pg, url):
    store = pg()
    with store.acquire("s"):
        session = store.create("s", system="s")
        for i in range(1, 6):
            session.conversation.add_turn(turn(i))
            store.save(session)
        row_before, turns_before = row_versions(url, "s")
        session.conversation.add_turn(turn(6))
        store.save(session)
        row_after, turns_after = row_versions(url, "s")
        assert row_after != row_before  # the one row update
        assert turns_after[:5] == turns_before and len(turns_after) == 6  # the one insert; old rows untouched
        session.conversation.undo()
        session.conversation.set_summary("turns 1-2", 2)
        store.save(session)
        assert row_versions(url, "s")[1] == turns_before  # /undo deleted the last row, nothing else
        assert store.load("s").conversation.summary == "turns 1-2"


def test_a_dropped_connection_is_made_again_and_the_lock_taken_again(pg):
    store, other = pg(), pg()
    with store.acquire("s"):
        session = store.create("s", system="s")
        session.conversation.add_turn(turn(1))
        store.save(session)
        cut_connections()
        session.conversation.add_turn(turn(2))
        store.save(session)  # reconnects, takes the lock again, writes the missing turn
        assert store.holds("s")
        assert [t.user_text for t in other.load("s").conversation.turns] == ["1 question", "2 question"]


def test_an_unreachable_database_loses_nothing_the_user_saw(pg, url, tmp_path):
    app = App(pg(), EchoProvider(delay=0), Settings("echo", None, MemoryConfig()), lambda m: TokenCounter())
    chat = app.open("s")
    list(chat.send("first"))
    cut_connections()
    app.store.url = dead_url()  # type: ignore[attr-defined]  # the server is gone for now
    events = list(chat.send("second, while the database is away"))
    warnings = [e.text for e in events if isinstance(e, Notice) and e.warning]
    assert any("Nothing you saw is lost" in w for w in warnings), warnings
    assert len(chat.conversation.turns) == 2  # the turn is kept
    app.store.url = url  # type: ignore[attr-defined]  # back again: the next save writes both turns
    back = [e.text for e in chat.send("third") if isinstance(e, Notice)]
    assert "the session store is back: every turn of this session is saved" in back
    assert [t.user_text for t in pg().load("s").conversation.turns] == [
        "first",
        "second, while the database is away",
        "third",
    ]
    cut_connections()
    app.store.url = dead_url()  # type: ignore[attr-defined]
    list(chat.send("fourth, never reaching the database"))
    app.close()
    with pytest.raises(StoreUnavailable, match="all of it is in .*rescue.*s.json.*--import-sessions") as err:
        app.store.close()
    rescue = next((tmp_path / "rescue").glob("*/s.json"))
    assert str(rescue) in err.value.message
    report = import_sessions(rescue.parent, pg())
    assert report.updated == 1
    assert pg().load("s").conversation.turns[-1].user_text == "fourth, never reaching the database"


def test_tables_chatbot_did_not_make_are_refused_and_left_alone(url):
    from chatbot.storage.postgres_store import PostgresStore

    with admin(url) as conn:
        conn.execute("CREATE TABLE chatbot_sessions (id int PRIMARY KEY, owner text)")
        conn.execute("INSERT INTO chatbot_sessions VALUES (1, 'billing')")
    with pytest.raises(SessionCorrupt, match="not made by chatbot"):
        PostgresStore(url)
    with admin(url) as conn:
        assert conn.execute("SELECT owner FROM chatbot_sessions").fetchall() == [("billing",)]


def test_a_schema_from_a_newer_chatbot_is_refused(pg, url):
    from chatbot.storage.postgres_store import PostgresStore

    pg()
    with admin(url) as conn:
        conn.execute("UPDATE chatbot_schema SET version = 7")
    with pytest.raises(SessionCorrupt, match="schema version 7, made by a newer chatbot"):
        PostgresStore(url)


def test_the_location_shown_never_holds_the_password():
    from chatbot.storage.pg_schema import redact

    assert redact("postgresql://bob:s3cret@db.example:5432/chat") == "postgresql://bob:***@db.example:5432/chat"
    assert redact("postgresql://bob@db/chat") == "postgresql://bob@db/chat"


def test_an_unreachable_server_at_start_is_one_clear_error():
    from chatbot.storage import open_store

    with pytest.raises(StoreUnavailable, match="cannot reach the session store postgresql://postgres@127.0.0.1"):
        open_store(dead_url())
