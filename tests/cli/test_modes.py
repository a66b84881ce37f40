"""Script and one-shot modes' plain output: the answer alone on stdout, the model's reasoning (--reasoning) on stderr,
dim when stderr is a terminal."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support.cli import assert_clean, chatbot_env, private_config, run_chatbot
from tests.support.fake_server import FakeServer

THOUGHT, ANSWER = "Let me think about it.", "The answer is 42."


def openai_args(server: FakeServer, *more: str) -> list[str]:
    return ["--provider", "openai", "--base-url", server.base_url, "--reasoning", *more]


def test_one_shot_reasoning_goes_to_stderr_and_the_answer_alone_to_stdout(tmp_path):
    with FakeServer(reply=ANSWER, reasoning=THOUGHT, chunks=4) as server:
        result = run_chatbot(*openai_args(server, "-p", "hi"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert_clean(result)
    assert result.stdout == ANSWER + "\n"
    assert f"\n{THOUGHT}\n" in result.stderr  # a line of its own: nothing glues onto it
    assert "\x1b[" not in result.stderr  # not a terminal: no dim


def test_script_reasoning_ends_its_line_before_the_next_notice(tmp_path):
    with FakeServer(reply=ANSWER, reasoning=THOUGHT, chunks=4) as server:
        result = run_chatbot(*openai_args(server), stdin="one\n/nosuch\ntwo\n", cwd=tmp_path)
    assert result.stdout == f"{ANSWER}\n{ANSWER}\n"
    lines = result.stderr.splitlines()
    assert lines.count(THOUGHT) == 2
    assert lines[lines.index(THOUGHT) + 1].startswith("chatbot: ")  # /nosuch's error starts a line of its own


def test_reasoning_is_dim_when_stderr_is_a_terminal_and_stdout_a_file(tmp_path):
    (tmp_path / "sessions").mkdir(mode=0o700)
    env = chatbot_env({"XDG_DATA_HOME": str(tmp_path / ".data"), **private_config(tmp_path), "TERM": "xterm"})
    terminal, tty = os.openpty()
    answer = tmp_path / "answer.txt"
    with FakeServer(reply=ANSWER, reasoning=THOUGHT, chunks=4) as server, answer.open("w") as out:
        child = subprocess.Popen(
            [sys.executable, "-m", "chatbot", *openai_args(server, "-p", "hi")],
            cwd=tmp_path,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=tty,
        )
        os.close(tty)
        shown = b""
        while chunk := _read(terminal):
            shown += chunk
        assert child.wait(timeout=30) == 0
    os.close(terminal)
    assert answer.read_text() == ANSWER + "\n"  # `chatbot -p ... > answer.txt`: the answer alone
    assert f"\x1b[2m{THOUGHT}\x1b[0m\r\n".encode() in shown  # dim, its line ended


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, 4096)
    except OSError:  # EIO: the child closed the terminal's last open end
        return b""
