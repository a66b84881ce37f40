"""``--timeline ID`` (with ``--json`` or ``--html FILE``) and ``--compare-memory ID``: a stored session's requests,
read from the store without opening the session for a chat (no lock taken, nothing sent, nothing saved)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import fields

from chatbot.commands import compare, cost
from chatbot.commands.timeline import plain, timeline_of
from chatbot.commands.timeline_html import write_html
from chatbot.engine.cost import Price
from chatbot.engine.memory import MemoryConfig
from chatbot.errors import Interrupted
from chatbot.storage.base import SessionStore
from chatbot.storage.session import Session
from chatbot.text import clean


def _memory(rule: dict[str, object]) -> MemoryConfig:
    """The memory rule a session stored (today's defaults for what it did not)."""
    known = {f.name for f in fields(MemoryConfig)}
    return MemoryConfig(**{k: v for k, v in rule.items() if k in known})  # type: ignore[arg-type]


def load(store: SessionStore, session_id: str) -> Session:
    """Session ``session_id`` with the memory rule it was made with."""
    first = store.load(session_id)
    session = store.load(session_id, _memory(first.rule)) if first.rule else first
    # counted as the chat counts it: with what the provider's counts taught the counter for this model
    session.conversation.counter.calibration = session.calibration_for(session.model or session.provider)
    return session


def _ask(question: str) -> bool:
    """A yes/no question on the terminal (stderr, so that stdout stays the command's output); no by default."""
    sys.stderr.write(f"{clean(question)} [y/N] ")
    sys.stderr.flush()
    try:
        return input().strip().lower() in ("y", "yes")
    except Interrupted:
        raise  # SIGTERM, SIGHUP: not a "no"
    except (EOFError, KeyboardInterrupt):
        return False


def teaching_mode(store: SessionStore, args: argparse.Namespace, prices: dict[str, Price] | None = None) -> int:
    """Print (or write) what the flags ask for; the exit status."""
    if args.compare_memory:
        session = load(store, args.compare_memory)
        memory = session.conversation.memory
        print(clean(compare.plain(session, compare.compare(session), memory)))
        return 0
    session = load(store, args.timeline)
    window = session.context_for(session.model)
    budget = session.conversation.memory.max_input_tokens
    timeline = timeline_of(session.id, session.conversation.turns, budget, learned=window is not None)
    if args.html:
        ask = _ask if sys.stdin.isatty() and sys.stderr.isatty() else None  # a script says --force instead
        print(clean(write_html(timeline, args.html, store.paths, window, force=args.force, ask=ask)))
    if args.json:
        report = cost.cost_report(session, prices)
        rows = [{"turn": r.turn, "tokens": r.tokens, "estimated": r.estimated, "parts": dict(r.segments),
                 "budget": r.budget, "marks": list(r.marks)} for r in timeline.rows]  # fmt: skip
        print(json.dumps({"timeline": rows, "scale": timeline.scale, "cost": report}, indent=2, ensure_ascii=False))
    elif not args.html:
        print(clean(plain(timeline) + "\n" + "\n".join(cost.totals_lines(cost.cost_report(session, prices)))))
    return 0
