"""The SQLite store's file: its tables, made to be read with ``sqlite3`` or Datasette, how a file is opened, and how a
write begins (waiting for another process's in 1 ms steps).

One file holds every session::

    chatbot_schema   one row: the schema version of the file (1)
    sessions         one row per session: every document field but the turns in a column of its own (the JSON ones
                     as JSON text), turn_count and revision (bumped by every save)
    turns            one row per turn: (session_id, n) with n from 1, created_at, its searchable text (body) and
                     the turn's JSON (data)
    turns_search     the FTS5 trigram index of turns.body (kept by triggers), when the SQLite build has FTS5
    turn_log         a view: one line per turn with its session's title and model, the user's message, the reply,
                     the tokens the provider counted and the latency

Opening refuses, with one line and without writing a byte, a file that is not a SQLite database, one that is
damaged, one whose tables something else made, and one made by a newer chatbot (:func:`open_database`).
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import time
from pathlib import Path
from typing import Any

from chatbot.engine.turn import json_bytes
from chatbot.errors import SessionError
from chatbot.storage import files

SCHEMA_VERSION = 1
#: how long a statement waits for another process's write before it gives up (a save takes milliseconds)
BUSY_TIMEOUT_MS = 10_000
_MAGIC = b"SQLite format 3\x00"

TABLES = [
    "CREATE TABLE chatbot_schema (version INTEGER NOT NULL)",
    """CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        endpoint TEXT NOT NULL DEFAULT '',
        system TEXT NOT NULL,
        summary TEXT NOT NULL,
        summary_covers INTEGER NOT NULL,
        turn_count INTEGER NOT NULL,
        totals TEXT NOT NULL,
        calibration TEXT NOT NULL,
        options TEXT NOT NULL,
        tool_sources TEXT NOT NULL,
        rule TEXT NOT NULL,
        summaries TEXT NOT NULL,
        version INTEGER NOT NULL,
        revision INTEGER NOT NULL
    )""",
    """CREATE TABLE turns (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        n INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        body TEXT NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (session_id, n)
    )""",
    "CREATE INDEX sessions_recent ON sessions (updated_at DESC, created_at DESC, id)",
    "CREATE INDEX turns_recent ON turns (created_at DESC, session_id, n)",
    # what a person reads: a turn's text and usage in columns (the JSON is checked first: a damaged row is blank)
    """CREATE VIEW turn_log AS SELECT t.session_id, s.title, s.model, t.n, t.created_at,
        CASE WHEN json_valid(t.data) THEN json_extract(t.data, '$.messages[0].content') END AS user_text,
        CASE WHEN json_valid(t.data) THEN json_extract(t.data, '$.messages[#-1].content') END AS reply_text,
        CASE WHEN json_valid(t.data) THEN json_extract(t.data, '$.usage.prompt_tokens') END AS prompt_tokens,
        CASE WHEN json_valid(t.data) THEN json_extract(t.data, '$.usage.completion_tokens') END AS completion_tokens,
        CASE WHEN json_valid(t.data) THEN json_extract(t.data, '$.latency') END AS latency_s
        FROM turns t JOIN sessions s ON s.id = t.session_id""",
]
#: the trigram index and the triggers that keep it (an external-content table: the text is stored once, in turns)
SEARCH_INDEX = [
    "CREATE VIRTUAL TABLE turns_search USING fts5(body, content='turns', content_rowid='id', tokenize='trigram')",
    """CREATE TRIGGER turns_search_insert AFTER INSERT ON turns BEGIN
        INSERT INTO turns_search (rowid, body) VALUES (new.id, new.body); END""",
    """CREATE TRIGGER turns_search_delete AFTER DELETE ON turns BEGIN
        INSERT INTO turns_search (turns_search, rowid, body) VALUES ('delete', old.id, old.body); END""",
    """CREATE TRIGGER turns_search_update AFTER UPDATE ON turns BEGIN
        INSERT INTO turns_search (turns_search, rowid, body) VALUES ('delete', old.id, old.body);
        INSERT INTO turns_search (rowid, body) VALUES (new.id, new.body); END""",
]

SESSION_COLUMNS = (
    "id", "title", "created_at", "updated_at", "provider", "model", "endpoint", "system", "summary", "summary_covers",
    "turn_count", "totals", "calibration", "options", "tool_sources", "rule", "summaries", "version",
    "revision",
)  # fmt: skip
#: the columns whose text is JSON (decoded when a session is read)
JSON_COLUMNS = ("totals", "calibration", "options", "tool_sources", "rule", "summaries")
SELECT_SESSION = f"SELECT {', '.join(SESSION_COLUMNS)} FROM sessions WHERE id = ?"
SELECT_TURNS = "SELECT n, data FROM turns WHERE session_id = ? ORDER BY n"
NEWEST_FIRST = "ORDER BY updated_at DESC, created_at DESC, id"
LIST = f"SELECT {', '.join(SESSION_COLUMNS)} FROM sessions {NEWEST_FIRST} LIMIT ? OFFSET ?"
INSERT_SESSION = (
    f"INSERT INTO sessions ({', '.join(SESSION_COLUMNS)}) VALUES ({', '.join('?' * (len(SESSION_COLUMNS) - 1))}, 1) "
    "ON CONFLICT (id) DO NOTHING RETURNING revision"
)
UPDATE_SESSION = (
    f"UPDATE sessions SET {', '.join(f'{c} = ?' for c in SESSION_COLUMNS[1:-1])}, revision = revision + 1 "
    "WHERE id = ? AND revision = ? RETURNING revision"
)
INSERT_TURN = "INSERT INTO turns (session_id, n, created_at, body, data) VALUES (?, ?, ?, ?, ?)"
# a search: the newest matching turns the index knows (by row id), and those it may have stored earlier with a time
# as new (an import keeps its turns' times), each with how often the query occurs in it: see SqliteStore.search
SEARCH_INDEXED = "SELECT rowid FROM turns_search WHERE turns_search MATCH ? ORDER BY rowid DESC LIMIT ?"
_FOUND = "SELECT id, session_id, n, created_at, chatbot_count(body, :query) AS hits FROM turns"
FOUND_BY_ID = f"{_FOUND} WHERE id IN (SELECT value FROM json_each(:ids))"
FOUND_LATE = f"""{_FOUND} WHERE id IN (SELECT id FROM turns INDEXED BY turns_recent
    WHERE created_at >= :oldest AND id < :first) AND hits > 0"""
FOUND_SCAN = f"{_FOUND} INDEXED BY turns_recent WHERE hits > 0 ORDER BY created_at DESC, session_id, n LIMIT :window"
TURNS_BY_ID = "SELECT id, data FROM turns WHERE id IN (SELECT value FROM json_each(?))"
# each session's title and first turn (what a listing shows for an untitled session)
TITLES = """SELECT s.id, s.title, t.data FROM sessions s LEFT JOIN turns t ON t.session_id = s.id AND t.n = 1
    WHERE s.id IN (SELECT value FROM json_each(?))"""


def count(body: str, query: str) -> int:
    """How often the lowered query occurs in a turn's text (``chatbot_count`` in SQL), as the JSON store counts it:
    case-insensitive, whitespace runs as one space (both sides are stored that way), never across two messages."""
    return body.lower().count(query)


def first_line(exc: BaseException) -> str:
    """What SQLite said, in one line."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def damaged(path: Path, exc: BaseException) -> SessionError:
    """The one line for a database SQLite cannot read (nothing was written to it)."""
    return SessionError(
        f"the session store {path} cannot be read: {first_line(exc)}. It was left untouched; move it away (or repair "
        f"it with sqlite3 {path} .recover) to start a new one there"
    )


