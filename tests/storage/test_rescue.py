"""Rescue files: which directory takes a session the store could not save, and that what lands there is whole,
durable and private."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import pytest

from chatbot.engine.conversation import Conversation
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


def test_when_no_directory_takes_it_the_last_problem_is_named(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setattr(rescue, "rescue_dirs", lambda: [blocked / "a", blocked / "b"])
    path, problem = rescue.rescue(session())
    assert path is None and problem == f"{blocked / 'b'}: Not a directory"


def test_the_directories_in_order(tmp_path, monkeypatch):
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path / "env"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    assert rescue.rescue_dirs() == [tmp_path / "env", tmp_path / "data" / "chatbot" / "rescue", tmp_path / "tmp"]
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", "")
    assert rescue.rescue_dirs() == [Path(tmp_path / "data" / "chatbot" / "rescue"), tmp_path / "tmp"]
