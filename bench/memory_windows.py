#!/usr/bin/env python
"""Memory on a real model's window: a long conversation at the default settings against servers with small windows.

Run by hand: ``python bench/memory_windows.py [--turns 60] [--llama]`` (``--code DIR`` runs another checkout's
``chatbot`` package, e.g. the code before a change, against the same servers).

The real :class:`chatbot.core.chat.Chat` (through :class:`chatbot.core.app.App`, the openai provider over HTTP) talks
to the scripted server of ``tests/support/fake_server.py`` with a context window of 2,048, 4,096 and 8,192 tokens: it
honours ``max_tokens`` (a longer reply is cut, ``finish_reason: "length"``) and refuses a prompt plus ``max_tokens``
over the window as vLLM does. It counts a token a word (3 a message): the rough local estimate runs ~35% above that
until calibration learns. Replies are about a fifth of the window; a summary is ~200 words. With ``--llama`` the same
runs against llama.cpp's server (Gemma 3 270M, ``n_ctx`` 2,048; needs the ``e2e`` extra), asked for long replies.

Per window: summary calls, summaries kept / refused (cut at ``max_tokens`` or over the window), the largest request
(chat or summary) by the server's count, requests over the window after the first context error, the summary's size
at the end (local count) and turns dropped without being summarized (the most any request left out). Goal: 0 and 0.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _load(code: str | None) -> None:
    if code:  # another checkout's chatbot package, before this one
        sys.path.insert(0, str(Path(code).resolve()))


REPLY_WORD = "The ledger plan keeps totals small at first and adds export rules once the bank agrees with them."
SUMMARY = " ".join(["- the user plans the ledger; totals first, export rules later, bank check agreed."] * 15)


def words(n: int) -> str:
    """About ``n`` words of prose."""
    base = REPLY_WORD.split()
    return " ".join(base[i % len(base)] for i in range(n))


def run(base_url: str, turns: int, where: Path, name: str, reply: int | None = None) -> dict[str, Any]:
    """``turns`` turns at the default memory settings (replies of at most ``reply`` tokens), in a store and a request
    log of their own (``name``); what the chat saw (the server's side is read by the caller)."""
    from chatbot.core.app import App, AppSettings
    from chatbot.core.events import TurnDone
    from chatbot.core.request_log import RequestLog
    from chatbot.core.turn_settings import TurnSettings
    from chatbot.engine.memory import MemoryConfig
    from chatbot.engine.tokens import TokenCounter
    from chatbot.providers import make_provider

    os.environ.setdefault("OPENAI_API_KEY", "sk-bench")
    provider = make_provider("openai", model="fake-model", base_url=base_url, max_retries=0)
    log = where / f"log-{name}.jsonl"
    run_settings = TurnSettings(log=RequestLog(str(log), ()), retries=2, max_output_tokens=reply)
    settings = AppSettings("openai", "fake-model", MemoryConfig(), run=run_settings)
    app = App(JsonStore(where / f"s-{name}"), provider, settings, lambda m: TokenCounter())
    chat = app.open("long")
    kept = [0]
    set_summary = chat.conversation.set_summary

    def counting(text: str, covers: int) -> None:
        kept[0] += 1  # a summary kept (each piece of a fold is one)
        set_summary(text, covers)

    chat.conversation.set_summary = counting  # type: ignore[method-assign]
    dropped = []
    for k in range(turns):
        ask = f"Step {k + 1}: explain the next part of the ledger plan in detail, with every rule spelled out."
        done = [e for e in chat.send(ask) if isinstance(e, TurnDone)][-1]
        dropped.append(done.request.dropped)
    conv = chat.conversation
    result = {
        "kept": kept[0],
        "dropped": max(dropped),
        "summary": conv.counter.count(conv.summary),
        "covers": conv.summary_covers,
        "log": [json.loads(line) for line in log.read_text().splitlines()],
    }
    app.close()
    return result


def fake_row(window: int, turns: int, where: Path) -> dict[str, Any]:
    """One run against the scripted server with a ``window``-token context."""
    from chatbot.engine.summary_prompt import is_summary_request
    from tests.support.fake_server import FakeServer, prompt_count

    with FakeServer(reply=words(window // 5), whole_reply=SUMMARY, context=window) as server:
        seen = run(server.base_url, turns, where, f"scripted-{window}")
        record = server.record
        bodies = list(zip(record.requests, record.outcomes, strict=True))
    summaries = [(b, o) for b, o in bodies if is_summary_request(b["messages"])]
    sizes = [prompt_count(server.config, b) for b, _ in bodies]
    first_error = next((i for i, (_, o) in enumerate(bodies) if o == "context"), len(bodies))
    return {
        "calls": len(summaries),
        "refused": sum(o in ("length", "context") for _, o in summaries),
        "largest": max(sizes),
        "over": sum(o == "context" for _, o in bodies[first_error + 1 :]),
        **{k: seen[k] for k in ("kept", "dropped", "summary", "covers")},
    }


def llama_row(turns: int, where: Path) -> dict[str, Any]:
    """One run against llama.cpp's server (n_ctx 2,048, the end-to-end tests' server: Gemma 3 270M, one thread),
    replies of at most 64 tokens (as tests/cli/test_llama_memory.py), read from the request log (the server's own
    counts; "over" counts the requests after the first refusal whose prompt and ``max_tokens`` exceed the window)."""
    from tests.support.llama_server import llama_server, missing

    if missing():
        sys.exit(f"--llama: {missing()}")
    with llama_server(where, 2048) as base_url:
        seen = run(base_url, turns, where, "llama", reply=64)
    lines = seen["log"]
    summaries = [r for r in lines if r["kind"] == "summary"]
    first = next((n for n, r in enumerate(lines) if r["error"] == "ContextLengthError"), len(lines))
    after = [r for r in lines[first + 1 :] if r["ok"]]
    return {
        "calls": len(summaries),
        "refused": sum(bool(r["error"]) or r["finish_reason"] == "length" for r in summaries),
        "largest": max((r["request_tokens"]["provider"] or 0) for r in lines),
        "over": sum(r["request_tokens"]["provider"] + (r["max_tokens"] or 0) > 2048 for r in after),
        **{k: seen[k] for k in ("kept", "dropped", "summary", "covers")},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--windows", default="2048,4096,8192")
    parser.add_argument("--llama", action="store_true", help="also run against llama.cpp's server (n_ctx 2,048)")
    parser.add_argument("--code", help="the checkout whose chatbot package runs (default: this one)")
    args = parser.parse_args()
    _load(args.code)
    global JsonStore
    from chatbot.storage.json_store import JsonStore

    sys.path.insert(0, str(ROOT / "bench"))
    from _common import machine

    print(machine())
    print(f"\n{args.turns} turns, default memory (summary, trigger 8, keep 4, budget 6,000)\n")
    print("| server | window | summary calls | kept | refused | largest request (server's count) | over the window "
          "after the first | summary at the end (tokens) | turns covered | turns dropped unsummarized |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        rows = [("scripted", int(w), fake_row(int(w), args.turns, Path(tmp))) for w in args.windows.split(",")]
        if args.llama:
            rows.append(("llama.cpp", 2048, llama_row(args.turns, Path(tmp))))
    for name, window, r in rows:
        print(f"| {name} | {window:,} | {r['calls']} | {r['kept']} | {r['refused']} | {r['largest']:,} | {r['over']} | "
              f"{r['summary']} | {r['covers']} of {args.turns} | {r['dropped']} |")  # fmt: skip


JsonStore: Any = None

if __name__ == "__main__":
    main()
