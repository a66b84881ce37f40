#!/usr/bin/env python
"""Turn overhead: one whole turn at 10, 100 and 1,000 stored turns, per memory strategy, end to end.

Run by hand: ``python bench/bench_turn.py [--turns 40] [--dir DIR] [--in-process]``.

Each session is pre-populated with N turns of ~1 kB messages (written through the real JsonStore), then opened through
:class:`chatbot.core.app.App` and sent ``--turns`` more ~1 kB messages by the real :class:`chatbot.core.chat.Chat`, over
the real ``openai`` provider, to the local fake OpenAI-compatible server (tests/support/fake_server.py) with a short
reply. The summary sessions start with a summary covering all but the last 4 turns, as a long session would have, so the
summarizer runs every 5 turns as it would in use (its call is part of the build time of those turns).

Per N and strategy it reports the median whole-turn wall time (``Chat.send`` consumed to the end) and its parts:
request build (``core/rounds.turn_request``: plan, fold, assemble), save (``JsonStore.save``), the stream (time
inside the provider's generator: HTTP request, SSE parsing), and the rest; plus the request size (tokens by the
rough counter, messages, bytes) and the session file size.

Target (issue 6): the whole turn at 1,000 stored turns costs at most 1.5x the whole turn at 10 stored turns.
The default 6,000-token budget applies, so ``full`` at 1,000 turns of 1 kB drops its oldest turns (realistic).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _common import machine  # noqa: E402 - bench/ is on sys.path when a script runs from it

from chatbot.core import chat as chat_module  # noqa: E402
from chatbot.core import rounds  # noqa: E402
from chatbot.core.app import App, AppSettings  # noqa: E402
from chatbot.core.events import TurnDone  # noqa: E402
from chatbot.engine.memory import MemoryConfig  # noqa: E402
from chatbot.engine.tokens import make_counter  # noqa: E402
from chatbot.engine.turn import Turn  # noqa: E402
from chatbot.providers import make_provider  # noqa: E402
from chatbot.storage.json_store import JsonStore  # noqa: E402
from tests.support.fake_server import FakeServer  # noqa: E402

SIZES = (10, 100, 1000)
STRATEGIES = ("full", "window", "summary")
REPLY = "Sure, noted. Anything else?"
PARAGRAPH = (
    "We are planning the migration of the billing service from the old cluster to the new one. The database has "
    "about 40 million rows in the invoices table, and the nightly export job takes roughly three hours. "
    "Please keep in mind that the customer-facing API must stay available, that we can only afford a ten-minute "
    "write freeze, and that the finance team needs the monthly report on the first working day. "
)


def message(i: int, who: str) -> str:
    """A ~1 kB message that differs from turn to turn."""
    text = f"[{who} {i}] " + PARAGRAPH * 3
    return text[:1000]


def populate(store: JsonStore, sid: str, turns: int, strategy: str, model: str) -> None:
    session = store.create(sid, system="You are a helpful assistant.", provider="openai", model=model)
    conv = session.conversation
    for i in range(turns):
        usage = {"prompt_tokens": 1500, "completion_tokens": 250, "estimated_prompt_tokens": 1520}
        conv.add_turn(
            Turn(
                [{"role": "user", "content": message(i, "user")}, {"role": "assistant", "content": message(i, "bot")}],
                usage=usage,
                latency=1.0,
            )
        )
    if strategy == "summary":
        conv.summary = "- the user is migrating the billing service; 40M invoice rows; 10-minute write freeze."
        conv.summary_covers = max(0, turns - 4)
    with store.acquire(sid):
        store.save(session)


class Timer:
    """Accumulates the time spent in wrapped calls during one turn."""

    def __init__(self) -> None:
        self.spent = 0.0

    def wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.spent += time.perf_counter() - t0

        return timed

    def wrap_gen(self, fn: Callable[..., Generator[Any, Any, Any]]) -> Callable[..., Generator[Any, Any, Any]]:
        """``fn``, a generator function, timed from its start to its return (its return value kept)."""

        def timed(*args: Any, **kwargs: Any) -> Generator[Any, Any, Any]:
            t0 = time.perf_counter()
            try:
                return (yield from fn(*args, **kwargs))
            finally:
                self.spent += time.perf_counter() - t0

        return timed

    def wrap_iter(self, fn: Callable[..., Iterator[Any]]) -> Callable[..., Iterator[Any]]:
        def timed(*args: Any, **kwargs: Any) -> Iterator[Any]:
            t0 = time.perf_counter()
            it = iter(fn(*args, **kwargs))
            self.spent += time.perf_counter() - t0
            while True:
                t0 = time.perf_counter()
                try:
                    item = next(it)
                except StopIteration:
                    self.spent += time.perf_counter() - t0
                    return
                self.spent += time.perf_counter() - t0
                yield item

        return timed


class Case:
    """One session of ``size`` stored turns under ``strategy``, opened through the App, with timed parts."""

    def __init__(self, directory: Path, base_url: str, size: int, strategy: str) -> None:
        self.size, self.strategy = size, strategy
        self.store = JsonStore(directory / f"{strategy}-{size}")
        model = "fake"
        self.sid = f"bench-{strategy}-{size}"
        populate(self.store, self.sid, size, strategy, model)
        provider = make_provider("openai", base_url=base_url, model=model)
        settings = AppSettings(provider_name="openai", model=model, memory=MemoryConfig(strategy=strategy))
        self.app = App(self.store, provider, settings, lambda m: make_counter(None, "openai", m))
        self.chat = self.app.open(self.sid)
        self.build, self.save, self.stream = Timer(), Timer(), Timer()
        self.build_request = self.build.wrap_gen(rounds.turn_request)
        self.store.save = self.save.wrap(self.store.save)  # type: ignore[method-assign]
        provider.stream = self.stream.wrap_iter(provider.stream)  # type: ignore[method-assign]
        self.rows: list[dict[str, float]] = []
        self.requests: list[Any] = []
        self.summarized_turns = 0
        self.sent = 0

    def turn(self, timed: bool) -> None:
        self.build.spent = self.save.spent = self.stream.spent = 0.0
        chat_module.turn_request = self.build_request  # this case's timer (the cases share the module)
        text = message(self.size + self.sent, "user")
        self.sent += 1
        t0 = time.perf_counter()
        done = None
        for event in self.chat.send(text):
            if isinstance(event, TurnDone):
                done = event
        whole = time.perf_counter() - t0
        assert done is not None
        if not timed:
            return
        self.summarized_turns += bool(done.request.summarized)
        self.requests.append(done.request)
        self.rows.append(
            {"whole": whole, "build": self.build.spent, "save": self.save.spent, "stream": self.stream.spent}
        )

    def result(self) -> dict[str, Any]:
        self.app.close()
        rows, last = self.rows, self.requests[-1]
        return {
            "size": self.size,
            "strategy": self.strategy,
            "median": {k: statistics.median(r[k] for r in rows) for k in rows[0]},
            "rest": statistics.median(r["whole"] - r["build"] - r["save"] - r["stream"] for r in rows),
            "max_whole": max(r["whole"] for r in rows),
            "req_tokens": last.tokens,
            "req_messages": len(last.messages),
            "req_bytes": len(json.dumps(last.messages, ensure_ascii=False).encode()),
            "dropped": last.dropped,
            "summarized_turns": self.summarized_turns,
            "file_kb": self.store.path(self.sid).stat().st_size / 1024,
        }


def run_strategy(directory: Path, base_url: str, sizes: list[int], strategy: str, turns: int, warmup: int) -> list:
    """Round robin: one turn of each size in turn, so that drift on the machine hits every size alike."""
    cases = [Case(directory, base_url, size, strategy) for size in sizes]
    for i in range(warmup + turns):
        for case in cases:
            case.turn(timed=i >= warmup)
    return [case.result() for case in cases]


@contextlib.contextmanager
def fake_server(in_process: bool) -> Iterator[str]:
    """The fake OpenAI-compatible server's base URL: in its own process (like a real server), or in a thread."""
    if in_process:
        with FakeServer(reply=REPLY, chunks=4) as fake:
            # a client dropping a pooled keep-alive connection is normal; no traceback for it
            fake._server.handle_error = lambda request, address: None  # type: ignore[method-assign]
            yield fake.base_url
        return
    server = ROOT / "tests" / "support" / "fake_server.py"
    cmd = [sys.executable, str(server), "--port", "0", "--reply", REPLY, "--chunks", "4"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        if not line.startswith("listening on "):
            raise SystemExit(f"the fake server did not start: {line!r}")
        yield line.split()[-1]
    finally:
        proc.terminate()
        proc.wait(5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=40, help="timed turns per case (default 40)")
    parser.add_argument("--warmup", type=int, default=2, help="untimed turns first (default 2)")
    parser.add_argument("--dir", help="where the sessions live (default: a temporary directory)")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="stored turns (default 10 100 1000)")
    parser.add_argument("--strategies", nargs="+", choices=STRATEGIES, default=list(STRATEGIES))
    parser.add_argument("--in-process", action="store_true", help="run the fake server in a thread of this process")
    args = parser.parse_args()

    print(f"machine: {machine()}")
    where = "a thread of this process" if args.in_process else "its own process"
    print(f"sessions in {args.dir or tempfile.gettempdir()}; fake server in {where}, reply {len(REPLY)} chars")
    results = []
    with fake_server(args.in_process) as base_url, tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        os.environ.pop("OPENAI_API_KEY", None)  # the local base URL gets the dummy key
        for strategy in args.strategies:
            results += run_strategy(Path(tmp), base_url, args.sizes, strategy, args.turns, args.warmup)

    print()
    head = (
        f"{'strategy':<8} {'stored':>6} {'turn ms':>8} {'build':>7} {'save':>7} {'stream':>7} {'rest':>6} "
        f"{'max ms':>7} {'req tok':>7} {'msgs':>5} {'req kB':>6} {'dropped':>7} {'file kB':>7} {'vs 10':>6}"
    )
    print(head)
    print("-" * len(head))
    base = {r["strategy"]: r["median"]["whole"] for r in results if r["size"] == min(args.sizes)}
    verdicts = []
    for r in results:
        m = r["median"]
        ratio = m["whole"] / base[r["strategy"]]
        print(
            f"{r['strategy']:<8} {r['size']:>6} {m['whole'] * 1e3:>8.2f} {m['build'] * 1e3:>7.2f} "
            f"{m['save'] * 1e3:>7.2f} {m['stream'] * 1e3:>7.2f} {r['rest'] * 1e3:>6.2f} {r['max_whole'] * 1e3:>7.2f} "
            f"{r['req_tokens']:>7} {r['req_messages']:>5} {r['req_bytes'] / 1024:>6.1f} {r['dropped']:>7} "
            f"{r['file_kb']:>7.0f} {ratio:>5.2f}x"
        )
        if r["size"] == max(args.sizes) and r["strategy"] in base:
            verdicts.append((r["strategy"], ratio))
    print()
    print(
        f"medians of {args.turns} turns of ~1 kB after {args.warmup} warm-up turns, sizes taken in round robin; "
        "build/save/stream: medians of their own; rest: median of whole - build - save - stream; "
        "req: the last timed request (rough-count tokens); dropped: earlier turns not sent"
    )
    summarized = [f"{r['size']}: {r['summarized_turns']}" for r in results if r["strategy"] == "summary"]
    if summarized:
        print(f"summary: timed turns whose build ran the summarizer (stored turns: count): {', '.join(summarized)}")
    for strategy, ratio in verdicts:
        ok = "PASS" if ratio <= 1.5 else "FAIL"
        print(f"target {max(args.sizes)} vs {min(args.sizes)} stored turns, {strategy}: {ratio:.2f}x (<= 1.5x) {ok}")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
