"""What the JSON store leaves on disk around a session: the pid in its lock file, nothing of a deleted session,
durable deletes and set-asides (the directory is fsynced after the entry changed), and a wait for a lock that
sleeps instead of spinning."""

from __future__ import annotations

import os
import stat
import threading
import time

from chatbot.storage import files
from chatbot.storage.json_store import JsonStore
from tests.support.store_child import hold_lock_in_child


def saved(store: JsonStore, sid: str) -> None:
    with store.acquire(sid):
        store.save(store.create(sid, system="s"))


def watch_directory_fsyncs(monkeypatch, directory, name: str) -> list[bool]:
    """For each fsync of ``directory``: whether ``name`` existed in it at that moment."""
    seen: list[bool] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode) and files.same_file(os.fstat(fd), os.stat(directory)):
            seen.append((directory / name).exists())
        real_fsync(fd)

    monkeypatch.setattr(files.os, "fsync", fsync)
    return seen


def test_the_lock_file_holds_exactly_the_pid_of_its_holder(tmp_path):
    """A longer pid left by an earlier holder is not mixed into this one (the refusal names the holder by it)."""
    directory = tmp_path / "s"
    directory.mkdir(mode=0o700)
    (directory / ".a.lock").write_text("4194304123\n")
    store = JsonStore(directory)
    store.acquire("a")
    assert (directory / ".a.lock").read_text() == f"{os.getpid()}\n"


def test_a_deleted_session_leaves_no_file_behind(tmp_path):
    directory = tmp_path / "s"
    store = JsonStore(directory)
    saved(store, "d")
    saved(store, "keep")
    (directory / ".d.k3f9x0ab.tmp").write_text("a save killed half-way")
    (directory / ".keep.k3f9x0ab.tmp").write_text("not this one's")
    store.delete("d")
    assert sorted(os.listdir(directory)) == [".keep.k3f9x0ab.tmp", ".keep.lock", "keep.json"]


def test_a_delete_is_made_durable_after_the_file_is_gone(tmp_path, monkeypatch):
    store = JsonStore(tmp_path / "s")
    saved(store, "d")
    fsyncs = watch_directory_fsyncs(monkeypatch, tmp_path / "s", "d.json")
    store.delete("d")
    assert fsyncs and fsyncs[-1] is False


def test_a_set_aside_is_made_durable_after_the_rename(tmp_path, monkeypatch):
    store = JsonStore(tmp_path / "s")
    saved(store, "b")
    fsyncs = watch_directory_fsyncs(monkeypatch, tmp_path / "s", "b.json")
    target = store.set_aside("b")
    assert fsyncs and fsyncs[-1] is False and target.exists()


def test_waiting_for_a_lock_sleeps_between_tries_and_takes_it_once_free(tmp_path):
    """acquire(timeout=...) does not spin a core while the other process finishes, and gets the lock when it
    does."""
    directory = tmp_path / "s"
    store = JsonStore(directory)
    store.acquire("w").release()
    with hold_lock_in_child(directory, "w") as child:
        threading.Timer(0.6, child.kill).start()
        wall, cpu = time.monotonic(), time.process_time()
        lock = store.acquire("w", timeout=10)
        wall, cpu = time.monotonic() - wall, time.process_time() - cpu
    assert lock.held and 0.3 < wall < 10
    assert cpu < wall / 4, (cpu, wall)
