"""The session store: round trips, crashes, two processes, bad ids, bad files, permissions, secrets, listing."""

from __future__ import annotations

import errno
import json
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

import chatbot.storage.json_store as store_module
from chatbot.engine.calibration import Calibration
from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import Turn
from chatbot.engine.usage import Totals
from chatbot.errors import (
    ConfigError,
    InvalidSessionId,
    SessionCorrupt,
    SessionError,
    SessionLocked,
    SessionNotFound,
    UsageError,
)
from chatbot.storage import files, json_store, open_store, rescue
from chatbot.storage.base import make_id
from chatbot.storage.export import export_markdown
from chatbot.storage.json_store import JsonStore
from chatbot.storage.session import Session, validate_id
from chatbot.storage.session_format import FORMAT_VERSION, check_session_data
from chatbot.storage.transfer import import_sessions

HELPER = Path(__file__).parents[1] / "support" / "store_child.py"
ROOT = Path(__file__).parents[2]


@pytest.fixture
def sdir(tmp_path: Path) -> Path:
    """A sessions directory that exists (a store makes its own only when it first locks a session)."""
    d = tmp_path / "sessions"
    d.mkdir(mode=0o700)
    return d


@pytest.fixture
def store(sdir: Path):
    s = JsonStore(sdir)
    yield s
    s.close()


