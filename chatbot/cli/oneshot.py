"""One-shot output for scripts: ``--json`` (one object describing the turn) and ``-x`` (the reply's first code block).

Both collect the reply instead of streaming it, so stdout holds exactly one result; notices still go to stderr.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from typing import Any

from chatbot.core.app import App
from chatbot.core.events import TurnDone
from chatbot.errors import InvalidReply
from chatbot.text import clean, code_blocks

Sender = Callable[..., "TurnDone | None"]


def turn_json(app: App, reply: str, done: TurnDone | None) -> dict[str, Any]:
    """The ``--json`` object: reply, session, turn number, model, usage, estimate, latency and finish reason (and,
    added by :func:`print_json` when JSON was asked for, ``data``: the reply parsed)."""
    chat = app.chat
    usage = done.usage if done else None
    return {
        "reply": reply,
        "session": chat.session.id,
        "turn": len(chat.conversation.turns),
        "model": chat.model,
        "usage": (
            {
                "prompt_tokens": usage.prompt_tokens,
                "completion_tokens": usage.completion_tokens,
                "total_tokens": usage.total_tokens,
            }
            if usage
            else None
        ),
        "estimate": (
            {"prompt_tokens": done.estimated_prompt, "completion_tokens": done.estimated_completion} if done else None
        ),
        "latency": round(done.latency, 3) if done else None,
        "finish_reason": done.finish_reason if done else None,
    }


def print_json(app: App, text: str, send: Sender, *, show_reasoning: bool) -> int:
    """Send ``text`` and print one JSON object (see :func:`turn_json`)."""
    buffer = io.StringIO()
    done = send(app, text, buffer, show_reasoning=show_reasoning)
    reply = done.turn.answer_text if done else buffer.getvalue().rstrip("\n")
    out = turn_json(app, reply, done)
    if done is not None and done.invalid_json:
        return InvalidReply.exit_code  # the chat said what is wrong; no JSON that looks like data
    if done is not None and done.json is not None:  # JSON asked for (--schema): parsed and checked by the chat
        out["data"] = done.json.value
    # ASCII JSON: every control character (C1 ones too) is escaped, so nothing reaches a terminal raw
    print(json.dumps(out, ensure_ascii=True), flush=True)
    return 0


def print_extract(app: App, text: str, send: Sender, *, show_reasoning: bool) -> int:
    """Send ``text`` and print only the reply's first fenced code block (the whole reply when it has none, as
    llm does, with a notice on stderr)."""
    buffer = io.StringIO()
    done = send(app, text, buffer, show_reasoning=show_reasoning)
    # what is printed is what a user would have seen: blocks are found in the cleaned reply (no hidden sequences)
    reply = clean(done.turn.answer_text if done else buffer.getvalue())
    blocks = code_blocks(reply)
    if not blocks:
        print("chatbot: the reply has no fenced code block; printing all of it", file=sys.stderr)
    out = blocks[0] if blocks else reply
    sys.stdout.write(out if out.endswith("\n") else out + "\n")
    sys.stdout.flush()
    return 0
