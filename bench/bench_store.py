"""Session store speed: save and load at 10, 100 and 1,000 turns of ~1 kB messages.

Run by hand: ``python bench/bench_store.py [--dir DIR]``. A save is one compact JSON serialisation plus an atomic,
durable write (temporary file, fsync, rename, fsync of the directory); the table splits out the serialisation and
the fsync-free write so it is clear which part costs what. Use ``--dir`` to measure on the disk your sessions live on
(the default is a temporary directory, often tmpfs or an SSD).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chatbot.engine.turn import Turn  # noqa: E402
from chatbot.engine.usage import Totals  # noqa: E402
from chatbot.storage.json_store import JsonStore  # noqa: E402
from chatbot.storage.session import Session  # noqa: E402

TEXTS = {
    "english": ("The quick brown fox jumps over the lazy dog. " * 25)[:1000],  # 1,000 bytes
    "korean": ("다람쥐 헌 쳇바퀴에 타고파. 세션은 안전하게 저장됩니다. " * 20)[:410],
}


def build(store: JsonStore, sid: str, turns: int, text: str) -> Session:
    session = store.create(sid, system="You are a helpful assistant.", provider="groq", model="openai/gpt-oss-20b")
    for i in range(turns):
        session.conversation.add_turn(
            Turn(
                [{"role": "user", "content": f"{i} {text}"}, {"role": "assistant", "content": text}],
                usage={"prompt_tokens": 1000 + i, "completion_tokens": 300, "estimated_prompt_tokens": 1010 + i},
                latency=1.25,
            )
        )
    session.totals = Totals(prompt_tokens=123456, completion_tokens=30000, requests=turns)
    return session


def ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", help="where to write (default: a temporary directory)")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--text", choices=sorted(TEXTS), default="english", help="what the messages are made of")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        store = JsonStore(Path(tmp) / "sessions")
        rows = []
        for turns in (10, 100, 1000):
            sid = f"bench-{turns}"
            session = build(store, sid, turns, TEXTS[args.text])
            with store.acquire(sid):
                store.save(session)
                save = timed(lambda s=session: store.save(s), args.repeat)
                dumps = timed(
                    lambda s=session: json.dumps(s.to_dict(), ensure_ascii=False, separators=(",", ":")).encode(),
                    args.repeat,
                )
                with mock.patch("os.fsync"):  # the same save without waiting for the disk
                    nosync = timed(lambda s=session: store.save(s), args.repeat)
            load = timed(lambda sid=sid: store.load(sid), args.repeat)
            size = store.path(sid).stat().st_size
            rows.append((turns, size, ms(save), ms(load), ms(dumps), ms(nosync)))

    header = ("turns", "file size", "save ms", "load ms", "(serialise ms)", "(save w/o fsync)")
    print("{:>6} {:>10} {:>8} {:>8} {:>15} {:>17}".format(*header))
    for turns, size, save_ms, load_ms, dumps_ms, nosync_ms in rows:
        print(f"{turns:>6} {size / 1024:>7.0f} kB {save_ms:>8.2f} {load_ms:>8.2f} {dumps_ms:>15.2f} {nosync_ms:>17.2f}")
    print(f"~1 kB {args.text} messages; medians of {args.repeat} runs; load = read + parse + validate + rebuild")


if __name__ == "__main__":
    main()
