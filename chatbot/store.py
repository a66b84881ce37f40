"""The session store: one crash-safe, private JSON file per session.

Layout of a sessions directory (0700)::

    <id>.json                      the session (0600), compact JSON, schema "version": 1
    .<id>.lock                     the lock file: flock'ed by the process using the session; holds its pid
    .<id>.<random>.tmp             a save in progress (only ever seen after a kill -9; cleaned up)
    <id>.json.broken-<time>        a refused file the user chose to set aside (see :meth:`SessionStore.set_aside`)

Saving is atomic (temporary file, fsync, rename, fsync of the directory), so a kill -9 at any moment leaves the
previous or the new version. Writing needs the session's lock (:meth:`SessionStore.acquire`), which the OS drops
when the process dies, so two processes never lose each other's turns and a lock never outlives its process.
A file that does not load is refused with :class:`SessionCorrupt` and never overwritten.

Typical use::

    store = SessionStore("sessions")
    with store.acquire(sid):
        session = store.load(sid, memory, counter) if store.exists(sid) else store.create(sid, system=..., ...)
        ...
        store.save(session)  # after every turn
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import re
import secrets
import stat
import string
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from chatbot.conversation import Conversation, Turn, json_bytes, now_iso, one_line, validate_request
from chatbot.errors import (
    InvalidRequest,
    InvalidSessionId,
    SessionCorrupt,
    SessionError,
    SessionLocked,
    SessionNotFound,
)
from chatbot.memory import MemoryConfig
from chatbot.tokens import TokenCounter

SCHEMA_VERSION = 1
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
ID_RULE = "1-64 characters: letters, digits, '.', '_' or '-', starting with a letter or digit"
# mkstemp names are prefix + 8 characters of [a-z0-9_] + suffix; the id may itself contain dots.
_TEMP_NAME = re.compile(r"\.(?P<id>[A-Za-z0-9][A-Za-z0-9._-]{0,63})\.[a-z0-9_]{8}\.tmp")
_ROLES = ("user", "assistant", "tool")


@dataclass
class Session:
    """A stored conversation and what goes with it (the file name is ``<id>.json``).

    ``totals`` are the session's usage totals as the chat layer keeps them (the store only persists the dict);
    ``calibration`` maps a model name to its token-count correction factor. Per-turn usage and latency live in
    each :class:`~chatbot.conversation.Turn`. A session never holds keys or headers.
    """

    id: str
    conversation: Conversation
    title: str = ""
    provider: str = ""
    model: str = ""
    created_at: str = field(default_factory=now_iso)
    updated_at: str = field(default_factory=now_iso)
    totals: dict[str, Any] = field(default_factory=dict)
    calibration: dict[str, float] = field(default_factory=dict)

    def _header(self) -> dict[str, Any]:
        """Every field of the file but the turns, in file order (the turns come between these and the totals)."""
        conv = self.conversation
        return {
            "version": SCHEMA_VERSION,
            "id": self.id,
            "title": self.title,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "provider": self.provider,
            "model": self.model,
            "system": conv.system,
            "summary": {"text": conv.summary, "covers": conv.summary_covers},
        }

    def _trailer(self) -> dict[str, Any]:
        return {"totals": self.totals, "calibration": self.calibration}

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready file content."""
        turns = [t.to_dict() for t in self.conversation.turns]
        return {**self._header(), "turns": turns, **self._trailer()}

    def to_json(self) -> bytes:
        """The file content as compact UTF-8 JSON: ``json_bytes(self.to_dict())`` byte for byte (a text with lone
        surrogates has them escaped in its own turn or header only; the decoded data is the same).

        Each turn's encoding is cached by the turn, so a save of a long session encodes only the new turns and
        joins the rest: one more turn costs the same at 10 or 1,000 stored turns, apart from writing the bytes.
        """
        head = json_bytes(self._header())  # '{"version":1,...,"summary":{...}}'
        tail = json_bytes(self._trailer())  # '{"totals":{...},"calibration":{...}}'
        parts = [head[:-1], b',"turns":[']
        for i, turn in enumerate(self.conversation.turns):
            parts += (b",", turn.to_json()) if i else (turn.to_json(),)
        parts += (b"],", tail[1:])
        return b"".join(parts)  # one join: a multi-megabyte intermediate would cost its page faults again


