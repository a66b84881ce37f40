"""The PostgreSQL store across a lost connection, for real: the server ends the store's backend (from another
connection, the server itself stays up), a store points at a port where nothing listens, a proxy loses the answer
to a COMMIT. What a caller sees: which saves fail and how, which locks are held, what reaches the database, what
close() does with what could not be saved."""

from __future__ import annotations

import os
import signal
import threading
import time
from urllib.parse import quote

import pytest

from chatbot.engine.turn import Turn
from chatbot.errors import Interrupted, SessionCorrupt, SessionError, SessionLocked, StoreUnavailable
from chatbot.storage.pg_schema import SCHEMA_VERSION
from tests.support.pg_proxy import CommitLosingProxy
from tests.support.postgres import backends, cut_connections, dead_url, schema_of, wait_for_backends
from tests.support.stores import admin, postgres_base_url


def turn(i: int) -> Turn:
    return Turn([{"role": "user", "content": f"question {i}"}, {"role": "assistant", "content": f"answer {i}"}])


def questions(store, sid: str = "s") -> list[str]:  # type: ignore[no-untyped-def]
    return [t.user_text for t in store.load(sid).conversation.turns]


def lose_a_save(store, session) -> None:  # type: ignore[no-untyped-def]
    """The database goes away (connections cut, nothing listening where it was) and a save of turn 2 fails."""
    cut_connections()
    store.url = dead_url()
    session.conversation.add_turn(turn(2))
    with pytest.raises(StoreUnavailable):
        store.save(session)


def started(store, sid: str = "s"):  # type: ignore[no-untyped-def]
    """Session ``sid`` locked by ``store`` and saved with one turn; (lock, session)."""
    lock = store.acquire(sid)
    session = store.create(sid, system="sys")
    session.conversation.add_turn(turn(1))
    store.save(session)
    return lock, session


def test_a_save_whose_commit_answer_is_lost_is_adopted_not_written_twice(open_pg, pg_url):
    """The server committed, the client never heard: the retry finds its own save there and builds on it."""
    proxy = CommitLosingProxy(pg_url)
    try:
        store = open_pg(proxy.url)
        _, session = started(store)
        session.conversation.add_turn(turn(2))
        proxy.lose_next_commit()
        store.save(session)  # no error: the second attempt sees the first one's revision and adopts it
        assert proxy.commits_lost == 1 and store.holds("s")
        assert questions(open_pg()) == ["question 1", "question 2"]
        session.conversation.add_turn(turn(3))
        store.save(session)
        session.conversation.undo()
        session.conversation.set_summary("the first two", 2)
        store.save(session)
        again = open_pg().load("s")
        assert again.to_dict() == session.to_dict()
    finally:
        proxy.close()


def test_a_database_failing_the_save_twice_is_reported_lost_and_the_turn_saved_later(open_pg, pg_url):
    """A lock timeout is an operational failure like a cut: one retry, then StoreUnavailable; nothing is lost."""
    store = open_pg(pg_url + quote(" -clock_timeout=200"))
    _, session = started(store)
    with admin(pg_url) as blocker, blocker.transaction():
        blocker.execute("SELECT 1 FROM chatbot_sessions WHERE id = 's' FOR UPDATE")
        session.conversation.add_turn(turn(2))
        with pytest.raises(StoreUnavailable, match="lost the session store .*lock timeout.*Nothing you saw is lost"):
            store.save(session)
    store.save(session)  # the row is free again: the kept turn is written
    assert questions(open_pg()) == ["question 1", "question 2"]


def test_while_the_database_is_away_the_lock_is_not_held_and_it_is_taken_again_on_return(open_pg, pg_url):
    store = open_pg()
    lock, session = started(store)
    cut_connections()
    store.url = dead_url()
    session.conversation.add_turn(turn(2))
    with pytest.raises(StoreUnavailable, match="Nothing you saw is lost"):
        store.save(session)
    assert not lock.held and not store.holds("s")
    store.url = pg_url
    session.conversation.add_turn(turn(3))
    store.save(session)
    assert lock.held and store.holds("s")
    assert questions(open_pg()) == ["question 1", "question 2", "question 3"]


def test_a_lock_released_while_the_database_is_away_is_free_for_others(open_pg, pg_url):
    store, other = open_pg(), open_pg()
    lock, _ = started(store)
    cut_connections()
    store.url = dead_url()
    with pytest.raises(StoreUnavailable):
        store.exists("s")
    lock.release()  # the connection took the lock with it: nothing to tell the server, no error
    assert not store.holds("s")
    other.acquire("s").release()


def test_a_schema_that_cannot_be_made_on_reconnecting_fails_that_save_and_the_next_one_recovers(open_pg, pg_url):
    """An error while setting up the new connection is not left behind: the next use connects anew."""
    store = open_pg()
    _, session = started(store)
    schema = schema_of(pg_url)
    cut_connections()
    with admin(postgres_base_url()) as conn:
        conn.execute(f"ALTER SCHEMA {schema} RENAME TO {schema}_away")
    session.conversation.add_turn(turn(2))
    try:
        with pytest.raises(SessionError, match=f'failed: schema "{schema}" does not exist'):
            store.save(session)
    finally:
        with admin(postgres_base_url()) as conn:
            conn.execute(f"ALTER SCHEMA {schema}_away RENAME TO {schema}")
    store.save(session)  # connects anew, takes the lock again, writes the turn
    assert store.holds("s")
    assert questions(open_pg()) == ["question 1", "question 2"]