def rich_session(store: JsonStore, sid: str = "rich") -> Session:
    """A session with every kind of content: tool calls, usage, latency, an interrupted turn, a summary, Korean."""
    memory = MemoryConfig(strategy="summary", summary_trigger=4, keep_turns=2, max_input_tokens=100_000)
    session = store.create(
        sid,
        system="You are helpful.",
        provider="groq",
        model="openai/gpt-oss-20b",
        memory=memory,
        counter=TokenCounter(),
    )
    conv = session.conversation
    for i in range(1, 7):
        msgs = [{"role": "user", "content": f"질문 {i}: what is {i} + {i}?"}]
        if i == 3:
            call = {"id": "c3", "type": "function", "function": {"name": "add", "arguments": '{"a":3,"b":3}'}}
            msgs += [
                {"role": "assistant", "content": None, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": "c3", "name": "add", "content": "6"},
            ]
        msgs.append({"role": "assistant", "content": f"It is {2 * i}."})
        conv.add_turn(
            Turn(
                msgs,
                usage={"prompt_tokens": 10 * i, "completion_tokens": i, "estimated_prompt": 11 * i},
                latency=0.25 * i,
                interrupted=(i == 5),
            )
        )
    conv.summary, conv.summary_covers = "- the user asks sums\n- answers were right", 3
    session.totals = Totals(prompt_tokens=210, completion_tokens=21, requests=6, summary_requests=1)
    session.calibration = {"openai/gpt-oss-20b": Calibration([1.08, 0.94, 0.97], 5)}
    return session


def saved(store: JsonStore, session: Session) -> Session:
    with store.acquire(session.id):
        store.save(session)
    return session


def files_under(directory: Path) -> list[Path]:
    return sorted(p for p in directory.rglob("*") if p.is_file())


# --- round trip ---------------------------------------------------------------------------------------------------


def test_round_trip_rebuilds_the_identical_next_request(store):
    original = saved(store, rich_session(store))
    loaded = store.load("rich", original.conversation.memory, TokenCounter())

    a = original.conversation.build_request("and 7 + 7?")
    b = loaded.conversation.build_request("and 7 + 7?")
    assert b.messages == a.messages and b.tokens == a.tokens and b.first_turn == a.first_turn
    assert loaded.to_dict() == original.to_dict()
    for field in ("id", "title", "provider", "model", "created_at", "updated_at", "totals", "calibration"):
        assert getattr(loaded, field) == getattr(original, field), field
    assert loaded.conversation.turns[4].interrupted and loaded.conversation.turns[0].latency == 0.25


def test_file_is_compact_utf8_json_with_a_version(store, sdir):
    saved(store, rich_session(store))
    raw = (sdir / "rich.json").read_bytes()
    assert b"\n" not in raw and b", " not in raw and "질문".encode() in raw
    data = json.loads(raw)
    assert data["version"] == FORMAT_VERSION == 2
    assert set(data) >= {
        "id",
        "title",
        "created_at",
        "updated_at",
        "provider",
        "model",
        "system",
        "summary",
        "turns",
        "totals",
        "calibration",
    }
    assert data["summary"] == {"text": "- the user asks sums\n- answers were right", "covers": 3}


def test_file_is_the_plain_json_encoding_of_the_session_even_after_cached_turns_change(store, sdir):
    # Saves reuse each turn's cached encoding; the file must still be exactly the encoding of what is stored now.
    session = saved(store, rich_session(store))

    def plain() -> bytes:
        return json.dumps(session.to_dict(), ensure_ascii=False, separators=(",", ":")).encode()

    assert (sdir / "rich.json").read_bytes() == plain()
    conv = session.conversation
    before = conv.turns[3].tokens(TokenCounter())  # cached, and must be dropped with the messages below
    conv.turns[0].latency = 9.5
    conv.turns[1].interrupted = True
    conv.turns[2].usage = {"prompt_tokens": 1}
    conv.turns[3].messages = [{"role": "user", "content": "replaced"}]
    conv.add_turn(Turn([{"role": "user", "content": "new"}, {"role": "assistant", "content": "turn"}]))
    conv.summary, session.title, session.totals.requests = "changed", "T", 7
    saved(store, session)
    assert (sdir / "rich.json").read_bytes() == plain()
    loaded = store.load("rich")
    assert loaded.conversation.turns[0].latency == 9.5 and loaded.conversation.turns[1].interrupted
    assert loaded.conversation.turns[3].user_text == "replaced" and len(loaded.conversation.turns) == 7
    assert conv.turns[3].tokens(TokenCounter()) == TokenCounter().count_message(conv.turns[3].messages[0]) < before


def test_undecodable_terminal_input_still_saves_and_round_trips(store):
    session = store.create("surrogate", system="s")
    session.conversation.add_turn(Turn([{"role": "user", "content": "bad \udcff byte"}]))
    saved(store, session)
    assert store.load("surrogate").conversation.turns[0].user_text == "bad \udcff byte"


def test_save_sets_updated_at_and_keeps_created_at(store):
    session = store.create("t", system="s")
    session.created_at = session.updated_at = "2000-01-01T00:00:00+00:00"
    saved(store, session)
    loaded = store.load("t")
    assert loaded.created_at == "2000-01-01T00:00:00+00:00" and loaded.updated_at > "2000"


def test_create_refuses_an_existing_id_and_load_a_missing_one(store):
    saved(store, store.create("x", system="s"))
    with pytest.raises(SessionError, match="already exists"):
        store.create("x", system="s")
    with pytest.raises(SessionNotFound):
        store.load("nothing")


def test_new_ids_are_short_readable_and_unique(store):
    ids = {store.new_id() for _ in range(50)}
    assert len(ids) == 50
    for sid in ids:
        validate_id(sid)
        assert len(sid) == 13 and sid[8] == "-" and sid[:8].isdigit()
    session = store.create(system="s")  # no id: one is made
    assert len(session.id) == 13


# --- ids ----------------------------------------------------------------------------------------------------------

BAD_IDS = [
    "../x",
    "/abs",
    "a/b",
    "..",
    ".",
    ".hidden",
    "a" * 65,
    "",
    "세션",
    "a\x00b",
    "a b",
    "-x",
    "_x",
    "x\n",
    "a\\b",
    "~",
    "x/../../etc",
]


@pytest.mark.parametrize("bad", BAD_IDS)
def test_bad_ids_are_refused_before_any_file_is_touched(tmp_path, bad):
    sdir = tmp_path / "sessions"
    store = JsonStore(sdir)
    before = files_under(tmp_path)
    for call in (
        lambda: validate_id(bad),
        lambda: store.load(bad),
        lambda: store.create(bad, system="s"),
        lambda: store.exists(bad),
        lambda: store.acquire(bad),
        lambda: store.delete(bad),
        lambda: store.save(Session(bad, Conversation("s"))),
    ):
        with pytest.raises(InvalidSessionId, match="letters, digits"):
            call()
    assert files_under(tmp_path) == before


def test_good_ids_pass():
    for good in ("a", "A" * 64, "20261130-k3f9", "my.session_2", "9-lives", "x..y"):
        assert validate_id(good) == good
    with pytest.raises(InvalidSessionId):
        validate_id(None)


# --- bad files ----------------------------------------------------------------------------------------------------


def test_truncated_file_is_refused_named_and_never_overwritten(store, sdir):
    saved(store, rich_session(store))
    path = sdir / "rich.json"
    path.write_bytes(path.read_bytes()[:-40])
    broken = path.read_bytes()

    fresh = JsonStore(sdir)
    with pytest.raises(SessionCorrupt) as err:
        fresh.load("rich")
    assert str(path) in err.value.message and "not valid JSON" in err.value.message
    assert "never" in err.value.message or "not be overwritten" in err.value.message

    # neither a stale in-memory copy nor a brand-new session may replace it
    with fresh.acquire("rich"), pytest.raises(SessionError):
        fresh.save(rich_session(JsonStore(sdir / "other"), "rich"))
    with store.acquire("rich"):
        stale = rich_session(JsonStore(sdir / "other2"), "rich")
        with pytest.raises(SessionError):
            store.save(stale)
    with pytest.raises(SessionError):
        fresh.create("rich", system="s")
    assert path.read_bytes() == broken


def test_a_broken_file_can_be_set_aside_and_the_id_reused(store, sdir):
    (sdir / "b.json").write_text("{not json")
    with pytest.raises(SessionCorrupt):
        store.load("b")
    aside = store.set_aside("b")
    assert aside.name.startswith("b.json.broken-") and aside.read_text() == "{not json"
    saved(store, store.create("b", system="s"))
    assert store.load("b").conversation.system == "s"
    assert [i.id for i in store.list_sessions()] == ["b"]


def _mutations():
    def set_(path, value):
        def apply(data):
            target = data
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value

        return apply

    def drop(key):
        return lambda data: data.pop(key)

    return {
        "turns not a list": (set_(["turns"], {}), "'turns' must be a list"),
        "role not a string": (set_(["turns", 0, "messages", 0, "role"], 1), "turns[0].messages[0].role"),
        "unknown role": (set_(["turns", 0, "messages", 1, "role"], "wizard"), "turns[0].messages[1].role"),
        "first not user": (set_(["turns", 1, "messages", 0, "role"], "assistant"), "turns[1].messages[0]"),
        "message not a dict": (set_(["turns", 0, "messages", 1], "hi"), "turns[0].messages[1] must be an object"),
        "empty messages": (set_(["turns", 2, "messages"], []), "turns[2].messages"),
        "content a number": (set_(["turns", 0, "messages", 0, "content"], 5), "content"),
        "latency a string": (set_(["turns", 0, "latency"], "fast"), "latency"),
        "interrupted a string": (set_(["turns", 0, "interrupted"], "yes"), "interrupted"),
        "usage a list": (set_(["turns", 0, "usage"], [1]), "usage"),
        "covers too big": (set_(["summary", "covers"], 99), "summary.covers"),
        "covers a bool": (set_(["summary", "covers"], True), "summary.covers"),
        "summary text null": (set_(["summary", "text"], None), "summary.text"),
        "calibration text": (set_(["calibration", "m"], "x"), "calibration.m"),
        "calibration zero": (set_(["calibration", "m"], 0), "calibration.m"),
        "calibration NaN": (set_(["calibration", "m"], float("nan")), "NaN"),
        "calibration Infinity": (set_(["calibration", "m"], float("inf")), "Infinity"),
        "totals text": (set_(["totals", "requests"], "x"), "totals.requests"),
        "totals null": (set_(["totals", "prompt_tokens"], None), "totals.prompt_tokens"),
        "tool function a string": (set_(["turns", 2, "messages", 1, "tool_calls", 0, "function"], "add"), "tool_calls"),
        "orphan tool result": (set_(["turns", 2, "messages", 2, "tool_call_id"], "nope"), "turns[2].messages"),
        "tool call unanswered": (lambda d: d["turns"][2]["messages"].pop(2), "have no result"),
        "version a string": (set_(["version"], "1"), "'version'"),
        "title a number": (set_(["title"], 3), "'title' must be a string"),
        "no system": (drop("system"), "'system' is missing"),
        "no version": (drop("version"), "'version' is missing"),
        "no totals": (drop("totals"), "'totals' is missing"),
    }


@pytest.mark.parametrize("case", list(_mutations()))
def test_wrong_or_missing_fields_are_refused_with_the_field_named(store, sdir, case):
    saved(store, rich_session(store, "w"))
    path = sdir / "w.json"
    data = json.loads(path.read_text())
    mutate, expected = _mutations()[case]
    mutate(data)
    path.write_text(json.dumps(data))
    with pytest.raises(SessionCorrupt) as err:
        JsonStore(sdir).load("w")
    assert str(path) in err.value.message and expected in err.value.message


@pytest.mark.parametrize("content", ["[]", "null", '"text"', "", "\xff\xfe"])
def test_files_that_are_not_session_objects_are_refused(store, sdir, content):
    (sdir / "odd.json").write_bytes(content.encode("latin-1"))
    with pytest.raises(SessionCorrupt, match="odd.json"):
        store.load("odd")


def test_a_future_version_is_refused_and_kept(store, sdir):
    saved(store, rich_session(store, "f"))
    path = sdir / "f.json"
    data = json.loads(path.read_text())
    data["version"] = 3
    data["new_field"] = {"x": 1}
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    with pytest.raises(SessionCorrupt, match="version 3, written by a newer chatbot") as err:
        JsonStore(sdir).load("f")
    assert str(path) in err.value.message
    assert path.read_bytes() == before


# --- permissions, temp files, secrets -----------------------------------------------------------------------------


def test_new_directory_is_0700_and_files_0600(tmp_path):
    old = os.umask(0o022)
    try:
        sdir = tmp_path / "deep" / "sessions"
        store = JsonStore(sdir)
        saved(store, rich_session(store))
    finally:
        os.umask(old)
    assert stat.S_IMODE(sdir.stat().st_mode) == 0o700
    assert store.warnings == []
    for path in files_under(sdir):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_an_existing_loose_directory_gets_a_warning_not_a_crash(tmp_path):
    sdir = tmp_path / "sessions"
    sdir.mkdir()
    (sdir / "notes.txt").write_text("someone else's file")
    sdir.chmod(0o755)
    store = JsonStore(sdir)
    assert len(store.warnings) == 1 and "755" in store.warnings[0] and "chmod 700" in store.warnings[0]
    saved(store, store.create("x", system="s"))
    assert stat.S_IMODE((sdir / "x.json").stat().st_mode) == 0o600
    assert stat.S_IMODE(sdir.stat().st_mode) == 0o755  # the user's directory is theirs to change


def test_sessions_dir_that_is_a_file_is_a_clear_error(tmp_path):
    (tmp_path / "f").write_text("")
    with pytest.raises(SessionError, match="not a directory"):
        JsonStore(tmp_path / "f")


def test_no_key_is_ever_written(tmp_path, monkeypatch):
    keys = {"GROQ_API_KEY": "gsk_TESTSECRET_groq_0123456789", "OPENAI_API_KEY": "sk-TESTSECRET-openai-9876543210"}
    for name, value in keys.items():
        monkeypatch.setenv(name, value)
    sdir = tmp_path / "sessions"
    store = JsonStore(sdir)
    session = rich_session(store)
    saved(store, session)
    export = export_markdown(store.load("rich"))
    with store.acquire("rich"):
        store.save(store.load("rich"))
    assert files_under(sdir)
    for path in files_under(sdir):
        raw = path.read_bytes()
        for value in keys.values():
            assert value.encode() not in raw, path
    for value in keys.values():
        assert value not in export


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(store, sdir, monkeypatch):
    session = saved(store, rich_session(store))
    before = (sdir / "rich.json").read_bytes()

    def boom(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store_module.os, "replace", boom)
    session.conversation.add_turn(Turn([{"role": "user", "content": "lost"}]))
    with store.acquire("rich"), pytest.raises(OSError):
        store.save(session)
    assert (sdir / "rich.json").read_bytes() == before
    assert not list(sdir.glob("*.tmp"))


def test_stale_temp_files_are_removed_unless_their_session_is_in_use(store, sdir):
    (sdir / ".dead.abcd1234.tmp").write_text("half a sess")
    (sdir / ".with.dots.zz_9zz9z.tmp").write_text("half")
    (sdir / "notes.tmp").write_text("not ours")
    with store.acquire("busy"):
        (sdir / ".busy.abcd1234.tmp").write_text("being written by the holder")
        JsonStore(sdir)
        assert sorted(p.name for p in sdir.iterdir() if p.suffix == ".tmp") == [".busy.abcd1234.tmp", "notes.tmp"]
    other = JsonStore(sdir)
    other.acquire("busy").release()  # holding the lock proves no save of it is in progress
    assert sorted(p.name for p in sdir.iterdir() if p.suffix == ".tmp") == ["notes.tmp"]


def test_a_temp_name_that_cannot_be_removed_is_left_and_the_store_still_opens(sdir):
    (sdir / ".odd.abcd1234.tmp").mkdir()  # a directory: unlink refuses it (as it would a file gone meanwhile)
    (sdir / ".dead.abcd1234.tmp").write_text("half a sess")
    JsonStore(sdir)
    assert sorted(p.name for p in sdir.iterdir() if p.suffix == ".tmp") == [".odd.abcd1234.tmp"]


# --- locking ------------------------------------------------------------------------------------------------------


def start_child(mode: str, sdir: Path, sid: str) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, str(HELPER), mode, str(sdir), sid],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert child.stdout is not None
    line = child.stdout.readline().strip()
    if line not in ("ready", "locked"):
        child.kill()
        raise AssertionError(f"child failed: {line!r} {child.stderr.read() if child.stderr else ''}")
    return child


