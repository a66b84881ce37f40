"""The JSON store's system calls on their failure paths leave no descriptor open, and the sessions directory is
0700 whatever the umask."""

from __future__ import annotations

import errno
import os
import socket
import stat
from pathlib import Path

import pytest

from chatbot.errors import SessionError
from chatbot.storage import files
from chatbot.storage.json_store import JsonStore
from tests.support.fds import open_descriptors


def test_refusing_a_directory_in_place_of_a_file_leaves_no_descriptor_open(tmp_path):
    before = open_descriptors()
    with pytest.raises(files.NotRegularFile):
        files.read_regular(tmp_path)
    assert open_descriptors() == before


def test_a_lock_held_by_another_descriptor_is_refused_without_leaking_one(tmp_path):
    lock = tmp_path / ".s.lock"
    held = files.try_flock(lock)
    assert held is not None
    before = open_descriptors()
    assert files.try_flock(lock) is None
    assert files.flock_held_elsewhere(lock)
    assert open_descriptors() == before
    os.close(held)
    assert not files.flock_held_elsewhere(lock)
    assert open_descriptors() == before - {str(held)}


def test_a_symlinked_lock_file_counts_as_held_whatever_it_points_to(tmp_path):
    (tmp_path / "free").write_bytes(b"")  # a file nobody locks
    (tmp_path / ".s.lock").symlink_to(tmp_path / "free")
    assert files.flock_held_elsewhere(tmp_path / ".s.lock")  # not followed: nothing of that session is touched


def test_a_lock_file_swapped_under_the_flock_is_retried_without_leaking_the_first_descriptor(tmp_path, monkeypatch):
    lock = tmp_path / ".s.lock"
    real_flock, swapped = files.fcntl.flock, []

    def flock(fd, op):
        real_flock(fd, op)
        if not swapped:  # a delete unlinks the file just opened, and another process makes a new one
            swapped.append(True)
            lock.unlink()
            lock.write_text("")

    monkeypatch.setattr(files.fcntl, "flock", flock)
    before = open_descriptors()
    fd = files.try_flock(lock)
    assert fd is not None and open_descriptors() == before | {str(fd)}
    os.close(fd)


def test_a_refused_lock_file_leaves_no_descriptor_open(tmp_path):
    (tmp_path / "elsewhere").write_text("")
    os.link(tmp_path / "elsewhere", tmp_path / ".h.lock")  # a hard link planted to another file
    before = open_descriptors()
    with pytest.raises(SessionError):
        files.open_lock_file(tmp_path / ".h.lock")
    assert open_descriptors() == before


def test_a_directory_that_cannot_be_fsynced_leaves_no_descriptor_open(tmp_path, monkeypatch):
    def fsync(fd):
        raise OSError(errno.EINVAL, os.strerror(errno.EINVAL))

    monkeypatch.setattr(files.os, "fsync", fsync)
    before = open_descriptors()
    files.fsync_directory(tmp_path)
    assert open_descriptors() == before


def test_a_new_sessions_directory_is_0700_even_under_a_umask_that_takes_the_owners_write(tmp_path):
    """mkdir's mode is filtered by the umask: the store sets the mode itself, so it can still write there."""
    old = os.umask(0o277)
    try:
        store = JsonStore(tmp_path / "a" / "sessions")
        store.acquire("s").release()
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a" / "sessions").stat().st_mode) == 0o700


def test_a_new_sessions_directory_is_never_open_to_others_not_even_before_its_mode_is_set(tmp_path, monkeypatch):
    """Whoever opened the directory in that moment could list it through their handle ever after."""
    modes: list[int] = []
    chmod = Path.chmod

    def chmod_seen(self: Path, mode: int, **options: object) -> None:
        modes.append(stat.S_IMODE(self.stat().st_mode))
        chmod(self, mode, **options)

    monkeypatch.setattr(Path, "chmod", chmod_seen)
    old = os.umask(0o022)
    try:
        files.open_private_directory(tmp_path / "sessions")
    finally:
        os.umask(old)
    assert modes == [0o700]


def test_a_save_fsyncs_the_file_with_every_byte_in_it(tmp_path, monkeypatch):
    """The fsync makes the whole payload durable, not a file whose bytes still wait in a buffer."""
    sizes: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode):
            sizes.append(st.st_size)
        real_fsync(fd)

    monkeypatch.setattr(files.os, "fsync", fsync)
    files.write_atomic(tmp_path / "s.json", b"x" * 5000)
    assert sizes == [5000] and (tmp_path / "s.json").read_bytes() == b"x" * 5000


def test_a_save_on_another_thread_works_and_leaves_the_signal_handlers_alone(tmp_path):
    """Signal handlers can only be changed on the main thread (and only run there): a save elsewhere just saves."""
    import signal
    import threading

    target = tmp_path / "s.json"
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    errors: list[BaseException] = []

    def save() -> None:
        try:
            files.write_atomic(target, b"from a thread")
        except BaseException as exc:  # noqa: BLE001 - reported to the test below
            errors.append(exc)

    worker = threading.Thread(target=save)
    worker.start()
    worker.join()
    assert errors == [] and target.read_bytes() == b"from a thread"
    assert {sig: signal.getsignal(sig) for sig in handlers} == handlers


@pytest.mark.parametrize(
    ("mode", "name"),
    [
        (stat.S_IFIFO | 0o600, "a named pipe (FIFO)"),
        (stat.S_IFSOCK | 0o600, "a socket"),
        (stat.S_IFDIR | 0o700, "a directory"),
        (stat.S_IFREG | 0o600, "a regular file"),
        (stat.S_IFCHR | 0o600, "a device"),
        (stat.S_IFBLK | 0o600, "a device"),
    ],
)
def test_each_kind_of_file_is_named_in_a_users_words(mode, name):
    assert files.kind(mode) == name


def test_a_socket_a_fifo_and_a_directory_are_refused_unread_by_name(tmp_path):
    sock_path, fifo = tmp_path / "s.sock", tmp_path / "p.fifo"
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(sock_path))  # the socket file stays: it cannot be opened at all, and is still named
    os.mkfifo(fifo)  # opened without a writer, it would block a read forever
    before = open_descriptors()
    for path, name in ((sock_path, "a socket"), (fifo, "a named pipe (FIFO)"), (tmp_path, "a directory")):
        with pytest.raises(files.NotRegularFile) as caught:
            files.read_regular(path)
        error = caught.value
        assert (error.errno, error.strerror, error.filename) == (errno.EINVAL, f"{name}, not a regular file", str(path))
    assert open_descriptors() == before


def test_a_regular_file_is_read_whole_or_up_to_the_limit_with_its_stat(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"0123456789")
    data, st = files.read_regular(path)
    assert data == b"0123456789" and st.st_size == 10 and st.st_ino == path.stat().st_ino
    assert files.read_regular(path, 4)[0] == b"0123"
    assert files.read_regular(path, 0)[0] == b""


def test_a_failed_save_whose_temporary_file_cannot_be_removed_still_reports_why_it_failed(tmp_path, monkeypatch):
    def full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    def gone(path):
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)

    monkeypatch.setattr(files.os, "replace", full)
    monkeypatch.setattr(files.os, "unlink", gone)
    with pytest.raises(OSError) as caught:
        files.write_atomic(tmp_path / "s.json", b"{}")
    assert caught.value.errno == errno.ENOSPC
