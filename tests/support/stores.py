"""Every session store for one behaviour suite: where the PostgreSQL under test is, a scratch schema per test, and
backend-specific ways to damage a stored session (the only place tests know which store they have)."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest

ENV = "CHATBOT_TEST_POSTGRES"


def postgres_base_url() -> str:
    """The server the PostgreSQL tests use ($CHATBOT_TEST_POSTGRES); skips locally without one, fails in CI."""
    url = os.environ.get(ENV, "")
    if url:
        return url
    if os.environ.get("CI"):
        pytest.fail(f"${ENV} is not set: CI must run the PostgreSQL store tests (.ci/run starts a server)")
    pytest.skip(f"no PostgreSQL to test against: set ${ENV}=postgresql://USER@HOST:PORT/DB (.ci/run starts one)")


def admin(url: str):  # type: ignore[no-untyped-def]
    """A plain autocommit connection to the test server."""
    import psycopg

    return psycopg.connect(url, autocommit=True)


@contextmanager
def scratch_schema(base: str) -> Iterator[str]:
    """A URL whose tables live in a fresh schema of their own (dropped afterwards): tests never share rows."""
    name = f"t_{secrets.token_hex(6)}"
    with admin(base) as conn:
        # pg_trgm where every role may use it, as a database owner installs it (else the first store would create
        # it in its own scratch schema, and dropping that schema would take every other store's search index)
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
        conn.execute(f"CREATE SCHEMA {name}")
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options={quote(f'-csearch_path={name}')}"
    finally:
        with admin(base) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


def is_postgres(url: str) -> bool:
    return url.startswith("postgresql://")


def sqlite_file(url: str) -> Path | None:
    """The database file of a ``sqlite:`` store URL (None for another store)."""
    from chatbot.storage import sqlite_address

    return sqlite_address.path_of(url) if url.startswith("sqlite:") else None


def sqlite_connection(url: str):  # type: ignore[no-untyped-def]
    """A plain autocommit connection to a SQLite store's file, as a person's sqlite3 would make."""
    import sqlite3

    return contextlib.closing(sqlite3.connect(sqlite_file(url), isolation_level=None))


def set_version(url: str, sid: str, version: int) -> None:
    """Make a stored session claim a schema version (a newer chatbot wrote it)."""
    if is_postgres(url):
        with admin(url) as conn:
            conn.execute("UPDATE chatbot_sessions SET version = %s WHERE id = %s", (version, sid))
        return
    if sqlite_file(url):
        with sqlite_connection(url) as conn:
            conn.execute("UPDATE sessions SET version = ? WHERE id = ?", (version, sid))
        return
    path = Path(url) / f"{sid}.json"
    data = json.loads(path.read_bytes())
    data["version"] = version
    path.write_text(json.dumps(data))


def break_turn(url: str, sid: str, n: int) -> None:
    """Make stored turn ``n`` (1-based) invalid: its first message gets a role no chat has."""
    if is_postgres(url):
        with admin(url) as conn:
            row = conn.execute("SELECT data FROM chatbot_turns WHERE session_id = %s AND n = %s", (sid, n)).fetchone()
            data = row[0]
            data["messages"][0]["role"] = "robot"
            conn.execute(
                "UPDATE chatbot_turns SET data = %s WHERE session_id = %s AND n = %s", (json.dumps(data), sid, n)
            )
        return
    if sqlite_file(url):
        with sqlite_connection(url) as conn:
            (text,) = conn.execute("SELECT data FROM turns WHERE session_id = ? AND n = ?", (sid, n)).fetchone()
            data = json.loads(text)
            data["messages"][0]["role"] = "robot"
            conn.execute("UPDATE turns SET data = ? WHERE session_id = ? AND n = ?", (json.dumps(data), sid, n))
        return
    path = Path(url) / f"{sid}.json"
    doc = json.loads(path.read_bytes())
    doc["turns"][n - 1]["messages"][0]["role"] = "robot"
    path.write_text(json.dumps(doc))


def snapshot(url: str, sid: str) -> object:
    """Everything stored for one session, to show it was left untouched."""
    if is_postgres(url):
        with admin(url) as conn:
            row = conn.execute("SELECT * FROM chatbot_sessions WHERE id = %s", (sid,)).fetchall()
            turns = conn.execute("SELECT n, data::text FROM chatbot_turns WHERE session_id = %s ORDER BY n", (sid,))
            return row, turns.fetchall()
    if sqlite_file(url):
        with sqlite_connection(url) as conn:
            row = conn.execute("SELECT * FROM sessions WHERE id = ?", (sid,)).fetchall()
            return row, conn.execute("SELECT n, data FROM turns WHERE session_id = ? ORDER BY n", (sid,)).fetchall()
    return (Path(url) / f"{sid}.json").read_bytes()
