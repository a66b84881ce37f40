"""Every error path of the file store's system calls, by injecting the failure the kernel would give (the tests
run as root in CI, where permission bits alone cannot make a read fail)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from chatbot.engine.conversation import Conversation
from chatbot.errors import ConfigError, SessionError, SessionLocked, UsageError
from chatbot.storage import files, open_store, rescue
from chatbot.storage.json_store import JsonStore
from chatbot.storage.session import Session
from chatbot.storage.transfer import import_sessions


def oserror(code: int):
    def fail(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    return fail


def test_an_unexpected_flock_error_is_not_taken_for_a_held_lock(tmp_path, monkeypatch):
    monkeypatch.setattr(files.fcntl, "flock", oserror(errno.ENOLCK))
    with pytest.raises(OSError) as caught:
        files.try_flock(tmp_path / ".s.lock")
    assert caught.value.errno == errno.ENOLCK


def test_a_lock_file_replaced_between_open_and_flock_is_locked_anew(tmp_path, monkeypatch):
    lock = tmp_path / ".s.lock"
    real_flock, swapped = files.fcntl.flock, []

    def flock(fd, op):
        real_flock(fd, op)
        if not swapped:  # a delete unlinks the file we just opened, and another process makes a new one
            swapped.append(True)
            lock.unlink()
            lock.write_text("")

    monkeypatch.setattr(files.fcntl, "flock", flock)
    fd = files.try_flock(lock)
    assert fd is not None and files.same_file(os.fstat(fd), os.stat(lock))
    os.close(fd)
    lock.unlink()
    swapped.clear()

    def flock_then_delete(fd, op):  # and when the file is simply gone, the next try makes it again
        real_flock(fd, op)
        if not swapped:
            swapped.append(True)
            lock.unlink()

    monkeypatch.setattr(files.fcntl, "flock", flock_then_delete)
    fd = files.try_flock(lock)
    assert fd is not None and lock.exists()
    os.close(fd)


def test_a_symlinked_lock_file_is_refused_and_other_open_errors_are_named(tmp_path, monkeypatch):
    (tmp_path / "elsewhere").write_text("")
    (tmp_path / ".s.lock").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(SessionError, match="is not a regular file of yours"):
        files.open_lock_file(tmp_path / ".s.lock")
    assert files.flock_held_elsewhere(tmp_path / ".s.lock")  # treated as held: nothing of that id is touched
    assert not files.flock_held_elsewhere(tmp_path / ".never.lock")
    os.link(tmp_path / "elsewhere", tmp_path / ".h.lock")  # a hard link to another file
    with pytest.raises(SessionError, match="is not a regular file of yours"):
        files.open_lock_file(tmp_path / ".h.lock")
    monkeypatch.setattr(files.os, "open", oserror(errno.EMFILE))
    with pytest.raises(SessionError, match="cannot open lock file .*: Too many open files"):
        files.open_lock_file(tmp_path / ".t.lock")


def test_the_pid_in_a_lock_message_is_shown_only_when_it_is_one(tmp_path):
    holder, other = JsonStore(tmp_path / "s"), JsonStore(tmp_path / "s")
    holder.acquire("a")
    with pytest.raises(SessionLocked, match=f"pid {os.getpid()}"):
        other.acquire("a")
    (tmp_path / "s" / ".a.lock").write_bytes(b"\xff\xfe")  # whatever the holder wrote, it is no pid
    with pytest.raises(SessionLocked) as caught:
        other.acquire("a")
    assert "pid" not in caught.value.message


def test_an_unreadable_file_whose_stat_fails_too_is_listed_with_the_current_time(tmp_path, monkeypatch):
    sdir = tmp_path / "s"
    sdir.mkdir(mode=0o700)
    (sdir / "x.json").write_text("{}")
    monkeypatch.setattr(files, "read_regular", oserror(errno.EIO))
    real_stat = Path.stat

    def stat(self, **kw):
        if self.name == "x.json":
            raise OSError(errno.EIO, "Input/output error")
        return real_stat(self, **kw)

    monkeypatch.setattr(Path, "stat", stat)
    (info,) = JsonStore(sdir).list_sessions()
    assert info.id == "x" and info.broken == "cannot read it: Input/output error"
    assert info.updated_at[:4] >= "2026"


def test_a_rescue_goes_to_the_next_directory_that_takes_it(tmp_path, monkeypatch):
    session = Session("r1", Conversation("sys"))
    blocked = tmp_path / "file"
    blocked.write_text("")  # a file where the first rescue directory should be
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(blocked / "rescue"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path, problem = rescue.rescue(session)
    assert problem == "" and path is not None and path.parent == tmp_path / "data" / "chatbot" / "rescue"
    assert path.read_bytes() == session.to_json()
    assert path.name.startswith("chatbot-rescue-r1-")


def test_a_rescue_that_fails_while_writing_leaves_no_half_file(tmp_path, monkeypatch):
    session = Session("r2", Conversation("sys"))
    monkeypatch.setattr(rescue, "rescue_dirs", lambda: [tmp_path / "a", tmp_path / "b"])
    monkeypatch.setattr(rescue.os, "fsync", oserror(errno.ENOSPC))
    path, problem = rescue.rescue(session)
    assert path is None and problem.endswith(": No space left on device")
    assert list((tmp_path / "a").iterdir()) == [] and list((tmp_path / "b").iterdir()) == []


def test_a_postgres_store_without_psycopg_is_a_config_error(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "chatbot.storage.postgres_store", None)  # as if psycopg were missing
    with pytest.raises(ConfigError, match="needs psycopg 3"):
        open_store("postgresql://localhost/x")


def test_import_refuses_what_it_cannot_read_and_a_source_that_is_neither_folder_nor_file(tmp_path, monkeypatch):
    source = tmp_path / "src"
    source.mkdir()
    (source / "bad name!.json").write_text("{}")
    (source / "ok.json").write_text("{}")
    store = JsonStore(tmp_path / "dst")
    real = files.read_regular

    def read_regular(path, limit=None):
        if path.name == "ok.json":
            raise OSError(errno.EIO, "Input/output error")
        return real(path, limit)

    monkeypatch.setattr(files, "read_regular", read_regular)
    report = import_sessions(source, store)
    assert report.refused == [
        "bad name!.json: the file name is not a session id",
        "ok.json: cannot read it: Input/output error",
    ]
    with pytest.raises(UsageError, match="is not a directory or a session file"):
        import_sessions(source / "missing.json", store)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a directory to another user")
def test_a_sessions_directory_owned_by_another_user_is_refused(tmp_path):
    other = tmp_path / "theirs"
    other.mkdir(mode=0o700)
    os.chown(other, 4321, 4321)
    with pytest.raises(SessionError, match="is owned by another user \\(uid 4321\\)"):
        files.open_private_directory(other)
