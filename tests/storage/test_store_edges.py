"""The JSON store at its edges: durability of a save (both fsyncs), set-aside never overwriting, unreadable files,
a sessions directory that cannot be made, the document checks at their bounds, id collisions, permissions."""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path

import pytest

from chatbot.engine.conversation import Conversation
from chatbot.errors import SessionCorrupt, SessionError, SessionNotFound
from chatbot.storage import files, json_store
from chatbot.storage.base import make_id
from chatbot.storage.json_store import JsonStore
from chatbot.storage.schema import check_session_data
from chatbot.storage.session import Session


def saved(store: JsonStore, sid: str = "s1") -> Session:
    session = store.create(sid, system="sys")
    store.acquire(sid)
    store.save(session)
    return session


def document(**changes) -> dict:
    data = json.loads(Session("x", Conversation("sys")).to_json())
    data.update(changes)
    return data


# --- durability -----------------------------------------------------------------------------------------------------


def test_a_save_fsyncs_the_new_file_before_the_rename_and_the_directory_after(tmp_path, monkeypatch):
    store = JsonStore(tmp_path / "s")
    session = saved(store)
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        calls.append("fsync dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "fsync file")
        real_fsync(fd)

    def replace(src, dst):
        calls.append("rename")
        real_replace(src, dst)

    monkeypatch.setattr(files.os, "fsync", fsync)
    monkeypatch.setattr(files.os, "replace", replace)
    store.save(session)
    assert calls == ["fsync file", "rename", "fsync dir"]


def test_a_directory_that_cannot_be_fsynced_is_accepted_other_errors_are_not(tmp_path, monkeypatch):
    def fsync(error):
        def fail(fd):
            raise OSError(error, os.strerror(error))

        return fail

    monkeypatch.setattr(files.os, "fsync", fsync(errno.EINVAL))
    files.fsync_directory(tmp_path)  # some filesystems cannot fsync a directory: the data is still safe
    monkeypatch.setattr(files.os, "fsync", fsync(errno.EIO))
    with pytest.raises(OSError):
        files.fsync_directory(tmp_path)


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "s.json"
    target.write_bytes(b"old")

    def fail(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", fail)
    with pytest.raises(OSError):
        files.write_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


# --- set-aside ------------------------------------------------------------------------------------------------------


class FrozenNow:
    @staticmethod
    def now(tz=None):
        from datetime import datetime

        return datetime(2026, 1, 2, 3, 4, 5)


def test_a_second_set_aside_in_the_same_second_never_overwrites_the_first(tmp_path, monkeypatch):
    monkeypatch.setattr(json_store, "datetime", FrozenNow)
    (tmp_path / "s").mkdir(mode=0o700)
    store = JsonStore(tmp_path / "s")
    kept = []
    for n in range(3):
        (tmp_path / "s" / "dup.json").write_text(f"broken {n}")
        kept.append(store.set_aside("dup"))
    assert [p.name for p in kept] == [
        "dup.json.broken-20260102T030405",
        "dup.json.broken-20260102T030405-2",
        "dup.json.broken-20260102T030405-3",
    ]
    assert [p.read_text() for p in kept] == ["broken 0", "broken 1", "broken 2"]
    assert not store.exists("dup")
    with pytest.raises(SessionNotFound):
        store.set_aside("dup")


# --- unreadable files and directories -------------------------------------------------------------------------------


def test_an_unreadable_file_is_named_on_load_and_listed_as_broken(tmp_path, monkeypatch):
    store = JsonStore(tmp_path / "s")
    saved(store, "fine")
    saved(store, "locked")
    real = files.read_regular

    def read_regular(path: Path):
        if path.name == "locked.json":
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(files, "read_regular", read_regular)
    with pytest.raises(SessionError, match="cannot read session file .*locked.json: Permission denied"):
        JsonStore(tmp_path / "s").load("locked")
    listed = {i.id: i for i in JsonStore(tmp_path / "s").list_sessions()}
    assert listed["locked"].broken == "cannot read it: Permission denied"
    assert listed["fine"].broken == ""
    assert listed["locked"].updated_at.startswith("20")  # the file's own time, not an empty field
    assert JsonStore(tmp_path / "s").latest() == "fine"


def test_a_directory_in_place_of_a_session_file_is_refused_on_load_and_skipped_in_listings(tmp_path):
    store = JsonStore(tmp_path / "s")
    saved(store, "real")
    (tmp_path / "s" / "odd.json").mkdir()
    with pytest.raises(SessionCorrupt, match="is not a regular file"):
        store.load("odd")
    assert [i.id for i in store.list_sessions()] == ["real"]


def test_a_sessions_directory_that_cannot_be_created_is_named(tmp_path):
    (tmp_path / "file").write_text("not a directory")
    with pytest.raises(SessionError, match="cannot create sessions directory .*file/sessions"):
        files.open_private_directory(tmp_path / "file" / "sessions")
    with pytest.raises(SessionError, match="exists but is not a directory"):
        files.open_private_directory(tmp_path / "file")


def test_permissions_warn_only_when_others_can_read_a_directory_with_files(tmp_path):
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    (private / "a.json").write_text("{}")
    assert files.open_private_directory(private) == []
    assert files.open_private_directory(tmp_path / "fresh") == []
    assert stat.S_IMODE((tmp_path / "fresh").stat().st_mode) == 0o700

    readable = tmp_path / "readable"
    readable.mkdir()
    readable.chmod(0o750)
    (readable / "a.json").write_text("{}")
    (warning,) = files.open_private_directory(readable)
    assert "accessible by other users (mode 750)" in warning

    empty = tmp_path / "empty"
    empty.mkdir()
    empty.chmod(0o755)
    assert files.open_private_directory(empty) == []
    assert stat.S_IMODE(empty.stat().st_mode) == 0o700

    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    (shared / "a.json").write_text("{}")
    with pytest.raises(SessionError, match="writable by other users"):
        files.open_private_directory(shared)


# --- the document at its bounds ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"version": 0}, "'version' must be a positive integer, found 0"),
        ({"version": True}, "'version' must be a positive integer"),
        ({"version": 2}, "it has version 2, written by a newer chatbot"),
        ({"totals": {"requests": -1}}, "'totals.requests' must be a whole number of at least 0, found -1"),
        ({"totals": {"requests": True}}, "'totals.requests'"),
        ({"calibration": {"m": 0.1}}, "'calibration.m' must be a number"),
        ({"calibration": {"m": {"ratios": [0.1], "turns": 1}}}, "'calibration.m.ratios'"),
        ({"calibration": {"m": {"ratios": [1.0], "turns": -1}}}, "'calibration.m.turns'"),
        ({"summary": {"text": "s", "covers": 1}}, "'summary.covers' must be an integer from 0 to 0"),
        ({"summary": {"text": "s", "covers": -1}}, "'summary.covers'"),
        ({"summary": {"text": None, "covers": 0}}, "'summary.text' must be a string, found null"),
        ({"options": {"temperature": None}}, "'options.temperature'"),
        ({"options": {"model": "m"}}, "'options.model'"),
        ({"options": {"t": {"deep": float("nan")}}}, "'options.t'"),
        ({"options": []}, "'options' must be an object, found list"),
        ({"title": 3}, "'title' must be a string, found int"),
    ],
)
def test_each_document_check_refuses_by_name(changes, problem):
    assert problem in check_session_data(document(**changes))


