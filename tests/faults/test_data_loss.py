"""Faults that used to lose data: /export over a session, impossible usage, signals, unfinished streams, bad output."""

from __future__ import annotations

import io
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chatbot.core.events import unsent
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.turn import Turn
from chatbot.storage.json_store import JsonStore
from tests.support.cli import chatbot_env, openai_flags, run_chatbot
from tests.support.hard_links import STORES, link_to_a_session, victim_loads
from tests.support.hostile_server import DONE, Answer, HostileServer, chunk, reply


def stored_turns(cwd: Path, sid: str) -> list[dict]:
    return json.loads((cwd / "sessions" / f"{sid}.json").read_text())["turns"]


# --- /export ----------------------------------------------------------------------------------------------------


def test_export_refuses_the_sessions_directory_and_existing_files_and_writes_0600(tmp_path):
    script = "hello\n/export sessions/s1.json\n/export out.md\n/export out.md\n/export out.md --force\n"
    result = run_chatbot("--provider", "echo", "--session", "s1", stdin=script, cwd=tmp_path)
    assert "Traceback" not in result.stderr
    assert len(stored_turns(tmp_path, "s1")) == 1  # the session file is intact
    assert "inside the session store" in result.stderr
    assert "already exists" in result.stderr and "--force" in result.stderr
    out = tmp_path / "out.md"
    assert out.read_text().startswith("# Session s1")
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert result.stderr.count("wrote the transcript") == 2  # the first and the forced one


