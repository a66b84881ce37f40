#!/usr/bin/env python
"""Summary latency: time to the first answer token on turns where a summary is due vs ordinary turns.

Run by hand: ``python bench/bench_summary_latency.py [--turns 15] [--pauses 3,1] [--summary-seconds 2]``.

A scripted OpenAI-compatible server (tests/support/fake_server.py) streams every answer at once and takes
``--summary-seconds`` (2 s) to write a summary. The real ``chatbot`` command talks to it with summary memory,
trigger 4 and keep 2, so a summary is due before turns 6, 9, 12 and 15:

- **terminal**: the interactive app in a pseudo-terminal (pexpect, ``PROMPT_TOOLKIT_NO_CPR=1``), typed into with a
  pause before each message as a person reading the last answer would. The summary is written in the background
  as soon as a reply ends; a pause shorter than the summary shows the wait that is left.
- **script**: the same messages piped to stdin line by line, with the same pauses. Script mode keeps its exact order
  of requests (summary, then chat), so its due turns wait the whole summary: expected.

Time to first token is measured from the moment the line is sent (Enter) to the moment the first piece of the
answer reaches the terminal or stdout. Target: due turns within 1.2x of ordinary turns in the terminal when the
user pauses longer than the summary takes.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _common import machine  # noqa: E402 - bench/ is on sys.path when a script runs from it

from tests.support.fake_server import FakeServer  # noqa: E402

MARK = "Answerword"  # the answer's first word: its arrival is the first token
REPLY = MARK + " " + " ".join(f"word{i}" for i in range(60))  # ~60 words: a turn outweighs the summary
SUMMARY = "- the user asked numbered questions; the assistant answered each one."
TRIGGER, KEEP = 4, 2


def due_turns(turns: int) -> set[int]:
    """The turns before which a summary is due: more than TRIGGER uncovered earlier turns (all but KEEP fold)."""
    due, covered = set(), 0
    for turn in range(1, turns + 1):
        if (turn - 1) - covered > TRIGGER:
            due.add(turn)
            covered = turn - 1 - KEEP
    return due


def message(turn: int) -> str:
    return f"Question number {turn}: could you explain the next step of the plan in a few words please?"


def command(base_url: str, session: str) -> list[str]:
    return [
        sys.executable, "-m", "chatbot", "--provider", "openai", "--base-url", base_url, "--model", "fake-model",
        "--session", session, "--memory", "summary", "--summary-trigger", str(TRIGGER), "--keep-turns", str(KEEP),
    ]  # fmt: skip


def environment(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and not k.startswith("CHATBOT_")}
    env.update(
        PYTHONPATH=str(ROOT),
        OPENAI_API_KEY="bench",
        PROMPT_TOOLKIT_NO_CPR="1",
        CHATBOT_HISTORY_FILE=str(tmp / "history"),
        TERM="xterm-256color",
        NO_COLOR="1",
    )
    return env


def run_terminal(base_url: str, tmp: Path, turns: int, pause: float) -> tuple[list[float], int]:
    """Per-turn time to first token (s) in the interactive app, and how many wait notices it showed."""
    import pexpect

    child = pexpect.spawn(
        command(base_url, f"term-{pause}")[0],
        command(base_url, f"term-{pause}")[1:],
        cwd=str(tmp),
        env=environment(tmp),
        encoding="utf-8",
        dimensions=(40, 120),
        timeout=30,
    )
    child.expect("›")
    times, waits = [], 0
    for turn in range(1, turns + 1):
        time.sleep(pause)  # reading the last answer, typing the next message
        child.sendline(message(turn))
        sent = time.perf_counter()
        index = child.expect([MARK, "waiting for the summary"])
        if index == 1:
            waits += 1
            child.expect(MARK)
        times.append(time.perf_counter() - sent)
        child.expect("tokens: prompt")
        child.expect("›")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    return times, waits


def run_script(base_url: str, tmp: Path, turns: int, pause: float) -> list[float]:
    """Per-turn time to first token (s) in script mode (stdin a pipe), lines written with the same pauses."""
    proc = subprocess.Popen(
        command(base_url, f"script-{pause}"),
        cwd=str(tmp),
        env=environment(tmp),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None
    out = proc.stdout.fileno()
    times = []
    for turn in range(1, turns + 1):
        time.sleep(pause)
        proc.stdin.write((message(turn) + "\n").encode())
        proc.stdin.flush()
        sent = time.perf_counter()
        seen = b""
        while MARK.encode() not in seen:
            select.select([out], [], [], 30)
            seen += os.read(out, 65536)
        times.append(time.perf_counter() - sent)
        while not seen.endswith(b"\n"):  # the rest of the reply
            seen += os.read(out, 65536)
    proc.stdin.close()
    proc.wait(30)
    return times


def covered(tmp: Path, session: str) -> int:
    """How many turns the stored summary covers at the end (summaries were really kept, not fallen back from)."""
    return int(json.loads((tmp / "sessions" / f"{session}.json").read_text())["summary"]["covers"])


def row(label: str, times: list[float], due: set[int]) -> tuple[str, float]:
    ordinary = [t for i, t in enumerate(times, start=1) if i not in due and i > 1]
    summarized = [t for i, t in enumerate(times, start=1) if i in due]
    o, d = statistics.median(ordinary), statistics.median(summarized)
    line = (
        f"{label:<22} {1000 * o:>9.0f} {1000 * max(ordinary):>8.0f} {1000 * d:>9.0f} {1000 * max(summarized):>8.0f}"
        f" {d / o:>7.2f}x"
    )
    return line, d / o


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=15)
    parser.add_argument("--pauses", default="3,1", help="seconds before each message, comma-separated (default 3,1)")
    parser.add_argument("--summary-seconds", type=float, default=2.0, help="how long the server takes to summarize")
    parser.add_argument("--no-script", action="store_true", help="skip script mode")
    args = parser.parse_args()
    pauses = [float(p) for p in args.pauses.split(",")]
    due = due_turns(args.turns)

    print(f"machine: {machine()}")
    print(
        f"{args.turns} turns, summary due before turns {sorted(due)} (trigger {TRIGGER}, keep {KEEP}); the server "
        f"streams answers at once and takes {args.summary_seconds:g} s per summary"
    )
    print()
    head = f"{'mode, pause':<22} {'ordinary':>9} {'(max)':>8} {'sum. due':>9} {'(max)':>8} {'ratio':>8}"
    print(head + "    time to first answer token, ms (median; turn 1 left out)")
    print("-" * len(head))
    with (
        tempfile.TemporaryDirectory() as name,
        FakeServer(reply=REPLY, chunks=8, whole_reply=SUMMARY, whole_delay=args.summary_seconds) as server,
    ):
        tmp = Path(name)
        for pause in pauses:
            times, waits = run_terminal(server.base_url, tmp, args.turns, pause)
            line, _ = row(f"terminal, {pause:g} s", times, due)
            kept = covered(tmp, f"term-{pause}")
            print(f"{line}    wait notices: {waits}; summary covers turns 1-{kept}", flush=True)
        if not args.no_script:
            for pause in pauses[:1]:
                line, _ = row(f"script, {pause:g} s", run_script(server.base_url, tmp, args.turns, pause), due)
                print(f"{line}    summary covers turns 1-{covered(tmp, f'script-{pause}')}", flush=True)
        summaries = sum(1 for body in server.record.requests if not body.get("stream"))
    print()
    runs = len(pauses) + (0 if args.no_script else 1)
    print(f"summary requests the server answered: {summaries} ({len(due)} due turns x {runs} runs = {len(due) * runs})")


if __name__ == "__main__":
    main()
