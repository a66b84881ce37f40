"""The summary prompt: how the memory rule asks a model to fold turns into the rolling summary, and how the
summary rides in the system message. :mod:`chatbot.engine.memory` decides when; this module says what is asked.

A summary request is one user message: the instructions, the previous summary, then the turns to merge. Not a
system message for the instructions: some servers' chat formats drop the system message (llama-cpp-python's
``gemma`` format, for models whose template has no system role), and a summarizer that never sees its instructions
answers with anything but a summary.

The labels are constants so that a reader of the request (the offline echo provider) can find its parts without
matching the wording.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatbot.engine.turn import Message, content_text
from chatbot.text import quote_lines

#: the heading under which the rolling summary rides in the system message
SUMMARY_HEADING = "Summary of the earlier conversation"
#: how a summary request's user message starts, and how each folded turn is introduced in it
PREVIOUS_SUMMARY_LABEL = "Previous summary:"
NEW_TURNS_LABEL = "New turns to merge:"
TURN_MARKER = "--- turn "
NO_SUMMARY_YET = "(none yet)"
USER_LINE = "User: "  # how a folded turn's user message starts in the summary request

SUMMARY_INSTRUCTIONS = """\
You keep the running summary of a conversation between a user and an assistant. Merge the previous summary \
and the new turns into one updated summary that lets the assistant continue without the original messages.
Keep: the user's goals; facts and decisions agreed on; the user's preferences (language, format, constraints); \
open questions and unfinished tasks; results of tool calls that still matter.
Copy names, numbers, ids, dates, file paths and code identifiers exactly as written.
Drop greetings, repetition and anything superseded. Write in the language the user writes in, as short \
bullet points, at most about {words} words. Output only the summary."""
#: how long a summary is asked to be, at most, when its room allows (the memory rule may ask for fewer words)
SUMMARY_WORDS = 250
#: added to the instructions when the previous summary has outgrown its room (see ``chatbot.engine.folds``)
TIGHTER = (
    "The previous summary has grown too long: rewrite it tighter, merging points and dropping what matters least, "
    "so that the whole summary stays within {words} words."
)


def summary_heading(covers: int) -> str:
    """The heading line of a summary that covers turns 1 to ``covers``."""
    return f"{SUMMARY_HEADING} (turns 1-{covers}, written by the assistant's memory)"


def summary_section(summary: str, covers: int) -> str:
    """The summary as it rides in the system message: its heading, then its text with every line quoted.

    A model wrote it from turns that hold whatever a reply, a tool or a web page said; quoted, no line of it can open
    a heading (a fake ``## Operator note``, or the block of recalled turns) in the system message.
    """
    return "\n".join([f"## {summary_heading(covers)}", *quote_lines(summary)])


#: the summarizer sees a tool's arguments and result up to this many characters
SUMMARY_TOOL_CHARS = 600


def _compact(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= SUMMARY_TOOL_CHARS else f"{flat[:SUMMARY_TOOL_CHARS]}… [{len(flat):,} characters]"


def _render_turn_text(messages: Sequence[Message]) -> str:
    lines = []
    for m in messages:
        role = m.get("role")
        content = content_text(m.get("content"))
        if role == "user":
            lines.append(f"{USER_LINE}{content}")
        elif role == "assistant":
            if content:
                lines.append(f"Assistant: {content}")
            for call in m.get("tool_calls") or []:
                fn = call.get("function", {})
                lines.append(f"Assistant called tool {fn.get('name')}({_compact(str(fn.get('arguments', '')))})")
        elif role == "tool":
            lines.append(f"Tool result ({m.get('name') or m.get('tool_call_id')}): {_compact(content)}")
    return "\n".join(lines)


def summary_request(
    previous: str,
    turns: Sequence[Sequence[Message]],
    first_turn_number: int,
    *,
    words: int = SUMMARY_WORDS,
    tighter: bool = False,
) -> list[dict[str, Any]]:
    """The one user message that asks a model to fold ``turns`` into ``previous`` (incremental summarization) in at
    most about ``words`` words; ``tighter`` asks for the previous summary to be rewritten shorter too."""
    instructions = SUMMARY_INSTRUCTIONS.format(words=words)
    if tighter:
        instructions += "\n" + TIGHTER.format(words=words)
    parts = [instructions, f"{PREVIOUS_SUMMARY_LABEL}\n{previous.strip() or NO_SUMMARY_YET}", NEW_TURNS_LABEL]
    for i, turn in enumerate(turns, start=first_turn_number):
        parts.append(f"{TURN_MARKER}{i}\n{_render_turn_text(turn)}")
    return [{"role": "user", "content": "\n\n".join(parts)}]


#: how every summary request's message starts (the instructions' first words, whatever the word limit)
_OPENING = SUMMARY_INSTRUCTIONS.split(".", 1)[0]


def is_summary_request(messages: Sequence[Message]) -> bool:
    """Whether ``messages`` were built by :func:`summary_request` (a tighter rewrite of the summary alone too: it
    has no turns to merge)."""
    if len(messages) != 1 or messages[0].get("role") != "user":
        return False
    text = str(messages[0].get("content") or "")
    return text.startswith(_OPENING) and f"\n\n{PREVIOUS_SUMMARY_LABEL}\n" in text and NEW_TURNS_LABEL in text


def echoes_request(summary: str) -> bool:
    """Whether a summary that came back repeats its request instead of summarizing it: a line of it opens the
    instructions or is one of their labels. A pretrained model (Gemma 3 270M on llama.cpp) continues its prompt
    rather than follow it: kept, such a text would stand for the turns it covers while holding none of them.

    A ``--- turn N`` line alone is not enough: a reply can hold one (it is how recalled turns are shown), and a
    summary that copied it is quoted where it rides, not refused."""
    starts = (_OPENING, PREVIOUS_SUMMARY_LABEL, NEW_TURNS_LABEL)
    return any(line.lstrip().startswith(starts) for line in summary.splitlines())


def summary_request_parts(text: str) -> tuple[str, str, str]:
    """A summary request's message cut at its labels: (instructions, previous summary, the turns to merge)."""
    instructions, _, rest = text.partition(f"\n\n{PREVIOUS_SUMMARY_LABEL}\n")
    previous, _, turns = rest.partition(f"\n\n{NEW_TURNS_LABEL}")
    return instructions, previous.strip(), turns
