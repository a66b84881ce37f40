"""The PostgreSQL store's schema: its tables, its version, the statements the store runs, and rows <-> documents.

Kept apart from :mod:`chatbot.storage.postgres_store` so the store reads as what it does with sessions and this as
the SQL it rests on. Three tables, all prefixed ``chatbot_`` so they can share a database with other things::

    chatbot_schema    one row: the schema version this database holds
    chatbot_sessions  one row per session: every document field but the turns, in its own column, plus
                      turn_count (how many turn rows belong to it) and revision (bumped by every save)
    chatbot_turns     one row per turn: (session_id, n) with n from 1, the turn's JSON, and its text for search

The app creates the tables on first use and refuses a database whose schema is newer than it knows.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

from chatbot.engine.turn import Turn, one_line
from chatbot.errors import SessionCorrupt
from chatbot.storage.schema import check_session_data

SCHEMA_VERSION = 1

# Session-level advisory locks of sessions use the one-bigint form (a hash of this prefix + the id); the schema
# lock uses the two-int form, a separate key space, so it never collides with a session.
LOCK_PREFIX = "chatbot-session:"
SCHEMA_LOCK = (0x63686174, 0)  # "chat"

CREATE = [
    """CREATE TABLE IF NOT EXISTS chatbot_schema (version integer NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS chatbot_sessions (
        id text PRIMARY KEY,
        version integer NOT NULL,
        title text NOT NULL,
        system text NOT NULL,
        summary text NOT NULL,
        summary_covers integer NOT NULL,
        provider text NOT NULL,
        model text NOT NULL,
        totals jsonb NOT NULL,
        calibration jsonb NOT NULL,
        options jsonb NOT NULL,
        created_at text NOT NULL,
        updated_at text NOT NULL,
        turn_count integer NOT NULL,
        revision bigint NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS chatbot_turns (
        session_id text NOT NULL REFERENCES chatbot_sessions (id) ON DELETE CASCADE,
        n integer NOT NULL,
        created_at text NOT NULL,
        body text NOT NULL,
        data json NOT NULL,
        PRIMARY KEY (session_id, n)
    )""",
    "CREATE INDEX IF NOT EXISTS chatbot_sessions_updated ON chatbot_sessions (updated_at DESC)",
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
    "totals",
    "calibration",
    "options",
    "created_at",
    "updated_at",
    "turn_count",
    "revision",
)
TURN_COLUMNS = ("session_id", "n", "created_at", "body", "data")

LOCK = "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))"
UNLOCK = "SELECT pg_advisory_unlock(hashtextextended(%s, 0))"
# who holds a session's lock: the application_name every chatbot connection sets ("chatbot pid N on HOST")
HOLDER = """SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
    AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended(%s, 0) LIMIT 1"""

SELECT_SESSION = f"SELECT {', '.join(SESSION_COLUMNS)} FROM chatbot_sessions WHERE id = %s"
SELECT_TURNS = "SELECT n, data FROM chatbot_turns WHERE session_id = %s ORDER BY n"
INSERT_SESSION = (
    f"INSERT INTO chatbot_sessions ({', '.join(SESSION_COLUMNS)}) VALUES ({', '.join(['%s'] * len(SESSION_COLUMNS))}) "
    "ON CONFLICT (id) DO NOTHING"
)
UPDATE_SESSION = (
    "UPDATE chatbot_sessions SET "
    + ", ".join(f"{c} = %s" for c in SESSION_COLUMNS[1:])
    + " WHERE id = %s AND revision = %s"
)
DELETE_TURNS_AFTER = "DELETE FROM chatbot_turns WHERE session_id = %s AND n > %s"
INSERT_TURN = f"INSERT INTO chatbot_turns ({', '.join(TURN_COLUMNS)}) VALUES (%s, %s, %s, %s, %s)"
LIST = """SELECT s.id, s.version, s.title, s.turn_count, s.updated_at, s.model, s.summary_covers, t.data
    FROM chatbot_sessions s LEFT JOIN chatbot_turns t ON t.session_id = s.id AND t.n = 1
    ORDER BY s.updated_at DESC, s.id"""
# case-insensitive substring, like the JSON store; the session's newest first, its turns in order
SEARCH = r"""SELECT s.id, s.title, t.n, t.created_at, t.data,
    (SELECT f.data FROM chatbot_turns f WHERE f.session_id = s.id AND f.n = 1)
    FROM chatbot_turns t JOIN chatbot_sessions s ON s.id = t.session_id
    WHERE t.body ILIKE '%%' || %s || '%%' ESCAPE '\'
    ORDER BY s.updated_at DESC, s.id, t.n LIMIT %s"""


def shown_title(title: str, first_turn: object) -> str:
    """A session's title, or the start of its first user message (the first turn's decoded JSON, if any).

    The turn is decoded here rather than with ``->>`` in SQL: PostgreSQL cannot turn a JSON ``\\u0000`` into text.
    """
    if title or not isinstance(first_turn, dict):
        return title
    messages = first_turn.get("messages")
    content = (
        messages[0].get("content")
        if isinstance(messages, list) and messages and isinstance(messages[0], dict)
        else None
    )
    return one_line(content, 50) if isinstance(content, str) else ""


def like_escape(text: str) -> str:
    """``text`` as a literal inside an ILIKE pattern (its %, _ and \\ escaped)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def pg_text(text: str) -> str:
    """A string PostgreSQL can store in a text column: no NUL, no lone surrogate (both become U+FFFD)."""
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)
    return text