def kill9(child: subprocess.Popen[str]) -> None:
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    for stream in (child.stdout, child.stderr):
        if stream:
            stream.close()


def test_a_second_store_is_refused_while_the_first_holds_the_lock(sdir):
    first, second = JsonStore(sdir), JsonStore(sdir)
    lock = first.acquire("s")
    with pytest.raises(SessionLocked) as err:
        second.acquire("s")
    assert err.value.message == (
        f"session s is in use by another chatbot process (pid {os.getpid()}); close it or use --session with another id"
    )
    assert first.acquire("s") is lock  # the holder may ask again
    lock.release()
    second.acquire("s").release()


def test_another_process_holds_the_lock_until_it_is_killed(sdir):
    child = start_child("hold", sdir, "s")
    store = JsonStore(sdir)
    try:
        with pytest.raises(SessionLocked, match=f"pid {child.pid}"):
            store.acquire("s")
    finally:
        kill9(child)
    with store.acquire("s") as lock:  # kill -9 left no stale lock
        assert lock.held


def test_save_requires_the_lock(store):
    session = store.create("s", system="s")
    with pytest.raises(SessionLocked, match="not locked by this process"):
        store.save(session)
    assert not store.exists("s")


def test_two_writers_never_lose_each_others_turns(sdir):
    a, b = JsonStore(sdir), JsonStore(sdir)
    with a.acquire("s"):
        first = a.create("s", system="s")
        first.conversation.add_turn(Turn([{"role": "user", "content": "from a"}]))
        a.save(first)
    with b.acquire("s"):  # a released: b takes over and adds a turn
        second = b.load("s")
        second.conversation.add_turn(Turn([{"role": "user", "content": "from b"}]))
        b.save(second)
    with a.acquire("s"), pytest.raises(SessionError, match="not loaded by this process"):
        a.save(first)  # a's copy is stale: saving it would drop b's turn
    with a.acquire("s"):
        fresh = a.load("s")
        assert [t.user_text for t in fresh.conversation.turns] == ["from a", "from b"]
        fresh.conversation.add_turn(Turn([{"role": "user", "content": "from a again"}]))
        a.save(fresh)
    assert len(b.load("s").conversation.turns) == 3


