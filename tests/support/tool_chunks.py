"""Tool-call pieces as OpenAI-compatible servers stream them, for provider tests (see tests/support/sse.py)."""

from __future__ import annotations

from typing import Any

from tests.support.sse import chunk

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "The weather in a city.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    }
]


def tool_piece(index: int, *, id_: str | None = None, name: str | None = None, arguments: str = "") -> dict[str, Any]:
    """A chunk carrying one ``delta.tool_calls`` piece: the first names the call, later ones add argument text."""
    data = chunk(None)
    piece: dict[str, Any] = {"index": index, "function": {"arguments": arguments}}
    if id_ is not None:
        piece["id"] = id_
        piece["type"] = "function"
    if name is not None:
        piece["function"]["name"] = name
    data["choices"][0]["delta"]["tool_calls"] = [piece]
    return data


def tool_message_body(calls: list[tuple[str, str, str]], content: str | None = None) -> dict[str, Any]:
    """A non-streamed ``chat.completion`` whose message makes ``calls`` (id, name, arguments)."""
    message: dict[str, Any] = {
        "role": "assistant",
        "content": content,
        "tool_calls": [{"id": i, "type": "function", "function": {"name": n, "arguments": a}} for i, n, a in calls],
    }
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1700000000,
        "model": "test-model",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": 30, "completion_tokens": 12, "total_tokens": 42},
    }
