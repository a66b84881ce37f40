#!/usr/bin/env python
"""``--compare-memory`` on long sessions: its wall time at 125 to 2,000 stored turns, in process.

Run by hand: ``python bench/bench_compare.py [--sizes 125,250,500,1000,2000] [--dir DIR] [--profile N]``.

Each session is N turns of ~1 kB messages written through the real JsonStore (``populate`` of bench_turn.py, the
session's rule ``window`` and a stored summary, as a long session has), then loaded as the command loads it
(:func:`chatbot.cli.teaching.load`) and replayed under every rule (:func:`chatbot.commands.compare.compare`) and
printed (:func:`chatbot.commands.compare.plain`). The time is that of load + compare + plain; ``--profile N`` prints
a cProfile of the replay at N turns instead.

Measured (2 shared CPUs under other load, so a rough guide; the session's rule ``summary``, every rule replayed):

    turns   before     after   (seconds: load + compare + plain)
      125    136.0      11.9
      250    359.0      39.3
      500    >830 (stopped)  71.7
     1000        -     438.2
     2000        -   not run before the deadline

Before, each fold's summary (echo's, which grows by a line pair a turn in the replay) was counted from its start
several times a fold (its fold request's pieces, the refusal check, the next ask, the system message with it and
with each recall trial). After, :func:`chatbot.engine.tokens.rough_count` resumes a long text from the marks of a
recent one it starts like, so those counts cost what was added. What still grows faster than the turns: the summary
itself (the replay's echo summary is never asked to tighten) and recall's ranking of every earlier turn.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _common import machine  # noqa: E402 - bench/ is on sys.path when a script runs from it
from bench_turn import populate  # noqa: E402

from chatbot.cli.teaching import load  # noqa: E402
from chatbot.commands import compare  # noqa: E402
from chatbot.storage.json_store import JsonStore  # noqa: E402

SIZES = (125, 250, 500, 1000, 2000)


def timed(store: JsonStore, sid: str) -> float:
    """Seconds for the whole command: load the session, replay it under every rule, print the table."""
    t0 = time.perf_counter()
    session = load(store, sid)
    compare.plain(session, compare.compare(session), session.conversation.memory)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--profile", type=int, default=0)
    args = parser.parse_args()
    directory = args.dir or Path(tempfile.mkdtemp(prefix="bench-compare-"))
    print(machine())
    store = JsonStore(directory)
    if args.profile:
        populate(store, f"s{args.profile}", args.profile, "summary", "bench-model")
        session = load(store, f"s{args.profile}")
        cProfile.runctx("compare.compare(session)", globals(), {"session": session}, str(directory / "prof"))
        pstats.Stats(str(directory / "prof")).sort_stats("cumulative").print_stats(30)
        return
    print(f"{'turns':>6} {'seconds':>9} {'ms/turn':>8}")
    for size in (int(s) for s in args.sizes.split(",")):
        populate(store, f"s{size}", size, "summary", "bench-model")
        seconds = timed(store, f"s{size}")
        print(f"{size:>6} {seconds:>9.2f} {seconds / size * 1000:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
