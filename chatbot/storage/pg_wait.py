"""Bounded waits on the PostgreSQL connection: a frozen network must not hang a save, nor swallow a signal.

psycopg waits on its socket for as long as it takes: behind a frozen network (a dead router, a suspended VPN),
forever. And a signal that arrives meanwhile is taken by psycopg itself, which tries to cancel the query over the
same network and then waits again. So every database call of the store runs through :func:`answer`: on a helper
thread, while the caller's thread waits for it at most :data:`ANSWER_TIMEOUT` seconds, where a signal raises as it
does anywhere else. A call that does not answer in time, or that a signal stops, costs its connection: the socket is
shut down (the helper's wait ends at once) and the connection closed; its advisory locks die with it on the server.

On a real network the kernel helps earlier: TCP keepalives probe a silent peer, and ``tcp_user_timeout`` gives up
on data it never acknowledged; the server ends any statement after ``statement_timeout``. None of these sees a peer
whose kernel still answers (a stuck proxy on the same machine): the deadline of :func:`answer` does.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

import psycopg

T = TypeVar("T")

#: seconds one database call (a save's whole transaction, a lock, a listing) may wait for its answer
ANSWER_TIMEOUT = 10.0
#: seconds the one-time creation or migration of the tables may take (it builds indexes over every stored turn)
MIGRATION_TIMEOUT = 900.0
#: seconds a new connection (TCP, TLS and the login) may take, for each address the host name has
CONNECT_TIMEOUT = 5
#: seconds the helper of a call given up on gets to leave its connection (its socket shut) before the connection is
#: abandoned unclosed instead
HELPER_GRACE = 2.0
_BOUND = "SELECT pg_catalog.set_config('statement_timeout', %s, false)"
# connections given up on whose helper thread had not finished: never used again, never closed under the helper
_abandoned: weakref.WeakSet[psycopg.Connection[Any]] = weakref.WeakSet()


def connect(url: str, application_name: str) -> psycopg.Connection[Any]:
    """A new autocommit connection whose every wait is bounded (connection, TCP, statements on the server)."""
    return psycopg.connect(
        url,
        autocommit=True,
        application_name=application_name,
        connect_timeout=CONNECT_TIMEOUT,
        tcp_user_timeout=int(ANSWER_TIMEOUT * 1000),
        # a silent peer is probed after 5 s idle, every 2 s, and given up after 3 unanswered probes
        keepalives=1,
        keepalives_idle=5,
        keepalives_interval=2,
        keepalives_count=3,
    )


def bound_statements(conn: psycopg.Connection[Any]) -> None:
    """The server ends a statement a second before :func:`answer` would give up on it, with a clear error."""
    conn.execute(_BOUND, (str(int(ANSWER_TIMEOUT * 1000) - 1000),))


def answer(conn: psycopg.Connection[Any], work: Callable[[psycopg.Connection[Any]], T], timeout: float = 0.0) -> T:
    """``work(conn)``, waited for at most ``timeout`` (else :data:`ANSWER_TIMEOUT`) seconds on the caller's thread.

    Raises :class:`psycopg.OperationalError` when no answer came in time, and whatever a signal handler raises
    during the wait (``conn`` is then closed, or at least no longer :func:`usable`); otherwise returns or raises what
    ``work`` did.
    """
    outcome: list[tuple[bool, Any]] = []
    finished = threading.Event()  # not Thread.join: a join a signal interrupted may later report a live thread ended

    def run() -> None:
        try:
            outcome.append((True, work(conn)))
        except BaseException as exc:  # handed to the waiting thread, which raises it
            outcome.append((False, exc))
        finally:
            finished.set()

    threading.Thread(target=run, name="chatbot-database", daemon=True).start()
    try:
        finished.wait(timeout or ANSWER_TIMEOUT)
    except BaseException:  # a signal (or Ctrl-C) while waiting
        _give_up(conn, finished)
        raise
    if not outcome:
        _give_up(conn, finished)
        raise psycopg.OperationalError(f"no answer in {timeout or ANSWER_TIMEOUT:g} seconds (is the network down?)")
    done, value = outcome[0]
    if not done:
        raise value
    return value


def _give_up(conn: psycopg.Connection[Any], finished: threading.Event) -> None:
    """Shut the socket of a connection that stopped answering (its helper's wait ends) and close it.

    The connection is closed only once the helper is done with it: libpq must never free it under another thread.
    """
    with contextlib.suppress(Exception), socket.socket(fileno=os.dup(conn.pgconn.socket)) as sock:
        sock.shutdown(socket.SHUT_RDWR)
    if finished.wait(HELPER_GRACE):
        close(conn)
    else:
        _abandoned.add(conn)


def usable(conn: psycopg.Connection[Any] | None) -> bool:
    """Whether ``conn`` is open and was not given up on."""
    return conn is not None and not conn.closed and conn not in _abandoned


def close(conn: psycopg.Connection[Any]) -> None:
    """Close ``conn`` (quietly), unless a helper thread it was given up on may still be inside it."""
    if conn not in _abandoned:
        with contextlib.suppress(Exception):
            conn.close()
