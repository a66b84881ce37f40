"""Session locks in PostgreSQL: advisory locks whose keys no other role can work out, or keep.

An advisory lock belongs to the whole database, and ``pg_locks`` shows every held key to every role: row-level
security covers neither. So a session's key hashes the role, the schema and the id together with two things only the
session's owner can read (the policies hide them from everyone else):

- the role's lock secret: a random string in ``chatbot_owners``, made on the role's first lock;
- the session's lock generation (``chatbot_sessions.lock_generation``, 0 for a new session).

Another role cannot compute a key, so it can never take a lock before its owner does. It can still copy a key from
``pg_locks`` while the owner holds it, and take it once the owner lets go. The owner's next lock then finds the key
held by a role that is not the owner: the session moves to its next generation (a new key nobody has seen) and the
owner takes that. The squatter keeps a key that no longer guards anything. A process of the owner's own role holding
the key is a real holder: the session is in use.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Protocol

import psycopg

from chatbot.storage.pg_names import named
from chatbot.storage.pg_schema import MINE, OWNERS, SESSIONS


class LockKeeper(Protocol):
    """What a held lock asks of the store that took it: whether its connection is still the live one, and to let go."""

    def lock_is_live(self, lock: AdvisoryLock) -> bool:
        """Whether ``lock``'s connection is the store's live one."""
        ...

    def release_lock(self, lock: AdvisoryLock) -> None:
        """Give ``lock`` up (idempotent)."""
        ...


_ENSURE_SECRET = f"INSERT INTO {OWNERS} (lock_secret) VALUES (%s) ON CONFLICT (owner) DO NOTHING"
_GENERATION = f"(SELECT lock_generation FROM {SESSIONS} WHERE {MINE} AND id = %(id)s)"
# the key, and the session's generation (None: no such session yet, whose key uses generation 0)
_KEY = f"""SELECT pg_catalog.hashtextextended('chatbot-session:' || pg_catalog.quote_ident(current_user) || '.'
    || pg_catalog.quote_ident(%(schema)s) || '/' || %(id)s || '#' || (SELECT lock_secret FROM {OWNERS} WHERE {MINE})
    || '#' || coalesce({_GENERATION}, 0), 0), {_GENERATION}"""
_LOCK = "SELECT pg_catalog.pg_try_advisory_lock(%s)"
_UNLOCK = "SELECT pg_catalog.pg_advisory_unlock(%s)"
# who holds a key: the application_name every chatbot connection sets ("chatbot pid N on HOST"), and whether it is
# this role; pg_locks shows the locks of every database of the server, and the same key can be held in each
_HOLDER = """SELECT coalesce(a.application_name, ''), a.usename = current_user
    FROM pg_catalog.pg_locks l JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid
    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
    AND l.database = (SELECT oid FROM pg_catalog.pg_database WHERE datname = pg_catalog.current_database())
    AND ((l.classid::bigint << 32) | l.objid::bigint) = %s LIMIT 1"""
_NEXT_GENERATION = (
    f"UPDATE {SESSIONS} SET lock_generation = lock_generation + 1 WHERE {MINE} AND id = %s AND lock_generation = %s"
)


@dataclass(frozen=True)
class Attempt:
    """One try at a session's lock: the key taken (None when not), else who holds it (when the server says)."""

    key: int | None
    holder: str = ""


def session_key(conn: psycopg.Connection[Any], session_id: str, schema: str) -> tuple[int, int | None]:
    """The session's lock key for this role in the store's ``schema``, and its generation (None when the session is
    not stored yet)."""
    conn.execute(named(_ENSURE_SECRET, schema), (secrets.token_hex(16),))
    row = conn.execute(named(_KEY, schema), {"id": session_id, "schema": schema}).fetchone()
    assert row is not None  # a SELECT without FROM returns one row
    return int(row[0]), row[1]


def try_lock(conn: psycopg.Connection[Any], session_id: str, schema: str) -> Attempt:
    """Take the session's lock if it is free, moving the session to a new key when another role holds its key."""
    for _ in range(3):  # a squatter would have to copy each new key before it is taken: once is the most it can be
        key, generation = session_key(conn, session_id, schema)
        if take(conn, key):
            return Attempt(key)
        row = conn.execute(_HOLDER, (key,)).fetchone()
        if row is None:
            return Attempt(None)  # let go meanwhile: the caller tries again
        name, ours = row
        if ours or generation is None:
            return Attempt(None, name)
        conn.execute(
            named(_NEXT_GENERATION, schema), (session_id, generation)
        )  # another process of ours may have moved it first
    return Attempt(None)  # moved three times: the caller tries again


def take(conn: psycopg.Connection[Any], key: int) -> bool:
    """Take a lock by its key (a new connection taking its locks again); False when another process holds it."""
    return conn.execute(_LOCK, (key,)).fetchone() == (True,)


def let_go(conn: psycopg.Connection[Any], key: int) -> None:
    """Release a lock this connection holds."""
    conn.execute(_UNLOCK, (key,))


class AdvisoryLock:
    """A held session lock: a PostgreSQL advisory lock on the store's connection of the moment."""

    def __init__(self, store: LockKeeper, session_id: str, key: int, connection: psycopg.Connection[Any]) -> None:
        self._store = store
        self.id = session_id
        self.key = key  # the advisory lock's key (:mod:`~.pg_lock`)
        self.connection = connection  # the connection it lives on; a new connection must take it again

    @property
    def held(self) -> bool:
        """Whether this handle still holds the lock (its connection is the store's live one)."""
        return self._store.lock_is_live(self)

    def release(self) -> None:
        """Give the lock up (idempotent)."""
        self._store.release_lock(self)

    def __enter__(self) -> AdvisoryLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
