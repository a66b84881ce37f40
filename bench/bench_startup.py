#!/usr/bin/env python
"""Start-up: ``chatbot --version`` and ``chatbot --help`` against a bare ``python -c pass``, and the heaviest imports.

Run by hand: ``python bench/bench_startup.py [--runs 15]``.

Each command is run ``--runs`` times as a subprocess (stdout discarded) and the median wall time is reported, with
its ratio to the bare interpreter. The ``chatbot`` command is the installed console script run by this interpreter
(a pyenv shim in front of it costs extra, unrelated to chatbot); without one, ``python -m chatbot``. For reference,
the table also times importing the heavy libraries that chatbot imports only where they are used (the openai and
groq SDKs, rich, prompt_toolkit). Then ``python -X importtime`` lists what ``--help`` imports beyond what the bare
interpreter already does, heaviest first.

Target: ``--version`` and ``--help`` each within 2x the bare interpreter (the README's promise).
``tests/cli/test_startup.py`` pins the cause rather than a time: neither imports the memory rule, the token counter,
the provider interface, ``dataclasses`` or an SDK.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

from _common import machine  # bench/ is on sys.path when a script runs from it

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"--version": 2.0, "--help": 2.0}
REFERENCE_IMPORTS = ("openai", "groq", "rich.markdown", "prompt_toolkit")
IMPORTTIME = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def chatbot_command() -> list[str]:
    script = Path(sysconfig.get_path("scripts")) / "chatbot"
    if script.is_file():
        return [sys.executable, str(script)]
    return [sys.executable, "-m", "chatbot"]


def median_ms(cmd: list[str], runs: int) -> float:
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, cwd=ROOT)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1000


def importtime(cmd: list[str]) -> list[tuple[str, int, int, int]]:
    """(module, self us, cumulative us, depth) for every import ``cmd`` makes."""
    py, *rest = cmd
    out = subprocess.run([py, "-X", "importtime", *rest], capture_output=True, text=True, cwd=ROOT, check=False)
    rows = []
    for line in out.stderr.splitlines():
        m = IMPORTTIME.match(line)
        if m:
            rows.append((m[4], int(m[1]), int(m[2]), len(m[3]) // 2))
    return rows


def importable(module: str) -> bool:
    probe = [sys.executable, "-c", f"import importlib.util, sys; sys.exit(not importlib.util.find_spec({module!r}))"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=15, help="runs per command (default 15)")
    parser.add_argument("--top", type=int, default=15, help="imports to list (default 15)")
    args = parser.parse_args()

    chatbot = chatbot_command()
    print(f"machine: {machine()}")
    print(f"chatbot command: {' '.join(chatbot)}")
    print()
    bare = median_ms([sys.executable, "-c", "pass"], args.runs)
    rows = [("python -c pass", bare, None)]
    for flag in ("--version", "--help"):
        rows.append((f"chatbot {flag}", median_ms([*chatbot, flag], args.runs), TARGETS[flag]))
    on_path = shutil.which("chatbot")
    if on_path and Path(on_path).resolve() != Path(chatbot[-1]).resolve():
        # what typing `chatbot` runs here, e.g. a pyenv shim (a shell script that finds the real one)
        rows.append((f"(reference) {on_path} --version", median_ms([on_path, "--version"], args.runs), None))
    for module in REFERENCE_IMPORTS:
        if importable(module):
            ms = median_ms([sys.executable, "-c", f"import {module}"], max(3, args.runs // 3))
            rows.append((f"(reference) python -c 'import {module}'", ms, None))

    print(f"{'command':<48} {'median ms':>10} {'vs bare':>8} {'target':>7} {'':>5}")
    print("-" * 82)
    for name, ms, target in rows:
        verdict = "" if target is None else ("PASS" if ms / bare <= target else "FAIL")
        shown = "" if target is None else f"{target:.0f}x"
        print(f"{name:<48} {ms:>10.1f} {ms / bare:>7.2f}x {shown:>7} {verdict:>5}")
    print(f"medians of {args.runs} runs ({max(3, args.runs // 3)} for the reference imports), wall time per process")

    base = {name for name, *_ in importtime([sys.executable, "-c", "pass"])}
    extra = [r for r in importtime([*chatbot, "--help"]) if r[0] not in base]
    total = sum(r[1] for r in extra)
    print()
    print(f"`chatbot --help` imports {len(extra)} modules beyond the bare interpreter's, {total / 1000:.1f} ms in all")
    print("heaviest by cumulative time (top-level imports of those):")
    print(f"{'module':<40} {'cumulative ms':>14} {'self ms':>8}")
    tops = sorted((r for r in extra if r[3] == 0), key=lambda r: -r[2])[: args.top]
    for name, self_us, cum_us, _ in tops:
        print(f"{name:<40} {cum_us / 1000:>14.2f} {self_us / 1000:>8.2f}")
    print()
    print("heaviest by own time (any depth):")
    for name, self_us, _, depth in sorted(extra, key=lambda r: -r[1])[: args.top]:
        print(f"{'  ' * min(depth, 3) + name:<40} {self_us / 1000:>8.2f} ms")
    heavy = [r[0] for r in extra if r[0].split(".")[0] in {"openai", "groq", "rich", "prompt_toolkit", "httpx"}]
    print()
    print(f"SDKs, rich, prompt_toolkit or httpx imported by --help: {', '.join(heavy) if heavy else 'none'}")


if __name__ == "__main__":
    main()