def test_export_does_not_follow_a_planted_symlink(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    (tmp_path / "link.md").symlink_to(victim)
    result = run_chatbot("--provider", "echo", "--session", "s1", stdin="hi\n/export link.md --force\n", cwd=tmp_path)
    assert victim.read_text() == "precious"
    assert "symbolic link" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("kind", STORES)
def test_export_refuses_a_hard_link_to_the_stores_file_and_the_session_still_loads(tmp_path, kind):
    """``ln sessions/victim.json notes.md`` (or ``ln chat.db notes.md``): ``/export notes.md --force`` wrote the
    transcript into the session, which then no longer loaded."""
    link = link_to_a_session(tmp_path, kind, "notes.md")
    script = "hi\n/export notes.md --force\n"
    result = run_chatbot(*STORES[kind], "--provider", "echo", "--session", "s1", stdin=script, cwd=tmp_path)
    assert "notes.md is another name (a hard link) for a file of the session store" in result.stderr
    assert "wrote the transcript" not in result.stderr and "Traceback" not in result.stderr
    assert victim_loads(tmp_path, kind) and not link.read_bytes().startswith(b"# Session")


# --- usage values -----------------------------------------------------------------------------------------------


def test_negative_usage_from_a_server_leaves_a_session_that_loads(tmp_path):
    bad = {"prompt_tokens": -500, "completion_tokens": -1, "total_tokens": -501}
    with HostileServer(Answer(events=reply("fine", usage=bad))) as server:
        first = run_chatbot(*openai_flags(server.base_url), "--session", "s1", stdin="hi\n", cwd=tmp_path)
        again = run_chatbot(*openai_flags(server.base_url), "--session", "s1", stdin="again\n", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert again.returncode == 0, again.stderr
    assert len(stored_turns(tmp_path, "s1")) == 2


def test_every_value_the_app_can_store_round_trips(tmp_path, counter):
    """The largest values the app itself writes load again; what it never writes is refused by name, not a crash."""
    from chatbot.engine.calibration import MAX_RATIO
    from chatbot.engine.tokens import TokenCounter

    store = JsonStore(tmp_path / "s")
    with store.acquire("big"):
        session = store.create("big", system="s" * 10, counter=counter)
        session.conversation.add_turn(
            Turn([{"role": "user", "content": "\ud800 x"}, {"role": "assistant", "content": ""}])
        )
        session.totals.add_request(10**30, 10**30, 10**30, 10**30)
        for _ in range(8):  # the largest ratio a counter learns, and the smallest
            session.calibration_for("m").learn(100, int(100 * MAX_RATIO))
            session.calibration_for("n").learn(3000, 1000)  # (a small request may not lower the count)
        store.save(session)
    loaded = store.load("big", MemoryConfig(), TokenCounter())
    assert loaded.totals.prompt_tokens == 10**30
    assert loaded.calibration_for("m").correction == MAX_RATIO
    assert loaded.calibration_for("n").correction == pytest.approx(1 / MAX_RATIO)
    # a counter never learns a ratio beyond MAX_RATIO, so 1e308 is not a value the app stores
    data = json.loads((tmp_path / "s" / "big.json").read_text())
    data["calibration"]["m"] = 1e308
    (tmp_path / "s" / "huge.json").write_text(json.dumps(data))
    result = run_chatbot(
        "--provider",
        "echo",
        "--sessions-dir",
        str(tmp_path / "s"),
        "--session",
        "huge",
        stdin="hi\n",
        cwd=tmp_path,
        env={"CHATBOT_ECHO_DELAY": "0"},
    )
    assert result.returncode == 3 and "calibration.m" in result.stderr and "Traceback" not in result.stderr


# --- signals ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("sig", "status", "words"), [(signal.SIGTERM, 143, "SIGTERM"), (signal.SIGHUP, 129, "SIGHUP")])
def test_sigterm_and_sighup_during_a_reply_keep_the_partial_answer(tmp_path, sig, status, words):
    events = [chunk("partial answer "), *[chunk("more ") for _ in range(200)], chunk(None, "stop"), DONE]
    with HostileServer(Answer(events=events, delay=0.05)) as server:
        (tmp_path / "sessions").mkdir(mode=0o700)
        proc = subprocess.Popen(
            [sys.executable, "-m", "chatbot", *openai_flags(server.base_url), "--session", "s1", "-p", "hi"],
            cwd=tmp_path,
            env=chatbot_env({"XDG_DATA_HOME": str(tmp_path / ".data")}),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        assert proc.stdout.read(len("partial answer")) == "partial answer"
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == status, err
    assert "Traceback" not in err
    answer = stored_turns(tmp_path, "s1")[0]["messages"][-1]["content"]
    assert answer.startswith("partial answer") and words in answer


# --- unfinished streams -----------------------------------------------------------------------------------------


def test_a_stream_that_ends_without_done_or_finish_reason_is_marked_incomplete(tmp_path):
    with HostileServer(Answer(events=[chunk("half a rep")])) as server:
        result = run_chatbot(*openai_flags(server.base_url), "--session", "s1", stdin="hi\n", cwd=tmp_path)
    assert "Traceback" not in result.stderr
    assert "incomplete" in result.stderr
    turn = stored_turns(tmp_path, "s1")[0]
    assert turn["interrupted"] is True and turn["messages"][-1]["content"].startswith("half a rep")


# --- output encoding and broken outputs -------------------------------------------------------------------------


def test_a_lone_surrogate_in_a_reply_is_printed_and_saved(tmp_path):
    with HostileServer(
        Answer(
            events=[b'data: {"choices":[{"delta":{"content":"a\\ud800b"},"index":0}]}\n\n', chunk(None, "stop"), DONE]
        )
    ) as server:
        result = run_chatbot(
            *openai_flags(server.base_url),
            "--session",
            "s1",
            "-p",
            "hi",
            cwd=tmp_path,
            env={"PYTHONIOENCODING": "utf-8"},
        )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert stored_turns(tmp_path, "s1")[0]["messages"][-1]["content"] == "a\ud800b"
    with HostileServer(Answer(events=reply("next"))) as server:
        again = run_chatbot(*openai_flags(server.base_url), "--session", "s1", "-p", "more", cwd=tmp_path)
    assert again.returncode == 0, again.stderr  # the stored surrogate does not poison later requests
    assert server.requests[0]["messages"][-2]["content"] == "a\ufffdb"


def test_a_failed_save_keeps_the_turn_in_a_rescue_file(tmp_path, make_app, monkeypatch):
    from chatbot.errors import SessionError

    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path / "rescue"))
    app = make_app()
    app.open("s1")

    def fail(session):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(app.store, "save", fail)
    with pytest.raises(SessionError) as caught:
        list(app.chat.send("keep me"))
    assert "No space left on device" in caught.value.message
    assert unsent(caught.value) is None  # the turn is recorded: /retry would send it twice
    rescued = list((tmp_path / "rescue").iterdir())
    assert len(rescued) == 1 and "keep me" in rescued[0].read_text()
    assert str(rescued[0]) in caught.value.message
    assert stat.S_IMODE(rescued[0].stat().st_mode) == 0o600


def test_stdout_to_dev_full_is_one_clear_line_and_the_turn_is_saved(tmp_path):
    (tmp_path / "sessions").mkdir(mode=0o700)
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "chatbot", "--provider", "echo", "--session", "s1", "-p", "hi"],
            cwd=tmp_path,
            env=chatbot_env({"CHATBOT_ECHO_DELAY": "0", "XDG_DATA_HOME": str(tmp_path / ".data")}),
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=30,
        )
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr
    assert result.returncode != 0
    assert "No space left on device" in result.stderr and len(result.stderr.strip().splitlines()) <= 2
    assert len(stored_turns(tmp_path, "s1")) == 1


