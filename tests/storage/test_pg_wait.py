"""Bounded waits on a real PostgreSQL connection: a call that does not answer in time costs its connection, never
a crash, and a connection still in use by a helper that would not stop is never closed under it."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest

from chatbot.storage import pg_wait


@pytest.fixture
def conn(pg_url: str):  # type: ignore[no-untyped-def]
    connection = pg_wait.connect(pg_url, "chatbot pg_wait test")
    yield connection
    pg_wait.close(connection)


def test_an_answer_in_time_is_returned_and_the_connection_stays_usable(conn):
    assert pg_wait.answer(conn, lambda c: c.execute("SELECT 41 + 1").fetchone()) == (42,)
    assert pg_wait.usable(conn)


def test_a_statement_that_outlives_the_deadline_costs_the_connection(conn, monkeypatch):
    monkeypatch.setattr(pg_wait, "ANSWER_TIMEOUT", 0.5)
    started = time.monotonic()
    with pytest.raises(psycopg.OperationalError, match="no answer in 0.5 seconds"):
        pg_wait.answer(conn, lambda c: c.execute("SELECT pg_sleep(30)"))
    assert time.monotonic() - started < 5  # the socket was shut: the helper's wait ended at once
    assert not pg_wait.usable(conn)
    assert conn.closed  # its helper was done with it, so it was closed, not left open


def test_a_call_that_ends_just_after_its_deadline_still_costs_its_connection(conn, monkeypatch):
    """Its socket was shut when the wait gave up, though psycopg never saw it: the connection is closed, not reused."""
    monkeypatch.setattr(pg_wait, "ANSWER_TIMEOUT", 0.2)
    with pytest.raises(psycopg.OperationalError, match="no answer in 0.2 seconds"):
        pg_wait.answer(conn, lambda c: time.sleep(0.5))  # busy off the socket, done within the grace period
    assert conn.closed and not pg_wait.usable(conn)


def test_a_call_given_up_on_whose_connection_is_already_closed_says_no_answer(conn, monkeypatch):
    """Its socket is gone (nothing to shut): giving up still ends in the no-answer error, not in an internal one."""
    monkeypatch.setattr(pg_wait, "ANSWER_TIMEOUT", 0.2)

    def closes_then_lingers(c):  # type: ignore[no-untyped-def]
        c.close()
        time.sleep(0.5)

    with pytest.raises(psycopg.OperationalError, match="no answer in 0.2 seconds"):
        pg_wait.answer(conn, closes_then_lingers)
    assert not pg_wait.usable(conn)


def test_a_helper_that_will_not_stop_keeps_its_connection_open_and_unused(conn, monkeypatch):
    monkeypatch.setattr(pg_wait, "ANSWER_TIMEOUT", 0.2)
    release = threading.Event()
    before = set(threading.enumerate())
    with pytest.raises(psycopg.OperationalError):
        pg_wait.answer(conn, lambda c: release.wait(30))  # busy elsewhere than the socket: shutting it is no help
    # the helper still waits, a daemon: it cannot keep chatbot from exiting (named for a thread dump)
    assert [(t.name, t.daemon) for t in set(threading.enumerate()) - before] == [("chatbot-database", True)]
    assert not conn.closed and not pg_wait.usable(conn)  # abandoned: never closed under the helper
    pg_wait.close(conn)
    assert not conn.closed
    release.set()


def test_closing_a_connection_whose_close_fails_is_quiet(conn, monkeypatch):
    """Connections are closed on the way out of a failure: a second error there would hide the first."""

    def fails() -> None:
        raise psycopg.OperationalError("the server went away")

    monkeypatch.setattr(conn, "close", fails)
    pg_wait.close(conn)


def test_the_server_ends_a_statement_before_the_deadline(conn):
    pg_wait.bound_statements(conn)
    assert conn.execute("SHOW statement_timeout").fetchone() == (f"{int(pg_wait.ANSWER_TIMEOUT) - 1}s",)


def test_a_connection_bounds_every_wait_a_frozen_network_could_make_endless(conn):
    """The connection, the TCP send and an idle peer are all given up on: a network that goes silent mid-save must
    end in an error, never hang (the statement itself is bounded by bound_statements)."""
    params = conn.info.get_parameters()
    expected = {
        "connect_timeout": str(pg_wait.CONNECT_TIMEOUT),
        "tcp_user_timeout": str(int(pg_wait.ANSWER_TIMEOUT * 1000)),
        "keepalives": "1",
        "keepalives_idle": "5",
        "keepalives_interval": "2",
        "keepalives_count": "3",
        "application_name": "chatbot pg_wait test",
    }
    assert {key: params.get(key) for key in expected} == expected
    assert conn.autocommit
