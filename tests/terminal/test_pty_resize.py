"""A terminal made narrower while a reply streams, or while a long line waits at the prompt, as a user does it: the
app in tmux, which re-wraps the lines on its screen as most terminals do (xterm does not), resized under it."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.cli import chatbot_env, private_config

#: no skip in CI (.ci/run installs tmux): a resize test missing there would be a test missing
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None and not os.environ.get("CI"), reason="needs tmux")

WORDS = " ".join(f"w{i}" for i in range(150))


class Tmux:
    """One tmux server of the test's own, one window running ``chatbot`` in ``cwd``."""

    def __init__(self, cwd: Path, args: list[str], env: dict[str, str]) -> None:
        self.socket = str(cwd / "tmux.sock")
        (cwd / "sessions").mkdir(mode=0o700, exist_ok=True)
        private = {"XDG_DATA_HOME": str(cwd / ".data"), **private_config(cwd), "CHATBOT_HISTORY_FILE": str(cwd / "h")}
        variables = chatbot_env({**private, **env, "TERM": "xterm-256color"})
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in variables.items())
        command = f"cd {shlex.quote(str(cwd))} && env -i {exports} {sys.executable} -m chatbot {shlex.join(args)}"
        self.run("-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "30", f"{command}; sleep 60")
        self.run("set-option", "-g", "scroll-on-clear", "off")  # (a clear from the top would copy the screen above)

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-S", self.socket, *args], capture_output=True, text=True, check=True).stdout

    def screen(self, history: bool = False) -> str:
        return self.run("capture-pane", "-p", *(["-S", "-"] if history else []))

    def wait_for(self, seen: Callable[[str], bool], timeout: float = 30) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if seen(screen := self.screen(history=True)):
                return screen
            time.sleep(0.05)
        raise AssertionError(f"not seen in time:\n{self.screen(history=True)}")

    def settled(self, quiet: float = 0.5, timeout: float = 15) -> str:
        """The screen once it has not changed for ``quiet`` seconds (a redraw on a busy machine takes a while)."""
        end = time.monotonic() + timeout
        last, since = self.screen(history=True), time.monotonic()
        while time.monotonic() < end:
            time.sleep(0.05)
            if (now := self.screen(history=True)) != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since >= quiet:
                break
        return last

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True, check=False)


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Callable[..., Tmux]]:
    started: list[Tmux] = []

    def start(*args: str, env: dict[str, str] | None = None) -> Tmux:
        started.append(Tmux(tmp_path, list(args), env or {}))
        return started[-1]

    yield start
    for each in started:
        each.close()


def test_a_terminal_made_narrower_while_a_reply_streams_shows_each_line_once(tmux):
    term = tmux("--provider", "echo", "--session", "rs", env={"CHATBOT_ECHO_DELAY": "0.03"})
    term.wait_for(lambda s: "›" in s)
    term.run("send-keys", WORDS, "Enter")
    term.wait_for(lambda s: "Last user message: w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18" in s)
    term.run("resize-window", "-x", "80", "-y", "30")  # the tail, one line at 120 columns, is two at 80
    screen = term.wait_for(lambda s: "tokens: prompt" in s)
    assert screen.count("Last user message:") == 1, screen
    reply = screen[screen.index("Last user message:") :]
    assert " ".join(reply.split()).startswith(f"Last user message: {WORDS} tokens: prompt")  # whole, once
    assert "36 tokens\n 2 user:" in screen  # printed at 120 columns, re-wrapped at 80: no blank row under each line


def test_a_terminal_made_narrower_at_the_prompt_draws_the_typed_line_once(tmux):
    term = tmux("--provider", "echo", "--session", "rp")
    term.wait_for(lambda s: "›" in s)
    typed = " ".join(f"w{i}" for i in range(50))  # two rows at 120 columns, typed, not sent
    term.run("send-keys", typed)
    term.wait_for(lambda s: "w48 w49" in s)
    term.run("resize-window", "-x", "80", "-y", "30")
    time.sleep(1.5)  # (the resize is seen by a signal, and by prompt_toolkit's polling of the size)
    screen = term.settled()
    assert screen.count("› w0 w1") == 1, screen
    assert f"› {typed}" in " ".join(screen.split())
