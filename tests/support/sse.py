"""Helpers for the provider tests: real SSE bodies built from chunk dicts, and checks of an event stream."""

from __future__ import annotations

import json
from typing import Any

from chatbot.providers.base import ReasoningDelta, StreamEnd, StreamEvent, TextDelta

KEEP_ALIVE = ": keep-alive\n\n"
DONE = "data: [DONE]\n\n"
MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]


def chunk(
    content: str | None = None,
    *,
    reasoning: str | None = None,
    reasoning_content: str | None = None,
    finish: str | None = None,
    usage: dict[str, int] | None = None,
    x_groq_usage: dict[str, int] | None = None,
    no_choices: bool = False,
) -> dict[str, Any]:
    """One ``chat.completion.chunk`` as a server sends it."""
    delta: dict[str, Any] = {"content": content}
    if reasoning is not None:
        delta["reasoning"] = reasoning
    if reasoning_content is not None:
        delta["reasoning_content"] = reasoning_content
    data: dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": "test-model",
        "choices": [] if no_choices else [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    if usage is not None:
        data["usage"] = usage
    if x_groq_usage is not None:
        data["x_groq"] = {"id": "req_1", "usage": x_groq_usage}
    return data


def usage(prompt: int, completion: int) -> dict[str, int]:
    """A wire ``usage`` object."""
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def sse(*events: dict[str, Any] | str) -> bytes:
    """A real SSE body: dicts become ``data: {...}`` events, strings (comments, ``[DONE]``) are sent as they are."""
    return "".join(e if isinstance(e, str) else f"data: {json.dumps(e)}\n\n" for e in events).encode()


def completion_body(content: str | None, *, usage_: dict[str, int] | None = None, finish: str = "stop") -> dict:
    """A non-streamed ``chat.completion`` body."""
    body: dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1700000000,
        "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish}],
    }
    if usage_ is not None:
        body["usage"] = usage_
    return body


def error_body(message: str, *, type_: str | None = None, code: str | int | None = None) -> dict[str, Any]:
    """An OpenAI-style error body."""
    return {"error": {"message": message, "type": type_, "code": code}}


SSE_HEADERS = {"content-type": "text/event-stream"}


def texts(events: list[StreamEvent]) -> str:
    """The answer text of a list of events."""
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def reasoning(events: list[StreamEvent]) -> str:
    """The reasoning text of a list of events."""
    return "".join(e.text for e in events if isinstance(e, ReasoningDelta))


def end(events: list[StreamEvent]) -> StreamEnd:
    """The one StreamEnd, checked to be last and alone."""
    ends = [e for e in events if isinstance(e, StreamEnd)]
    assert len(ends) == 1 and events[-1] is ends[0], events
    return ends[0]
