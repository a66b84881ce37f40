#!/usr/bin/env python
"""Recall: do old facts come back into the request when asked for, and only then? What does it cost?

Run by hand: ``python bench/bench_recall.py [--recall 3]``.

The probe set (``bench/recall_probes.py``): three 40-turn conversations, in English, in Korean and in a mix of both.
Eight facts are stated early (turns 1-15, between long unrelated turns), 16 unrelated turns follow, then turns 33-40
ask for each fact in other words; six more questions ask for no fact. Each runs through the real request builder
(:meth:`Conversation.build_request`) with window memory (6 turns) and with summary memory (trigger 8, keep 4) whose
summarizer drops details (it keeps the first four words of each turn), at the default budget (6,000 tokens).

Per tokenizer for Korean (character bigrams, the default, and ``kiwipiepy``'s morphemes), language and memory:

- **recalled**: questions whose fact's words are in the request (goal: at least 90%); without recall for comparison;
- **false pulls**: fact turns recalled by the six questions that ask for none (goal: 0), and turns of any kind;
- **prompt tokens**: the sum over the 40 requests of the whole conversation, without and with recall.

Then the long conversation of bench_memory.py (100 turns that never ask for an old fact) by ``--recall K``: what
recall costs where it is not asked for, which chose the default. Then the time recall adds to a turn at 10 and at
1,000 stored turns (the index grows by the new turn and is searched once), against the goal of 5 ms at 1,000
turns, and the time of a whole request without and with recall.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _common import machine  # bench/ is on sys.path when a script runs from it
from recall_probes import Probe, probes

from chatbot.engine.conversation import Conversation  # noqa: E402
from chatbot.engine.memory import MemoryConfig, Request  # noqa: E402
from chatbot.engine.recall import RecallIndex, search, terms  # noqa: E402
from chatbot.engine.recall_terms import STOP_WORDS  # noqa: E402
from chatbot.engine.turn import Message, Turn  # noqa: E402

MEMORIES = {
    "window": dict(strategy="window", window_turns=6),
    "summary": dict(strategy="summary", summary_trigger=8, keep_turns=4),
}


def gist_summarizer(previous: str, turns: list[list[Message]], first: int) -> str:
    """A summarizer that drops details: the first four words of each turn's user message."""
    lines = [previous] if previous else []
    for n, messages in enumerate(turns, start=first):
        words = str(messages[0].get("content") or "").split()[:4]
        lines.append(f"- turn {n}: the user wrote about {' '.join(words)}")
    return "\n".join(lines)


def kiwi_terms() -> Callable[[str], list[str]]:
    """Terms by kiwipiepy's morphemes: nouns, verb and adjective stems, roots, numbers and foreign words."""
    from kiwipiepy import Kiwi

    kiwi = Kiwi()
    keep = ("NN", "NR", "NP", "VV", "VA", "XR", "SL", "SN", "SH", "W_")

    def tokenize(text: str) -> list[str]:
        out = []
        for token in kiwi.tokenize(text.lower()):
            form = token.form
            if token.tag.startswith(keep) and form not in STOP_WORDS and (len(form) > 1 or not form.isascii()):
                out.append(form)
        return out

    return tokenize


def conversation(memory: str, recall: int, tokenize: Callable[[str], list[str]]) -> Conversation:
    conv = Conversation("You are a helpful assistant.", MemoryConfig(**MEMORIES[memory], recall=recall))  # type: ignore[arg-type]
    conv.recall_index = RecallIndex(lambda text: [[t] for t in tokenize(text)])
    return conv


def sent_text(request: Request) -> str:
    return "\n".join(str(m.get("content") or "") for m in request.messages[:-1])


def run(probe: Probe, memory: str, recall: int, tokenize: Callable[[str], list[str]]) -> dict[str, float]:
    """The whole conversation, then the unrelated questions against its first 32 turns."""
    conv = conversation(memory, recall, tokenize)
    tokens = 0
    for user, answer in probe.turns:
        tokens += conv.build_request(user, summarizer=gist_summarizer).tokens
        conv.add_turn(Turn([{"role": "user", "content": user}, {"role": "assistant", "content": answer}]))
    found = 0
    for fact in probe.facts:
        request = conv.build_request(fact.asked, summarizer=gist_summarizer)
        tokens += request.tokens
        found += fact.proof in sent_text(request)
        conv.add_turn(Turn([{"role": "user", "content": fact.asked}, {"role": "assistant", "content": "Let me see."}]))
    fact_pulls = any_pulls = 0
    for text in probe.unrelated:
        request = conv.build_request(text, summarizer=gist_summarizer)
        any_pulls += len(request.recalled)
        fact_pulls += len(set(request.recalled) & set(probe.fact_turns))
    return {"found": found / len(probe.facts), "fact_pulls": fact_pulls, "any_pulls": any_pulls, "tokens": tokens}


