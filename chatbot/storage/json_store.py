"""The JSON-file session store: one crash-safe, private JSON file per session (the default store).

Layout of a sessions directory (0700)::

    <id>.json                      the session (0600), compact JSON, schema "version": 2
    .<id>.lock                     the lock file: flock'ed by the process using the session; holds its pid
    .<id>.<random>.tmp             a save in progress (only ever seen after a kill -9; cleaned up)
    <id>.json.broken-<time>        a refused file moved aside by :meth:`JsonStore.set_aside` (the id can start over)

Saving is atomic (temporary file, fsync, rename, fsync of the directory), so a kill -9 at any moment leaves the
previous or the new version. Writing needs the session's lock (:meth:`JsonStore.acquire`), which the OS drops
when the process dies, so two processes never lose each other's turns and a lock never outlives its process.
A file that does not load is refused with :class:`SessionCorrupt` and never overwritten.

Typical use::

    store = JsonStore("sessions")
    with store.acquire(sid):
        session = store.load(sid, memory, counter) if store.exists(sid) else store.create(sid, system=..., ...)
        ...
        store.save(session)  # after every turn
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import now_iso
from chatbot.errors import (
    SessionChanged,
    SessionCorrupt,
    SessionError,
    SessionLocked,
    SessionNotFound,
)
from chatbot.storage import files
from chatbot.storage.base import SessionStore, latest_healthy, locked_message, make_id
from chatbot.storage.export import export_markdown
from chatbot.storage.session import (
    ID_PATTERN,
    SearchHit,
    Session,
    SessionInfo,
    document_title,
    may_hold,
    ranked,
    search_turns,
    validate_id,
)
from chatbot.storage.session_format import decode_session

# mkstemp names are prefix + 8 characters of [a-z0-9_] + suffix; the id may itself contain dots.
_TEMP_NAME = re.compile(r"\.(?P<id>[A-Za-z0-9][A-Za-z0-9._-]{0,63})\.[a-z0-9_]{8}\.tmp")


class FileLock(files.HeldFlock):
    """A held session lock: an exclusive flock on ``.<id>.lock``. Use as a context manager or call release()."""

    def __init__(self, store: JsonStore, session_id: str, fd: int) -> None:
        super().__init__(store.lock_path(session_id), session_id, fd)
        self._store = store

    def _let_go(self, fd: int) -> None:
        # a session that never got a turn: its lock file would pile up
        if not self._store.exists(self.id):
            self.path.unlink(missing_ok=True)


class JsonStore(SessionStore):
    """Sessions as ``<directory>/<id>.json`` files: the first implementation of :class:`~chatbot.storage.base.
    SessionStore`.

    The directory (0700) is made when a session is first locked, not on opening. Opening collects problems the
    user should hear about in
    ``warnings`` (for instance a directory others can read), and removes temporary files left by a killed save.
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self.location = str(self.directory)
        self.paths = (self.directory,)  # the session files, their locks and a save's temporary files
        self.warnings: list[str] = []
        self._locks: dict[str, FileLock] = {}
        # Fingerprint of each session file as this store last loaded or saved it: a save refuses to replace a
        # file it has not seen (a corrupt one, or one another process or an editor wrote meanwhile).
        self._seen: dict[str, tuple[int, ...]] = {}
        if os.path.lexists(self.directory):  # else made by the first lock: a failed -c or a listing creates nothing
            self.warnings += files.open_private_directory(self.directory)
            self._remove_stale_temp_files()

    # --- ids and paths ----------------------------------------------------------------------------------------

    def path(self, session_id: str) -> Path:
        """The session file of a (validated) id."""
        return self.directory / f"{validate_id(session_id)}.json"

    def lock_path(self, session_id: str) -> Path:
        """The lock file of a (validated) id."""
        return self.directory / f".{validate_id(session_id)}.lock"

    def exists(self, session_id: str) -> bool:
        """Whether a session file with this id exists (valid or not)."""
        return self.path(session_id).exists()

    def new_id(self) -> str:
        """A short readable id not used in the directory, like ``20261130-k3f9``."""
        return make_id(lambda sid: self.exists(sid) or self.lock_path(sid).exists(), str(self.directory))

    # --- locking ----------------------------------------------------------------------------------------------

    def acquire(self, session_id: str, timeout: float = 0.0) -> FileLock:
        """Lock a session for this process; raises :class:`SessionLocked` if another process holds it.

        Non-blocking unless ``timeout`` (seconds) asks to wait for the other process. The lock is an flock, so the
        OS releases it when the process dies, even by kill -9. Acquiring an id this store already holds returns
        the same handle. Holding the lock also makes any temporary file of this id stale, so they are removed here.
        """
        held = self._locks.get(session_id)
        if held is not None:
            if held.held:
                return held
            held.release()  # its lock file was removed under us: that lock protects nothing any more
        if not self.directory.is_dir():
            self.warnings += files.open_private_directory(self.directory)
        fd = files.lock_with_pid(self.lock_path(session_id), timeout)
        if fd is None:
            raise SessionLocked(locked_message(session_id, files.lock_holder(self.lock_path(session_id))))
        lock = FileLock(self, session_id, fd)
        self._locks[session_id] = lock
        self._remove_temp_files(session_id)
        return lock

    def holds(self, session_id: str) -> bool:
        """Whether this store holds the lock of ``session_id``."""
        lock = self._locks.get(session_id)
        return lock is not None and lock.held

    def close(self) -> None:
        """Release every lock this store holds."""
        for lock in list(self._locks.values()):
            lock.release()

    # --- reading ----------------------------------------------------------------------------------------------

    def load(self, session_id: str, memory: MemoryConfig | None = None, counter: TokenCounter | None = None) -> Session:
        """Read a session. Raises :class:`SessionNotFound`, or :class:`SessionCorrupt` naming the file and the fault.

        To change and save the session, hold its lock (:meth:`acquire`) before loading it.
        """
        path = self.path(session_id)
        data, st = self._read(path)
        session = Session.from_dict(data, session_id, memory, counter)
        self._seen[session_id] = files.fingerprint(st)
        return session

    def _read(self, path: Path) -> tuple[dict[str, Any], os.stat_result]:
        """Read, parse and validate a session file; raises SessionNotFound, SessionError or SessionCorrupt."""
        try:
            raw, st = files.read_regular(path)
        except FileNotFoundError:
            raise SessionNotFound(f"no session {path.stem} in {self.directory}") from None
        except files.NotRegularFile:
            raise SessionCorrupt(
                f"{path} is not a regular file, so it is not a session; move it away to use the id {path.stem}"
            ) from None
        except OSError as exc:
            raise SessionError(f"cannot read session file {path}: {exc.strerror}") from None
        data, problem = decode_session(raw)
        if problem:
            raise SessionCorrupt(
                f"session file {path} cannot be loaded: {problem}. It was left untouched and will not be "
                f"overwritten; start another session (--session with a new id), or move that file away to reuse the id"
            )
        return data, st

    def _documents(self, query: str = "") -> Iterator[tuple[str, int, dict[str, Any], str]]:
        """Every session file as (id, mtime in ns, decoded data, problem): data is {} when problem says why. With a
        search ``query``, a file that cannot hold it is not decoded (:func:`~.session.may_hold`): not yielded."""
        for path in self.directory.glob("*.json"):
            sid = path.stem
            if not ID_PATTERN.fullmatch(sid):
                continue
            try:
                raw, st = files.read_regular(path)
                if query and not may_hold(raw, query):
                    continue
                mtime = st.st_mtime_ns
                data, problem = decode_session(raw)
            except (FileNotFoundError, files.NotRegularFile):
                continue  # deleted while we listed; or a FIFO, a directory...: only regular files are sessions
            except OSError as exc:
                try:  # an unreadable file still has a time of its own (stat needs no read permission)
                    mtime = path.stat().st_mtime_ns
                except OSError:
                    mtime = time.time_ns()
                data, problem = {}, f"cannot read it: {exc.strerror}"
            yield sid, mtime, data, problem

    def list_sessions(self, limit: int = 0) -> list[SessionInfo]:
        """The newest ``limit`` sessions in the directory (every one when 0), newest first. A file that does not load
        is listed with ``broken`` set. The order is the documents' own times, so every file is read."""
        entries: list[tuple[str, int, SessionInfo]] = []
        for sid, mtime, data, problem in self._documents():
            if problem:
                when = datetime.fromtimestamp(mtime / 1e9, timezone.utc).isoformat(timespec="seconds")
                entries.append((when, mtime, SessionInfo(sid, "", 0, when, "", broken=problem)))
                continue
            title = document_title(data)
            info = SessionInfo(sid, title, len(data["turns"]), data["updated_at"], data["model"])
            entries.append((data["updated_at"], mtime, info))
        entries.sort(key=lambda e: (e[0], e[1]), reverse=True)
        return [info for _, _, info in entries[: limit or None]]

    def count_sessions(self) -> int:
        """How many session files the directory holds (each a regular file with a session id's name), unread."""
        return sum(1 for p in self.directory.glob("*.json") if ID_PATTERN.fullmatch(p.stem) and p.is_file())

    def search(self, text: str, limit: int = 50) -> list[SearchHit]:
        """Stored turns whose text contains ``text`` (case-insensitive), the turns with the most occurrences first,
        then the newest (:func:`~.session.ranked`); broken files skipped."""
        found: list[SearchHit] = []
        for sid, _, data, problem in self._documents(text):
            hits = [] if problem else search_turns(sid, "", data["turns"], text)
            if hits:  # the title only for a session with hits: making one costs more than the search
                title = document_title(data)
                found += [replace(hit, title=title) for hit in hits]
        return ranked(found)[:limit]

    def export(self, session_id: str) -> str:
        """The Markdown transcript of a stored session."""
        return export_markdown(self.load(session_id))

    def latest(self) -> str | None:
        """The id of the most recently used session that loads (for ``-c``), or None."""
        return self.choose_latest()[0]

    def choose_latest(self) -> tuple[str | None, list[SessionInfo]]:
        """What ``-c`` continues: the newest session that loads, and the damaged ones newer than it (skipped)."""
        return latest_healthy(self.list_sessions())

    # --- writing ----------------------------------------------------------------------------------------------

    def save(self, session: Session, *, touch: bool = True) -> None:
        """Write the session atomically and durably; sets ``updated_at`` (unless ``touch`` is False: an import).

        Requires the session's lock (:meth:`acquire`). Refuses to replace a file this store did not load or save
        itself: a corrupt file (never overwritten) or one another process wrote since.
        """
        sid = validate_id(session.id)
        if not self.holds(sid):
            raise SessionLocked(
                f"session {sid} is not locked by this process (its lock was lost, or never taken): saving it now "
                "could overwrite another process's turns"
            )
        path = self.path(sid)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            pass
        else:
            if self._seen.get(sid) != files.fingerprint(st):
                raise SessionChanged(
                    f"session file {path} was not loaded by this process (it is corrupt, or was written by another "
                    f"process since); it was not overwritten"
                )
        if touch:
            session.updated_at = now_iso()
        self._seen[sid] = files.write_atomic(path, session.to_json())

    def rename(self, session_id: str, title: str) -> None:
        """Give a stored session a title (takes its lock for the write unless this store holds it already)."""
        with self.acquire(session_id) if not self.holds(session_id) else contextlib.nullcontext():
            session = self.load(session_id)
            session.title = title
            self.save(session)

    def delete(self, session_id: str) -> None:
        """Remove a session file and its lock file; refuses a session another process has open.

        Taking the lock removes the session's temporary files; releasing it, once the file is gone, its lock file.
        """
        path = self.path(session_id)
        if not path.exists():
            raise SessionNotFound(f"no session {session_id} in {self.directory}")
        with self.acquire(session_id):
            path.unlink(missing_ok=True)
            self._seen.pop(session_id, None)
        files.fsync_directory(self.directory)

    def set_aside(self, session_id: str) -> Path:
        """Rename a (refused) session file to ``<id>.json.broken-<time>`` so the id can start over.

        Nothing is lost: the old content stays in the renamed file. Returns its path.
        """
        path = self.path(session_id)
        if not path.exists():
            raise SessionNotFound(f"no session {session_id} in {self.directory}")
        stamp = datetime.now().strftime("%Y%m%dT%H%M%S")
        target = path.with_name(f"{path.name}.broken-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = path.with_name(f"{path.name}.broken-{stamp}-{n}")
        with self.acquire(session_id) if not self.holds(session_id) else contextlib.nullcontext():
            os.rename(path, target)
            self._seen.pop(session_id, None)
        files.fsync_directory(self.directory)
        return target

    # --- housekeeping -----------------------------------------------------------------------------------------

    def _remove_stale_temp_files(self) -> None:
        """Remove temporary files of killed saves: those of sessions no process holds (a live save holds it)."""
        for name in os.listdir(self.directory):
            m = _TEMP_NAME.fullmatch(name)
            if not m or files.flock_held_elsewhere(self.lock_path(m["id"])):
                continue
            with contextlib.suppress(OSError):
                os.unlink(self.directory / name)

    def _remove_temp_files(self, session_id: str) -> None:
        """Remove temporary files of ``session_id``; only called while holding its lock."""
        for path in self.directory.glob(f".{session_id}.*.tmp"):
            m = _TEMP_NAME.fullmatch(path.name)
            if m and m["id"] == session_id:
                with contextlib.suppress(OSError):
                    path.unlink()
