#!/usr/bin/env python
"""Tools: prompt tokens over 20 turns after one 3,000-token tool result, with and without shortening.

Run by hand: ``python bench/bench_tools.py [--turns 20] [--result-tokens 3000] [--limit 400]``.

Turn 1 asks a search tool (a real ``--functions``-style tool) for a page of about 3,000 tokens (English prose from
bench/corpus); then 20 short turns follow. Everything goes through the real :class:`chatbot.core.chat.Chat` (via
:class:`chatbot.core.app.App`, sessions saved by the real store). The provider is local and deterministic: it calls the
tool when the user asks to search, otherwise it answers a short scripted line; its usage is the rough count of the
request (what a provider's ``prompt_tokens`` would report). Summaries keep one line per turn.

Per memory strategy (full; window of 6 turns; summary with trigger 8 / keep 4) and per setting (results of older
turns shortened to ``--limit`` tokens, the default; or always sent whole, as the MCP client this project grew from
does): the prompt tokens of the turn-1 requests, the total over the 20 later turns, and the request size at turns
2, 5, 10 and 21. No pass/fail target: this is what re-sending an old tool result costs.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _common import machine  # bench/ is on sys.path when a script runs from it

from chatbot.core.app import App, AppSettings  # noqa: E402
from chatbot.core.events import TurnDone  # noqa: E402
from chatbot.engine.memory import MemoryConfig  # noqa: E402
from chatbot.engine.summary_prompt import is_summary_request  # noqa: E402
from chatbot.engine.tokens import TokenCounter, rough_count  # noqa: E402
from chatbot.providers.base import (  # noqa: E402
    ChatProvider,
    Completion,
    Message,
    StreamEnd,
    StreamEvent,
    TextDelta,
    ToolCall,
    Usage,
)
from chatbot.storage.json_store import JsonStore  # noqa: E402
from chatbot.tools.functions import FunctionTool  # noqa: E402
from chatbot.tools.registry import Registry  # noqa: E402

CORPUS = Path(__file__).resolve().parent / "corpus" / "english.txt"
REPLIES = [
    "Sure, noted.",
    "That makes sense; the page said the same in its second part.",
    "Here is a short answer with a little more detail than the last one, as asked.",
    "Yes.",
]


def page_of(tokens: int) -> str:
    """English prose of about ``tokens`` tokens (by the rough count), repeating the corpus as needed."""
    text = CORPUS.read_text(encoding="utf-8")
    while rough_count(text) < tokens:
        text += "\n\n" + text
    words = text.split(" ")
    lo, hi = 0, len(words)
    while lo < hi:  # the longest prefix of words within the count
        mid = (lo + hi + 1) // 2
        if rough_count(" ".join(words[:mid])) <= tokens:
            lo = mid
        else:
            hi = mid - 1
    return " ".join(words[:lo])


class ScriptedModel(ChatProvider):
    """Calls ``search`` when asked to search, else answers a scripted line; usage is the rough count of the request."""

    name = "bench"
    model = "bench"

    def __init__(self) -> None:
        self.counter = TokenCounter()
        self.prompts: list[int] = []
        self.replies = 0

    def _prompt(self, messages: Sequence[Message]) -> int:
        return self.counter.total(sum(self.counter.count_message(m) for m in messages))

    def stream(self, messages: Sequence[Message], *, tools: Any = None, **kw: Any) -> Iterator[StreamEvent]:
        prompt = self._prompt(messages)
        self.prompts.append(prompt)
        if tools and messages[-1]["role"] == "user" and "search" in str(messages[-1]["content"]):
            yield ToolCall("call_1", "search", '{"query": "kettle"}')
            yield StreamEnd(Usage(prompt, 10, prompt + 10), "tool_calls")
            return
        reply = REPLIES[self.replies % len(REPLIES)]
        self.replies += 1
        yield TextDelta(reply)
        yield StreamEnd(Usage(prompt, rough_count(reply), prompt + rough_count(reply)), "stop")

    def complete(self, messages: Sequence[Message], **kw: Any) -> Completion:
        assert is_summary_request(messages)
        body = str(messages[-1]["content"])
        lines = [ln for ln in body.splitlines() if ln.startswith("--- turn ")]
        text = "\n".join(f"- {ln[4:]}: discussed" for ln in lines) or "- nothing yet"
        return Completion(text, None, "stop")


def run(strategy: str, limit: int | None, turns: int, result_tokens: int) -> dict[str, Any]:
    """One conversation; returns the prompt tokens of each model call, grouped per turn."""
    page = page_of(result_tokens)

    def search(query: str) -> str:
        """Search the web."""
        return page

    provider = ScriptedModel()
    memory = MemoryConfig(strategy=strategy, tool_result_tokens=limit)
    with tempfile.TemporaryDirectory() as tmp:
        app = App(
            JsonStore(Path(tmp)),
            provider,
            AppSettings("bench", None, memory),
            lambda model: TokenCounter(),
            tools=Registry([FunctionTool(search, "bench")]),
        )
        chat = app.open("bench")
        per_turn: list[int] = []
        for n in range(turns + 1):
            before = len(provider.prompts)
            text = "please search for the kettle story" if n == 0 else f"follow-up question {n} about the page"
            done = [e for e in chat.send(text) if isinstance(e, TurnDone)]
            assert done, "every turn ends"
            per_turn.append(sum(provider.prompts[before:]))
        app.close()
    return {"turns": per_turn, "result": rough_count(page)}


def main(argv: list[str] | None = None) -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--result-tokens", type=int, default=3000)
    parser.add_argument("--limit", type=int, default=400, help="shorten older results to this many tokens")
    args = parser.parse_args(argv)
    print(machine())
    print(f"tool result: {args.result_tokens} tokens in turn 1, then {args.turns} short turns; budget 6,000\n")
    header = f"{'memory':<8} {'older results':<14} {'turn 1':>7} {'next ' + str(args.turns):>9}"
    marks = [m for m in (2, 5, 10, args.turns + 1) if m <= args.turns + 1]
    header += "".join(f" {'@' + str(m):>6}" for m in marks) + "   saved"
    print(header)
    for strategy in ("full", "window", "summary"):
        base = None
        for limit in (None, args.limit):
            result = run(strategy, limit, args.turns, args.result_tokens)
            t = result["turns"]
            later = sum(t[1:])
            base = later if base is None else base
            label = "whole" if limit is None else f"<= {limit} tok"
            row = f"{strategy:<8} {label:<14} {t[0]:>7} {later:>9}"
            row += "".join(f" {t[m - 1]:>6}" for m in marks)
            row += f"   {100 * (base - later) / base:5.1f}%" if limit is not None else "       -"
            print(row)


if __name__ == "__main__":
    main()
