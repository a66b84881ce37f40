"""Benchmark: streamed Markdown rendering vs plain text, through a real 80x24 pseudo-terminal.

Run by hand: ``python bench/bench_render.py [--chunks 4000] [--repeat 3] [--case mixed|single|paragraph|all]``.

A child process renders a generated ~4,000-chunk answer (paragraphs, lists, code blocks) to the slave side of a
pty while this process drains the master side, as a terminal would. For each mode it reports the rendering time
measured in the child (first feed to finish, interpreter start-up excluded), the wall time seen here, chunks per
second, and the bytes the terminal received. It then replays the Markdown run's bytes through a terminal emulator
(``pyte``, if installed; ``pip install pyte``) and checks that every marker line ("paragraph 17", "item 3.2",
"code 5 line 4") appears exactly once in the final scrollback plus screen: no lost and no duplicated lines. The
plain run is checked the same way on its ANSI-free output.

Two hostile cases bound the renderer's cost (``--big-mb``, default 10): ``single`` is the mixed answer repeated to
that size and sent as ONE chunk; ``paragraph`` is one paragraph of that size with no blank line, in network-sized
chunks (20-100 characters). Any reply should render within about 2x of plain text.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import termios
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COLUMNS, ROWS = 80, 24
MARKER = re.compile(r"(paragraph \d+|item \d+\.\d+|code \d+ line \d+)(?!\d)")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[()][A-Za-z0-9]")


def build_answer(target_chunks: int, seed: int = 1) -> list[str]:
    """A Markdown answer cut into token-sized chunks (1-6 characters, like a provider's deltas)."""
    rng = random.Random(seed)
    words = ["the", "model", "is", "stateless", "so", "every", "request", "sends", "a", "conversation", "again"]
    parts: list[str] = ["# A long answer\n\n"]
    size = 0
    section = 0
    while size < target_chunks * 3.5:
        section += 1
        kind = section % 5
        if section % 17 == 8:
            # Taller than the 24-row screen: the live tail must show only its last screenful.
            lines = [f"x{i} = {i} * 2  # code {section} line {i}" for i in range(1, 41)]
            block = "```python\n" + "\n".join(lines) + "\n```\n\n"
        elif section % 17 == 12:
            body = " ".join(rng.choices(words, k=400))
            block = f"This long paragraph {section} wraps to more lines than the screen has: {body}.\n\n"
        elif kind == 3:
            lines = [f"    total += {i}  # code {section} line {i}" for i in range(1, 9)]
            lines.insert(4, "")  # a blank line inside the fence must not split it
            block = "```python\ndef f():\n    total = 0\n" + "\n".join(lines) + "\n    return total\n```\n\n"
        elif kind == 4:
            items = [f"- item {section}.{i}: " + " ".join(rng.choices(words, k=6)) for i in range(1, 5)]
            block = "\n".join(items) + "\n\n"
        else:
            body = " ".join(rng.choices(words, k=rng.randint(25, 60)))
            block = f"This is paragraph {section}, with **bold** and `code`: {body}.\n\n"
        parts.append(block)
        size += len(block)
    text = "".join(parts).rstrip("\n") + "\n"
    chunks: list[str] = []
    pos = 0
    while pos < len(text):
        step = rng.randint(1, 6)
        chunks.append(text[pos : pos + step])
        pos += step
    return chunks


def build_case(case: str, target_chunks: int, megabytes: float) -> list[str]:
    """The chunks of one benchmark case (see the module docstring)."""
    size = int(megabytes * 1_000_000)
    if case == "single":
        unit = "".join(build_answer(target_chunks))
        return [(unit * (size // len(unit) + 1))[:size]]
    if case == "paragraph":
        rng = random.Random(2)
        words = ["the", "model", "is", "stateless", "so", "every", "request", "sends", "it", "again"]
        text = " ".join(rng.choices(words, k=size // 5))[:size] + "\n"
        chunks, pos = [], 0
        while pos < len(text):
            step = rng.randint(20, 100)
            chunks.append(text[pos : pos + step])
            pos += step
        return chunks
    return build_answer(target_chunks)


def child(mode: str, pace: str, chunks_file: str, result_file: str) -> None:
    """Render the chunks to this process's stdout (the pty) at ``pace`` chunks/s (0: at once); time it."""
    sys.path.insert(0, str(ROOT))
    from chatbot.terminal.render import make_console, make_stream

    chunks = json.loads(Path(chunks_file).read_text())
    plain = mode == "plain"
    console = make_console(plain=plain)
    stream = make_stream(console, plain=plain)
    rate = float(pace)
    start, cpu = time.perf_counter(), time.process_time()
    for i, chunk in enumerate(chunks):
        if rate:
            delay = start + i / rate - time.perf_counter()
            if delay > 0.001:  # sleeping is coarse: catch up in bursts, like a provider's network reads
                time.sleep(delay)
        stream.feed(chunk)
    stream.finish()
    sys.stdout.flush()
    result = {"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu}
    Path(result_file).write_text(json.dumps(result))


@dataclass
class Run:
    """One child run: its own timings and what the terminal received."""

    seconds: float  # first feed to finish, in the child
    cpu: float  # CPU time of the child over the same span
    wall: float  # child start to exit, seen from here (includes interpreter start-up and imports)
    data: bytes


def run_in_pty(mode: str, pace: float, chunks_file: str) -> Run:
    """Start the child on a fresh 80x24 pty, drain everything it writes, return timings and the bytes."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    env["TERM"] = "xterm-256color"
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as result:
        result_file = result.name
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", mode, str(pace), chunks_file, result_file],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    received = bytearray()
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the slave side
            break
        if not data:
            break
        received += data
    proc.wait()
    wall = time.perf_counter() - start
    os.close(master)
    result = json.loads(Path(result_file).read_text())
    os.unlink(result_file)
    return Run(result["seconds"], result["cpu"], wall, bytes(received))


def screen_lines(data: bytes) -> list[str] | None:
    """What a terminal shows after ``data``: scrollback then screen, via pyte; None when pyte is missing."""
    try:
        import pyte
    except ImportError:
        return None
    screen = pyte.HistoryScreen(COLUMNS, ROWS, history=1_000_000)
    stream = pyte.ByteStream(screen)
    stream.feed(data)

    def text(line: dict[int, pyte.screens.Char]) -> str:
        return "".join(line[x].data for x in range(COLUMNS)).rstrip()

    return [text(line) for line in screen.history.top] + [text(screen.buffer[y]) for y in range(ROWS)]


def marker_problems(lines: list[str], expected: list[str]) -> str:
    """'ok', or which markers are missing or repeated."""
    seen: dict[str, int] = {}
    for line in lines:
        for marker in MARKER.findall(line):
            seen[marker] = seen.get(marker, 0) + 1
    missing = [m for m in expected if m not in seen]
    repeated = [m for m, n in seen.items() if n > 1]
    if not missing and not repeated:
        return "ok"
    return f"missing {len(missing)} {missing[:3]}, repeated {len(repeated)} {repeated[:3]}"


def check(mode: str, data: bytes, expected: list[str]) -> str:
    """The scrollback check for one run."""
    lines = screen_lines(data)
    if lines is not None:
        return marker_problems(lines, expected)
    if mode == "plain":  # without an emulator only plain output can be checked: its text is final as written
        return marker_problems(ANSI.sub("", data.decode()).splitlines(), expected)
    return "skipped (pip install pyte)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=3, help="unpaced runs per mode; the fastest is reported")
    parser.add_argument("--pace", type=float, default=1000, help="chunks/s of the paced runs (0: none)")
    parser.add_argument("--case", choices=["mixed", "single", "paragraph", "all"], default="mixed")
    parser.add_argument("--big-mb", type=float, default=10.0, help="size of the single and paragraph cases")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    for case in ["mixed", "single", "paragraph"] if args.case == "all" else [args.case]:
        bench_case(case, args)


def bench_case(case: str, args: argparse.Namespace) -> None:
    """Run and print one case: plain vs Markdown, unpaced (and paced for the mixed answer)."""
    chunks = build_case(case, args.chunks, args.big_mb)
    text = "".join(chunks)
    expected = MARKER.findall(text)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(chunks, f)
        chunks_file = f.name
    paces = [0.0] + ([args.pace] if args.pace and case == "mixed" else [])
    repeat = args.repeat if case == "mixed" else 1
    best: dict[tuple[str, float], Run] = {}
    try:
        for pace in paces:
            for mode in ("plain", "markdown"):
                runs = [run_in_pty(mode, pace, chunks_file) for _ in range(repeat if not pace else 1)]
                best[mode, pace] = min(runs, key=lambda run: run.seconds)
    finally:
        os.unlink(chunks_file)

    print(
        f"\ncase {case}: {len(chunks)} chunks, {len(text)} characters, {len(expected)} marker lines, "
        f"{COLUMNS}x{ROWS} pty"
    )
    print(
        f"| {'mode':<8} | {'pace':>7} | {'render s':>8} | {'cpu s':>6} | {'wall s':>6} | {'chunks/s':>9} "
        f"| {'bytes':>7} | scrollback check |"
    )
    print("|" + "|".join("-" * n for n in (10, 9, 10, 8, 8, 11, 9, 18)) + "|")
    for (mode, pace), run in best.items():
        pace_label = f"{pace:.0f}/s" if pace else "max"
        print(
            f"| {mode:<8} | {pace_label:>7} | {run.seconds:>8.3f} | {run.cpu:>6.3f} | {run.wall:>6.3f} "
            f"| {len(chunks) / run.seconds:>9,.0f} | {len(run.data):>7,} "
            f"| {check(mode, run.data, expected) if case == 'mixed' else 'not checked':<16} |"
        )
    for pace in paces:
        md, plain = best["markdown", pace], best["plain", pace]
        label = f"paced {pace:.0f}/s" if pace else "unpaced"
        print(
            f"markdown/plain {label}: render {md.seconds / plain.seconds:.2f}x, cpu {md.cpu / plain.cpu:.2f}x, "
            f"wall {md.wall / plain.wall:.2f}x"
        )


if __name__ == "__main__":
    main()