def test_the_document_bounds_that_are_accepted():
    accepted = [
        {"totals": {"requests": 0, "prompt_tokens": 0}},
        {"calibration": {"m": 0.5}},  # below 1: a model counted higher locally than by its provider
        {"calibration": {"m": {"ratios": [0.5, 2.0], "turns": 2}}},
        {"options": {"stop": ["a", "b"], "temperature": 0.2, "stream_usage": True}},
        {"options": {"response_format": {"type": "json_object"}, "stop": [["a"], None], "x": {"y": {"z": []}}}},
    ]
    for changes in accepted:
        assert check_session_data(document(**changes)) == ""
    assert check_session_data(document()) == ""
    missing = document()
    del missing["version"]
    assert check_session_data(missing) == "the field 'version' is missing"
    assert check_session_data([]) == "expected a JSON object, found list"


# --- ids ------------------------------------------------------------------------------------------------------------


def test_new_id_skips_ids_in_use_and_gives_up_after_its_tries():
    seen: list[str] = []

    def taken(sid: str) -> bool:
        seen.append(sid)
        return len(seen) < 4

    sid = make_id(taken, "here")
    assert sid == seen[-1] and len(seen) == 4
    assert len(sid.split("-")[1]) == 6  # the fourth try is longer: fewer collisions
    with pytest.raises(SessionError, match="could not find an unused session id in here"):
        make_id(lambda sid: True, "here")


def test_the_store_never_hands_out_an_id_whose_file_or_lock_exists(tmp_path, monkeypatch):
    store = JsonStore(tmp_path / "s")
    saved(store, "20260101-aaaa")
    (tmp_path / "s" / ".20260101-bbbb.lock").write_text("")
    tries = iter(["20260101-aaaa", "20260101-bbbb", "20260101-cccc"])
    monkeypatch.setattr(json_store, "make_id", lambda taken, where: next(s for s in tries if not taken(s)))
    assert store.new_id() == "20260101-cccc"


@pytest.mark.parametrize(
    ("turn", "problem"),
    [
        ("a turn", "turns[0] must be an object, found str"),
        ({"messages": []}, "turns[0].messages must be a non-empty list"),
        ({"messages": [{"role": "user", "content": "q"}], "usage": 3}, "turns[0].usage must be an object or null"),
        ({"messages": [{"role": "user", "content": "q"}], "latency": "1"}, "turns[0].latency must be a number"),
        ({"messages": [{"role": "user", "content": "q"}], "created_at": 1}, "turns[0].created_at must be a string"),
        ({"messages": [{"role": "user", "content": "q"}], "interrupted": 1}, "turns[0].interrupted must be true"),
        ({"messages": ["q"]}, "turns[0].messages[0] must be an object"),
        ({"messages": [{"role": 1}]}, "turns[0].messages[0].role must be a string"),
        ({"messages": [{"role": "system", "content": "q"}]}, "turns[0].messages[0].role must be one of"),
        ({"messages": [{"role": "assistant", "content": "q"}]}, "a turn has exactly one user message, its first"),
        ({"messages": [{"role": "user", "content": 3}]}, "turns[0].messages[0].content must be a string"),
        (
            {"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "tool_calls": [{"id": 1}]}]},
            "turns[0].messages[1].tool_calls must be a list of calls",
        ),
        (
            {
                "messages": [
                    {"role": "user", "content": "q"},
                    {"role": "assistant", "tool_calls": [{"id": 1, "function": {"name": "f"}}]},
                ]
            },
            "turns[0].messages[1].tool_calls must be a list of calls",
        ),
        (
            {"messages": [{"role": "user", "content": "q"}, {"role": "tool", "tool_call_id": 5, "content": "r"}]},
            "turns[0].messages[1].tool_call_id must be a string",
        ),
        (
            {"messages": [{"role": "user", "content": "q"}, {"role": "tool", "tool_call_id": "c", "content": "r"}]},
            "turns[0].messages: message 2 answers a tool call that is not open",
        ),
    ],
)
def test_each_turn_check_refuses_by_name(turn, problem):
    assert problem in check_session_data(document(turns=[turn]))