def long_conversation(memory: str, recall: int, turns: int = 100) -> tuple[int, int]:
    """bench_memory.py's scripted 100-turn conversation (eight facts, never asked for): prompt tokens over all
    requests, and turns recalled in all."""
    import random

    from bench_memory import assistant_reply, user_message

    rng = random.Random(7)
    conv = conversation(memory, recall, terms)
    tokens = recalled = 0
    for turn in range(1, turns + 1):
        request = conv.build_request(user_message(turn, rng), summarizer=gist_summarizer)
        tokens, recalled = tokens + request.tokens, recalled + len(request.recalled)
        messages = [request.messages[-1], {"role": "assistant", "content": assistant_reply(turn, rng)}]
        conv.add_turn(Turn(messages))
    return tokens, recalled


def per_turn_ms(size: int, tokenize: Callable[[str], list[str]], probe: Probe) -> float:
    """Median time recall adds to a turn with ``size`` turns stored: the new turn indexed, one search."""
    conv = conversation("window", 3, tokenize)
    for i in range(size):
        user, answer = probe.turns[i % len(probe.turns)]
        conv.add_turn(Turn([{"role": "user", "content": user}, {"role": "assistant", "content": answer}]))
    search(conv, "warm up")
    times = []
    for i in range(30):
        fact = probe.facts[i % len(probe.facts)]
        conv.add_turn(Turn([{"role": "user", "content": fact.said}, {"role": "assistant", "content": "Noted."}]))
        start = time.perf_counter()
        search(conv, fact.asked, range(len(conv.turns) - 6))
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def request_ms(size: int, recall: int, probe: Probe) -> float:
    """Median time of a whole request (window memory) at ``size`` stored turns, a new turn added before each."""
    conv = conversation("window", recall, terms)
    for i in range(size):
        user, answer = probe.turns[i % len(probe.turns)]
        conv.add_turn(Turn([{"role": "user", "content": user}, {"role": "assistant", "content": answer}]))
    conv.build_request("warm up")
    times = []
    for i in range(30):
        fact = probe.facts[i % len(probe.facts)]
        conv.add_turn(Turn([{"role": "user", "content": fact.said}, {"role": "assistant", "content": "Noted."}]))
        start = time.perf_counter()
        conv.build_request(fact.asked)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recall", type=int, default=3, help="turns recalled at most (default 3)")
    parser.add_argument("--fast", action="store_true", help="bigrams only (no kiwipiepy)")
    args = parser.parse_args()
    print(machine())
    tokenizers = {"bigrams": terms} if args.fast else {"bigrams": terms, "kiwipiepy": kiwi_terms()}
    print(f"recall {args.recall}; window 6 / summary trigger 8 keep 4; budget 6,000 tokens\n")
    columns = "recalled (without) | false pulls: facts (any turn) | prompt tokens without → with"
    print(f"| tokenizer | language | memory | {columns} |")
    print("|---|---|---|---|---|---|")
    for tname, tokenize in tokenizers.items():
        for probe in probes():
            for memory in MEMORIES:
                off = run(probe, memory, 0, tokenize)
                on = run(probe, memory, args.recall, tokenize)
                grow = 100 * (on["tokens"] - off["tokens"]) / off["tokens"]
                print(
                    f"| {tname} | {probe.name} | {memory} | {on['found']:.0%} ({off['found']:.0%}) | "
                    f"{on['fact_pulls']:.0f} ({on['any_pulls']:.0f}) | "
                    f"{off['tokens']:,.0f} → {on['tokens']:,.0f} (+{grow:.1f}%) |"
                )
    print("\nbench_memory.py's 100-turn conversation (nothing asked back): prompt tokens by --recall K")
    print("| memory | K=0 | K=1 | K=2 | K=3 | K=5 |")
    print("|---|---|---|---|---|---|")
    for memory in MEMORIES:
        base, _ = long_conversation(memory, 0)
        cells = [f"{base:,}"]
        for k in (1, 2, 3, 5):
            tokens, pulled = long_conversation(memory, k)
            cells.append(f"+{100 * (tokens - base) / base:.1f}% ({pulled} turns)")
        print(f"| {memory} | {' | '.join(cells)} |")
    print("\n| tokenizer | per turn at 10 turns | at 1,000 turns |")
    print("|---|---|---|")
    mixed = probes()[2]
    for tname, tokenize in tokenizers.items():
        small, large = per_turn_ms(10, tokenize, mixed), per_turn_ms(1000, tokenize, mixed)
        print(f"| {tname} | {small:.2f} ms | {large:.2f} ms |")
    print("\n| a whole request (window 6, bigrams) | at 10 turns | at 1,000 turns |")
    print("|---|---|---|")
    for k in (0, 1):
        print(f"| --recall {k} | {request_ms(10, k, mixed):.2f} ms | {request_ms(1000, k, mixed):.2f} ms |")
    turns = [Turn([{"role": "user", "content": u}, {"role": "assistant", "content": a}]) for u, a in mixed.turns]
    start = time.perf_counter()
    RecallIndex().sync((turns * 32)[:1000])
    print(f"\nthe index of a resumed session of 1,000 turns, built at its first request: "
          f"{(time.perf_counter() - start) * 1000:.0f} ms")  # fmt: skip
    if args.fast:
        return
    start = time.perf_counter()
    kiwi_terms()("준비")
    print(f"\nkiwipiepy: loading its model takes {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
