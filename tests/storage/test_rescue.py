"""Rescue files: which directory takes a session the store could not save, and that what lands there is whole,
durable and private."""

from __future__ import annotations

import os
import re
import stat
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from chatbot.engine.conversation import Conversation, Turn
from chatbot.storage import rescue
from chatbot.storage.session import Session


@pytest.fixture
def umask_022():
    """The usual umask, so that a wrong mode asked of mkdir or open shows in the result."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def session(sid: str = "r1") -> Session:
    return Session(sid, Conversation("keep this system message"))


def test_the_rescue_dir_of_the_environment_comes_first_and_is_made_private_with_its_parents(
    tmp_path, monkeypatch, umask_022
):
    target = tmp_path / "a" / "b" / "rescue"
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(target))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    kept = session()  # one session: two made a second apart would differ in their timestamps
    path, problem = rescue.rescue(kept)
    assert problem == "" and path is not None and path.parent == target
    assert path.read_bytes() == kept.to_json()
    assert stat.S_IMODE(target.stat().st_mode) == 0o700 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not (tmp_path / "data").exists()


def test_an_existing_rescue_dir_is_used_as_it_is(tmp_path, monkeypatch):
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path))
    path, problem = rescue.rescue(session())
    assert problem == "" and path is not None and path.parent == tmp_path


def test_the_user_data_folder_is_next_then_the_temporary_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("CHATBOT_RESCUE_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    first, _ = rescue.rescue(session("u1"))
    assert first is not None and first.parent == tmp_path / "data" / "chatbot" / "rescue"
    (tmp_path / "blocked").write_text("")  # a file where the user data folder should be
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "blocked"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    kept = session("u2")
    second, problem = rescue.rescue(kept)
    assert problem == "" and second is not None and second.parent == tmp_path / "tmp"
    assert second.read_bytes() == kept.to_json()


def test_a_rescue_file_is_fsynced_with_all_its_bytes(tmp_path, monkeypatch):
    """What the fsync makes durable is the whole document, not an empty file still waiting in a buffer."""
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path))
    synced: list[tuple[str, int]] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append((os.readlink(f"/proc/self/fd/{fd}"), os.fstat(fd).st_size))
        real_fsync(fd)

    monkeypatch.setattr(rescue.os, "fsync", fsync)
    kept = session()
    path, _ = rescue.rescue(kept)
    assert path is not None
    assert synced == [(str(path), len(kept.to_json()))]


def test_when_no_directory_takes_it_each_ones_problem_is_named(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setattr(rescue, "rescue_dirs", lambda: [blocked / "a", blocked / "b"])
    path, problem = rescue.rescue(session())
    assert path is None and problem == f"{blocked / 'a'}: Not a directory; {blocked / 'b'}: Not a directory"


def test_the_directories_in_order(tmp_path, monkeypatch):
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path / "env"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    assert rescue.rescue_dirs() == [tmp_path / "env", tmp_path / "data" / "chatbot" / "rescue", tmp_path / "tmp"]
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", "")
    assert rescue.rescue_dirs() == [Path(tmp_path / "data" / "chatbot" / "rescue"), tmp_path / "tmp"]


def three_turns(sid: str = "t1") -> Session:
    turns = [Turn([{"role": "user", "content": f"q{i}"}, {"role": "assistant", "content": f"a{i}"}]) for i in (1, 2, 3)]
    return Session(sid, Conversation("sys", turns=turns))


NAME = r"chatbot-rescue-{sid}-\d{{8}}T\d{{6}}\.\d{{6}}Z-{pid}-\d+{suffix}\.json"


def test_the_turns_the_store_lacks_are_rescued_alone_under_a_name_that_says_which(tmp_path, monkeypatch):
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path))
    kept = three_turns()
    path, problem = rescue.rescue(kept, 1)
    assert problem == "" and path is not None
    assert re.fullmatch(NAME.format(sid="t1", pid=os.getpid(), suffix="-turns-2-3"), path.name)
    assert path.read_bytes() == kept.rescue_json(1)


@pytest.mark.parametrize("stored", [0, 3])
def test_with_none_or_every_turn_stored_the_whole_session_is_rescued(tmp_path, monkeypatch, stored):
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path))
    kept = three_turns()
    path, problem = rescue.rescue(kept, stored)
    assert problem == "" and path is not None
    assert re.fullmatch(NAME.format(sid="t1", pid=os.getpid(), suffix=""), path.name)
    assert path.read_bytes() == kept.to_json()


def test_the_default_is_the_whole_session(tmp_path, monkeypatch):
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path))
    kept = three_turns()
    path, _ = rescue.rescue(kept)
    assert path is not None and path.read_bytes() == kept.to_json()


def test_when_the_small_rescue_cannot_be_encoded_the_whole_session_is_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path))
    kept = three_turns()

    def broken(after: int) -> bytes:
        raise ValueError("bad")

    monkeypatch.setattr(kept, "rescue_json", broken)
    path, problem = rescue.rescue(kept, 1)
    assert problem == "" and path is not None and path.read_bytes() == kept.to_json()
    monkeypatch.setattr(kept, "to_json", lambda: broken(0))
    assert rescue.rescue(kept, 1) == (None, "cannot encode it (ValueError: bad)")


def test_a_name_taken_already_is_skipped_for_the_next_serial_number(tmp_path, monkeypatch):
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path))
    real_open = os.open
    calls = []

    def open_taken_once(path, flags, mode=0o777):
        calls.append(flags)
        if len(calls) == 1:
            raise FileExistsError(17, "File exists", str(path))
        return real_open(path, flags, mode)

    monkeypatch.setattr(rescue.os, "open", open_taken_once)
    kept = three_turns()
    path, problem = rescue.rescue(kept)
    assert problem == "" and path is not None and path.read_bytes() == kept.to_json()
    want = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    assert calls == [want, want]


def test_when_every_name_is_taken_the_folder_is_named(tmp_path, monkeypatch):
    monkeypatch.setattr(rescue, "rescue_dirs", lambda: [tmp_path])
    tries = []

    def always_taken(path, flags, mode=0o777):
        tries.append(path)
        raise FileExistsError(17, "File exists", str(path))

    monkeypatch.setattr(rescue.os, "open", always_taken)
    assert rescue.rescue(three_turns()) == (None, f"{tmp_path}: every rescue file name tried exists")
    assert len(tries) == 100
    with pytest.raises(FileExistsError) as caught:
        rescue._write_in(tmp_path, "t1", "", b"x")
    assert (caught.value.errno, caught.value.filename) == (17, str(tmp_path))


def test_an_unexpected_error_in_a_folder_is_named_with_its_type(tmp_path, monkeypatch):
    monkeypatch.setattr(rescue, "rescue_dirs", lambda: [tmp_path])

    def broken(*args):
        raise RuntimeError("odd")

    monkeypatch.setattr(rescue, "_write_in", broken)
    assert rescue.rescue(three_turns()) == (None, f"{tmp_path}: RuntimeError: odd")


def test_rescue_in_writes_to_the_folder_else_to_the_rescue_places(tmp_path, monkeypatch):
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path / "rescue"))
    kept = three_turns()
    path, problem = rescue.rescue_in(tmp_path / "folder", kept)
    assert problem == "" and path is not None and path.read_bytes() == kept.to_json()
    blocked = tmp_path / "file"
    blocked.write_text("")
    path, problem = rescue.rescue_in(blocked, kept)
    assert problem == "" and path is not None and path.parent == tmp_path / "rescue"
    assert path.read_bytes() == kept.to_json()
    monkeypatch.setattr(rescue, "rescue_dirs", lambda: [blocked / "a"])
    assert rescue.rescue_in(blocked, kept) == (
        None,
        f"it could not be kept anywhere either ({blocked / 'a'}: Not a directory)",
    )


def test_a_file_the_disk_refuses_is_named_by_its_own_path(tmp_path, monkeypatch):
    monkeypatch.setattr(rescue, "rescue_dirs", lambda: [tmp_path])
    refused = []

    def full(path, flags, mode=0o777):
        refused.append(str(path))
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(rescue.os, "open", full)
    path, problem = rescue.rescue(three_turns())
    assert path is None and problem == f"{refused[0]}: No space left on device"


def test_a_write_that_fails_is_named_even_when_its_half_file_cannot_be_removed(tmp_path, monkeypatch):
    monkeypatch.setattr(rescue, "rescue_dirs", lambda: [tmp_path])

    def full(fd):
        raise OSError(28, "No space left on device")

    def refused(self, missing_ok=False):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(rescue.os, "fsync", full)
    monkeypatch.setattr(Path, "unlink", refused)
    path, problem = rescue.rescue(three_turns())
    assert path is None and problem == f"{tmp_path}: No space left on device"


def test_the_time_in_a_rescue_files_name_is_utc_whatever_the_local_zone(tmp_path, monkeypatch):
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path))
    monkeypatch.setenv("TZ", "KST-9")  # UTC+9, in the POSIX form that needs no zone files
    time.tzset()
    try:
        before = datetime.now(timezone.utc).replace(microsecond=0)
        path, _ = rescue.rescue(session())
        after = datetime.now(timezone.utc)
    finally:
        monkeypatch.undo()
        time.tzset()
    assert path is not None
    stamp = re.fullmatch(r"chatbot-rescue-r1-(\d{8}T\d{6})\.\d{6}Z-\d+-\d+\.json", path.name)
    assert stamp is not None
    assert before <= datetime.strptime(stamp[1], "%Y%m%dT%H%M%S").replace(tzinfo=timezone.utc) <= after
