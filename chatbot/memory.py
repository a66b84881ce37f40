"""Memory strategies: which earlier turns a request carries, and how the rolling summary is asked for.

- ``full``: every earlier turn.
- ``window``: the last ``window_turns`` earlier turns.
- ``summary``: when more than ``summary_trigger`` earlier turns are not covered by the summary, all of them but the
  last ``keep_turns`` are folded into it; the request carries the summary and the uncovered turns.

Every strategy then fits the request into ``max_input_tokens`` (see :mod:`chatbot.conversation`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chatbot.errors import UsageError

STRATEGIES = ("full", "window", "summary")


@dataclass(frozen=True)
class MemoryConfig:
    """How much of the past each request carries."""

    strategy: str = "summary"
    window_turns: int = 6
    summary_trigger: int = 8
    keep_turns: int = 4
    max_input_tokens: int = 6000

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise UsageError(f"unknown memory strategy {self.strategy!r}: choose one of {', '.join(STRATEGIES)}")
        if self.window_turns < 0:
            raise UsageError("--window-turns must be 0 or more")
        if self.keep_turns < 0 or self.summary_trigger < 1:
            raise UsageError("--summary-trigger must be at least 1 and --keep-turns at least 0")
        if self.keep_turns >= self.summary_trigger:
            raise UsageError(
                f"--keep-turns ({self.keep_turns}) must be smaller than --summary-trigger ({self.summary_trigger})"
            )
        if self.max_input_tokens < 1:
            raise UsageError("--max-input-tokens must be positive")


SUMMARY_INSTRUCTIONS = """\
You keep the running summary of a conversation between a user and an assistant. Merge the previous summary \
and the new turns into one updated summary that lets the assistant continue without the original messages.
Keep: the user's goals; facts and decisions agreed on; the user's preferences (language, format, constraints); \
open questions and unfinished tasks; results of tool calls that still matter.
Copy names, numbers, ids, dates, file paths and code identifiers exactly as written.
Drop greetings, repetition and anything superseded. Write in the language the user writes in, as short \
bullet points, at most about 250 words. Output only the summary."""


def _render_turn_text(messages: Sequence[dict[str, Any]]) -> str:
    lines = []
    for m in messages:
        role = m.get("role")
        content = str(m.get("content") or "")
        if role == "user":
            lines.append(f"User: {content}")
        elif role == "assistant":
            if content:
                lines.append(f"Assistant: {content}")
            for call in m.get("tool_calls") or []:
                fn = call.get("function", {})
                lines.append(f"Assistant called tool {fn.get('name')}({fn.get('arguments', '')})")
        elif role == "tool":
            lines.append(f"Tool result ({m.get('name') or m.get('tool_call_id')}): {content}")
    return "\n".join(lines)


def summary_request(
    previous: str, turns: Sequence[Sequence[dict[str, Any]]], first_turn_number: int
) -> list[dict[str, Any]]:
    """The messages that ask a model to fold ``turns`` into ``previous`` (incremental summarization)."""
    parts = [f"Previous summary:\n{previous.strip() or '(none yet)'}", "New turns to merge:"]
    for i, turn in enumerate(turns, start=first_turn_number):
        parts.append(f"--- turn {i}\n{_render_turn_text(turn)}")
    return [
        {"role": "system", "content": SUMMARY_INSTRUCTIONS},
        {"role": "user", "content": "\n\n".join(parts)},
    ]
