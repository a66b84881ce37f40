"""The PostgreSQL store's schema: its tables, its version, the statements the store runs, and rows <-> documents.

Kept apart from :mod:`chatbot.storage.postgres_store` so the store reads as what it does with sessions and this as
the SQL it rests on. Four tables, all prefixed ``chatbot_`` so they can share a database with other things::

    chatbot_schema    one row: the schema version this database holds
    chatbot_sessions  one row per session: (owner, id), every document field but the turns in its own column,
                      turn_count (how many turn rows belong to it) and revision (bumped by every save)
    chatbot_turns     one row per turn: (owner, session_id, n) with n from 1, the turn's JSON, its text for search
    chatbot_owners    one row per role that has locked a session: its lock secret (:mod:`~.pg_lock`)

Every row belongs to the database role that wrote it (``owner``, defaulting to ``current_user``), and row-level
security policies keep each role to its own rows. The app creates the tables on first use (:mod:`~.pg_migrate`),
brings an earlier version's up to date, and refuses a database whose schema is newer than it knows.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

import psycopg

from chatbot.engine.turn import Turn
from chatbot.storage.pg_names import named
from chatbot.storage.rows import clean_text as pg_text
from chatbot.storage.rows import kept_prefix as kept_prefix
from chatbot.storage.rows import searchable, session_document, shown_title
from chatbot.storage.session import SessionInfo

SCHEMA_VERSION = 4
#: the store's tables as its SQL names them: ``{s}`` is the store's schema (:func:`~.pg_names.named` puts it in)
VERSIONS, SESSIONS, TURNS, OWNERS = (f"{{s}}.chatbot_{t}" for t in ("schema", "sessions", "turns", "owners"))

# Advisory locks belong to the whole database, while a store is one schema (:mod:`~.pg_names`): the lock of whoever
# creates or migrates the tables hashes "chatbot-schema:SCHEMA", so stores in two schemas never wait for
# each other. A session's lock key is :mod:`~.pg_lock`'s.
SCHEMA_KEY = "pg_catalog.hashtextextended('chatbot-schema:' || %(schema)s, 0)"

#: the tables of this version (created by :mod:`~.pg_migrate`, which also brings earlier ones up to it)
CREATE = [
    """CREATE TABLE IF NOT EXISTS {s}.chatbot_schema (version integer NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS {s}.chatbot_sessions (
        owner text NOT NULL DEFAULT current_user,
        id text NOT NULL,
        version integer NOT NULL,
        title text NOT NULL,
        system text NOT NULL,
        summary text NOT NULL,
        summary_covers integer NOT NULL,
        provider text NOT NULL,
        model text NOT NULL,
        endpoint text NOT NULL DEFAULT '',
        totals jsonb NOT NULL,
        calibration jsonb NOT NULL,
        options json NOT NULL,
        tool_sources json NOT NULL DEFAULT '{}',
        rule json NOT NULL DEFAULT '{}',
        summaries json NOT NULL DEFAULT '[]',
        created_at text NOT NULL,
        updated_at text NOT NULL,
        turn_count integer NOT NULL,
        revision bigint NOT NULL,
        lock_generation bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (owner, id)
    )""",
    """CREATE TABLE IF NOT EXISTS {s}.chatbot_turns (
        owner text NOT NULL DEFAULT current_user,
        session_id text NOT NULL,
        n integer NOT NULL,
        created_at text NOT NULL,
        body text NOT NULL,
        data json NOT NULL,
        PRIMARY KEY (owner, session_id, n),
        FOREIGN KEY (owner, session_id) REFERENCES {s}.chatbot_sessions (owner, id) ON DELETE CASCADE
    )""",
    # each role's lock secret (pg_lock): only the role can read it, so only the role can work out its lock keys
    """CREATE TABLE IF NOT EXISTS {s}.chatbot_owners (
        owner text PRIMARY KEY DEFAULT current_user,
        lock_secret text NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS chatbot_sessions_owner_updated ON {s}.chatbot_sessions (owner, updated_at DESC)",
    # a role's turns newest first: the search walks it for a query that matches many turns
    "CREATE INDEX IF NOT EXISTS chatbot_turns_owner_recent ON {s}.chatbot_turns "
    "(owner, created_at DESC, session_id, n)",
]

SESSION_COLUMNS = (
    "id",
    "version",
    "title",
    "system",
    "summary",
    "summary_covers",
    "provider",
    "model",
    "endpoint",
    "totals",
    "calibration",
    "options",
    "tool_sources",
    "rule",
    "summaries",
    "created_at",
    "updated_at",
    "turn_count",
    "revision",
)
TURN_COLUMNS = ("session_id", "n", "created_at", "body", "data")
#: columns added after the first tables were made: an earlier table gets them at open (:mod:`~.pg_migrate`)
ADDED_COLUMNS = {"tool_sources", "rule", "summaries", "endpoint"}

# Every statement names its rows with ``owner = current_user`` (the column defaults to it on insert): row-level
# security already hides other roles' rows, but not from a superuser or a BYPASSRLS role, which still acts on its own.
# current_user is a ``name``, whose collation is "C": compared in the column's own collation, the (owner, ...) indexes
# serve the condition (else every lookup scans a whole index)
MINE = 'owner = current_user::text COLLATE pg_catalog."default"'
SELECT_SESSION = f"SELECT {', '.join(SESSION_COLUMNS)} FROM {SESSIONS} WHERE {MINE} AND id = %s"
SELECT_TURNS = f"SELECT n, data FROM {TURNS} WHERE {MINE} AND session_id = %s ORDER BY n"
EXISTS = f"SELECT 1 FROM {SESSIONS} WHERE {MINE} AND id = %s"
REVISION = f"SELECT revision FROM {SESSIONS} WHERE {MINE} AND id = %s"
DELETE = f"DELETE FROM {SESSIONS} WHERE {MINE} AND id = %s"
# the database counts the revisions: 1 for a new row, one more per update; each statement returns the row's new one
# (none when the id is taken, or the row is not at the revision the store last saw)
INSERT_SESSION = (
    f"INSERT INTO {SESSIONS} ({', '.join(SESSION_COLUMNS)}) VALUES ({'%s, ' * (len(SESSION_COLUMNS) - 1)}1) "
    "ON CONFLICT (owner, id) DO NOTHING RETURNING revision"
)
UPDATE_SESSION = (
    f"UPDATE {SESSIONS} SET {', '.join(f'{c} = %s' for c in SESSION_COLUMNS[1:-1])}, revision = revision + 1 "
    f"WHERE {MINE} AND id = %s AND revision = %s RETURNING revision"
)
DELETE_TURNS_AFTER = f"DELETE FROM {TURNS} WHERE {MINE} AND session_id = %s AND n > %s"
INSERT_TURN = f"INSERT INTO {TURNS} ({', '.join(TURN_COLUMNS)}) VALUES (%s, %s, %s, %s, %s)"
# the newest sessions (LIMIT NULL: all of them), walked on the (owner, updated_at) index, and how many there are, an
# index-only scan of the primary key: a listing reads no row of a session it does not show. Times are to the second:
# within one, the session made last comes first (a /fork or /edit branch, not the session it came from, as the JSON
# store's file times have it); the incremental sort on the index costs the same as before
NEWEST_FIRST = "ORDER BY updated_at DESC, created_at DESC, id"
LIST = f"SELECT {', '.join(SESSION_COLUMNS)} FROM {SESSIONS} WHERE {MINE} {NEWEST_FIRST} LIMIT %s"
COUNT = f"SELECT pg_catalog.count(*) FROM {SESSIONS} WHERE {MINE}"
NEWEST = f"SELECT id FROM {SESSIONS} WHERE {MINE} {NEWEST_FIRST} LIMIT %s OFFSET %s"
# each session's turn numbers and turns as one JSON text, decoded in one call (a row per turn costs 5x more)
LIST_TURNS = f"""SELECT session_id, pg_catalog.array_agg(n ORDER BY n), pg_catalog.json_agg(data ORDER BY n)::text
    FROM {TURNS} WHERE {MINE} AND session_id = ANY(%s) GROUP BY session_id"""
#: sessions whose turns one database call of a listing reads (a call must answer within pg_wait.ANSWER_TIMEOUT)
LIST_CHUNK = 2000
# case-insensitive substring of the whole query, as the JSON store matches it: of the newest matching turns
# (SEARCH_WINDOW of them), the ones with the most occurrences first, then the newest (session.ranked). The trigram
# index (pg_trgm, when it could be made) finds the turns of a rare query; for a common one the planner walks the
# role's turns newest first and stops at the window, so neither reads every match. The count is made for the window
# only, and the session's title is read for the turns shown.
SEARCH = rf"""SELECT t.session_id, s.title, t.n, t.created_at, t.data,
    (SELECT f.data FROM {TURNS} f WHERE f.owner = t.owner AND f.session_id = t.session_id AND f.n = 1)
    FROM (SELECT owner, session_id, n, created_at, data,
            (pg_catalog.length(pg_catalog.lower(body))
             - pg_catalog.length(pg_catalog.replace(pg_catalog.lower(body), pg_catalog.lower(%(text)s), '')))
            / pg_catalog.length(pg_catalog.lower(%(text)s)) AS hits
          FROM (SELECT owner, session_id, n, created_at, data, body FROM {TURNS}
                WHERE {MINE} AND body ILIKE '%%' || %(pattern)s || '%%' ESCAPE '\'
                ORDER BY created_at DESC, session_id, n LIMIT %(window)s) newest
          ORDER BY hits DESC, created_at DESC, session_id, n LIMIT %(limit)s) t
    JOIN {SESSIONS} s ON s.owner = t.owner AND s.id = t.session_id
    ORDER BY t.hits DESC, t.created_at DESC, t.session_id, t.n"""


def like_escape(text: str) -> str:
    """``text`` as a literal inside an ILIKE pattern (its %, _ and \\ escaped)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def pg_json(value: Any) -> Any:
    """``value`` with every string made :func:`pg_text`: what jsonb can keep (options are checked before they are
    stored; this keeps a save from failing forever on one that was not, as a library caller may set)."""
    if isinstance(value, str):
        return pg_text(value)
    if isinstance(value, list):
        return [pg_json(v) for v in value]
    if isinstance(value, dict):
        return {pg_text(k): pg_json(v) for k, v in value.items()}
    return value


def first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def document(row: tuple[Any, ...], turns: list[tuple[int, Any]]) -> tuple[dict[str, Any], str]:
    """The session document rebuilt from its rows: (data, "") when valid, else ({}, what is wrong)."""
    return session_document(dict(zip(SESSION_COLUMNS, row, strict=True)), turns)


def turn_row(sid: str, n: int, turn: Turn) -> tuple[Any, ...]:
    return (sid, n, turn.created_at, searchable(turn.messages), turn.to_json().decode("utf-8"))


def read_session(conn: psycopg.Connection[Any], sid: str, schema: str) -> tuple[Any, list[Any]]:
    """A session's row (None when there is none) and its turn rows, in one snapshot."""
    with conn.transaction():
        row = conn.execute(named(SELECT_SESSION, schema), (sid,)).fetchone()
        return row, conn.execute(named(SELECT_TURNS, schema), (sid,)).fetchall()


def listing(
    run: Callable[[Callable[[psycopg.Connection[Any]], Any]], Any], schema: str, limit: int = 0
) -> list[SessionInfo]:
    """The newest ``limit`` sessions (every one when 0), newest first, each checked as :func:`document` checks it
    for a load (its row and every turn row), so a session that would not load is listed with ``broken`` set, as the
    JSON store lists a bad file.

    ``run`` is the store's way to make one bounded database call. The turns are read :data:`LIST_CHUNK` sessions a
    call, so a large store's listing is many short calls, not one that outlasts its wait; a session that looks
    damaged is read again on its own, in one snapshot, so a save made between two calls never shows as damage.
    """
    rows = run(lambda c: c.execute(named(LIST, schema), (limit or None,)).fetchall())
    out = []
    for start in range(0, len(rows), LIST_CHUNK):
        chunk = rows[start : start + LIST_CHUNK]
        ids = [row[0] for row in chunk]
        by_id = {sid: (n, text) for sid, n, text in run(partial(_turns_of, ids=ids, schema=schema))}
        for row in chunk:
            numbers, text = by_id.pop(row[0], ([], "[]"))
            info = listed(row, list(zip(numbers, json.loads(text), strict=True)))
            if info.broken:  # or changed since the row was read: look again, at this session alone
                again, turns = run(partial(read_session, sid=row[0], schema=schema))
                if again is None:
                    continue  # deleted meanwhile
                info = listed(again, turns)
            out.append(info)
    return out


def count_sessions(conn: psycopg.Connection[Any], schema: str) -> int:
    """How many sessions the role has: an index-only count, no session or turn read."""
    row = conn.execute(named(COUNT, schema)).fetchone()
    return int(row[0]) if row else 0


def _turns_of(conn: psycopg.Connection[Any], ids: list[str], schema: str) -> list[Any]:
    return conn.execute(named(LIST_TURNS, schema), (ids,)).fetchall()


def newest_loadable(conn: psycopg.Connection[Any], schema: str) -> tuple[str | None, list[SessionInfo]]:
    """The newest session that loads (None when none does) and the damaged ones newer than it, reading the turn rows
    of those sessions only (``-c`` on a large store costs one session's turns, not the store's)."""
    skipped: list[SessionInfo] = []
    page, offset = 20, 0
    while ids := conn.execute(named(NEWEST, schema), (page, offset)).fetchall():
        for (sid,) in ids:
            row, turns = read_session(conn, sid, schema)
            if row is None:
                continue  # deleted meanwhile
            info = listed(row, turns)
            if not info.broken:
                return sid, skipped
            skipped.append(info)
        offset += page
    return None, skipped


def listed(row: tuple[Any, ...], turns: list[tuple[int, Any]]) -> SessionInfo:
    """A session's line in a listing, from its row and turn rows; ``broken`` says why it would not load."""
    cols = dict(zip(SESSION_COLUMNS, row, strict=True))
    _, problem = document(row, turns)
    first = turns[0][1] if turns and turns[0][0] == 1 else None
    title = shown_title(cols["title"], first)
    return SessionInfo(cols["id"], title, cols["turn_count"], cols["updated_at"], cols["model"], problem)
