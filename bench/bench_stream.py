#!/usr/bin/env python
"""Streaming throughput: what the whole front end costs a streamed piece, against reading the same stream alone.

Run by hand: ``python bench/bench_stream.py [--pieces 1000,10000,50000] [--repeat 3]``.

The local fake OpenAI-compatible server (``tests/support/fake_server.py``) streams one reply in N pieces, as a long
reply comes token by token. Two readers take it:

- **SSE alone**: the ``openai`` client's stream read as the provider reads it, its server-sent events decoded by the
  SDK and each one's JSON parsed, nothing more (the floor: HTTP, SSE, JSON);
- **script turn**: one line of a piped script (``cli.modes.script``) over the real ``openai`` provider, JSON store,
  summary memory: the request built, every piece through the chat, the front end's ``run_turn`` and its watch of slow
  events, the plain sink writing it out (to a null file), the turn stored and saved.

Per N it prints the median wall time of each and what the rest costs a piece: ``(turn - SSE - fixed) / N``, the
fixed part being a one-piece reply's (the request built, the turn stored and saved). A cost that
grows with N, or a per-piece cost of more than some tens of microseconds, is a per-piece overhead to find: a thread
started for every piece once cost ~500 us a piece (a 1 MB reply of 175,000 pieces took 87 s).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _common import machine  # noqa: E402 - bench/ is on sys.path when a script runs from it

from chatbot.cli import modes  # noqa: E402
from chatbot.core.app import App, AppSettings  # noqa: E402
from chatbot.core.turn_settings import TurnSettings  # noqa: E402
from chatbot.engine.memory import MemoryConfig  # noqa: E402
from chatbot.engine.tokens import make_counter  # noqa: E402
from chatbot.providers import make_provider  # noqa: E402
from chatbot.storage.json_store import JsonStore  # noqa: E402
from tests.support.fake_server import FakeServer  # noqa: E402


def sse_alone(base_url: str) -> float:
    """Seconds to read the whole streamed reply as the provider reads it (``providers/reading.py``), and no more."""
    from openai import OpenAI

    client = OpenAI(base_url=base_url, api_key="bench")
    started = time.perf_counter()
    with client.chat.completions.create(model="m", messages=[{"role": "user", "content": "go"}], stream=True) as s:
        for sse in s._iter_events():
            if sse.data.startswith("[DONE]"):
                break
            json.loads(sse.data)
    return time.perf_counter() - started


def script_turn(base_url: str, folder: Path) -> float:
    """Seconds for one line of a piped script, the reply written to a null file."""
    provider = make_provider("openai", base_url=base_url, model="m")
    settings = AppSettings("openai", None, MemoryConfig(strategy="summary"), run=TurnSettings())
    app = App(JsonStore(folder), provider, settings, lambda model: make_counter(None, "openai", model))
    app.open(None)
    out, sys.stdout = sys.stdout, open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    try:
        started = time.perf_counter()
        modes.script(app, io.StringIO("go\n"), argparse.Namespace(reasoning=False))
        return time.perf_counter() - started
    finally:
        sys.stdout.close()
        sys.stdout = out
        app.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", default="1000,10000,50000", help="reply sizes in streamed pieces")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "bench")
    print(machine())
    print("| pieces | SSE alone s | script turn s | the rest, a piece (us) |")
    print("|---|---|---|---|")
    fixed = 0.0  # what a turn costs besides its pieces (the request built, the turn saved): a reply of one piece's
    for pieces in [1] + [int(n) for n in args.pieces.split(",")]:
        reply = " ".join(f"w{i}" for i in range(pieces))
        with tempfile.TemporaryDirectory() as tmp, FakeServer(reply=reply, chunks=pieces) as server:
            alone = statistics.median(sse_alone(server.base_url) for _ in range(args.repeat))
            turn = statistics.median(script_turn(server.base_url, Path(tmp) / str(i)) for i in range(args.repeat))
        if pieces == 1:
            fixed = turn - alone
            print(f"| 1 (the turn's fixed cost: {fixed:.2f} s) | {alone:.2f} | {turn:.2f} | |")
            continue
        print(f"| {pieces:,} | {alone:.2f} | {turn:.2f} | {(turn - alone - fixed) / pieces * 1e6:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
