"""File-system primitives of the JSON store: a private directory, flocks, atomic and durable writes.

Kept apart from :mod:`chatbot.storage.json_store` so that the store reads as what it does with sessions, and these
as the few system calls it rests on. (No ``O_CLOEXEC`` anywhere: every descriptor ``os.open`` makes is kept from
child processes already, PEP 446.)
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import signal
import stat
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from chatbot.errors import SessionError


class NotRegularFile(OSError):
    """A path that is a FIFO, a directory, a device...: never a session, and never opened for reading (a FIFO
    would block forever)."""


def kind(mode: int) -> str:
    """What a file of ``mode`` is, in a user's words ("a named pipe (FIFO)", "a device", ...)."""
    kinds = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))
    found = [name for test, name in kinds if test(mode)]
    return found[0] if found else "a regular file" if stat.S_ISREG(mode) else "a device"


def read_regular(path: Path, limit: int | None = None) -> tuple[bytes, os.stat_result]:
    """The bytes (at most ``limit`` of them, when given) and stat of a regular file, symlinks followed.

    Anything else raises :class:`NotRegularFile` naming what it is, without a read: a FIFO would block or feed
    without end, ``/dev/zero`` never ends. OSError as usual otherwise. The limit holds whatever the size said: a file
    can grow while it is read, and some (``/proc``) say 0.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)  # a FIFO opens without a writer
    except OSError as exc:
        if exc.errno != errno.ENXIO:
            raise
        raise _not_regular(path, os.stat(path)) from None  # a socket cannot be opened at all: say what it is
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):  # checked before fdopen, which fails on a directory with a plain OSError
        os.close(fd)
        raise _not_regular(path, st)
    with os.fdopen(fd, "rb") as f:
        return f.read(limit), st  # (None reads to the end)


def _not_regular(path: Path, st: os.stat_result) -> NotRegularFile:
    return NotRegularFile(errno.EINVAL, f"{kind(st.st_mode)}, not a regular file", str(path))


def open_private_directory(d: Path) -> list[str]:
    """Create ``d`` (0700) if needed; returns warnings for the user (a directory others can read).

    An existing directory that is empty and the user's own is tightened to 0700 instead of warned about. Refuses a
    directory owned by another user or writable by others: whoever can write there can plant symlinks and files that
    the app would then open as the user's own.
    """
    try:
        d.mkdir(mode=0o700, parents=True)
    except FileExistsError:
        if not d.is_dir():
            raise SessionError(f"sessions directory {d} exists but is not a directory") from None
        st = d.stat()
        mode = stat.S_IMODE(st.st_mode)
        if st.st_uid != os.geteuid():
            raise SessionError(
                f"sessions directory {d} is owned by another user (uid {st.st_uid}); use a directory of your own "
                "(--sessions-dir)"
            ) from None
        if not any(e.name != ".gitkeep" for e in os.scandir(d)):
            d.chmod(0o700)  # empty and ours (a fresh clone's sessions/, from git): tightened, nothing to ask about
        elif mode & 0o022:
            raise SessionError(
                f"sessions directory {d} is writable by other users (mode {mode:o}), who could plant files in it; "
                f"run `chmod 700 {d}` or use another --sessions-dir"
            ) from None
        elif mode & 0o077:
            return [
                f"sessions directory {d} is accessible by other users (mode {mode:o}); "
                f"run `chmod 700 {d}` to keep your conversations private"
            ]
    except OSError as exc:
        raise SessionError(f"cannot create sessions directory {d}: {exc.strerror}") from None
    else:
        d.chmod(0o700)  # mkdir's mode is filtered by the umask
    return []


class HeldFlock:
    """A held session lock: an flock on the session's lock file at ``path``. Use as a context manager or call
    :meth:`release`. A store's handle says what releasing does before the descriptor closes (:meth:`_let_go`)."""

    def __init__(self, path: Path, session_id: str, fd: int) -> None:
        self.path = path
        self.id = session_id
        self._fd: int | None = fd

    @property
    def held(self) -> bool:
        """Whether this handle still holds the lock (and its file is still the one at the path)."""
        if self._fd is None:
            return False
        try:
            return same_file(os.fstat(self._fd), os.stat(self.path))
        except FileNotFoundError:
            return False

    def release(self) -> None:
        """Give the lock up (idempotent): the store's own step, then the descriptor closes (dropping the flock)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            self._let_go(fd)
            os.close(fd)

    def _let_go(self, fd: int) -> None:
        """What releasing does while the flock is still held (nothing here)."""

    def __enter__(self) -> HeldFlock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def try_flock(lock_path: Path) -> int | None:
    """One non-blocking attempt at an exclusive flock: the locked descriptor, or None when another process has it."""
    while True:
        fd = open_lock_file(lock_path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise
            return None
        # A delete may have unlinked the lock file between our open and our flock: then we would hold a lock on a
        # file nobody else will open. Retry on the file now at the path.
        try:
            if same_file(os.fstat(fd), os.stat(lock_path)):
                return fd
        except FileNotFoundError:
            pass
        os.close(fd)


def lock_with_pid(lock_path: Path, timeout: float = 0.0) -> int | None:
    """Take the exclusive flock of ``lock_path`` (waiting up to ``timeout`` seconds) and write this process's pid in
    it, so that a refused process can name the holder: the locked descriptor, or None when another process holds it.
    The OS drops the lock when the process dies, even by kill -9."""
    deadline = time.monotonic() + timeout
    while (fd := try_flock(lock_path)) is None:
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.05)
    # written over the last holder's pid, then cut to length (a process refused meanwhile reads one pid or the
    # other, never an empty file)
    pid = f"{os.getpid()}\n".encode()
    os.write(fd, pid)
    os.ftruncate(fd, len(pid))
    return fd


def lock_holder(lock_path: Path) -> str:
    """Who holds the lock of ``lock_path``, as a message names it ("pid 42"), or "" when its file does not say."""
    try:
        pid = lock_path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        pid = ""
    return f"pid {pid}" if pid.isdigit() else ""


def open_lock_file(lock_path: Path) -> int:
    """Open (or create) a lock file for writing its pid: never through a symlink, never onto a file that is not
    a private regular file of this user (a hard link planted to another file would be truncated)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
    refusal = f"lock file {lock_path} is not a regular file of yours (a symlink or a link to another file?)"
    try:
        fd = os.open(lock_path, flags, 0o600)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO):
            raise SessionError(f"{refusal}; remove it if you did not put it there") from None
        raise SessionError(f"cannot open lock file {lock_path}: {exc.strerror}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1 or st.st_uid != os.geteuid():
        os.close(fd)
        raise SessionError(f"{refusal}; remove it if you did not put it there")
    return fd


def flock_held_elsewhere(lock_path: Path) -> bool:
    """Probe a lock file without taking its lock for longer than the probe."""
    try:
        fd = os.open(lock_path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return False  # nobody ever locked it, so no save is in progress
    except OSError:
        return True  # a symlink or worse: treat as held, so nothing of that id is touched
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def write_atomic(path: Path, payload: bytes) -> tuple[int, ...]:
    """Replace ``path`` with ``payload``: temporary file (0600), fsync, rename, fsync of the directory.

    A kill at any moment leaves the old or the new file. Returns the new file's :func:`fingerprint`.
    """
    with signals_deferred():  # Ctrl-C, SIGTERM and SIGHUP stop a reply, never a save half-way
        return _write_atomic(path, payload)


_DEFERRED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP until the block ends, then deliver the first that came.

    Blocking them with a signal mask is not enough: the mask is per thread, so with any other thread alive (a
    summary written ahead, the MCP loop) the kernel hands the signal to that thread, and Python still runs the
    handler on the main thread, mid-save. So the handlers themselves are swapped for one that only notes the
    signal. Handlers run only on the main thread: a save on another thread is never cut by them.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []
    previous = {sig: signal.signal(sig, lambda signum, frame: arrived.append(signum)) for sig in _DEFERRED}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)
        if arrived:
            signal.raise_signal(arrived[0])


def _write_atomic(path: Path, payload: bytes) -> tuple[int, ...]:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=path.parent)  # mode 0600
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
    fsync_directory(path.parent)
    return fingerprint(st)


def fsync_directory(directory: Path) -> None:
    """Make a rename itself durable (the new directory entry survives a power cut)."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno != errno.EINVAL:  # some filesystems cannot fsync a directory; the data is still safe
            raise
    finally:
        os.close(fd)


def fingerprint(st: os.stat_result) -> tuple[int, ...]:
    """What changes whenever a file is replaced (new inode) or rewritten in place (size, time)."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def same_file(a: os.stat_result, b: os.stat_result) -> bool:
    """Whether two stats are of the same file."""
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)
