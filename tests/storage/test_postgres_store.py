"""What only the PostgreSQL store has to show: rows written per save, a lost or unreachable database, its schema."""

from __future__ import annotations

import contextlib
import os
import socket
import time

import pytest

from chatbot.core.app import App, AppSettings
from chatbot.core.events import Notice
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import Turn
from chatbot.errors import SessionCorrupt, SessionError, SessionLocked, StoreUnavailable
from chatbot.providers.echo import EchoProvider
from chatbot.storage.transfer import import_sessions
from tests.support.stores import admin, break_turn, postgres_base_url, scratch_schema, set_version, snapshot


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
    app = App(pg(), EchoProvider(delay=0), AppSettings("echo", None, MemoryConfig()), lambda m: TokenCounter())
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
    from chatbot.storage.pg_address import redact
    from chatbot.storage.postgres_store import PostgresStore

    with admin(url) as conn:
        conn.execute("CREATE TABLE chatbot_sessions (id int PRIMARY KEY, owner text)")
        conn.execute("INSERT INTO chatbot_sessions VALUES (1, 'billing')")
    with pytest.raises(SessionCorrupt) as refused:
        PostgresStore(url)
    assert refused.value.message.startswith(
        f"the table chatbot_sessions in {redact(url)} was not made by chatbot (it has no column "
    )
    with admin(url) as conn:
        assert conn.execute("SELECT owner FROM chatbot_sessions").fetchall() == [("billing",)]


def test_a_schema_from_a_newer_chatbot_is_refused(pg, url):
    from chatbot.storage.pg_address import redact
    from chatbot.storage.pg_schema import SCHEMA_VERSION
    from chatbot.storage.postgres_store import PostgresStore

    pg()
    with admin(url) as conn:
        conn.execute("UPDATE chatbot_schema SET version = 7")
    with pytest.raises(SessionCorrupt) as refused:
        PostgresStore(url)
    assert refused.value.message == (
        f"the session store {redact(url)} has chatbot schema version 7, made by a newer chatbot; this one knows "
        f"version {SCHEMA_VERSION}: upgrade chatbot"
    )


def test_the_location_shown_never_holds_the_password():
    from chatbot.storage.pg_address import redact

    assert redact("postgresql://bob:s3cret@db.example:5432/chat") == "postgresql://bob:***@db.example:5432/chat"
    assert redact("postgresql://bob@db/chat") == "postgresql://bob@db/chat"


def test_an_unreachable_server_at_start_is_one_clear_error():
    from chatbot.storage import open_store

    with pytest.raises(StoreUnavailable, match="cannot reach the session store postgresql://postgres@127.0.0.1"):
        open_store(dead_url())


# --- what one save asks of the server, lock waits, stale copies, a damaged summary row, the search's limit ---

# statement-level triggers that note every write the store's connection makes to its two tables (the function names
# its own path: the store's connections pin theirs to pg_catalog alone)
WATCH = """
CREATE TABLE statements (n serial, what text);
CREATE FUNCTION note() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS
    $$ BEGIN INSERT INTO statements (what) VALUES (TG_OP || ' ' || TG_TABLE_NAME); RETURN NULL; END $$;
CREATE TRIGGER note_sessions AFTER INSERT OR UPDATE OR DELETE ON chatbot_sessions FOR EACH STATEMENT
    EXECUTE FUNCTION note();
CREATE TRIGGER note_turns AFTER INSERT OR UPDATE OR DELETE ON chatbot_turns FOR EACH STATEMENT
    EXECUTE FUNCTION note();
"""


def numbered_turn(i: int, text: str = "question") -> Turn:
    return Turn([{"role": "user", "content": f"{text} {i}"}, {"role": "assistant", "content": f"answer {i}"}])


def writes(url: str) -> list[str]:
    """The writes noted since the last call."""
    with admin(url) as conn:
        rows = conn.execute("DELETE FROM statements RETURNING n, what").fetchall()
    return [what for _, what in sorted(rows)]


