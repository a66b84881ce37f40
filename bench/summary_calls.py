#!/usr/bin/env python
"""Summary calls: how many summaries long turns cost at the default memory settings, before and with fold headroom.

Run by hand: ``python bench/summary_calls.py [--turns 30] [--budget 6000]``.

The real :class:`chatbot.core.chat.Chat` (through :class:`chatbot.core.app.App`, sessions saved by the JSON store) talks
to a local provider whose every answer is the same ~1,000-token text and whose summaries are short (one line per folded
turn, at most ~250 words, as the summary prompt asks); usage is the rough count of each request, so the calibration
learns as it would. The user's messages are ~200 tokens, so a turn is about 1,200 tokens. Memory is the default:
summary, trigger 8, keep 4, budget 6,000 tokens.

"before" is the rule without headroom (``FOLD_HEADROOM = 1.0``): a fold the budget forces folds only what does not
fit, which frees room for one more turn, so the next request folds again. "now" keeps the verbatim turns to about
half the room they have (``FOLD_HEADROOM = 0.5``, the default). Target: at most 10 summary calls for 30 turns.

Per rule: summary calls, chat prompt tokens (sum over the turns, by the provider's count), summary tokens (what
the summary calls cost, prompt and answer), the largest request, and how many earlier turns a request carried
verbatim on average (the context the model sees word for word). Then the same for shorter and longer turns.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _common import machine  # bench/ is on sys.path when a script runs from it

from chatbot.core.app import App, AppSettings  # noqa: E402
from chatbot.core.events import TurnDone  # noqa: E402
from chatbot.engine import memory  # noqa: E402
from chatbot.engine.memory import MemoryConfig  # noqa: E402
from chatbot.engine.summary_prompt import is_summary_request  # noqa: E402
from chatbot.engine.tokens import TokenCounter, rough_count  # noqa: E402
from chatbot.providers.base import ChatProvider, Completion, Message, StreamEnd, StreamEvent, TextDelta, Usage  # noqa: E402
from chatbot.storage.json_store import JsonStore  # noqa: E402

SENTENCE = "The plan keeps the ledger small at first and adds the export rules once the totals agree with the bank."
RULES = {"before": 1.0, "now": memory.FOLD_HEADROOM}


def text_of(tokens: int) -> str:
    """Prose of about ``tokens`` tokens by the rough count."""
    words = SENTENCE.split()
    out: list[str] = []
    while rough_count(" ".join(out)) < tokens:
        out.append(words[len(out) % len(words)])
    return " ".join(out)


class LongAnswers(ChatProvider):
    """Answers every chat request with ``answer``; summaries are one short line per folded turn (~250 words at most)."""

    name = "local"
    model = "local"

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.counter = TokenCounter()
        self.summary_calls = 0
        self.summary_tokens = 0
        self.prompts: list[int] = []

    def stream(self, messages: Sequence[Message], **ask: Any) -> Iterator[StreamEvent]:
        prompt = self.counter.count_request(messages)
        self.prompts.append(prompt)
        yield TextDelta(self.answer)
        completion = rough_count(self.answer)
        yield StreamEnd(Usage(prompt, completion, prompt + completion), "stop")

    def complete(self, messages: Sequence[Message], **ask: Any) -> Completion:
        assert is_summary_request(messages)
        text = str(messages[-1]["content"])
        previous, _, turns = text.partition("--- turn ")
        lines = [ln for ln in previous.splitlines() if ln.startswith("- ")]
        lines += [f"- turn {n.split()[0]}: the user asked about the ledger plan" for n in text.split("--- turn ")[1:]]
        summary = "\n".join(lines[-30:])  # about 250 words at most
        prompt, completion = self.counter.count_request(messages), rough_count(summary)
        self.summary_calls += 1
        self.summary_tokens += prompt + completion
        return Completion(summary, Usage(prompt, completion, prompt + completion), "stop")


def run(rule: str, turns: int, user_tokens: int, answer_tokens: int, budget: int, where: Path) -> dict[str, Any]:
    """One conversation under ``rule``; what it cost."""
    saved = memory.FOLD_HEADROOM
    memory.FOLD_HEADROOM = RULES[rule]
    try:
        provider = LongAnswers(text_of(answer_tokens))
        settings = AppSettings("local", "local", MemoryConfig(max_input_tokens=budget))
        app = App(
            JsonStore(where / f"{rule}-{user_tokens}-{answer_tokens}"), provider, settings, lambda m: TokenCounter()
        )
        chat = app.open("long")
        verbatim = []
        for _ in range(turns):
            done = [e for e in chat.send(text_of(user_tokens)) if isinstance(e, TurnDone)][-1]
            verbatim.append(len(chat.conversation.turns) - 1 - done.request.first_turn)
        turn_size = chat.conversation.turns[0].tokens(chat.conversation.counter)
        app.close()
    finally:
        memory.FOLD_HEADROOM = saved
    return {
        "turn": turn_size,
        "calls": provider.summary_calls,
        "chat": sum(provider.prompts),
        "summary": provider.summary_tokens,
        "largest": max(provider.prompts),
        "verbatim": statistics.mean(verbatim),
    }


def table(rows: Mapping[str, dict[str, Any]], turns: int) -> None:
    print(f"| rule | turn tokens | summary calls ({turns} turns) | chat prompt tokens | summary tokens | largest "
          "request | earlier turns sent verbatim (mean) |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for rule, r in rows.items():
        print(f"| {rule} | {r['turn']:,} | {r['calls']} | {r['chat']:,} | {r['summary']:,} | {r['largest']:,} | "
              f"{r['verbatim']:.1f} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--budget", type=int, default=6000)
    args = parser.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        print(
            f"\n{args.turns} turns of ~1,200 tokens (200 asked, 1,000 answered), default memory, budget {args.budget}\n"
        )
        table({rule: run(rule, args.turns, 200, 1000, args.budget, where) for rule in RULES}, args.turns)
        for asked, answered in ((100, 500), (300, 2000)):
            print(f"\nturns of ~{asked + answered:,} tokens ({asked} asked, {answered} answered)\n")
            table({rule: run(rule, args.turns, asked, answered, args.budget, where) for rule in RULES}, args.turns)


if __name__ == "__main__":
    main()