def redact(url: str) -> str:
    """A connection URL without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def ensure_schema(conn: psycopg.Connection[Any], location: str) -> None:
    """Create the tables if needed (one process at a time); refuse a newer schema or tables chatbot did not make."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", SCHEMA_LOCK)  # one creator at a time
        for table, wanted in (("chatbot_sessions", SESSION_COLUMNS), ("chatbot_turns", TURN_COLUMNS)):
            found = {r[0] for r in conn.execute(_COLUMNS_OF, (table,))}
            if found and not set(wanted) <= found:
                raise SessionCorrupt(
                    f"the table {table} in {location} was not made by chatbot (it has no column "
                    f"{', '.join(sorted(set(wanted) - found))}); it was left untouched: point --store at another "
                    f"database or schema"
                )
        for statement in CREATE:
            conn.execute(statement)
        row = conn.execute("SELECT max(version) FROM chatbot_schema").fetchone()
        if row is None or row[0] is None:
            conn.execute("INSERT INTO chatbot_schema (version) VALUES (%s)", (SCHEMA_VERSION,))
        elif row[0] > SCHEMA_VERSION:
            raise SessionCorrupt(
                f"the session store {location} has chatbot schema version {row[0]}, made by a newer "
                f"chatbot; this one knows version {SCHEMA_VERSION}: upgrade chatbot"
            )


_COLUMNS_OF = (
    "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = %s"
)


def first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def kept_prefix(turns: list[Turn], stored: list[bytes]) -> int:
    """How many leading turns are stored as they are now.

    Turns are only ever appended, dropped from the end (/undo, /reset) or replaced whole, and a turn's cached
    JSON is a new object whenever one of its fields is assigned: so when the last stored turn is still in place,
    unchanged, every one before it is too (the common case, one check); otherwise compare from the start.
    """
    k = len(stored)
    if k <= len(turns) and (k == 0 or turns[k - 1].to_json() is stored[k - 1]):
        return k
    n = 0
    while n < min(k, len(turns)) and turns[n].to_json() is stored[n]:
        n += 1
    return n


def turn_row(sid: str, n: int, turn: Turn) -> tuple[Any, ...]:
    texts = [m.get("content") for m in turn.messages if m.get("role") in ("user", "assistant", "tool")]
    body = "\n".join(" ".join(t.split()) for t in texts if isinstance(t, str))
    return (sid, n, turn.created_at, pg_text(body), turn.to_json().decode("utf-8"))


def document(row: tuple[Any, ...], turns: list[tuple[int, Any]]) -> tuple[dict[str, Any], str]:
    """The session document rebuilt from its rows: (data, "") when valid, else ({}, what is wrong)."""
    cols = dict(zip(SESSION_COLUMNS, row, strict=True))
    numbers = [n for n, _ in turns]
    if numbers != list(range(1, len(turns) + 1)) or len(turns) != cols["turn_count"]:
        return (
            {},
            f"its turn rows are {numbers[:10]}{'…' if len(numbers) > 10 else ''}, expected 1 to {cols['turn_count']}",
        )
    data = {k: cols[k] for k in ("version", "id", "title", "created_at", "updated_at", "provider", "model", "system")}
    data["summary"] = {"text": cols["summary"], "covers": cols["summary_covers"]}
    data["turns"] = [t for _, t in turns]
    data["totals"], data["calibration"], data["options"] = cols["totals"], cols["calibration"], cols["options"]
    problem = check_session_data(data)
    return (data, "") if not problem else ({}, problem)