def test_kill_9_during_a_save_loop_always_leaves_a_loadable_file(sdir):
    rng = random.Random(4)
    counts = []
    for _ in range(6):
        child = start_child("save-loop", sdir, "crash")
        time.sleep(rng.uniform(0.0, 0.15))
        kill9(child)
        # whether the kill hit mid-save is luck: a temporary file as a killed save leaves one is always there
        (sdir / ".crash.k1ll3d_x.tmp").write_bytes(b'{"half a sess')
        store = JsonStore(sdir)  # opening cleans up what the killed save left
        assert not list(sdir.glob("*.tmp"))
        session = store.load("crash")
        n = len(session.conversation.turns)
        assert n >= 1 and session.totals.requests == n
        assert [t.user_text.split()[0] for t in session.conversation.turns] == [str(i) for i in range(1, n + 1)]
        counts.append(n)
        with store.acquire("crash"):  # and the lock did not outlive the process
            pass
    assert counts == sorted(counts) and counts[-1] > counts[0]


# --- listing, latest, delete --------------------------------------------------------------------------------------


def test_listing_is_newest_first_and_shows_broken_files(store, sdir):
    assert store.list_sessions() == [] and store.latest() is None
    for sid in ("a", "b", "c"):
        session = store.create(sid, system="s", model=f"model-{sid}", title=f"title {sid}" if sid != "b" else "")
        session.conversation.add_turn(Turn([{"role": "user", "content": f"hello from {sid}"}]))
        saved(store, session)
    assert [i.id for i in store.list_sessions()] == ["c", "b", "a"]
    with store.acquire("a"):
        store.save(store.load("a"))  # using a again makes it the newest
    infos = store.list_sessions()
    assert [i.id for i in infos] == ["a", "c", "b"]
    assert infos[0].title == "title a" and infos[0].turns == 1 and infos[0].model == "model-a"
    assert infos[2].title == "hello from b"  # untitled: the first message stands in
    assert store.latest() == "a"

    (sdir / "z.json").write_text("{oops")
    (sdir / "not an id.json").write_text("{}")
    infos = store.list_sessions()
    broken = [i for i in infos if i.broken]
    assert [i.id for i in broken] == ["z"] and "not valid JSON" in broken[0].broken
    assert infos[0].id == "z"  # newest by file time
    assert store.latest() == "a"  # -c skips a file that cannot load


