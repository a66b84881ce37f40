"""A request body for people to read: ``/context json`` in the terminal. Each message under its own rule line, with
real line breaks, and long contents folded to their start and end; the model, the options and the tools named in a
line each. ``/context json --exact`` (and script mode) give the exact JSON instead.
"""

from __future__ import annotations

import json
from typing import Any

from chatbot.engine.turn import content_text
from chatbot.text import clean

#: a content longer than this many lines is folded: its first and last lines are shown
FOLD_LINES = 14
HEAD, TAIL = 8, 3
#: a line longer than this many characters is cut
LINE_CHARS = 160


def readable(body: dict[str, Any]) -> str:
    """``body`` (a chat-completions request) as text to read."""
    messages = body.get("messages") or []
    lines = [f"The request body, readable (/context json --exact: the exact JSON): {len(messages)} message(s)"]
    for key, value in body.items():
        if key in ("messages", "tools"):
            continue
        lines.append(f"{key}: {json.dumps(value, ensure_ascii=False)}")
    tools = body.get("tools") or []
    if tools:
        names = ", ".join(str(t.get("function", {}).get("name")) for t in tools)
        lines.append(f"tools: {len(tools)} definition(s): {names}")
    for i, message in enumerate(messages, start=1):
        role = str(message.get("role"))
        extra = ""
        if message.get("tool_calls"):
            calls = [f"{c['function']['name']}({c['function'].get('arguments') or ''})" for c in message["tool_calls"]]
            extra = f" calls {', '.join(calls)}"
        if message.get("tool_call_id"):
            extra = f" answers {message['tool_call_id']}"
        lines.append(f"── {i}. {role}{extra} " + "─" * max(4, 60 - len(role) - len(extra)))
        lines += _folded(content_text(message.get("content")))
        if isinstance(message.get("content"), list):
            images = sum(p.get("type") == "image_url" for p in message["content"] if isinstance(p, dict))
            lines += [f"[{images} image(s)]"] if images else []
    return "\n".join(lines)


def _folded(text: str) -> list[str]:
    """``text``'s lines, each cut to :data:`LINE_CHARS`; a long text's middle folded into one line saying so."""
    lines = [line if len(line) <= LINE_CHARS else line[:LINE_CHARS] + "…" for line in clean(text).splitlines()]
    if len(lines) <= FOLD_LINES:
        return lines
    hidden = len(lines) - HEAD - TAIL
    return [*lines[:HEAD], f"   ⋮ {hidden} more line(s) folded", *lines[-TAIL:]]