@dataclass(frozen=True)
class SessionInfo:
    """One line of a session listing. ``broken`` says why a file does not load ("" when it does)."""

    id: str
    title: str
    turns: int
    updated_at: str
    model: str
    broken: str = ""


class SessionLock:
    """A held session lock: an exclusive flock on ``.<id>.lock``. Use as a context manager or call release()."""

    def __init__(self, store: SessionStore, session_id: str, fd: int) -> None:
        self.store = store
        self.id = session_id
        self._fd: int | None = fd

    @property
    def held(self) -> bool:
        """Whether this handle still holds the lock (and the lock file is still the one at the path)."""
        if self._fd is None:
            return False
        try:
            return _same_file(os.fstat(self._fd), os.stat(self.store.lock_path(self.id)))
        except FileNotFoundError:
            return False

    def release(self) -> None:
        """Give the lock up (idempotent)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            if self.store._locks.get(self.id) is self:
                del self.store._locks[self.id]
            os.close(fd)  # closing the descriptor drops the flock

    def __enter__(self) -> SessionLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class SessionStore:
    """Sessions as ``<directory>/<id>.json`` files.

    Opening creates the directory (0700) if needed, collects problems the user should hear about in
    ``warnings`` (for instance a directory others can read), and removes temporary files left by a killed save.
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self.warnings: list[str] = []
        self._locks: dict[str, SessionLock] = {}
        # Fingerprint of each session file as this store last loaded or saved it: a save refuses to replace a
        # file it has not seen (a corrupt one, or one another process or an editor wrote meanwhile).
        self._seen: dict[str, tuple[int, ...]] = {}
        self._open_directory()
        self._remove_stale_temp_files()

    # --- ids and paths ----------------------------------------------------------------------------------------

    @staticmethod
    def validate_id(session_id: object) -> str:
        """Return ``session_id`` if it is a valid id, else raise :class:`InvalidSessionId` naming the rule.

        The rule keeps every session file inside the directory: no '/', no leading '.', no '..', no NUL.
        """
        if not isinstance(session_id, str) or not ID_PATTERN.fullmatch(session_id):
            shown = repr(session_id)
            if len(shown) > 80:
                shown = shown[:77] + "..."
            raise InvalidSessionId(f"invalid session id {shown}: an id is {ID_RULE}")
        return session_id

    def path(self, session_id: str) -> Path:
        """The session file of a (validated) id."""
        return self.directory / f"{self.validate_id(session_id)}.json"

    def lock_path(self, session_id: str) -> Path:
        """The lock file of a (validated) id."""
        return self.directory / f".{self.validate_id(session_id)}.lock"

    def exists(self, session_id: str) -> bool:
        """Whether a session file with this id exists (valid or not)."""
        return self.path(session_id).exists()

    def new_id(self) -> str:
        """A short readable id not used in the directory, like ``20261130-k3f9``."""
        alphabet = string.ascii_lowercase + string.digits
        day = datetime.now().strftime("%Y%m%d")
        for size in (4, 4, 4, 6, 6, 8, 8, 12):
            sid = f"{day}-{''.join(secrets.choice(alphabet) for _ in range(size))}"
            if not self.exists(sid) and not self.lock_path(sid).exists():
                return sid
        raise SessionError(f"could not find an unused session id in {self.directory}")

    # --- locking ----------------------------------------------------------------------------------------------

    def acquire(self, session_id: str, timeout: float = 0.0) -> SessionLock:
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
        deadline = time.monotonic() + timeout
        while True:
            fd = self._try_lock(session_id)
            if fd is not None:
                break
            if time.monotonic() >= deadline:
                raise SessionLocked(self._locked_message(session_id))
            time.sleep(0.05)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())  # so that a refused process can name the holder
        lock = SessionLock(self, session_id, fd)
        self._locks[session_id] = lock
        self._remove_temp_files(session_id)
        return lock

    def _try_lock(self, session_id: str) -> int | None:
        """One non-blocking attempt: the locked descriptor, or None when another process holds the lock."""
        lock_path = self.lock_path(session_id)
        while True:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    raise
                return None
            # A delete may have unlinked the lock file between our open and our flock: then we would hold a lock
            # on a file nobody else will open. Retry on the file now at the path.
            try:
                if _same_file(os.fstat(fd), os.stat(lock_path)):
                    return fd
            except FileNotFoundError:
                pass
            os.close(fd)

    def holds(self, session_id: str) -> bool:
        """Whether this store holds the lock of ``session_id``."""
        lock = self._locks.get(session_id)
        return lock is not None and lock.held

    def release(self, session_id: str) -> None:
        """Release the lock of ``session_id`` if this store holds it."""
        lock = self._locks.get(session_id)
        if lock is not None:
            lock.release()

    def close(self) -> None:
        """Release every lock this store holds."""
        for lock in list(self._locks.values()):
            lock.release()

    def _locked_message(self, session_id: str) -> str:
        try:
            pid = self.lock_path(session_id).read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            pid = ""
        who = f" (pid {pid})" if pid.isdigit() else ""
        return (
            f"session {session_id} is in use by another chatbot process{who}; close it or use --session with another id"
        )

    # --- reading ----------------------------------------------------------------------------------------------

    def create(
        self,
        session_id: str | None = None,
        *,
        system: str,
        provider: str = "",
        model: str = "",
        title: str = "",
        memory: MemoryConfig | None = None,
        counter: TokenCounter | None = None,
    ) -> Session:
        """A new, empty session (written by the first :meth:`save`). Refuses an id whose file already exists."""
        sid = self.new_id() if session_id is None else self.validate_id(session_id)
        if self.exists(sid):
            raise SessionError(f"session {sid} already exists in {self.directory}; load it or choose another id")
        return Session(
            id=sid,
            conversation=Conversation(system, memory, counter),
            title=title,
            provider=provider,
            model=model,
        )

    def load(self, session_id: str, memory: MemoryConfig | None = None, counter: TokenCounter | None = None) -> Session:
        """Read a session. Raises :class:`SessionNotFound`, or :class:`SessionCorrupt` naming the file and the fault.

        To change and save the session, hold its lock (:meth:`acquire`) before loading it.
        """
        path = self.path(session_id)
        data, st = self._read(path)
        session = Session(
            id=session_id,  # the file name is the id, so a copied file is a new session
            conversation=Conversation.from_dict(data, memory, counter),
            title=data["title"],
            provider=data["provider"],
            model=data["model"],
            created_at=data["created_at"],
            updated_at=data["updated_at"],
            totals=data["totals"],
            calibration={k: float(v) for k, v in data["calibration"].items()},
        )
        self._seen[session_id] = _fingerprint(st)
        return session

    def _read(self, path: Path) -> tuple[dict[str, Any], os.stat_result]:
        """Read, parse and validate a session file; raises SessionNotFound, SessionError or SessionCorrupt."""
        try:
            with open(path, "rb") as f:
                st = os.fstat(f.fileno())
                raw = f.read()
        except FileNotFoundError:
            raise SessionNotFound(f"no session {path.stem} in {self.directory}") from None
        except OSError as exc:
            raise SessionError(f"cannot read session file {path}: {exc.strerror}") from None
        data, problem = decode_session(raw)
        if problem:
            raise SessionCorrupt(
                f"session file {path} cannot be loaded: {problem}. It was left untouched and will not be "
                f"overwritten; start another session (--session with a new id), or move that file away to reuse the id"
            )
        return data, st

    def list(self) -> list[SessionInfo]:
        """Every session in the directory, newest first. A file that does not load is listed with ``broken`` set."""
        entries: list[tuple[str, int, SessionInfo]] = []
        for path in self.directory.glob("*.json"):
            sid = path.stem
            if not ID_PATTERN.fullmatch(sid):
                continue
            try:
                with open(path, "rb") as f:
                    mtime = os.fstat(f.fileno()).st_mtime_ns
                    data, problem = decode_session(f.read())
            except FileNotFoundError:
                continue  # deleted while we listed
            except OSError as exc:
                mtime, data, problem = 0, {}, f"cannot read it: {exc.strerror}"
            if problem:
                when = datetime.fromtimestamp(mtime / 1e9, timezone.utc).isoformat(timespec="seconds")
                entries.append((when, mtime, SessionInfo(sid, "", 0, when, "", broken=problem)))
                continue
            title = data["title"] or _preview(data["turns"])
            info = SessionInfo(sid, title, len(data["turns"]), data["updated_at"], data["model"])
            entries.append((data["updated_at"], mtime, info))
        entries.sort(key=lambda e: (e[0], e[1]), reverse=True)
        return [info for _, _, info in entries]

    def latest(self) -> str | None:
        """The id of the most recently used session that loads (for ``-c``), or None."""
        for info in self.list():
            if not info.broken:
                return info.id
        return None

    # --- writing ----------------------------------------------------------------------------------------------

    def save(self, session: Session) -> None:
        """Write the session atomically and durably; sets ``updated_at``.

        Requires the session's lock (:meth:`acquire`). Refuses to replace a file this store did not load or save
        itself: a corrupt file (never overwritten) or one another process wrote since.
        """
        sid = self.validate_id(session.id)
        if not self.holds(sid):
            raise SessionLocked(
                f"session {sid} is not locked by this process; acquire its lock before saving so that no other "
                f"process's turns are lost"
            )
        path = self.path(sid)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            pass
        else:
            if self._seen.get(sid) != _fingerprint(st):
                raise SessionError(
                    f"session file {path} was not loaded by this process (it is corrupt, or was written by another "
                    f"process since); it was not overwritten"
                )
        session.updated_at = now_iso()
        self._seen[sid] = self._write_atomic(path, session.to_json())

    def _write_atomic(self, path: Path, payload: bytes) -> tuple[int, ...]:
        """Replace ``path`` with ``payload``: temporary file, fsync, rename, fsync of the directory."""
        fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=self.directory)  # mode 0600
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
                f.flush()
                os.fsync(f.fileno())
                st = os.fstat(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        self._fsync_directory()
        return _fingerprint(st)

    def delete(self, session_id: str) -> None:
        """Remove a session file and its lock file; refuses a session another process has open."""
        path = self.path(session_id)
        if not path.exists():
            raise SessionNotFound(f"no session {session_id} in {self.directory}")
        with self.acquire(session_id):
            path.unlink(missing_ok=True)
            self.lock_path(session_id).unlink(missing_ok=True)
            self._remove_temp_files(session_id)
            self._seen.pop(session_id, None)
        self._fsync_directory()

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
        self._fsync_directory()
        return target

    # --- housekeeping -----------------------------------------------------------------------------------------

    def _open_directory(self) -> None:
        d = self.directory
        try:
            d.mkdir(mode=0o700, parents=True)
        except FileExistsError:
            if not d.is_dir():
                raise SessionError(f"sessions directory {d} exists but is not a directory") from None
            mode = stat.S_IMODE(d.stat().st_mode)
            if mode & 0o077:
                self.warnings.append(
                    f"sessions directory {d} is accessible by other users (mode {mode:o}); "
                    f"run `chmod 700 {d}` to keep your conversations private"
                )
        except OSError as exc:
            raise SessionError(f"cannot create sessions directory {d}: {exc.strerror}") from None
        else:
            d.chmod(0o700)  # mkdir's mode is filtered by the umask

    def _remove_stale_temp_files(self) -> None:
        """Remove temporary files of killed saves: those of sessions no process holds (a live save holds it)."""
        for name in os.listdir(self.directory):
            m = _TEMP_NAME.fullmatch(name)
            if not m or self._locked_elsewhere(m["id"]):
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

    def _locked_elsewhere(self, session_id: str) -> bool:
        """Probe a session's lock without taking it for longer than the probe."""
        if session_id in self._locks:
            return False
        try:
            fd = os.open(self.lock_path(session_id), os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            return False  # nobody ever locked it, so no save is in progress
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return True
        finally:
            os.close(fd)
        return False

    def _fsync_directory(self) -> None:
        """Make the rename itself durable (the new directory entry survives a power cut)."""
        fd = os.open(self.directory, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        except OSError as exc:
            if exc.errno != errno.EINVAL:  # some filesystems cannot fsync a directory; the data is still safe
                raise
        finally:
            os.close(fd)


# --- validation ---------------------------------------------------------------------------------------------------


def _type_name(value: object) -> str:
    return "null" if value is None else type(value).__name__


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def decode_session(raw: bytes) -> tuple[dict[str, Any], str]:
    """Parse a session file's bytes: (data, "") when valid, else ({}, what is wrong)."""
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        return {}, f"it is not valid JSON ({exc})"
    problem = check_session_data(data)
    return (data, "") if not problem else ({}, problem)


def _no_constant(name: str) -> Any:
    # json accepts NaN and Infinity, which no session holds and which would break every later token count
    raise ValueError(f"{name} is not a number JSON allows")


def check_session_data(data: object) -> str:
    """What is wrong with decoded session JSON, or "" when it is a valid version-1 session."""
    if not isinstance(data, dict):
        return f"expected a JSON object, found {_type_name(data)}"
    version = data.get("version")
    if "version" not in data:
        return "the field 'version' is missing"
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        return f"'version' must be a positive integer, found {version!r}"
    if version > SCHEMA_VERSION:
        return f"it has version {version}, written by a newer chatbot; this one reads version {SCHEMA_VERSION}"
    for key, kind in (
        ("id", str),
        ("title", str),
        ("created_at", str),
        ("updated_at", str),
        ("provider", str),
        ("model", str),
        ("system", str),
        ("summary", dict),
        ("turns", list),
        ("totals", dict),
        ("calibration", dict),
    ):
        if key not in data:
            return f"the field '{key}' is missing"
        if not isinstance(data[key], kind):
            return f"'{key}' must be {_KINDS[kind]}, found {_type_name(data[key])}"
    turns = data["turns"]
    for i, turn in enumerate(turns):
        problem = _check_turn(turn)
        if problem:
            return f"turns[{i}]{problem}"
    summary = data["summary"]
    if not isinstance(summary.get("text"), str):
        return f"'summary.text' must be a string, found {_type_name(summary.get('text'))}"
    covers = summary.get("covers")
    if not isinstance(covers, int) or isinstance(covers, bool) or not 0 <= covers <= len(turns):
        return f"'summary.covers' must be an integer from 0 to {len(turns)} (the number of turns), found {covers!r}"
    for key, value in data["totals"].items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return f"'totals.{key}' must be a whole number of at least 0, found {value!r}"
    for model, factor in data["calibration"].items():
        # a correction never goes below 1 (the budget only tightens); 0 or less would switch the budget off
        if not _is_number(factor) or factor < 1:
            return f"'calibration.{model}' must be a number of at least 1, found {factor!r}"
    return ""


_KINDS = {str: "a string", dict: "an object", list: "a list", bool: "true or false"}


def _check_turn(turn: object) -> str:
    """What is wrong with one stored turn (as a suffix to ``turns[i]``), or ""."""
    if not isinstance(turn, dict):
        return f" must be an object, found {_type_name(turn)}"
    messages = turn.get("messages")
    if not isinstance(messages, list) or not messages:
        return f".messages must be a non-empty list, found {_type_name(messages)}"
    for j, m in enumerate(messages):
        where = f".messages[{j}]"
        if not isinstance(m, dict):
            return f"{where} must be an object, found {_type_name(m)}"
        role = m.get("role")
        if not isinstance(role, str):
            return f"{where}.role must be a string, found {_type_name(role)}"
        if role not in _ROLES:
            return f"{where}.role must be one of {', '.join(_ROLES)}, found {role!r}"
        if (j == 0) != (role == "user"):
            return f"{where}: a turn has exactly one user message, its first"
        content = m.get("content")
        if content is not None and not isinstance(content, (str, list)):
            return f"{where}.content must be a string, a list of parts or null, found {_type_name(content)}"
        calls = m.get("tool_calls")
        if calls is not None and not (isinstance(calls, list) and all(_is_tool_call(c) for c in calls)):
            return f"{where}.tool_calls must be a list of calls, each with a string id and a function name"
        for key in ("tool_call_id", "name"):
            if key in m and not isinstance(m[key], str):
                return f"{where}.{key} must be a string, found {_type_name(m[key])}"
    try:  # tool calls paired with their results, as every request needs (a lone user message stands in around)
        validate_request([{"role": "system", "content": ""}, *messages, {"role": "user", "content": ""}])
    except InvalidRequest as exc:
        return f".messages: {exc.message}"
    usage = turn.get("usage")
    if usage is not None and not isinstance(usage, dict):
        return f".usage must be an object or null, found {_type_name(usage)}"
    latency = turn.get("latency")
    if latency is not None and not _is_number(latency):
        return f".latency must be a number or null, found {_type_name(latency)}"
    if "created_at" in turn and not isinstance(turn["created_at"], str):
        return f".created_at must be a string, found {_type_name(turn['created_at'])}"
    if "interrupted" in turn and not isinstance(turn["interrupted"], bool):
        return f".interrupted must be true or false, found {_type_name(turn['interrupted'])}"
    return ""


def _is_tool_call(call: object) -> bool:
    if not isinstance(call, dict) or not isinstance(call.get("id"), str):
        return False
    function = call.get("function")
    return isinstance(function, dict) and isinstance(function.get("name"), str)


def _preview(turns: list[dict[str, Any]], width: int = 50) -> str:
    """The start of the first user message, as a title for an untitled session."""
    if not turns:
        return ""
    content = turns[0]["messages"][0].get("content")
    return one_line(content, width) if isinstance(content, str) else ""


def _fingerprint(st: os.stat_result) -> tuple[int, ...]:
    """What changes whenever a file is replaced (new inode) or rewritten in place (size, time)."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


# --- export -------------------------------------------------------------------------------------------------------


def export_markdown(session: Session) -> str:
    """A Markdown transcript: header, system message, the summary (marked, with the turns it covers), every turn."""
    conv = session.conversation
    out = [f"# {session.title or 'Session ' + session.id}", ""]
    out += [
        f"- Session: `{session.id}`",
        f"- Provider / model: {session.provider or '?'} / {session.model or '?'}",
        f"- Created: {session.created_at} · last saved: {session.updated_at}",
        f"- Turns: {len(conv.turns)}",
        "",
        "## System message",
        "",
        _quote(conv.system),
        "",
    ]
    if conv.summary:
        covers = conv.summary_covers
        out += [
            f"## Summary of turns 1-{covers}",
            "",
            f"> **Summary** written by the assistant's memory; it stands in for turns 1-{covers} in requests. "
            "Those turns are still stored and listed in full below.",
            ">",
            _quote(conv.summary),
            "",
        ]
    for i, turn in enumerate(conv.turns, start=1):
        notes = []
        if i <= conv.summary_covers and conv.summary:
            notes.append("covered by the summary")
        if turn.interrupted:
            notes.append("interrupted")
        out += [f"## Turn {i}" + (f" ({', '.join(notes)})" if notes else ""), ""]
        out += _render_turn(turn)
    return "\n".join(out).rstrip() + "\n"


def _render_turn(turn: Turn) -> list[str]:
    out: list[str] = []
    for m in turn.messages:
        role = m.get("role")
        text = _content_text(m.get("content"))
        if role == "user":
            out += ["**User:**", "", text, ""]
        elif role == "assistant":
            if text:
                out += ["**Assistant:**", "", text, ""]
            for call in m.get("tool_calls") or []:
                fn = call.get("function") or {}
                out += [f"*Tool call* `{fn.get('name', '?')}`: `{fn.get('arguments', '')}`", ""]
        elif role == "tool":
            out += [f"**Tool result** ({m.get('name') or m.get('tool_call_id') or '?'}):", "", "```", text, "```", ""]
    if turn.interrupted:
        out += ["*(interrupted: the reply was cut off before it finished)*", ""]
    return out


def _content_text(content: object) -> str:
    if isinstance(content, list):  # multimodal parts: keep the text ones
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("type") == "text")
    return "" if content is None else str(content)


def _quote(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.splitlines() or [""])