def test_delete_removes_the_session_and_its_lock_file(store, sdir):
    saved(store, store.create("d", system="s"))
    (sdir / "keep.json").write_text("{}")
    store.delete("d")
    assert not (sdir / "d.json").exists() and not (sdir / ".d.lock").exists()
    assert (sdir / "keep.json").exists()
    with pytest.raises(SessionNotFound, match=f"no session d in {sdir}"):
        store.delete("d")
    with pytest.raises(SessionNotFound, match=f"no session d in {sdir}"):
        store.set_aside("d")


def test_two_deletes_of_a_session_at_once_both_end_without_an_error(sdir, monkeypatch):
    a, b = JsonStore(sdir), JsonStore(sdir)
    saved(a, a.create("d", system="s"))
    acquire = a.acquire

    def the_other_deletes_first(session_id):  # type: ignore[no-untyped-def]
        b.delete(session_id)  # between a's look for the file and its lock
        return acquire(session_id)

    monkeypatch.setattr(a, "acquire", the_other_deletes_first)
    a.delete("d")
    assert not (sdir / "d.json").exists() and not (sdir / ".d.lock").exists()


def test_delete_refuses_a_session_in_use(sdir):
    a, b = JsonStore(sdir), JsonStore(sdir)
    saved(a, a.create("d", system="s"))
    with a.acquire("d"):
        with pytest.raises(SessionLocked):
            b.delete("d")
        assert (sdir / "d.json").exists()
    b.delete("d")
    assert not (sdir / "d.json").exists()


def test_rename_is_a_title_and_a_save(store):
    session = saved(store, store.create("r", system="s"))
    session.title = "Trip planning"
    saved(store, session)
    assert store.load("r").title == "Trip planning" and store.list_sessions()[0].title == "Trip planning"


def test_rename_of_a_held_session_keeps_its_lock_and_of_another_gives_the_lock_back(sdir):
    store, other = JsonStore(sdir), JsonStore(sdir)
    saved(store, store.create("held", system="s"))
    saved(store, store.create("free", system="s"))
    store.acquire("held")
    store.rename("held", "Still mine")
    assert store.holds("held") and store.load("held").title == "Still mine"
    with pytest.raises(SessionLocked):
        other.acquire("held")
    store.rename("free", "Named")
    assert not store.holds("free") and store.load("free").title == "Named"
    other.acquire("free").release()  # the lock the rename took is given back
    store.close()


