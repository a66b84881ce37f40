"""The SQLite session store: every session in one file (``--store sqlite:///chat.db``), readable with SQL.

The same :class:`~chatbot.storage.base.SessionStore` as the JSON files and PostgreSQL, on the tables of
:mod:`~.sqlite_schema`, with Python's own ``sqlite3``. What it promises:

- **A turn's save is one transaction** (row update plus the new turn rows), in WAL mode with ``synchronous=FULL``:
  a kill -9 or a power cut leaves the previous save or the new one. It costs the same at 10 or 1,000 turns.
- **One process at a time per session**: an flock on ``<file>-locks/<id>.lock`` (the folder made 0700 on the first
  lock), which the OS drops when the process dies; a second process is refused naming it ("pid 42"). Writers of
  different sessions share the file: each waits its turn for the write (``busy_timeout``, 10 s), never an error.
- **Nothing overwritten blindly**: a save names the revision it last saw; a session whose rows do not load is refused
  by name and never written over; a file that is not this store's is refused whole (:mod:`~.sqlite_schema`).
- **Search by the FTS5 trigram index** (Korean and substrings alike), in the order every store gives; without FTS5
  in the SQLite build, a scan (said once, at open).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import now_iso
from chatbot.errors import SessionChanged, SessionCorrupt, SessionError, SessionLocked, SessionNotFound
from chatbot.storage import files, sqlite_address
from chatbot.storage import sqlite_schema as sql
from chatbot.storage.base import SessionStore, locked_message, make_id
from chatbot.storage.export import export_markdown
from chatbot.storage.rows import UNDECODABLE, clean_text, kept_prefix, searchable, session_document, shown_title
from chatbot.storage.session import SEARCH_WINDOW, SearchHit, Session, SessionInfo, search_turns, validate_id

T = TypeVar("T")


class SqliteLock(files.HeldFlock):
    """A held session lock: an flock on the session's lock file. Use as a context manager or call release()."""

    def __init__(self, store: SqliteStore, session_id: str, fd: int) -> None:
        super().__init__(store.lock_path(session_id), session_id, fd)
        self._store = store

    def _let_go(self, fd: int) -> None:
        # its file goes first, while still held: the folder keeps live locks only (a process that opened the old
        # file meanwhile finds it gone once it has the flock, and tries again)
        if self._store._locks.get(self.id) is self:
            del self._store._locks[self.id]
        with contextlib.suppress(OSError):
            if files.same_file(os.fstat(fd), os.stat(self.path)):
                self.path.unlink()


