"""Rescue files: a turn that was shown survives a store that cannot take it (a frozen network, a read-only folder,
a file size limit), and what was rescued goes back in with ``--import-sessions``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from tests.support.cli import chatbot_env, run_chatbot, session_doc
from tests.support.pg_proxy import CommitLosingProxy

ECHO = ["--provider", "echo"]
FAST = {"CHATBOT_ECHO_DELAY": "0"}


@pytest.fixture
def frozen_store(pg_url: str) -> Iterator[CommitLosingProxy]:
    """A PostgreSQL store behind a proxy that freezes (a network partition) when a turn is being saved."""
    proxy = CommitLosingProxy(pg_url)
    proxy.freeze_on(b".chatbot_turns (session_id, n,")  # the store's INSERT_TURN (its table named with its schema)
    try:
        yield proxy
    finally:
        proxy.close()


def test_a_frozen_network_costs_a_save_a_bounded_wait_and_the_turn_goes_to_a_rescue_file(tmp_path, frozen_store):
    started = time.monotonic()
    result = run_chatbot(
        *ECHO, "--store", frozen_store.url, "--session", "s1", stdin="keep me\n", cwd=tmp_path, env=FAST, timeout=120
    )
    took = time.monotonic() - started
    assert frozen_store.frozen.is_set()
    # measured 20.6 s: the save gives up after 10 s for the answer and 5 s to reconnect, quitting 5 s more
    assert took < 35, took
    assert result.returncode == 3, result.stderr
    assert "Traceback" not in result.stderr
    assert "Nothing you saw is lost" in result.stderr
    [kept] = (tmp_path / ".data").rglob("s1.json")
    assert str(kept) in result.stderr and "keep me" in kept.read_text()


def test_a_signal_during_a_frozen_save_still_writes_the_rescue_file(tmp_path, frozen_store):
    (tmp_path / "sessions").mkdir(mode=0o700)
    proc = subprocess.Popen(
        [sys.executable, "-m", "chatbot", *ECHO, "--store", frozen_store.url, "--session", "s1", "-p", "keep me"],
        cwd=tmp_path,
        env=chatbot_env({**FAST, "XDG_DATA_HOME": str(tmp_path / ".data"), "CHATBOT_RESCUE_DIR": str(tmp_path / "r")}),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert frozen_store.frozen.wait(30)
        time.sleep(0.5)  # well inside the database wait
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
    finally:
        proc.kill()
    assert proc.returncode == 143, err
    assert "Traceback" not in err
    files = sorted((tmp_path / "r").glob("*.json"))
    assert len(files) == 1 and str(files[0]) in err
    assert "keep me" in files[0].read_text()


def test_ctrl_c_during_a_frozen_save_stops_the_wait_not_the_chat(tmp_path, frozen_store):
    """Ctrl-C cancels the wait for the database: the turn is kept as for a lost connection, and rescued on quit."""
    (tmp_path / "sessions").mkdir(mode=0o700)
    proc = subprocess.Popen(
        [sys.executable, "-m", "chatbot", *ECHO, "--store", frozen_store.url, "--session", "s1"],
        cwd=tmp_path, env=chatbot_env({**FAST, "XDG_DATA_HOME": str(tmp_path / ".data")}),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stdin is not None
        proc.stdin.write("keep me\n")
        proc.stdin.close()
        proc.stdin = None  # communicate() must not flush it again
        assert frozen_store.frozen.wait(30)
        time.sleep(0.5)
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - started
    finally:
        proc.kill()
    assert "Traceback" not in err
    assert "was cancelled. Nothing you saw is lost" in err, err
    assert took < 15, took  # the quit's one reconnection (5 s), not another 15 s save
    [kept] = (tmp_path / ".data").rglob("s1.json")
    assert str(kept) in err and "keep me" in kept.read_text()
    assert proc.returncode == 3, err


def under_file_limit(limit: int):  # type: ignore[no-untyped-def]
    """A child's ``ulimit -f``, in bytes (SIGXFSZ is ignored by the app, so a write over it fails with EFBIG)."""
    import resource

    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


NO_COVERAGE: dict[str, str | None] = {k: None for k in os.environ if k.startswith("COVERAGE_")}  # it writes files