def test_sessions_of_the_same_time_to_the_nanosecond_are_all_listed(store, sdir):
    """A file system with coarse file times gives two files the same one: the listing still orders by time only."""
    for sid in ("x", "y"):
        (sdir / f"{sid}.json").write_text("{oops")
        os.utime(sdir / f"{sid}.json", ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    infos = store.list_sessions()
    assert sorted(i.id for i in infos) == ["x", "y"] and all(i.updated_at == "2023-11-14T22:13:20+00:00" for i in infos)


def test_a_listing_gives_each_session_its_own_updated_at(store):
    first = saved(store, store.create("one", system="s"))
    second = saved(store, store.create("two", system="s"))
    assert {i.id: i.updated_at for i in store.list_sessions()} == {"one": first.updated_at, "two": second.updated_at}


@pytest.mark.parametrize("odd", ["fifo", "broken"])
def test_a_fifo_or_a_broken_file_does_not_hide_the_sessions_listed_after_it(store, sdir, odd):
    ids = [f"s{i:02d}" for i in range(30)]  # files are read in directory order: some come after the odd one
    for sid in ids:
        session = store.create(sid, system="s")
        session.conversation.add_turn(Turn([{"role": "user", "content": f"hello from {sid}"}]))
        saved(store, session)
    if odd == "fifo":
        os.mkfifo(sdir / "odd.json")
    else:
        (sdir / "odd.json").write_text("{oops")
    listed = {i.id for i in store.list_sessions()}
    assert listed - {"odd"} == set(ids)
    assert {h.session_id for h in store.search("hello from")} == set(ids)


def test_a_lock_held_elsewhere_is_refused_at_once(sdir):
    a, b = JsonStore(sdir), JsonStore(sdir)
    a.acquire("busy")
    started = time.monotonic()
    with pytest.raises(SessionLocked):
        b.acquire("busy")
    assert time.monotonic() - started < 0.5  # no wait unless a timeout asks for one
    a.close()


# --- export -------------------------------------------------------------------------------------------------------


def test_export_marks_the_summary_tools_and_interruptions(store):
    session = rich_session(store)
    session.title = "Sums"
    md = export_markdown(session)
    assert md.startswith("# Sums\n")
    assert "## Summary of turns 1-3" in md and "> - the user asks sums" in md
    assert "## Turn 1 (covered by the summary)" in md and "## Turn 4\n" in md
    assert "## Turn 5 (interrupted)" in md and "*(interrupted" in md
    assert "*Tool call* `add`" in md and "**Tool result** (add):" in md
    assert "질문 6: what is 6 + 6?" in md and "It is 12." in md
    assert md.count("**User:**") == 6
    assert "> You are helpful." in md and "openai/gpt-oss-20b" in md


def test_export_without_a_summary_has_no_summary_section(store):
    session = store.create("e", system="s")
    session.conversation.add_turn(Turn([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]))
    md = export_markdown(session)
    assert "Summary" not in md and "**Assistant:**\n\nyo" in md


def test_acquire_can_wait_for_the_other_process(sdir):
    a, b = JsonStore(sdir), JsonStore(sdir)
    lock = a.acquire("w")
    t0 = time.monotonic()
    with pytest.raises(SessionLocked):
        b.acquire("w", timeout=0.2)
    assert time.monotonic() - t0 >= 0.2
    lock.release()
    b.acquire("w", timeout=0.2).release()


def test_a_lock_whose_file_was_removed_is_not_trusted(store, sdir):
    lock = store.acquire("g")
    (sdir / ".g.lock").unlink()
    assert not lock.held and not store.holds("g")
    session = store.create("g", system="s")
    with pytest.raises(SessionLocked):
        store.save(session)
    with store.acquire("g") as fresh:
        assert fresh is not lock and fresh.held
        store.save(session)


# --- durability, set-asides, unreadable files, document bounds, id collisions, permissions ---------------


def created_and_saved(store: JsonStore, sid: str = "s1") -> Session:
    session = store.create(sid, system="sys")
    store.acquire(sid)
    store.save(session)
    return session


def document(**changes) -> dict:
    data = json.loads(Session("x", Conversation("sys")).to_json())
    data.update(changes)
    return data


def test_a_save_fsyncs_the_new_file_before_the_rename_and_the_directory_after(tmp_path, monkeypatch):
    store = JsonStore(tmp_path / "s")
    session = created_and_saved(store)
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


def test_an_unreadable_file_is_named_on_load_and_listed_as_broken(tmp_path, monkeypatch):
    store = JsonStore(tmp_path / "s")
    created_and_saved(store, "fine")
    created_and_saved(store, "locked")
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
    created_and_saved(store, "real")
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
    empty.chmod(0o640)  # readable by the group, even without the owner's search bit: tightened the same
    assert files.open_private_directory(empty) == []
    assert stat.S_IMODE(empty.stat().st_mode) == 0o700

    cloned = tmp_path / "cloned"  # a fresh clone's sessions/: only the .gitkeep that keeps it in git
    cloned.mkdir()
    (cloned / ".gitkeep").write_text("")
    cloned.chmod(0o755)
    assert files.open_private_directory(cloned) == []
    assert stat.S_IMODE(cloned.stat().st_mode) == 0o700

    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    (shared / "a.json").write_text("{}")
    with pytest.raises(SessionError, match="writable by other users"):
        files.open_private_directory(shared)


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"version": 0}, "'version' must be a positive integer, found 0"),
        ({"version": True}, "'version' must be a positive integer"),
        ({"version": 3}, "it has version 3, written by a newer chatbot"),
        ({"totals": {"requests": -1}}, "'totals.requests' must be a whole number of at least 0, found -1"),
        ({"totals": {"requests": True}}, "'totals.requests'"),
        ({"calibration": {"m": 0.1}}, "'calibration.m' must be a number"),
        ({"calibration": {"m": {"ratios": [0.1], "turns": 1}}}, "'calibration.m.ratios'"),
        ({"calibration": {"m": {"ratios": [1.0], "turns": -1}}}, "'calibration.m.turns'"),
        ({"summary": {"text": "s", "covers": 1}}, "'summary.covers' must be an integer from 0 to 0"),
        ({"summary": {"text": "s", "covers": -1}}, "'summary.covers'"),
        ({"summary": {"text": None, "covers": 0}}, "'summary.text' must be a string, found null"),
        ({"summary": {"text": 5, "covers": 0}}, "'summary.text' must be a string, found int"),
        ({"options": {"temperature": None}}, "'options.temperature'"),
        ({"options": {"model": "m"}}, "'options.model'"),
        ({"options": {"t": {"deep": float("nan")}}}, "'options.t'"),
        ({"options": []}, "'options' must be an object, found list"),
        ({"title": 3}, "'title' must be a string, found int"),
        ({"version": "2"}, "'version' must be a positive integer, found '2'"),
        ({"summary": []}, "'summary' must be an object, found list"),
        ({"turns": None}, "'turns' must be a list, found null"),
        ({"tool_sources": []}, "'tool_sources' must be an object, found list"),
        ({"tool_sources": "a.py"}, "'tool_sources' must be an object, found str"),
        ({"tool_sources": {"mcp": ["ok", " "]}}, "'tool_sources.mcp' must be a list of non-empty strings, found"),
        ({"tool_sources": {"functions": "a.py"}}, "'tool_sources.functions' must be a list of non-empty strings"),
        ({"tool_sources": {"functions": ["a\x00.py"]}}, "'tool_sources.functions' must be a list of non-empty"),
        ({"rescued_after": -1}, "'rescued_after' must be a whole number of at least 0, found -1"),
        ({"rescued_after": True}, "'rescued_after' must be a whole number of at least 0, found True"),
    ],
)
def test_each_document_check_refuses_by_name(changes, problem):
    assert problem in check_session_data(document(**changes))