def test_a_closed_stdout_is_refused_up_front(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "chatbot", "--provider", "echo", "--session", "s1", "-p", "hi"],
        cwd=tmp_path,
        env=chatbot_env({"CHATBOT_ECHO_DELAY": "0"}),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=30,
        preexec_fn=lambda: os.close(1),
    )
    assert "Traceback" not in result.stderr
    assert result.returncode == 74 and "standard output is closed" in result.stderr


def test_file_size_limit_is_one_clear_line(tmp_path):
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))

    result = subprocess.run(
        [sys.executable, "-m", "chatbot", "--provider", "echo", "--session", "s1", "-p", "x " * 3000],
        cwd=tmp_path,
        # not measured by coverage: under a 2,000-byte file limit its data file cannot be written either
        env={
            k: v
            for k, v in chatbot_env({"CHATBOT_ECHO_DELAY": "0", "CHATBOT_RESCUE_DIR": str(tmp_path / "r")}).items()
            if not k.startswith("COVERAGE_")
        },
        capture_output=True,
        text=True,
        timeout=30,
        preexec_fn=limit,
    )
    assert result.returncode not in (0, -signal.SIGXFSZ), result.stderr
    assert "Traceback" not in result.stderr
    assert "File too large" in result.stderr


def test_a_done_without_finish_reason_is_complete(tmp_path):
    with HostileServer(Answer(events=[chunk("all of it"), DONE])) as server:
        result = run_chatbot(*openai_flags(server.base_url), "--session", "s1", stdin="hi\n", cwd=tmp_path)
    assert result.returncode == 0 and "incomplete" not in result.stderr
    assert stored_turns(tmp_path, "s1")[0]["messages"][-1]["content"] == "all of it"


class _DyingTerminal(io.StringIO):
    """A terminal that fails (EIO, as after a hang-up) once some of the reply was written."""

    def write(self, text: str) -> int:
        if "word" in self.getvalue():
            raise OSError(5, "Input/output error")
        return super().write(text)


def test_a_terminal_that_fails_mid_reply_keeps_the_turn_and_releases_the_lock_last(make_app):
    from chatbot.errors import OutputError
    from chatbot.providers.echo import EchoProvider
    from chatbot.terminal.render import make_console
    from chatbot.terminal.repl import Repl

    app = make_app(EchoProvider(delay=0))
    app.open("s1")
    console = make_console(plain=True, file=_DyingTerminal())
    with pytest.raises(OutputError, match="Input/output error"):
        Repl(app, plain=True, console=console).send("word " * 50)
    app.close()
    turn = app.store.load("s1").conversation.turns[0]
    assert turn.interrupted and "output could not be written" in turn.answer_text


def test_a_signal_during_a_save_waits_until_the_file_is_in_place(tmp_path, monkeypatch):
    from chatbot.storage import files

    target = tmp_path / "s.json"
    target.write_bytes(b"old")
    seen: list[bytes] = []
    previous = signal.signal(signal.SIGTERM, lambda *_: seen.append(target.read_bytes()))
    real_fsync = os.fsync

    def fsync_then_signal(fd):
        real_fsync(fd)
        if not seen:
            os.kill(os.getpid(), signal.SIGTERM)  # arrives mid-save

    monkeypatch.setattr(os, "fsync", fsync_then_signal)
    try:
        files.write_atomic(target, b"new")
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert seen == [b"new"]


def test_a_signal_during_a_save_waits_even_with_other_threads_alive(tmp_path, monkeypatch):
    """A background summary or the MCP loop is a thread that does not block signals: the kernel hands the signal to
    it, and Python still runs the handler on the main thread, in the middle of the save unless the save defers it."""
    import threading

    from chatbot.storage import files

    target = tmp_path / "s.json"
    target.write_bytes(b"old")
    seen: list[bytes] = []
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    previous = signal.signal(signal.SIGTERM, lambda *_: seen.append(target.read_bytes()))
    real_fsync = os.fsync

    sent = []

    def fsync_then_signal(fd):
        real_fsync(fd)
        if not sent:  # once: the file's fsync, before the rename and the directory's fsync
            sent.append(signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGTERM)  # arrives mid-save
            time.sleep(0.05)  # time enough for the handler to run, were it allowed to

    monkeypatch.setattr(os, "fsync", fsync_then_signal)
    try:
        files.write_atomic(target, b"new")
    finally:
        signal.signal(signal.SIGTERM, previous)
        stop.set()
    assert seen == [b"new"]
    assert signal.getsignal(signal.SIGTERM) is previous


def test_a_terminal_gone_under_the_prompt_is_a_hang_up_not_a_traceback(monkeypatch, capsys):
    import errno

    from chatbot.cli import entry as cli

    def hung_up(args, settings=None):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(cli, "run", hung_up)
    try:
        assert cli.main(["--provider", "echo"]) == 129
    finally:
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    assert "terminal went away" in capsys.readouterr().err