def test_under_a_file_size_limit_the_unsaved_turns_are_rescued_alone_and_import_back(tmp_path):
    first = run_chatbot(*ECHO, "--session", "s1", "-p", "long " * 3000, cwd=tmp_path, env=FAST)
    assert first.returncode == 0, first.stderr
    whole = (tmp_path / "sessions" / "s1.json").stat().st_size
    limit = 12_000
    assert whole > limit  # the session cannot be written, whole, under the limit any more
    result = run_chatbot(
        *ECHO, "--session", "s1", stdin="one\ntwo\nthree\n", cwd=tmp_path,
        env={**FAST, **NO_COVERAGE, "CHATBOT_RESCUE_DIR": str(tmp_path / "r")}, preexec_fn=under_file_limit(limit),
    )  # fmt: skip
    assert "Traceback" not in result.stderr
    assert "File too large" in result.stderr and "could not be kept" not in result.stderr, result.stderr
    files = sorted((tmp_path / "r").glob("*.json"))
    assert len(files) == 3, result.stderr  # one per turn, each named in its own error line
    assert all(str(f) in result.stderr for f in files)
    last = json.loads(files[-1].read_bytes())
    assert last["rescued_after"] == 1 and [t["messages"][0]["content"] for t in last["turns"]] == [
        "one",
        "two",
        "three",
    ]
    back = run_chatbot("--import-sessions", str(tmp_path / "r"), cwd=tmp_path)
    assert back.returncode == 0, back.stderr
    assert back.stdout.startswith("imported 0, updated 3, unchanged 0, refused 0"), back.stdout  # each adds one
    turns = session_doc(tmp_path, "s1")["turns"]
    assert [t["messages"][0]["content"] for t in turns[1:]] == ["one", "two", "three"]


def test_quick_rescues_of_one_session_never_share_a_name_and_each_imports(tmp_path):
    """Three turns within a second, each refused by the store (another program changed the session file)."""
    (tmp_path / "sessions").mkdir(mode=0o700)
    env = chatbot_env({**FAST, "XDG_DATA_HOME": str(tmp_path / ".data"), "TMPDIR": str(tmp_path / "tmp")})
    (tmp_path / "tmp").mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-m", "chatbot", *ECHO, "--session", "s1"],
        cwd=tmp_path, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdin is not None
    proc.stdin.write("first\n")
    proc.stdin.flush()
    stored = tmp_path / "sessions" / "s1.json"
    deadline = time.monotonic() + 30
    while not stored.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    os.utime(stored, ns=(0, 0))  # another program touched it: the store refuses to write over it
    out, err = proc.communicate("two\nthree\nfour\n", timeout=60)
    assert "Traceback" not in err
    assert err.count("it was kept in") == 3 and "could not be kept" not in err, err
    files = sorted((tmp_path / ".data").rglob("chatbot-rescue-*.json"))
    assert len(files) == 3 and len({f.name for f in files}) == 3
    back = run_chatbot("--import-sessions", str(files[-1]), cwd=tmp_path)
    assert back.returncode == 0 and back.stdout.startswith("imported 0, updated 1"), back.stdout + back.stderr
    turns = session_doc(tmp_path, "s1")["turns"]
    assert [t["messages"][0]["content"] for t in turns] == ["first", "two", "three", "four"]


def test_a_store_whose_rescue_folder_cannot_be_written_rescues_elsewhere(tmp_path, monkeypatch, pg_url):
    """The PostgreSQL store's own rescue folder is not a single point of failure: the rescue path's others follow."""
    from chatbot.engine.turn import Turn
    from chatbot.errors import StoreUnavailable
    from chatbot.storage.postgres_store import PostgresStore
    from tests.support.postgres import cut_connections, dead_url

    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path / "r"))
    (tmp_path / "blocked").write_text("")  # a file where the store's rescue folder should be
    store = PostgresStore(pg_url, tmp_path / "blocked" / "rescue")
    store.acquire("s")
    session = store.create("s", system="sys")
    store.save(session)
    cut_connections()
    store.url = dead_url()
    session.conversation.add_turn(
        Turn([{"role": "user", "content": "keep me"}, {"role": "assistant", "content": "ok"}])
    )
    with pytest.raises(StoreUnavailable):
        store.save(session)
    with pytest.raises(StoreUnavailable) as closing:
        store.close()
    [kept] = (tmp_path / "r").glob("chatbot-rescue-s-*.json")
    assert str(kept) in closing.value.message and "keep me" in kept.read_text()


@pytest.mark.parametrize("error", [ValueError("bad value"), RecursionError("too deep"), MemoryError()])
def test_a_save_that_fails_in_any_way_still_rescues_the_turn(tmp_path, make_app, monkeypatch, error):
    from chatbot.errors import SaveFailed
    from chatbot.storage.session_format import decode_session

    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path / "r"))
    app = make_app()
    app.open("s1")
    list(app.chat.send("stored"))

    def fail(session):  # type: ignore[no-untyped-def]
        raise error

    monkeypatch.setattr(app.store, "save", fail)
    with pytest.raises(SaveFailed) as caught:
        list(app.chat.send("keep me"))
    assert type(error).__name__ in caught.value.message
    [kept] = (tmp_path / "r").glob("chatbot-rescue-s1-*-turns-2-2.json")  # only the turn the store lacks
    assert str(kept) in caught.value.message
    data, problem = decode_session(kept.read_bytes())
    assert problem == "" and data["rescued_after"] == 1
    assert [t["messages"][0]["content"] for t in data["turns"]] == ["keep me"]