def test_each_save_asks_only_for_what_changed(open_pg, pg_url):
    """One row update, one insert per new turn, a delete only when turns went away: the same at any length."""
    store = open_pg()
    store.list_sessions()  # the tables exist
    with admin(pg_url) as conn:
        conn.execute(WATCH)
    with store.acquire("s"):
        session = store.create("s", system="s")
        session.conversation.add_turn(numbered_turn(1))
        store.save(session)
        assert writes(pg_url) == ["INSERT chatbot_sessions", "INSERT chatbot_turns"]
        for i in range(2, 12):
            session.conversation.add_turn(numbered_turn(i))
            store.save(session)
        writes(pg_url)
        session.conversation.add_turn(numbered_turn(12))
        store.save(session)
        assert writes(pg_url) == ["UPDATE chatbot_sessions", "INSERT chatbot_turns"]
        session.conversation.set_summary("turns 1-3", 3)
        store.save(session)
        assert writes(pg_url) == ["UPDATE chatbot_sessions"]
        session.conversation.undo()
        store.save(session)
        assert writes(pg_url) == ["UPDATE chatbot_sessions", "DELETE chatbot_turns"]
        session.conversation.turns[0].latency = 1.5  # a changed first turn: it and every later one rewritten
        store.save(session)
        assert writes(pg_url) == ["UPDATE chatbot_sessions", "DELETE chatbot_turns", *["INSERT chatbot_turns"] * 11]
    assert open_pg().load("s").to_dict() == session.to_dict()


# the server counts the store's lock tries: each try first makes sure of the role's lock secret, one INSERT into
# chatbot_owners, whose statement trigger fires even when the row is there already (ON CONFLICT DO NOTHING)
COUNT_TRIES = """
CREATE SEQUENCE tries;
CREATE FUNCTION count_try() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS
    $$ BEGIN PERFORM nextval('tries'); RETURN NULL; END $$;
CREATE TRIGGER count_tries AFTER INSERT ON chatbot_owners FOR EACH STATEMENT EXECUTE FUNCTION count_try();
"""


def test_waiting_for_a_lock_tries_now_and_then_not_as_fast_as_it_can(open_pg, pg_url):
    """A process waiting for another's session asks the server a few times a second: no busy core, no flood."""
    store = open_pg()
    store.acquire("s")
    with admin(pg_url) as conn:
        conn.execute(COUNT_TRIES)
    other = open_pg()
    with admin(pg_url) as conn:
        before = conn.execute("SELECT nextval('tries')").fetchone()[0]  # type: ignore[index]
        started = time.monotonic()
        with pytest.raises(SessionLocked):
            other.acquire("s", timeout=1.0)
        waited = time.monotonic() - started
        tries = conn.execute("SELECT nextval('tries')").fetchone()[0] - before - 1  # type: ignore[index]
    assert waited >= 1.0
    assert 2 <= tries <= 40 * waited  # it keeps trying, about once per 50 ms (the holder's name asked once)


def test_a_copy_of_a_deleted_session_never_overwrites_the_new_one_of_that_id(open_pg):
    mine, theirs = open_pg(), open_pg()
    with mine.acquire("s"):
        old = mine.create("s", system="the old one")
        old.conversation.add_turn(numbered_turn(1))
        mine.save(old)
    mine.delete("s")
    with theirs.acquire("s"):
        theirs.save(theirs.create("s", system="the new one"))  # as many saves as the deleted one had
    with mine.acquire("s"), pytest.raises(SessionError, match="not loaded by this process"):
        mine.save(old)
    again = theirs.load("s")
    assert again.conversation.system == "the new one" and again.conversation.turns == []


def test_a_session_that_became_unreadable_since_it_was_loaded_is_never_written_over(open_pg, pg_url):
    store = open_pg()
    with store.acquire("s"):
        session = store.create("s", system="s")
        session.conversation.add_turn(numbered_turn(1))
        store.save(session)
        set_version(pg_url, "s", 3)  # a newer chatbot wrote it meanwhile
        before = snapshot(pg_url, "s")
        with pytest.raises(SessionCorrupt, match="newer chatbot"):
            store.load("s")
        session.conversation.add_turn(numbered_turn(2))
        with pytest.raises(SessionError, match="not loaded by this process"):
            store.save(session)
    assert snapshot(pg_url, "s") == before


