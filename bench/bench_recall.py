#!/usr/bin/env python
"""Recall: do old facts come back into the request when asked for, and only then? What does it cost?

Run by hand: ``python bench/bench_recall.py [--recall K] [--by words,both] [--heldout 1,2,3] [--kiwi]``.

The project's probe set (``bench/recall_probes.py``; every level of recall was chosen on it alone): three 40-turn
conversations, in English, in Korean and in a mix of both. Eight facts are stated early (turns 1-15, between long
unrelated turns), 16 unrelated turns follow, then turns 33-40 ask for each fact in other words; six more questions
ask for no fact. Each runs through the real request builder (:meth:`Conversation.build_request`) with fixed replies,
with window memory (6 turns) and with summary memory (trigger 8, keep 4) whose summarizer drops details (it keeps
the first four words of each turn), at the default budget (6,000 tokens). Per recall mode (``--by``: words alone,
both with meaning; ``--kiwi`` adds Korean split by ``kiwipiepy``'s morphemes), language and memory:

- **recalled**: questions whose fact's words are in the request (goal: at least 90%); without recall for comparison;
- **false pulls**: fact turns recalled by the six questions that ask for none (goal: 0), and turns of any kind;
- **prompt tokens**: the sum over the 40 requests of the whole conversation, without and with recall.

Then the same conversations with look-alike facts planted, each question asked alone (``recall_probes.tuning_set``):
the keyword questions above and three or four with no cue word (a name or the thing's words alone), the same facts
in other words (no term shared), Korean nouns under other particles, look-alikes and 44 unrelated questions a
conversation (ten share an everyday noun with some turn, six carry a cue word anyway: "my back hurts ...", ten look
like one: "why is the sky blue?", "자기 전에 뭐 먹으면 좋아?"), in the held-out set's table.
``--heldout 1,2,3,4,5,6,7,8`` adds the held-out sets (``bench/probes_heldout.py`` to ``probes_heldout8.py``, driven
by ``bench/recall_drive.py``: report them, never tune on them; sets 1-5 became tuning sets once the next set was
written, sets 6, 7 and 8, each written blind in turn, were reported on; a ninth is to be written before any further
tuning): per conversation and question style, hits, unrelated pulls, wrong twins alone, tokens added; and, for the
same sets, what a question asking back about something never said brings (``recall_drive.never_said``: each set's
conversations asked the next set's questions).

Then the long conversation of bench_memory.py (100 turns that never ask for an old fact) by ``--recall K``: what
recall costs where it is not asked for. Then the time recall adds to a turn at 10 and at 1,000 stored turns, by
words (the index grows by the new turn and is searched once; the goal: 5 ms at 1,000 turns) and with meaning (the
question embedded, the stored vectors compared; the new turn's embedding, made when it is stored), and the time of
a whole request without and with recall.
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
from recall_drive import (
    HELDOUT_SETS,
    TABLE_HEAD,
    Report,
    general_asking_back,
    gist_summarizer,
    heldout,
    never_said,
    sent_text,
    table,
    tuning,
)
from recall_probes import Probe, probes

from chatbot.engine.conversation import Conversation  # noqa: E402
from chatbot.engine.memory import MemoryConfig  # noqa: E402
from chatbot.engine.recall import RecallIndex, search, terms  # noqa: E402
from chatbot.engine.recall_terms import STOP_WORDS  # noqa: E402
from chatbot.engine.strategies import DEFAULT_RECALL  # noqa: E402
from chatbot.engine.turn import Turn  # noqa: E402

MEMORIES = {
    "window": dict(strategy="window", window_turns=6),
    "summary": dict(strategy="summary", summary_trigger=8, keep_turns=4),
}


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


def conversation(memory: str, recall: int, tokenize: Callable[[str], list[str]], by: str = "words") -> Conversation:
    config = MemoryConfig(**MEMORIES[memory], recall=recall, recall_by=by)  # type: ignore[arg-type]
    conv = Conversation("You are a helpful assistant.", config)
    if tokenize is not terms:  # a morpheme is a word of its own
        conv.recall_index = RecallIndex(lambda text: [[t] for t in tokenize(text)])
    return conv


def run(probe: Probe, memory: str, recall: int, tokenize: Callable[[str], list[str]], by: str) -> dict[str, float]:
    """The whole conversation, then the unrelated questions against its first 32 turns."""
    conv = conversation(memory, recall, tokenize, by)
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


def meaning_ms(size: int, probe: Probe) -> tuple[float, float, float]:
    """Recall by meaning at ``size`` stored turns (vectors already stored, as in a resumed session): the median time
    recall adds to a turn (one query embedded, every stored vector compared, BM25 fused), the time to embed a new
    turn (done when it is stored, before the next message), and the first search of the resumed session."""
    from chatbot.engine import recall_meaning

    turns = [Turn([{"role": "user", "content": u}, {"role": "assistant", "content": a}]) for u, a in probe.turns]
    for t in turns:
        recall_meaning.embed_turn(t)
    conv = conversation("window", 1, terms, by="both")
    for i in range(size):  # a resumed session: each turn brings its stored vector back
        source = turns[i % len(turns)]
        conv.turns.append(Turn(source.messages, recall_vector=source.recall_vector))
    start = time.perf_counter()
    search(conv, "warm up")
    first = (time.perf_counter() - start) * 1000
    times, embeds = [], []
    for i in range(10):
        fact = probe.facts[i % len(probe.facts)]
        start = time.perf_counter()
        conv.add_turn(Turn([{"role": "user", "content": fact.said}, {"role": "assistant", "content": "Noted."}]))
        embeds.append(time.perf_counter() - start)
        start = time.perf_counter()
        search(conv, fact.asked, range(len(conv.turns) - 6))
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, statistics.median(embeds) * 1000, first


def print_asking_back(numbers: list[int], modes: list[str], recall: int) -> None:
    """What questions that ask back about nothing said bring: the held-out sets' conversations asked about facts never
    said in them (:func:`recall_drive.never_said`), and general questions that look like asking back
    (:func:`recall_drive.general_asking_back`)."""
    if not numbers:
        return
    print("\nasked back about something never said (each set's conversations asked the next set's key-word and")
    print("other-words questions, recall_drive.never_said): questions pulling a turn, tokens recalled for them")
    print("| recall | set | asked | pulled a turn | tokens recalled |\n|---|---|---|---|---|")
    for number in numbers:
        for by in modes:
            print(f"| {by} | {number} | {_pulls(never_said(number, recall, recall_by=by))} |")
    print("\ngeneral questions that look like asking back (recall_drive.general_asking_back: Korean general knowledge")
    print("asked in the past, English how-tos asked as a reminder; sets 1-5), written by a reviewer who read the code")
    print("| recall | asked | pulled a turn | tokens recalled |\n|---|---|---|---|")
    for by in modes:
        print(f"| {by} | {_pulls(general_asking_back(recall, recall_by=by))} |")


def _pulls(report: Report) -> str:
    """Table cells: the questions asked, how many pulled a turn, the tokens recalled for them."""
    tallies = [t for kinds in report.tallies.values() for t in kinds.values()]
    asked, pulls, tokens = (sum(getattr(t, f) for t in tallies) for f in ("asked", "pulls", "tokens"))
    return f"{asked} | {pulls} | {tokens:,}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recall", type=int, default=DEFAULT_RECALL, help=f"turns recalled at most ({DEFAULT_RECALL})")
    parser.add_argument("--by", default="words,both", help="recall modes to compare (default words,both)")
    parser.add_argument("--kiwi", action="store_true", help="also split Korean by kiwipiepy's morphemes (old set)")
    parser.add_argument(
        "--heldout", nargs="?", const="1", default="", help="also run held-out probe sets, e.g. 1 or 1,2,3,4,5 (report)"
    )
    args = parser.parse_args()
    modes = args.by.split(",")
    print(machine())
    tokenizers = {"words": terms, "kiwipiepy": kiwi_terms()} if args.kiwi else {"words": terms}
    print(f"recall {args.recall}; window 6 / summary trigger 8 keep 4; budget 6,000 tokens\n")
    columns = "recalled (without) | false pulls: facts (any turn) | prompt tokens without → with"
    print(f"| recall by | language | memory | {columns} |")
    print("|---|---|---|---|---|---|")
    for by in modes:
        for tname, tokenize in tokenizers.items():
            label = by if tname == "words" else f"{by}, Korean by {tname}"
            for probe in probes():
                for memory in MEMORIES:
                    off = run(probe, memory, 0, tokenize, by)
                    on = run(probe, memory, args.recall, tokenize, by)
                    grow = 100 * (on["tokens"] - off["tokens"]) / off["tokens"]
                    print(
                        f"| {label} | {probe.name} | {memory} | {on['found']:.0%} ({off['found']:.0%}) | "
                        f"{on['fact_pulls']:.0f} ({on['any_pulls']:.0f}) | "
                        f"{off['tokens']:,.0f} → {on['tokens']:,.0f} (+{grow:.1f}%) |"
                    )
    print("\ntuning set in the held-out shape (recall_probes.tuning_set): summary memory, budget 3,000, each question")
    print("alone at turn 33")
    print("\n".join(TABLE_HEAD))
    for by in modes:
        print("\n".join(table(tuning(args.recall, recall_by=by), f"{by}")))
    for number in [int(n) for n in args.heldout.split(",") if n]:
        name = HELDOUT_SETS[number].__name__
        print(f"\nheld-out probes (bench/{name}.py): summary memory, budget 3,000, each question alone at turn 45")
        print("\n".join(TABLE_HEAD))
        for by in modes:
            print("\n".join(table(heldout(args.recall, number, recall_by=by), f"{by}")))
    print_asking_back([int(n) for n in args.heldout.split(",") if n], modes, args.recall)
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
    print("\n| recall's work per turn | at 10 turns | at 1,000 turns |")
    print("|---|---|---|")
    mixed = probes()[2]
    for tname, tokenize in tokenizers.items():
        small, large = per_turn_ms(10, tokenize, mixed), per_turn_ms(1000, tokenize, mixed)
        print(f"| by words ({tname}) | {small:.2f} ms | {large:.2f} ms |")
    if any(by != "words" for by in modes):
        small, embed, _ = meaning_ms(10, mixed)
        large, _, first = meaning_ms(1000, mixed)
        print(f"| both (query embedded, vectors compared, fused) | {small:.1f} ms | {large:.1f} ms |")
        print(f"| embedding the new turn, when it is stored | {embed:.0f} ms | {embed:.0f} ms |")
        print(
            f"\na resumed 1,000-turn session with its vectors: the first search takes {first:.0f} ms (none re-embedded)"
        )
    print("\n| a whole request (window 6, words) | at 10 turns | at 1,000 turns |")
    print("|---|---|---|")
    for k in (0, 1):
        print(f"| --recall {k} | {request_ms(10, k, mixed):.2f} ms | {request_ms(1000, k, mixed):.2f} ms |")
    turns = [Turn([{"role": "user", "content": u}, {"role": "assistant", "content": a}]) for u, a in mixed.turns]
    start = time.perf_counter()
    RecallIndex().sync((turns * 32)[:1000])
    print(f"\nthe index of a resumed session of 1,000 turns, built at its first request: "
          f"{(time.perf_counter() - start) * 1000:.0f} ms")  # fmt: skip
    if args.kiwi:
        start = time.perf_counter()
        kiwi_terms()("준비")
        print(f"\nkiwipiepy: loading its model takes {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