def test_the_rescue_line_is_returned_even_when_the_rescue_itself_breaks(make_app, monkeypatch):
    from chatbot.core import saving

    app = make_app()
    app.open("s1")

    def broken(session, stored=0):  # type: ignore[no-untyped-def]
        raise RuntimeError("no way")

    monkeypatch.setattr(saving, "rescue", broken)
    line = app.chat.rescue("the database went away")
    assert "could not be kept anywhere either (RuntimeError: no way)" in line


def test_the_app_keeps_the_session_in_use_for_a_caller_that_gives_up(tmp_path, make_app, monkeypatch):
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path / "r"))
    app = make_app()
    assert app.keep() == (None, "")  # no session open: nothing to keep
    app.open("s1")
    list(app.chat.send("stored"))
    path, problem = app.keep()
    [kept] = (tmp_path / "r").glob("chatbot-rescue-s1-*.json")  # the whole session: every turn is stored
    assert path == kept and problem == ""
    assert "stored" in kept.read_text()


def test_a_signal_during_a_rescue_waits_until_the_file_is_whole(tmp_path, monkeypatch):
    """The app's handler raises (as for SIGTERM): were it run mid-write, the half-written file would be removed."""
    from chatbot.engine.conversation import Conversation
    from chatbot.storage import rescue
    from chatbot.storage.session import Session

    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path))
    session = Session("s1", Conversation("keep this"))

    def stop(signum, frame):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    real_fsync = os.fsync

    def fsync_then_signal(fd: int) -> None:
        os.kill(os.getpid(), signal.SIGTERM)  # arrives mid-rescue
        real_fsync(fd)

    monkeypatch.setattr(rescue.os, "fsync", fsync_then_signal)
    try:
        with pytest.raises(KeyboardInterrupt):
            rescue.rescue(session)
    finally:
        signal.signal(signal.SIGTERM, previous)
    [kept] = tmp_path.glob("chatbot-rescue-s1-*.json")
    assert kept.read_bytes() == session.to_json()


def test_a_reply_finished_before_a_signal_stopped_its_frozen_save_is_shown_as_rescued_whole(
    tmp_path, frozen_store, spawn
):
    pexpect = pytest.importorskip("pexpect")
    import io

    child = spawn(*ECHO, "--plain", "--store", frozen_store.url, "--session", "s1",
                  env={**FAST, "CHATBOT_RESCUE_DIR": str(tmp_path / "r")})  # fmt: skip
    child.logfile_read = screen = io.StringIO()
    child.expect("›")
    child.sendline("keep me")
    child.expect("Last user message: keep me")
    assert frozen_store.frozen.wait(30)
    time.sleep(0.5)  # well inside the database wait
    child.kill(signal.SIGTERM)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 143
    [rescued] = sorted((tmp_path / "r").glob("*.json"))
    [turn] = json.loads(rescued.read_text())["turns"]
    answer = turn["messages"][-1]["content"]
    assert "keep me" in answer and "[interrupted" not in answer  # stored whole: the reply had finished
    shown = screen.getvalue()
    assert "[interrupted" not in shown, shown[-600:]  # and the screen says the same
    assert str(rescued) in shown.replace("\r\n", "")


def test_leaving_the_terminal_while_the_store_is_away_says_so_and_the_close_rescues_the_turn(
    tmp_path, frozen_store, spawn
):
    pexpect = pytest.importorskip("pexpect")
    import io

    child = spawn(*ECHO, "--plain", "--store", frozen_store.url, "--session", "s1", env=FAST)
    child.timeout = 40  # (the close waits for the database once more)
    child.logfile_read = screen = io.StringIO()
    child.expect("›")
    child.sendline("keep me")
    assert frozen_store.frozen.wait(30)
    time.sleep(0.5)
    child.sendintr()  # Ctrl-C stops the wait, not the chat: the store keeps the turn for its close
    child.expect("Nothing you saw is lost")
    child.expect("›")
    started = time.monotonic()
    child.sendeof()
    child.expect("session s1: the store is away")
    child.expect(pexpect.EOF)
    took = time.monotonic() - started
    child.close()
    assert "saved; bye" not in screen.getvalue()
    assert took < 15, took  # the close's one reconnection (5 s), not another 15 s save first
    [kept] = (tmp_path / ".data").rglob("s1.json")
    assert "keep me" in kept.read_text() and str(kept) in screen.getvalue().replace("\r\n", "")
    assert child.exitstatus == 3