@pytest.mark.parametrize("covers", [3, -1])
def test_a_summary_row_covering_turns_that_are_not_there_is_listed_as_broken(open_pg, pg_url, covers):
    store = open_pg()
    with store.acquire("bad"):
        session = store.create("bad", system="s")
        session.conversation.add_turn(numbered_turn(1))
        session.conversation.add_turn(numbered_turn(2))
        store.save(session)
    with admin(pg_url) as conn:
        conn.execute("UPDATE chatbot_sessions SET summary_covers = %s", (covers,))
    [info] = store.list_sessions()
    assert info.broken == f"'summary.covers' must be an integer from 0 to 2 (the number of turns), found {covers}"
    assert store.latest() is None


def test_continuing_skips_every_damaged_session_newer_than_the_newest_that_loads(open_pg, pg_url):
    """More damaged sessions than one page of the search for the newest that loads: it reads on, page by page."""
    store = open_pg()
    for i in range(42):
        with store.acquire(f"s{i:02}"):
            session = store.create(f"s{i:02}", system="s")
            session.conversation.add_turn(numbered_turn(1))
            session.updated_at = f"2026-01-01T00:{i // 60:02}:{i % 60:02}+00:00"
            store.save(session, touch=False)
    for i in range(1, 42):
        break_turn(pg_url, f"s{i:02}", 1)
    chosen, skipped = store.choose_latest()
    assert chosen == "s00"
    assert [info.id for info in skipped] == [f"s{i:02}" for i in range(41, 0, -1)]
    assert all(info.broken for info in skipped)


def test_search_gives_fifty_hits_unless_asked_for_more(open_pg):
    store = open_pg()
    with store.acquire("s"):
        session = store.create("s", system="s")
        for i in range(1, 52):
            session.conversation.add_turn(numbered_turn(i, "needle"))
        store.save(session)
    assert [hit.turn for hit in store.search("needle")] == list(range(1, 51))
    assert len(store.search("needle", limit=100)) == 51


def test_a_new_session_without_an_id_gets_one_not_in_use(open_pg):
    store = open_pg()
    first = store.create(system="s")
    with store.acquire(first.id):
        store.save(first)
    second = store.create(system="s")
    assert second.id != first.id and store.exists(first.id) and not store.exists(second.id)


def test_a_database_with_no_free_id_left_is_named_in_the_error(open_pg, monkeypatch):
    store = open_pg()
    monkeypatch.setattr(store, "exists", lambda sid: True)  # every id it tries is taken
    with pytest.raises(SessionError) as caught:
        store.new_id()
    assert caught.value.message == f"could not find an unused session id in {store.location}"


def test_stores_in_two_schemas_of_one_database_never_lock_each_others_sessions(open_pg, pg_url):
    """Advisory locks belong to the whole database: a session's lock must still be its own store's."""
    with scratch_schema(postgres_base_url()) as elsewhere:
        here, there, here_too = open_pg(), open_pg(elsewhere), open_pg()
        with here.acquire("s"), there.acquire("s"):  # the same id, two stores: both taken
            with pytest.raises(SessionLocked, match=rf"\(pid {os.getpid()} on "):
                here_too.acquire("s")
            session = there.create("s", system="there")
            there.save(session)
        there.close()
    assert not here.exists("s")


def test_the_holder_named_is_the_one_in_this_database(open_pg, pg_url):
    """The same schema and id in other databases of the server hold the same lock key: they are not the holder."""
    import secrets
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    from chatbot.storage.pg_lock import session_key

    base = postgres_base_url()
    others = [f"chatbot_other_{secrets.token_hex(4)}" for _ in range(3)]
    holders = []
    with admin(base) as conn:
        for name in others:
            conn.execute(f"CREATE DATABASE {name}")
    try:
        store = open_pg()
        with psycopg.connect(pg_url, autocommit=True) as conn:
            key, _ = session_key(conn, "s", store.schema)
        for i, name in enumerate(others):  # each other database: the same key held
            url = urlunsplit(urlsplit(base)._replace(path=f"/{name}"))
            holder = psycopg.connect(url, autocommit=True, application_name=f"chatbot pid {9000 + i} on elsewhere")
            holder.execute("SELECT pg_advisory_lock(%s)", (key,))
            holders.append(holder)
        with open_pg().acquire("s"), pytest.raises(SessionLocked, match=rf"\(pid {os.getpid()} on ") as caught:
            store.acquire("s")
        assert "elsewhere" not in str(caught.value)
    finally:
        for holder in holders:
            holder.close()
        with admin(base) as conn:
            for name in others:
                conn.execute(f"DROP DATABASE IF EXISTS {name}")
