"""Edges of the PostgreSQL store that the behaviour suite of both stores does not reach: what one save asks of the
server, waiting for a lock, stale copies that must never be written, a damaged summary row, the search's limit."""

from __future__ import annotations

import os
import time

import pytest

from chatbot.engine.turn import Turn
from chatbot.errors import SessionCorrupt, SessionError, SessionLocked
from tests.support.stores import admin, postgres_base_url, scratch_schema, set_version, snapshot

# statement-level triggers that note every write the store's connection makes to its two tables
WATCH = """
CREATE TABLE statements (n serial, what text);
CREATE FUNCTION note() RETURNS trigger LANGUAGE plpgsql AS
    $$ BEGIN INSERT INTO statements (what) VALUES (TG_OP || ' ' || TG_TABLE_NAME); RETURN NULL; END $$;
CREATE TRIGGER note_sessions AFTER INSERT OR UPDATE OR DELETE ON chatbot_sessions FOR EACH STATEMENT
    EXECUTE FUNCTION note();
CREATE TRIGGER note_turns AFTER INSERT OR UPDATE OR DELETE ON chatbot_turns FOR EACH STATEMENT
    EXECUTE FUNCTION note();
"""


def turn(i: int, text: str = "question") -> Turn:
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
        session.conversation.add_turn(turn(1))
        store.save(session)
        assert writes(pg_url) == ["INSERT chatbot_sessions", "INSERT chatbot_turns"]
        for i in range(2, 12):
            session.conversation.add_turn(turn(i))
            store.save(session)
        writes(pg_url)
        session.conversation.add_turn(turn(12))
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


# the server counts the store's lock tries: a function of the same name, first on the search path, that counts and
# hands over to PostgreSQL's own (pg_catalog is searched first unless the path names it later)
COUNT_TRIES = """
CREATE SEQUENCE tries;
CREATE FUNCTION hashtextextended(text, bigint) RETURNS bigint LANGUAGE sql VOLATILE AS
    $$ SELECT pg_catalog.hashtextextended($1, $2) + 0 * nextval('tries') $$;
"""


def test_waiting_for_a_lock_tries_now_and_then_not_as_fast_as_it_can(open_pg, pg_url):
    """A process waiting for another's session asks the server a few times a second: no busy core, no flood."""
    store = open_pg()
    store.acquire("s")
    with admin(pg_url) as conn:
        conn.execute(COUNT_TRIES)
    other = open_pg(pg_url + "%2Cpg_catalog")  # search_path=SCHEMA,pg_catalog
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
        old.conversation.add_turn(turn(1))
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
        session.conversation.add_turn(turn(1))
        store.save(session)
        set_version(pg_url, "s", 2)  # a newer chatbot wrote it meanwhile
        before = snapshot(pg_url, "s")
        with pytest.raises(SessionCorrupt, match="newer chatbot"):
            store.load("s")
        session.conversation.add_turn(turn(2))
        with pytest.raises(SessionError, match="not loaded by this process"):
            store.save(session)
    assert snapshot(pg_url, "s") == before


@pytest.mark.parametrize("covers", [3, -1])
def test_a_summary_row_covering_turns_that_are_not_there_is_listed_as_broken(open_pg, pg_url, covers):
    store = open_pg()
    with store.acquire("bad"):
        session = store.create("bad", system="s")
        session.conversation.add_turn(turn(1))
        session.conversation.add_turn(turn(2))
        store.save(session)
    with admin(pg_url) as conn:
        conn.execute("UPDATE chatbot_sessions SET summary_covers = %s", (covers,))
    [info] = store.list_sessions()
    assert info.broken == f"'summary.covers' must be an integer from 0 to 2 (the number of turns), found {covers}"
    assert store.latest() is None


def test_search_gives_fifty_hits_unless_asked_for_more(open_pg):
    store = open_pg()
    with store.acquire("s"):
        session = store.create("s", system="s")
        for i in range(1, 52):
            session.conversation.add_turn(turn(i, "needle"))
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

    from chatbot.storage.pg_schema import SESSION_KEY

    base = postgres_base_url()
    schema = psycopg.conninfo.conninfo_to_dict(pg_url)["options"].removeprefix("-csearch_path=")
    others = [f"chatbot_other_{secrets.token_hex(4)}" for _ in range(3)]
    holders = []
    with admin(base) as conn:
        for name in others:
            conn.execute(f"CREATE DATABASE {name}")
    try:
        for i, name in enumerate(others):  # each other database: the same schema, its lock of "s" taken
            url = urlunsplit(urlsplit(base)._replace(path=f"/{name}"))
            holder = psycopg.connect(url, autocommit=True, application_name=f"chatbot pid {9000 + i} on elsewhere")
            holder.execute(f"CREATE SCHEMA {schema}")
            holder.execute(f"SET search_path = {schema}")
            holder.execute(f"SELECT pg_advisory_lock({SESSION_KEY})", ("s",))
            holders.append(holder)
        store = open_pg()
        with open_pg().acquire("s"), pytest.raises(SessionLocked, match=rf"\(pid {os.getpid()} on ") as caught:
            store.acquire("s")
        assert "elsewhere" not in str(caught.value)
    finally:
        for holder in holders:
            holder.close()
        with admin(base) as conn:
            for name in others:
                conn.execute(f"DROP DATABASE IF EXISTS {name}")