class SqliteStore(SessionStore):
    """Sessions in one SQLite file: ``location`` is a ``sqlite:`` URL or the file's path (:mod:`~.sqlite_address`);
    see the module docstring."""

    def __init__(self, location: str | os.PathLike[str]) -> None:
        text = os.fspath(location)
        self.path = sqlite_address.path_of(text)
        new = not self.path.exists()
        # what reopens it, in messages and in the --store a listing suggests: a path with a SQLite suffix as it is
        suffixed = self.path.name.lower().endswith(sqlite_address.SUFFIXES)
        self.location = str(self.path) if suffixed else f"sqlite:{self.path}"
        self.locks_dir = self.path.with_name(f"{self.path.name}-locks")
        journals = tuple(self.path.with_name(f"{self.path.name}-{end}") for end in ("wal", "shm", "journal"))
        self.paths = (self.path, *journals, self.locks_dir)  # the database, SQLite's files beside it, the locks
        self.warnings: list[str] = []
        if new:  # made by the first lock or save: a look at a store that is not there (a listing) makes no file
            self._conn, self.indexed = sql.empty_database()
        else:
            self._conn, self.warnings, self.indexed = sql.open_database(self.path)
        self._made = not new
        if new and sqlite_address.looks_absolute(text):
            rest = text.removeprefix("sqlite:///")
            self.warnings.append(
                f"no session store at {self.path} yet (a session saved makes it): sqlite:///{rest} is relative to "
                f"this folder; sqlite:////{rest} (four slashes) is /{rest}"
            )
        if not self.indexed:
            self.warnings.append(f"this SQLite has no FTS5: /search in {self.path} reads every turn")
        self._mutex = threading.RLock()  # one connection, used by the chat and a summary thread alike
        self._locks: dict[str, SqliteLock] = {}
        self._revision: dict[str, int] = {}  # per session: the revision this store last loaded or saved
        self._stored: dict[str, list[bytes]] = {}  # per session: the cached JSON of each stored turn, in order

    def _run(self, work: Callable[[sqlite3.Connection], T], write: bool = False) -> T:
        """Run ``work`` on the connection: a database SQLite cannot read is one line, never a traceback. The file is
        made for a ``write``; until then, reads go to an empty store in memory (or to the file once another process
        made it)."""
        with self._mutex:
            if not self._made and (write or self.path.exists()):
                self._make()
            try:
                return work(self._conn)
            except sqlite3.OperationalError as exc:  # busy, a full disk, a read-only file...: the file is sound
                if "locked" in str(exc) or "busy" in str(exc):
                    raise SessionError(
                        f"the session store {self.path} stayed busy for {sql.BUSY_TIMEOUT_MS // 1000} s (another "
                        "process was writing to it); try again"
                    ) from None
                raise SessionError(f"the session store {self.path} failed: {sql.first_line(exc)}") from None
            except sqlite3.DatabaseError as exc:  # not a database, or a damaged one
                raise sql.damaged(self.path, exc) from None

    def _make(self) -> None:
        """Open the store's file, making it (0600, in a 0700 folder) when it is still missing."""
        conn, warnings, self.indexed = sql.open_database(self.path)
        self._conn.close()  # the empty one in memory
        self._conn, self._made = conn, True
        self.warnings += warnings

    @contextlib.contextmanager
    def _transaction(self, conn: sqlite3.Connection, write: bool = False) -> Iterator[None]:
        if write:
            sql.begin_write(conn)
        else:
            conn.execute("BEGIN")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    # --- locking ----------------------------------------------------------------------------------------------

    def lock_path(self, session_id: str) -> Path:
        """The lock file of a (validated) id."""
        return self.locks_dir / f"{validate_id(session_id)}.lock"

    def acquire(self, session_id: str, timeout: float = 0.0) -> SqliteLock:
        """Lock a session for this process; raises :class:`SessionLocked` naming the holder."""
        held = self._locks.get(session_id)
        if held is not None and held.held:
            return held
        path = self.lock_path(session_id)
        self._run(lambda conn: None, write=True)  # a session opened to be written: its store is made now, not later
        if not self.locks_dir.is_dir():
            self.warnings += files.open_private_directory(self.locks_dir)
        fd = files.lock_with_pid(path, timeout)
        if fd is None:
            raise SessionLocked(locked_message(session_id, files.lock_holder(path)))
        lock = SqliteLock(self, session_id, fd)
        self._locks[session_id] = lock
        return lock

    def holds(self, session_id: str) -> bool:
        """Whether this store holds the lock of ``session_id``."""
        lock = self._locks.get(session_id)
        return lock is not None and lock.held

    # --- reading ----------------------------------------------------------------------------------------------

    def new_id(self) -> str:
        """A short readable id not used in the file."""
        return make_id(lambda sid: self.exists(sid) or self.lock_path(sid).exists(), self.location)

    def exists(self, session_id: str) -> bool:
        """Whether a session with this id is stored (loadable or not)."""
        sid = validate_id(session_id)
        return self._run(lambda c: c.execute("SELECT 1 FROM sessions WHERE id = ?", (sid,)).fetchone()) is not None

    def _read(self, conn: sqlite3.Connection, sid: str) -> tuple[dict[str, Any] | None, list[tuple[int, Any]]]:
        """A session's row (by column; None when there is none) and its decoded turn rows, in one snapshot."""
        with self._transaction(conn):
            row = conn.execute(sql.SELECT_SESSION, (sid,)).fetchone()
            turns = conn.execute(sql.SELECT_TURNS, (sid,)).fetchall()
        if row is None:
            return None, []
        cols = dict(zip(sql.SESSION_COLUMNS, row, strict=True))
        for name in sql.JSON_COLUMNS:
            cols[name] = sql.decoded(cols[name], UNDECODABLE)
        return cols, [(n, sql.decoded(data, UNDECODABLE)) for n, data in turns]

    def _checked(self, sid: str) -> tuple[dict[str, Any] | None, SessionInfo | None, dict[str, Any]]:
        """A session's row, its listing line (``broken`` says why it would not load) and its document."""
        cols, turns = self._run(lambda c: self._read(c, sid))
        if cols is None:
            return None, None, {}
        data, problem = session_document(cols, turns)
        title = shown_title(cols["title"], turns[0][1] if turns and turns[0][0] == 1 else None)
        info = SessionInfo(sid, title, cols["turn_count"], cols["updated_at"], cols["model"], problem)
        return cols, info, data

    def load(self, session_id: str, memory: MemoryConfig | None = None, counter: TokenCounter | None = None) -> Session:
        """Read a session; :class:`SessionNotFound`, or :class:`SessionCorrupt` naming it and the fault."""
        sid = validate_id(session_id)
        cols, info, data = self._checked(sid)
        if cols is None or info is None:
            raise SessionNotFound(f"no session {sid} in {self.location}")
        if info.broken:
            self._revision.pop(sid, None)  # what this store wrote is not what is there: never overwrite it
            raise SessionCorrupt(
                f"session {sid} in {self.location} cannot be loaded: {info.broken}. It was left untouched and will "
                f"not be overwritten; start another session (--session with a new id)"
            )
        session = Session.from_dict(data, sid, memory, counter)
        self._revision[sid] = cols["revision"]
        self._stored[sid] = [t.to_json() for t in session.conversation.turns]
        return session

    def list_sessions(self, limit: int = 0) -> list[SessionInfo]:
        """The newest ``limit`` sessions (all when 0), newest first, each checked as a load checks it."""
        ids = self._newest(limit or -1, 0)
        infos = [self._checked(sid)[1] for sid in ids]
        return [info for info in infos if info is not None]  # (one deleted meanwhile is left out)

    def _newest(self, limit: int, offset: int) -> list[str]:
        """The ids of the newest sessions (``limit`` of them, -1 for all, after the first ``offset``), newest first."""
        return self._run(lambda c: [r[0] for r in c.execute(sql.LIST, (limit, offset))])

    def count_sessions(self) -> int:
        """How many sessions the file holds, none of them read."""
        return int(self._run(lambda c: c.execute("SELECT count(*) FROM sessions").fetchone()[0]))

    def latest(self) -> str | None:
        """The id of the most recently used session that loads, or None."""
        return self.choose_latest()[0]

    def choose_latest(self) -> tuple[str | None, list[SessionInfo]]:
        """What ``-c`` continues: the newest session that loads, and the damaged ones newer than it; reads those
        sessions only."""
        skipped: list[SessionInfo] = []
        for offset in itertools.count(0, 20):
            ids = self._newest(20, offset)
            if not ids:
                break
            for sid in ids:  # read one by one: the newest usually loads, and the others are not read at all
                info = self._checked(sid)[1]
                if info is not None and not info.broken:
                    return sid, skipped
                skipped += [info] if info is not None else []
        return None, skipped

    def search(self, text: str, limit: int = 50) -> list[SearchHit]:
        """Stored turns whose text contains ``text`` (case-insensitive): the turns with the most occurrences first,
        then the newest (:func:`~.session.ranked`, of the newest :data:`~.session.SEARCH_WINDOW` matches).

        With the trigram index: the newest matches it knows by row id, plus any turn stored before them whose time
        is as new as theirs (an import keeps its turns' times), so the window is exact. A query shorter than three
        characters, or a file without the index, is a scan of the turns newest first. Only the turns shown are
        decoded."""
        query = clean_text(" ".join(text.split()))
        if not query:
            return []
        params = {"query": query.lower(), "window": SEARCH_WINDOW}
        if self.indexed and len(query) >= 3:
            found = self._run(lambda c: self._indexed(c, query, params))
        else:
            found = self._run(lambda c: c.execute(sql.FOUND_SCAN, params).fetchall())
        found = [row for row in found if row[4] > 0]  # (a trigram match whose case folding is not Python's)
        found.sort(key=lambda row: (row[1], row[2]))  # the order of session.ranked, on rows not yet decoded
        found.sort(key=lambda row: row[3], reverse=True)
        del found[SEARCH_WINDOW:]
        found.sort(key=lambda row: row[4], reverse=True)
        shown = found[:limit]
        data = dict(self._run(lambda c: c.execute(sql.TURNS_BY_ID, (json.dumps([r[0] for r in shown]),)).fetchall()))
        sids = json.dumps(sorted({row[1] for row in shown}))
        titles = {sid: shown_title(title, sql.decoded(first)) for sid, title, first in self._run(
            lambda c: c.execute(sql.TITLES, (sids,)).fetchall())}  # fmt: skip
        hits = []
        for row_id, sid, n, _created, _hits in shown:
            turn = sql.decoded(data.get(row_id))
            if isinstance(turn, dict) and isinstance(turn.get("messages"), list):  # a damaged row: never a crash
                with contextlib.suppress(AttributeError, TypeError):
                    hits += [replace(hit, turn=n) for hit in search_turns(sid, titles[sid], [turn], query)]
        return hits

    def _indexed(self, conn: sqlite3.Connection, query: str, params: dict[str, Any]) -> list[Any]:
        phrase = '"' + query.replace('"', '""') + '"'
        ids = [r[0] for r in conn.execute(sql.SEARCH_INDEXED, (phrase, SEARCH_WINDOW))]
        rows = conn.execute(sql.FOUND_BY_ID, {**params, "ids": json.dumps(ids)}).fetchall()
        if len(ids) < SEARCH_WINDOW:
            return rows  # every match
        late = {**params, "oldest": min(row[3] for row in rows), "first": min(ids)}
        return rows + conn.execute(sql.FOUND_LATE, late).fetchall()

    def export(self, session_id: str) -> str:
        """The Markdown transcript of a stored session."""
        return export_markdown(self.load(session_id))

    # --- writing ----------------------------------------------------------------------------------------------

    def save(self, session: Session, *, touch: bool = True) -> None:
        """Store the session in one transaction: its row updated, its new turns inserted (needs its lock)."""
        sid = validate_id(session.id)
        if not self.holds(sid):
            raise SessionLocked(
                f"session {sid} is not locked by this process (its lock was lost, or never taken): saving it now "
                "could overwrite another process's turns"
            )
        if touch:
            session.updated_at = now_iso()
        with files.signals_deferred():  # Ctrl-C, SIGTERM and SIGHUP wait for the commit and this store's record of it
            self._run(lambda conn: self._write(conn, session), write=True)

    def _write(self, conn: sqlite3.Connection, session: Session) -> None:
        sid = session.id
        turns = session.conversation.turns
        stored = self._stored.setdefault(sid, [])
        keep = kept_prefix(turns, stored)
        old = self._revision.get(sid)
        doc = session.fields()
        summary = doc["summary"]
        named = ("title", "created_at", "updated_at", "provider", "model", "endpoint", "system")
        text = [clean_text(doc[c]) for c in named]
        json_columns = [sql.json_text(doc[c]) for c in sql.JSON_COLUMNS]
        values = (*text, clean_text(summary["text"]), summary["covers"], len(turns), *json_columns, doc["version"])
        tail = [t.to_json() for t in turns[keep:]]
        with self._transaction(conn, write=True):
            if old is None:
                row = conn.execute(sql.INSERT_SESSION, (sid, *values)).fetchone()
            else:
                row = conn.execute(sql.UPDATE_SESSION, (*values, sid, old)).fetchone()
            if row is None:
                raise SessionChanged(
                    f"session {sid} in {self.location} was not loaded by this process (it was written by another "
                    "process since, or does not load); it was not overwritten"
                )
            if keep < len(stored):
                conn.execute("DELETE FROM turns WHERE session_id = ? AND n > ?", (sid, keep))
            conn.executemany(
                sql.INSERT_TURN,
                [
                    (sid, n, turn.created_at, searchable(turn.messages), encoded.decode("utf-8"))
                    for n, turn, encoded in zip(range(keep + 1, len(turns) + 1), turns[keep:], tail, strict=True)
                ],
            )
        self._revision[sid] = row[0]
        del stored[keep:]
        stored.extend(tail)

    def rename(self, session_id: str, title: str) -> None:
        """Give a stored session a title (takes its lock for the write unless this store holds it already)."""
        with self.acquire(session_id) if not self.holds(session_id) else contextlib.nullcontext():
            session = self.load(session_id)
            session.title = title
            self.save(session)

    def delete(self, session_id: str) -> None:
        """Remove a session and its turns; refuses a session another process has open."""
        sid = validate_id(session_id)
        if not self.exists(sid):
            raise SessionNotFound(f"no session {sid} in {self.location}")
        with self.acquire(sid):

            def remove(conn: sqlite3.Connection) -> None:
                with self._transaction(conn, write=True):
                    conn.execute("DELETE FROM turns WHERE session_id = ?", (sid,))
                    conn.execute("DELETE FROM sessions WHERE id = ?", (sid,))

            self._run(remove, write=True)
            self._revision.pop(sid, None)
            self._stored.pop(sid, None)

    def close(self) -> None:
        """Release every lock this store holds and close the file."""
        for lock in list(self._locks.values()):
            lock.release()
        with self._mutex, contextlib.suppress(sqlite3.Error):
            self._conn.close()