def open_database(path: Path) -> tuple[sqlite3.Connection, list[str], bool]:
    """Open (or make, 0600 in a 0700 folder when new) the store's file: the connection, warnings for the user, and
    whether it has the FTS5 search index. Refuses a file that is not this store's, writing nothing to it."""
    warnings = _private_file(path)
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise SessionError(f"cannot open the session store {path}: {exc}") from None
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        _check_foreign(path, conn, names)
        conn.execute("PRAGMA journal_mode = WAL")  # readers never wait for a writer; a commit is one WAL append
        conn.execute("PRAGMA synchronous = FULL")  # ...fsynced: a commit survives a power cut, not only a kill -9
        conn.execute("PRAGMA foreign_keys = ON")
        conn.create_function("chatbot_count", 2, count, deterministic=True)
        if "chatbot_schema" not in names:
            _create(conn)
        else:
            _add_columns(conn)
        indexed = "turns_search" in {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    except sqlite3.OperationalError as exc:  # a read-only file or folder, a full disk: the file is sound
        conn.close()
        raise SessionError(f"cannot open the session store {path}: {first_line(exc)}") from None
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise damaged(path, exc) from None
    except BaseException:
        conn.close()
        raise
    return conn, warnings, indexed


def empty_database() -> tuple[sqlite3.Connection, bool]:
    """An empty store in memory, and whether it has the search index: what a store file that does not exist yet
    reads as (no sessions), so that a look at one (a listing, a search, a timeline) makes no file."""
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    conn.create_function("chatbot_count", 2, count, deterministic=True)
    _create(conn)
    return conn, "turns_search" in {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}


def _private_file(path: Path) -> list[str]:
    """Make the file (0600) and its folder (0700) when missing; a file of the user's that others can read is warned
    about, not changed. Refuses what is not a regular file, or not a SQLite database, unread by SQLite."""
    if not path.parent.is_dir():
        files.open_private_directory(path.parent)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        pass
    except OSError as exc:
        raise SessionError(f"cannot create the session store {path}: {exc.strerror}") from None
    else:
        os.close(fd)
        files.fsync_directory(path.parent)
        return []
    try:
        head, st = files.read_regular(path, len(_MAGIC))
    except files.NotRegularFile as exc:
        raise SessionError(f"the session store {path} is {exc.strerror}; name a SQLite file") from None
    except OSError as exc:
        raise SessionError(f"cannot read the session store {path}: {exc.strerror}") from None
    if head and head != _MAGIC:
        raise SessionError(
            f"{path} is not a SQLite database (it does not start as one); it was left untouched. Name another "
            f"file for the SQLite store, or use --store file://DIR for a folder of JSON sessions"
        )
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o077:
        return [f"session store {path} is readable by other users (mode {mode:o}); run `chmod 600 {path}`"]
    return []


def _check_foreign(path: Path, conn: sqlite3.Connection, names: set[str]) -> None:
    """Refuse a database another program made, or a newer chatbot (left as it is)."""
    if "chatbot_schema" not in names:
        others = sorted(n for n in names if not n.startswith("sqlite_"))
        if others:
            raise SessionError(
                f"{path} is a SQLite database of something else (it holds {', '.join(others[:5])}); it was left "
                "untouched. Name a new file for the session store"
            )
        return
    row = conn.execute("SELECT max(version) FROM chatbot_schema").fetchone()
    if row is None or not isinstance(row[0], int):
        raise SessionError(f"the session store {path} has no schema version; it was left untouched")
    if row[0] > SCHEMA_VERSION:
        raise SessionError(
            f"the session store {path} was made by a newer chatbot (schema {row[0]}; this one reads "
            f"{SCHEMA_VERSION}); it was left untouched: upgrade chatbot to use it"
        )


def _create(conn: sqlite3.Connection) -> None:
    """The tables, in one transaction (a second process making them at the same time waits, then finds them)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'chatbot_schema'").fetchone() is None:
            for statement in TABLES:
                conn.execute(statement)
            if fts5_available(conn):
                for statement in SEARCH_INDEX:
                    conn.execute(statement)
            conn.execute("INSERT INTO chatbot_schema (version) VALUES (?)", (SCHEMA_VERSION,))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


#: columns added after the first files were made: an earlier file gets them when it is opened (an older chatbot
#: names its columns in every statement, so it still reads and writes the file; a row it inserts takes the default)
ADDED_COLUMNS = {"endpoint": "ALTER TABLE sessions ADD COLUMN endpoint TEXT NOT NULL DEFAULT 'unknown'"}


def _add_columns(conn: sqlite3.Connection) -> None:
    """Add the columns an earlier chatbot's file lacks, in one transaction (a second process opening the same file
    at the same time waits, then finds them)."""
    if not ADDED_COLUMNS.keys() - _session_columns(conn):
        return
    begin_write(conn)
    try:
        for name in ADDED_COLUMNS.keys() - _session_columns(conn):
            conn.execute(ADDED_COLUMNS[name])
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _session_columns(conn: sqlite3.Connection) -> set[str]:
    return {row[1] for row in conn.execute("PRAGMA table_info(sessions)")}


def fts5_available(conn: sqlite3.Connection) -> bool:
    """Whether this SQLite build has FTS5 with the trigram tokenizer (3.34 and later)."""
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.chatbot_probe USING fts5(x, tokenize='trigram')")
    except sqlite3.OperationalError:
        return False
    conn.execute("DROP TABLE temp.chatbot_probe")
    return True


def begin_write(conn: sqlite3.Connection) -> None:
    """Begin a write transaction, waiting for another process's write in 1 ms steps (up to ``busy_timeout``).

    SQLite's own wait polls in steps that grow to 100 ms, so a save that met another process's write often waited
    far longer than that write took; this one starts within a millisecond of the file being free."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    conn.execute("PRAGMA busy_timeout = 0")
    try:
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() >= deadline:
                    raise
                time.sleep(0.001)
    finally:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


def json_text(value: Any) -> str:
    """A JSON column's text (lone surrogates escaped, as in a session file)."""
    return json_bytes(value).decode("utf-8")


def decoded(text: object, damaged: object = None) -> Any:
    """A JSON column or turn decoded; one that does not parse is ``damaged`` (the session's check names it)."""
    try:
        return json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return damaged