def test_a_document_missing_a_field_is_refused_naming_the_first_missing():
    for key in ("id", "system", "calibration"):
        data = document()
        del data[key]
        assert check_session_data(data) == f"the field '{key}' is missing"


def test_the_document_bounds_that_are_accepted():
    accepted = [
        {"totals": {"requests": 0, "prompt_tokens": 0}},
        {"calibration": {"m": 0.5}},  # below 1: a model counted higher locally than by its provider
        {"calibration": {"m": {"ratios": [0.5, 2.0], "turns": 2}}},
        {"options": {"stop": ["a", "b"], "temperature": 0.2, "stream_usage": True}},
        {"options": {"response_format": {"type": "json_object"}, "stop": [["a"], None], "x": {"y": {"z": []}}}},
        {"tool_sources": {"functions": ["a.py"], "mcp": ["python -m server"]}, "rescued_after": 0},
        {"version": 1, "rescued_after": 3},
    ]
    for changes in accepted:
        assert check_session_data(document(**changes)) == ""
    assert check_session_data(document()) == ""
    missing = document()
    del missing["version"]
    assert check_session_data(missing) == "the field 'version' is missing"
    assert check_session_data([]) == "expected a JSON object, found list"


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


def test_a_store_out_of_ids_names_its_directory(tmp_path, monkeypatch):
    store = JsonStore(tmp_path / "full")
    monkeypatch.setattr(store, "exists", lambda sid: True)
    with pytest.raises(SessionError, match=f"could not find an unused session id in {tmp_path / 'full'}"):
        store.new_id()


def test_the_store_never_hands_out_an_id_whose_file_or_lock_exists(tmp_path, monkeypatch):
    store = JsonStore(tmp_path / "s")
    created_and_saved(store, "20260101-aaaa")
    (tmp_path / "s" / ".20260101-bbbb.lock").write_text("")
    tries = iter(["20260101-aaaa", "20260101-bbbb", "20260101-cccc"])
    monkeypatch.setattr(json_store, "make_id", lambda taken, where: next(s for s in tries if not taken(s)))
    assert store.new_id() == "20260101-cccc"


