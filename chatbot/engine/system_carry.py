"""The system message for a server that leaves system messages out.

Some servers' chat templates have no system role and drop the system message without a word (llama-cpp-python's
``gemma`` chat format): the system prompt, the rolling summary and the recalled turns, which all ride there, never
reach the model. Once the server's counts show the drop (:func:`chatbot.core.budget.left_out_system`; the model's
calibration keeps it as ``drops_system``), every request is sent with the system message's text at the head of the
first user message, then a blank line, then the user's text: what Gemma's own chat template does with a system
message. :func:`carry_system` makes that form of a request; :func:`chatbot.engine.memory.assemble` applies it, so
``/context`` shows the request as it is sent.
"""

from __future__ import annotations

from typing import Any

from chatbot.engine.turn import Message

#: between the system text and the user's, as Gemma's chat template puts them
SEPARATOR = "\n\n"


def carry_system(messages: list[Message]) -> list[Message]:
    """``messages`` (a request, its system message first) with the system message's text at the head of the first
    user message, then a blank line, and no system message. An empty system message is just left out. Pure: the
    messages given (stored turns among them) are not changed."""
    if not messages or messages[0].get("role") != "system":
        return list(messages)
    system, rest = str(messages[0].get("content") or ""), list(messages[1:])
    if not system:
        return rest
    # a request ends with a user message: there is always one to carry it
    at = next(i for i, m in enumerate(rest) if m.get("role") == "user")
    rest[at] = {**rest[at], "content": with_head(system, rest[at].get("content"))}
    return rest


def with_head(system: str, content: Any) -> str | list[dict[str, Any]]:
    """A user message's ``content`` with ``system`` and a blank line before it: a text of its own first when the
    content is a list of parts (text and images)."""
    if isinstance(content, list):
        return [{"type": "text", "text": f"{system}{SEPARATOR}"}, *content]
    return f"{system}{SEPARATOR}{content or ''}"
