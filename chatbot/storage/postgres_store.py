"""The PostgreSQL session store: sessions shared by every machine that can reach one database.

The same :class:`~chatbot.storage.base.SessionStore` as the JSON files, on the tables of :mod:`~.pg_schema`; needs
the ``postgres`` extra (psycopg 3). What it promises:

- **A save costs the same at 10 or 1,000 turns**: one transaction of one row update plus one insert per new turn.
  The store remembers which turns are stored (each turn's cached JSON, by identity): /undo and /reset delete only
  the rows after what is still there; a changed summary is a column of the update.
- **One process at a time per session**, on any host: a session-level advisory lock on this store's connection; a
  second process is refused naming the holder ("pid 42 on laptop"); a killed process's lock goes with it.
- **Each role its own sessions**: every statement names ``owner = current_user``, row-level security holds every other
  role to it (:mod:`~.pg_migrate`); a lock key hashes a secret only the role can read (:mod:`~.pg_lock`), so no
  other role can take a session's lock, or keep it.
- **Nothing overwritten blindly**: a save names the revision it last saw; changed or invalid rows are refused.
- **A lost connection loses nothing the user saw**: the failed save raises :class:`StoreUnavailable` (the chat keeps
  the turn and says so), the next save reconnects, takes its locks again and writes everything missing, and
  :meth:`PostgresStore.close` writes what still could not be saved to a rescue JSON file and names it.
- **A frozen network costs a bounded wait** (:mod:`~.pg_wait`): at most 10 s a call, 5 s a connection; a signal
  during the wait still arrives, and a save it stops says so (``Interrupted`` with ``unsaved``): it is rescued.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import psycopg
from psycopg.types.json import Json, Jsonb

from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import now_iso
from chatbot.errors import (
    Interrupted,
    SessionChanged,
    SessionCorrupt,
    SessionError,
    SessionLocked,
    SessionNotFound,
    StoreUnavailable,
)
from chatbot.storage import pg_address, pg_lock, pg_migrate, pg_names, pg_wait
from chatbot.storage import pg_schema as sql
from chatbot.storage.base import SessionStore, locked_message, make_id
from chatbot.storage.export import export_markdown
from chatbot.storage.pg_lock import AdvisoryLock
from chatbot.storage.rescue import rescue_in
from chatbot.storage.session import SEARCH_WINDOW, SearchHit, Session, SessionInfo, search_turns, validate_id
from chatbot.storage.session_format import check_turn
from chatbot.storage.transfer import default_rescue_dir

T = TypeVar("T")


class PostgresStore(SessionStore):
    """Sessions in a PostgreSQL database (``postgresql://user@host:port/db``). ``rescue_dir`` receives what
    could not be saved when the database stays unreachable."""

    def __init__(self, url: str, rescue_dir: str | os.PathLike[str] | None = None) -> None:
        self.url = url
        self.location = pg_address.redact(url)
        self.paths: tuple[Path, ...] = ()  # its sessions live on the database server
        self.warnings: list[str] = []
        self.rescue_dir = Path(rescue_dir) if rescue_dir else default_rescue_dir()
        self._conn: psycopg.Connection[Any] | None = None
        self.schema = ""  # the schema of its tables, read by the first connection (:mod:`~.pg_names`)
        self._locks: dict[str, AdvisoryLock] = {}
        self._revision: dict[str, int] = {}  # per session: the revision this store last loaded or saved
        self._stored: dict[str, list[bytes]] = {}  # per session: the cached JSON of each stored turn, in order
        # per session: a save whose commit went unanswered (its revision, the turns it kept, the JSON it added)
        self._attempt: dict[str, tuple[int, int, list[bytes]]] = {}
        self._unsaved: dict[str, Session] = {}  # sessions whose last save did not reach the database
        self._connection()

    # --- the connection ---------------------------------------------------------------------------------------

    def _connection(self) -> psycopg.Connection[Any]:
        """The live connection: (re)connects, makes sure of the schema, and takes this store's locks again."""
        if self._conn is not None and pg_wait.usable(self._conn):
            return self._conn
        name = f"chatbot pid {os.getpid()} on {socket.gethostname()}"  # the server keeps its first 63 characters
        try:
            conn = pg_wait.connect(self.url, name)
        except psycopg.Error as exc:
            raise StoreUnavailable(f"cannot reach the session store {self.location}: {self._said(exc)}") from None
        self._conn = conn
        try:
            pg_wait.answer(conn, pg_wait.bound_statements)
            self.schema = schema = pg_wait.answer(conn, lambda c: pg_names.pin(c, self.schema, self.location))
            warnings = pg_migrate.open_tables(conn, self.location, schema)
            self.warnings += [w for w in warnings if w not in self.warnings]  # once, however often it reconnects
            pg_wait.answer(conn, self._take_locks_again)
        except psycopg.OperationalError as exc:
            self._drop()
            raise StoreUnavailable(f"lost the session store {self.location}: {self._said(exc)}") from None
        except psycopg.Error as exc:
            self._drop()
            raise self._failed(exc) from None
        except BaseException:
            self._drop()
            raise
        return conn

    def _failed(self, exc: psycopg.Error) -> SessionError:
        """The store failed with ``exc``: what the server said, and for a missing grant what sets it right."""
        said = f"the session store {self.location} failed: {self._said(exc)}"
        if isinstance(exc, psycopg.errors.InsufficientPrivilege):
            said += (
                " (this role lacks a grant the store needs: its tables are made once by their owner, who grants "
                "the team's roles their use; the PostgreSQL store's documentation, 'one role per person', lists them)"
            )
        return SessionError(said)

    def _said(self, exc: BaseException) -> str:
        """What the server or libpq said, for a message: its first line, with no part of the password."""
        return pg_address.hide_password(sql.first_line(exc), self.url)

    def _sql(self, statement: str) -> str:
        """A statement of :mod:`~.pg_schema` naming this store's tables."""
        return pg_names.named(statement, self.schema)

    def _take_locks_again(self, conn: psycopg.Connection[Any]) -> None:
        """A new connection takes this store's locks again (each one another process took meanwhile is lost)."""
        for lock in self._locks.values():
            if pg_lock.take(conn, lock.key):
                lock.connection = conn  # taken again; else another process has it now

    def _drop(self) -> None:
        """Forget a broken connection (its advisory locks are gone with it)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            pg_wait.close(conn)

    def _run(self, work: Callable[[psycopg.Connection[Any]], T]) -> T:
        """Run ``work`` on the connection; a connection lost on the way is made again and the work retried once."""
        for attempt in (1, 2):
            conn = self._connection()
            try:
                return pg_wait.answer(conn, work)
            except psycopg.OperationalError as exc:
                self._drop()
                if attempt == 2:
                    raise StoreUnavailable(f"lost the session store {self.location}: {self._said(exc)}") from None
            except psycopg.Error as exc:
                raise self._failed(exc) from None
            except KeyboardInterrupt:  # a signal during the wait: the connection was given up
                self._drop()
                raise
        raise AssertionError("unreachable")  # the second attempt returns or raises

    # --- locking ----------------------------------------------------------------------------------------------

    def acquire(self, session_id: str, timeout: float = 0.0) -> AdvisoryLock:
        """Lock a session for this process on any host; raises :class:`SessionLocked` naming the holder."""
        sid = validate_id(session_id)
        held = self._locks.get(session_id)
        if held is not None and held.held:
            return held
        deadline = time.monotonic() + timeout
        while (attempt := self._run(lambda c: pg_lock.try_lock(c, sid, self.schema))).key is None:
            if time.monotonic() >= deadline:
                raise SessionLocked(locked_message(session_id, attempt.holder.removeprefix("chatbot ")))
            time.sleep(0.05)
        lock = AdvisoryLock(self, session_id, attempt.key, self._connection())
        self._locks[session_id] = lock
        return lock

    def holds(self, session_id: str) -> bool:
        """Whether this store holds the lock of ``session_id``."""
        lock = self._locks.get(session_id)
        return lock is not None and lock.held

    def lock_is_live(self, lock: AdvisoryLock) -> bool:
        """Whether ``lock`` is this store's and lives on its connection of the moment."""
        return pg_wait.usable(self._conn) and lock.connection is self._conn and self._locks.get(lock.id) is lock

    def release_lock(self, lock: AdvisoryLock) -> None:
        """Let ``lock`` go, on the server too while its connection lives (idempotent)."""
        if self._locks.get(lock.id) is not lock:
            return
        del self._locks[lock.id]
        if lock.connection is self._conn and pg_wait.usable(self._conn):
            with contextlib.suppress(psycopg.Error):  # a lost connection took the lock with it
                pg_wait.answer(lock.connection, lambda c: pg_lock.let_go(c, lock.key))

    # --- reading ----------------------------------------------------------------------------------------------

    def new_id(self) -> str:
        """A short readable id not used in the database."""
        return make_id(self.exists, self.location)

    def exists(self, session_id: str) -> bool:
        """Whether a session with this id is stored (loadable or not)."""
        sid = validate_id(session_id)
        return self._run(lambda c: c.execute(self._sql(sql.EXISTS), (sid,)).fetchone()) is not None

    def load(self, session_id: str, memory: MemoryConfig | None = None, counter: TokenCounter | None = None) -> Session:
        """Read a session; :class:`SessionNotFound`, or :class:`SessionCorrupt` naming it and the fault."""
        sid = validate_id(session_id)

        row, turns = self._run(lambda conn: sql.read_session(conn, sid, self.schema))
        if row is None:
            raise SessionNotFound(f"no session {sid} in {self.location}")
        data, problem = sql.document(row, turns)
        if problem:
            self._revision.pop(sid, None)  # what this store wrote is not what is there: never overwrite it
            raise SessionCorrupt(
                f"session {sid} in {self.location} cannot be loaded: {problem}. It was left untouched and will not "
                f"be overwritten; start another session (--session with a new id)"
            )
        session = Session.from_dict(data, sid, memory, counter)
        self._revision[sid] = row[-1]
        self._stored[sid] = [t.to_json() for t in session.conversation.turns]
        return session

    def list_sessions(self, limit: int = 0) -> list[SessionInfo]:
        """The newest ``limit`` sessions (all when 0), newest first; one that would not load has ``broken`` set."""
        return sql.listing(self._run, self.schema, limit)

    def count_sessions(self) -> int:
        """How many sessions this role has (an index-only count: no session or turn is read)."""
        return self._run(lambda c: sql.count_sessions(c, self.schema))

    def latest(self) -> str | None:
        """The id of the most recently used session that loads, or None."""
        return self.choose_latest()[0]

    def choose_latest(self) -> tuple[str | None, list[SessionInfo]]:
        """What ``-c`` continues: the newest session that loads, and the damaged ones newer than it (skipped); reads
        the turn rows of those sessions only, not of the whole store as :meth:`list_sessions` does."""
        return self._run(lambda c: sql.newest_loadable(c, self.schema))

    def search(self, text: str, limit: int = 50) -> list[SearchHit]:
        """Stored turns of this role's sessions whose text contains ``text`` (case-insensitive): the turns with the
        most occurrences first, then the newest (the order of :func:`~.session.ranked`)."""
        query = sql.pg_text(" ".join(text.split()))
        if not query:
            return []
        params = {"text": query, "pattern": sql.like_escape(query), "limit": limit, "window": SEARCH_WINDOW}
        rows = self._run(lambda c: c.execute(self._sql(sql.SEARCH), params).fetchall())
        hits = []
        for sid, title, n, _created, turn, first in rows:
            if check_turn(turn):  # a row damaged by something else: not searched, and never a crash
                continue
            hits += [replace(hit, turn=n) for hit in search_turns(sid, sql.shown_title(title, first), [turn], query)]
        return hits

    def export(self, session_id: str) -> str:
        """The Markdown transcript of a stored session."""
        return export_markdown(self.load(session_id))

    # --- writing ----------------------------------------------------------------------------------------------

    def save(self, session: Session, *, touch: bool = True) -> None:
        """Store the session in one transaction: its row updated, its new turns inserted (needs its lock).

        When the database cannot be reached the session is kept for a later save or for :meth:`close`'s rescue
        file, and :class:`StoreUnavailable` says so.
        """
        sid = validate_id(session.id)
        if sid not in self._locks:
            raise SessionLocked(
                f"session {sid} is not locked by this process (its lock was lost, or never taken): saving it now "
                "could overwrite another process's turns"
            )
        if touch:
            session.updated_at = now_iso()
        try:
            try:
                self._run(lambda conn: self._write(conn, session))
            except Interrupted as exc:  # SIGTERM, SIGHUP while the database was awaited: the process ends, unsaved
                raise Interrupted(exc.reason, exc.exit_code, unsaved=True) from None
            except KeyboardInterrupt:  # Ctrl-C stops the wait, not the chat: kept as for a lost connection
                raise StoreUnavailable(f"the wait for the session store {self.location} was cancelled") from None
        except StoreUnavailable as exc:
            self._unsaved[sid] = session
            raise StoreUnavailable(
                f"{exc.message}. Nothing you saw is lost: session {sid} is kept here and saved when the store is "
                f"back, or written to a rescue file in {self.rescue_dir} when you quit"
            ) from None
        except SessionLocked:
            self._unsaved[sid] = session  # taken by another process while our connection was down: rescue on quit
            raise
        self._unsaved.pop(sid, None)

    def _write(self, conn: psycopg.Connection[Any], session: Session) -> None:
        sid = session.id
        if not self.holds(sid):  # the connection was lost and another process took the session meanwhile
            raise SessionLocked(
                f"session {sid} was opened by another chatbot process while the connection to {self.location} was "
                f"lost; nothing you saw is lost: it goes to a rescue file in {self.rescue_dir} when you quit"
            )
        turns = session.conversation.turns
        stored = self._stored.setdefault(sid, [])
        keep = sql.kept_prefix(turns, stored)
        old = self._revision.get(sid)
        doc = session.fields()  # the Session owns the document; its fields go to their columns (SESSION_COLUMNS)
        summary, pg = doc["summary"], sql.pg_text
        values = (doc["version"], pg(doc["title"]), pg(doc["system"]), pg(summary["text"]), summary["covers"],
                  pg(doc["provider"]), pg(doc["model"]), pg(doc["endpoint"]), Jsonb(doc["totals"]),
                  Jsonb(doc["calibration"]),
                  Json(sql.pg_json(doc["options"])), Json(doc["tool_sources"]), Json(sql.pg_json(doc["rule"])),
                  Json(sql.pg_json(doc["summaries"])), doc["created_at"], doc["updated_at"], len(turns))  # fmt: skip
        tail = [t.to_json() for t in turns[keep:]]
        try:
            with conn.transaction(), conn.cursor() as cur:
                if old is None:
                    cur.execute(self._sql(sql.INSERT_SESSION), (sid, *values))
                else:
                    cur.execute(self._sql(sql.UPDATE_SESSION), (*values, sid, old))
                row = cur.fetchone()
                if row is None:
                    self._refuse_conflict(cur, sid)
                new = row[0]
                if keep < len(stored):
                    cur.execute(self._sql(sql.DELETE_TURNS_AFTER), (sid, keep))
                new_rows = [sql.turn_row(sid, n, turn) for n, turn in enumerate(turns[keep:], start=keep + 1)]
                if new_rows:
                    cur.executemany(self._sql(sql.INSERT_TURN), new_rows)
                self._attempt[sid] = (new, keep, tail)  # until the commit is answered
        except _Retry:
            # our own earlier save had committed though its answer was lost: adopt what it wrote, then write on top
            revision, kept, written = self._attempt.pop(sid)
            self._revision[sid] = revision
            del stored[kept:]
            stored.extend(written)
            return self._write(conn, session)
        self._attempt.pop(sid, None)
        self._revision[sid] = new
        del stored[keep:]
        stored.extend(tail)
        return None

    def _refuse_conflict(self, cur: psycopg.Cursor[Any], sid: str) -> NoReturn:
        """Raise unless the row's revision is the one of our own save whose commit went unanswered."""
        row = cur.execute(self._sql(sql.REVISION), (sid,)).fetchone()
        attempt = self._attempt.get(sid)
        if row is not None and attempt is not None and row[0] == attempt[0]:
            raise _Retry("adopt")
        raise SessionChanged(
            f"session {sid} in {self.location} was not loaded by this process (it was written by another process "
            f"since, or is not ours); it was not overwritten"
        )

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
            self._run(lambda c: c.execute(self._sql(sql.DELETE), (sid,)))
            for table in (self._revision, self._stored, self._unsaved):
                table.pop(sid, None)

    def close(self) -> None:
        """Save what a lost connection kept back (else write it to a rescue file, named in the error), then
        release every lock and close the connection."""
        problems = []
        for sid, session in list(self._unsaved.items()):
            try:
                with self.acquire(sid) if not self.holds(sid) else contextlib.nullcontext():
                    self.save(session, touch=False)
            except SessionError:
                path, problem = rescue_in(self.rescue_dir, session)
                kept = f"all of it is in {path}: `chatbot --store URL --import-sessions {path}` brings it back"
                problems.append(f"session {sid} could not be saved to {self.location}; {kept if path else problem}")
                self._unsaved.pop(sid, None)
        for lock in list(self._locks.values()):
            lock.release()
        self._drop()
        if problems:
            raise StoreUnavailable("; ".join(problems))


class _Retry(SessionError):
    """Internal: the save that looked lost had committed (see :meth:`PostgresStore._refuse_conflict`)."""
