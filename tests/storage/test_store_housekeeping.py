"""What the JSON store leaves on disk around a session: the pid in its lock file, nothing of a deleted session,
durable deletes and set-asides (the directory is fsynced after the entry changed), and a wait for a lock that
sleeps instead of spinning."""

from __future__ import annotations

import os
import stat
import threading
import time

import pytest

from chatbot.engine.turn import Turn
from chatbot.errors import SessionError, SessionLocked
from chatbot.storage import files
from chatbot.storage.json_store import JsonStore
from tests.support.fds import open_descriptors
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


def cpu_share(work) -> float:
    """The share of a core this process used while ``work()`` ran (what the machine's load leaves it)."""
    wall, cpu = time.monotonic(), time.process_time()
    work()
    return (time.process_time() - cpu) / (time.monotonic() - wall)


def spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_waiting_for_a_lock_sleeps_between_tries_and_takes_it_once_free(tmp_path):
    """acquire(timeout=...) does not spin a core while the other process finishes, and gets the lock when it
    does. Compared with a loop that spins for as long on the same (possibly busy) machine."""
    directory = tmp_path / "s"
    store = JsonStore(directory)
    store.acquire("w").release()
    locks = []
    with hold_lock_in_child(directory, "w") as child:
        spinning = cpu_share(lambda: spin(0.4))
        threading.Timer(0.6, child.kill).start()
        waiting = cpu_share(lambda: locks.append(store.acquire("w", timeout=10)))
    assert locks[0].held
    assert waiting < spinning / 4, (waiting, spinning)


def test_taking_a_lock_leaves_the_temporary_files_of_a_longer_id_alone(tmp_path):
    """``.a.*.tmp`` also matches a save in progress of session ``a.b``: only ``a``'s own are removed."""
    directory = tmp_path / "s"
    directory.mkdir(mode=0o700)
    (directory / ".a.k3f9x0ab.tmp").write_text("a save of a, killed")
    with hold_lock_in_child(directory, "a.b"):
        (directory / ".a.b.k3f9x0ab.tmp").write_text("a save of a.b, in progress")
        JsonStore(directory).acquire("a").release()
        assert sorted(p.name for p in directory.glob("*.tmp")) == [".a.b.k3f9x0ab.tmp"]


def test_a_released_lock_is_not_held_and_its_descriptor_is_closed(tmp_path):
    store = JsonStore(tmp_path / "s")
    store.acquire("warm").release()  # the directory exists from here on
    before = open_descriptors()
    lock = store.acquire("r")
    (tmp_path / "s" / ".r.lock").unlink()  # its lock file removed under it: the next acquire replaces it
    fresh = store.acquire("r")
    assert fresh is not lock and not lock.held and fresh.held
    fresh.release()
    assert not fresh.held and not store.holds("r")
    assert open_descriptors() == before


def test_closing_a_store_lets_another_process_take_its_sessions(tmp_path):
    directory = tmp_path / "s"
    store = JsonStore(directory)
    store.acquire("x")
    store.acquire("y")
    store.close()
    other = JsonStore(directory)
    for sid in ("x", "y"):
        other.acquire(sid).release()


def test_set_aside_keeps_the_lock_it_holds_and_is_refused_while_another_process_holds_it(tmp_path):
    directory = tmp_path / "s"
    store = JsonStore(directory)
    store.acquire("mine")
    (directory / "mine.json").write_text("{broken")
    store.set_aside("mine")
    assert store.holds("mine")  # the id starts over under the same lock
    (directory / "theirs.json").write_text("{broken")
    with hold_lock_in_child(directory, "theirs"), pytest.raises(SessionLocked):
        store.set_aside("theirs")
    assert (directory / "theirs.json").read_text() == "{broken"


def test_a_broken_file_is_listed_with_no_title_turns_or_model(tmp_path):
    directory = tmp_path / "s"
    directory.mkdir(mode=0o700)
    (directory / "bad.json").write_text("{")
    (info,) = JsonStore(directory).list_sessions()
    assert (info.id, info.title, info.turns, info.model) == ("bad", "", 0, "")
    assert info.broken.startswith("it is not valid JSON")


def test_listing_orders_by_last_use_not_by_file_time(tmp_path):
    """The stored ``updated_at`` decides (an import keeps it); the file time only breaks ties."""
    directory = tmp_path / "s"
    store = JsonStore(directory)
    for sid, when in (("old", "2026-01-01T00:00:00+00:00"), ("new", "2026-06-01T00:00:00+00:00")):
        session = store.create(sid, system="s")
        session.conversation.add_turn(Turn([{"role": "user", "content": "find me"}]))
        session.updated_at = when
        with store.acquire(sid):
            store.save(session, touch=False)
    os.utime(directory / "new.json", ns=(1, 1))  # the newer session has the older file
    assert [i.id for i in store.list_sessions()] == ["new", "old"]


def test_search_gives_at_most_50_hits_unless_asked_for_more(tmp_path):
    store = JsonStore(tmp_path / "s")
    session = store.create("many", system="s")
    for i in range(51):
        session.conversation.add_turn(Turn([{"role": "user", "content": f"needle {i}"}]))
    with store.acquire("many"):
        store.save(session)
    assert len(store.search("needle")) == 50 and len(store.search("needle", limit=60)) == 51


def test_a_file_set_aside_and_put_back_is_not_overwritten_without_a_new_load(tmp_path):
    """Set aside, the file is no longer the one this store saved: moved back by hand (same inode, size and time),
    it is refused like any file the store has not loaded."""
    store = JsonStore(tmp_path / "s")
    session = store.create("back", system="s")
    store.acquire("back")
    store.save(session)
    target = store.set_aside("back")
    os.rename(target, store.path("back"))
    with pytest.raises(SessionError, match="was not loaded by this process"):
        store.save(session)
    store.save(store.load("back"))