def test_a_newer_schema_found_on_reconnecting_is_refused_every_time(open_pg, pg_url):
    store = open_pg()
    store.list_sessions()
    with admin(pg_url) as conn:
        conn.execute("UPDATE chatbot_schema SET version = %s", (SCHEMA_VERSION + 1,))
    cut_connections()
    for _ in range(2):  # the connection that found it is not kept for the next call
        with pytest.raises(SessionCorrupt, match=f"schema version {SCHEMA_VERSION + 1}, made by a newer chatbot"):
            store.list_sessions()


def test_close_ends_the_connection(open_pg):
    store = open_pg()
    lock = store.acquire("s")
    before = backends()
    store.close()
    assert wait_for_backends(before - 1) == before - 1
    assert not lock.held


def test_close_saves_what_a_lost_connection_kept_once_the_database_is_back(open_pg, pg_url, tmp_path):
    """Saved as it was when the user saw it (its updated_at), with its lock taken again, no rescue file."""
    store = open_pg()
    lock, session = started(store)
    lose_a_save(store, session)
    seen_at = session.updated_at
    lock.release()  # the chat moved on to another session meanwhile
    store.url = pg_url
    time.sleep(1.05)  # updated_at has whole seconds
    store.close()
    again = open_pg().load("s")
    assert [t.user_text for t in again.conversation.turns] == ["question 1", "question 2"]
    assert again.updated_at == seen_at
    assert not (tmp_path / "rescue").exists()


def test_a_session_saved_once_the_database_is_back_is_not_saved_again_at_close(open_pg, pg_url, tmp_path):
    """Another process may own it by then: close must not write the old copy (nor call it unsaved)."""
    store, other = open_pg(), open_pg()
    lock, session = started(store)
    lose_a_save(store, session)
    store.url = pg_url
    store.save(session)
    lock.release()
    with other.acquire("s"):
        theirs = other.load("s")
        theirs.conversation.add_turn(turn(3))
        other.save(theirs)
    store.close()
    assert questions(other) == ["question 1", "question 2", "question 3"]
    assert not (tmp_path / "rescue").exists()


def test_a_second_close_has_nothing_left_to_rescue(open_pg, tmp_path):
    store = open_pg()
    _, session = started(store)
    lose_a_save(store, session)
    with pytest.raises(StoreUnavailable, match="all of it is in"):
        store.close()
    store.close()
    assert len(list((tmp_path / "rescue").rglob("s.json"))) == 1


def test_a_store_used_again_after_close_takes_no_session_back(open_pg):
    store, other = open_pg(), open_pg()
    started(store)
    store.close()
    assert [info.id for info in store.list_sessions()] == ["s"]  # a new connection, no locks on it
    other.acquire("s").release()


def test_a_session_taken_by_another_process_while_the_database_was_away_is_refused_and_kept(open_pg, tmp_path):
    """The lock died with the connection and another process took the session: the save must not overwrite its
    turns; what this process saw goes to a rescue file when it quits."""
    store, other = open_pg(), open_pg()
    _, session = started(store)
    cut_connections()  # store's connection (and lock) gone; the server itself stays up
    with other.acquire("s"):
        theirs = other.load("s")
        theirs.conversation.add_turn(turn(3))
        other.save(theirs)
        session.conversation.add_turn(turn(2))
        with pytest.raises(SessionLocked, match="opened by another chatbot process while the connection"):
            store.save(session)
    assert questions(other) == ["question 1", "question 3"]
    with pytest.raises(StoreUnavailable, match="rescue"):
        store.close()
    [rescued] = (tmp_path / "rescue").rglob("s.json")
    assert "question 2" in rescued.read_text()


def test_a_query_the_database_refuses_is_a_store_error_not_a_lost_connection(open_pg, pg_url):
    """Only a lost connection is retried and reported as unavailable; a refused query says the store failed."""
    store = open_pg()
    started(store)
    with admin(pg_url) as conn:
        conn.execute("ALTER TABLE chatbot_turns RENAME TO chatbot_turns_gone")
    with pytest.raises(SessionError, match="failed: .*chatbot_turns") as caught:
        store.load("s")
    assert not isinstance(caught.value, StoreUnavailable)


def test_a_signal_while_a_save_waits_for_the_database_ends_it_unsaved_with_the_signals_reason(open_pg, pg_url):
    """SIGTERM arrives while the save waits on a row another connection holds: the front end's handler raises
    Interrupted, and the save says it never reached the store (the session must still be rescued)."""

    def terminated(signum, frame):  # what the front end's handler does
        raise Interrupted("SIGTERM", 143)

    store = open_pg(pg_url)
    _, session = started(store)
    previous = signal.signal(signal.SIGTERM, terminated)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGTERM))
    try:
        with admin(pg_url) as blocker, blocker.transaction():
            blocker.execute("SELECT 1 FROM chatbot_sessions WHERE id = 's' FOR UPDATE")
            session.conversation.add_turn(turn(2))
            timer.start()
            with pytest.raises(Interrupted) as caught:
                store.save(session)
    finally:
        timer.cancel()  # never a SIGTERM after the handler is gone
        if timer.ident is not None:
            timer.join()
        signal.signal(signal.SIGTERM, previous)
    assert (caught.value.reason, caught.value.exit_code, caught.value.unsaved) == ("SIGTERM", 143, True)
