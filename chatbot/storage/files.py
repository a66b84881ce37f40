"""File-system primitives of the JSON store: a private directory, flocks, atomic and durable writes.

Kept apart from :mod:`chatbot.storage.json_store` so that the store reads as what it does with sessions, and these
as the few system calls it rests on.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import tempfile
from pathlib import Path

from chatbot.errors import SessionError


def open_private_directory(d: Path) -> list[str]:
    """Create ``d`` (0700) if needed; returns warnings for the user (a directory others can read).

    An existing directory that is empty and the user's own is tightened to 0700 instead of warned about.
    """
    try:
        d.mkdir(mode=0o700, parents=True)
    except FileExistsError:
        if not d.is_dir():
            raise SessionError(f"sessions directory {d} exists but is not a directory") from None
        st = d.stat()
        mode = stat.S_IMODE(st.st_mode)
        if mode & 0o077 and st.st_uid == os.getuid() and not any(os.scandir(d)):
            d.chmod(0o700)  # empty and ours (a fresh clone's sessions/, mode 755 from git): nothing to ask about
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


def try_flock(lock_path: Path) -> int | None:
    """One non-blocking attempt at an exclusive flock: the locked descriptor, or None when another process has it."""
    while True:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
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


def flock_held_elsewhere(lock_path: Path) -> bool:
    """Probe a lock file without taking its lock for longer than the probe."""
    try:
        fd = os.open(lock_path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return False  # nobody ever locked it, so no save is in progress
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
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
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