@pytest.mark.parametrize(
    ("turn", "problem"),
    [
        ("a turn", "turns[0] must be an object, found str"),
        ({"messages": []}, "turns[0].messages must be a non-empty list, found an empty list"),
        ({"messages": None}, "turns[0].messages must be a non-empty list, found null"),
        ({"messages": [{"role": "user", "content": "q"}], "usage": 3}, "turns[0].usage must be an object or null"),
        ({"messages": [{"role": "user", "content": "q"}], "latency": "1"}, "turns[0].latency must be a number"),
        ({"messages": [{"role": "user", "content": "q"}], "created_at": 1}, "turns[0].created_at must be a string"),
        ({"messages": [{"role": "user", "content": "q"}], "interrupted": 1}, "turns[0].interrupted must be true"),
        (
            {"messages": [{"role": "user", "content": "q"}], "sent": []},
            "turns[0].sent must be an object or null, found list",
        ),
        (
            {"messages": [{"role": "user", "content": "q"}], "sent": {"budget": 9}},
            "turns[0].sent.parts must be an object, found null",
        ),
        (
            {"messages": [{"role": "user", "content": "q"}], "sent": {"parts": {"new": -1}}},
            "turns[0].sent.parts.new must be a whole number of at least 0, found -1",
        ),
        (
            {"messages": [{"role": "user", "content": "q"}], "sent": {"parts": {}, "dropped": True}},
            "turns[0].sent.dropped must be a whole number",
        ),
        (
            {"messages": [{"role": "user", "content": "q"}], "sent": {"parts": {}, "provider": "12"}},
            "turns[0].sent.provider must be a whole number of at least 0 or null",
        ),
        ({"messages": ["q"]}, "turns[0].messages[0] must be an object, found str"),
        ({"messages": [{"role": 1}]}, "turns[0].messages[0].role must be a string, found int"),
        (
            {"messages": [{"role": "system", "content": "q"}]},
            "turns[0].messages[0].role must be one of user, assistant, tool, found 'system'",
        ),
        ({"messages": [{"role": "assistant", "content": "q"}]}, "a turn has exactly one user message, its first"),
        (
            {"messages": [{"role": "user", "content": 3}]},
            "turns[0].messages[0].content must be a string, a list of parts or null, found int",
        ),
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
            "turns[0].messages[1].tool_call_id must be a string, found int",
        ),
        (
            {"messages": [{"role": "user", "content": "q"}, {"role": "tool", "tool_call_id": "c", "content": "r"}]},
            "turns[0].messages: message 2 answers a tool call that is not open",
        ),
    ],
)
def test_each_turn_check_refuses_by_name(turn, problem):
    assert problem in check_session_data(document(turns=[turn]))


@pytest.mark.parametrize("key", ["budget", "tools", "summarized", "summary_covers", "dropped"])
def test_each_count_a_turns_sent_record_keeps_is_checked(key):
    turn = {"messages": [{"role": "user", "content": "q"}], "sent": {"parts": {}, key: -2}}
    assert check_session_data(document(turns=[turn])) == (
        f"turns[0].sent.{key} must be a whole number of at least 0, found -2"
    )


def test_a_tool_results_name_must_be_a_string():
    call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    turn = {
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "c", "name": 7, "content": "r"},
        ]
    }
    assert check_session_data(document(turns=[turn])) == "turns[0].messages[2].name must be a string, found int"
    turn["messages"][2]["name"] = "f"
    assert check_session_data(document(turns=[turn])) == ""


# --- every error path of the store's system calls, injected as the kernel would give it ------------------


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


# whatever the holder wrote, it is no pid: bytes that are no text, or digits of another script (a pid is ASCII)
@pytest.mark.parametrize("written", [b"\xff\xfe", "\u0661\u0662\u0663".encode()])
def test_the_pid_in_a_lock_message_is_shown_only_when_it_is_one(tmp_path, written):
    holder, other = JsonStore(tmp_path / "s"), JsonStore(tmp_path / "s")
    holder.acquire("a")
    with pytest.raises(SessionLocked, match=f"pid {os.getpid()}"):
        other.acquire("a")
    (tmp_path / "s" / ".a.lock").write_bytes(written)
    with pytest.raises(SessionLocked) as caught:
        other.acquire("a")
    assert (
        caught.value.message
        == "session a is in use by another chatbot process; close it or use --session with another id"
    )


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
    with pytest.raises(SessionError) as refused:
        files.open_private_directory(other)
    assert refused.value.message == (
        f"sessions directory {other} is owned by another user (uid 4321); use a directory of your own (--sessions-dir)"
    )


def test_the_session_count_is_of_regular_files_with_a_session_ids_name(store, sdir):
    store.create("one", system="s")
    (sdir / "one.json").write_bytes(b"{}")  # counted unread: even a broken one is a session file
    (sdir / "adir.json").mkdir()  # a directory is no session
    (sdir / "-bad.json").write_bytes(b"{}")  # nor a file whose name is no session id
    (sdir / "note.txt").write_bytes(b"x")
    assert store.count_sessions() == 1


def test_what_a_save_killed_before_its_rename_leaves_is_hidden_beside_it_and_removed_at_the_next_start(store, sdir):
    """A kill -9 between writing the temporary file and renaming it: the half save must be a file no listing takes
    for a session, in the sessions folder (a rename within one filesystem is what makes a save atomic), named for
    its session so that the next start removes it."""
    session = store.create("cut", system="s")
    left: list[str] = []

    class Killed(BaseException):
        pass

    def killed_before_rename(src, dst):
        left.append(src)
        raise Killed

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "replace", killed_before_rename)
        patch.setattr(os, "unlink", lambda path: None)  # a killed process cleans nothing up
        with store.acquire("cut"), pytest.raises(Killed):
            store.save(session)
    [temp] = [Path(p) for p in left]
    assert temp.parent == sdir and temp.exists()
    assert temp.name.startswith(".cut.") and temp.suffix == ".tmp"
    assert [s.id for s in store.list_sessions()] == []
    JsonStore(sdir)
    assert not temp.exists()
