"""Small tools and providers for the tool-loop tests (real Tool objects, real providers underneath)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from chatbot.providers.base import StreamEnd, ToolCall
from chatbot.providers.echo import EchoProvider
from chatbot.tools.functions import FunctionTool


def function_tools(*functions: Callable[..., Any]) -> list[FunctionTool]:
    """Tools made from plain functions, as --functions makes them."""
    return [FunctionTool(fn, "tests") for fn in functions]


def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def search(query: str) -> str:
    """A search that returns a long page (about 3,000 tokens)."""
    return " ".join(f"result{i} about {query}" for i in range(1000))


def interrupted(query: str) -> str:
    """Stands for the user pressing Ctrl-C while the tool runs."""
    raise KeyboardInterrupt


class RecordingEcho(EchoProvider):
    """Echo that records every request (messages and whether tools were offered) and the names of the tools each
    offered."""

    def __init__(self) -> None:
        super().__init__(delay=0)
        self.requests: list[tuple[list[dict[str, Any]], bool]] = []
        self.offered: list[list[str]] = []

    def stream(self, messages: Sequence[dict[str, Any]], *, tools=None, **kw: Any) -> Iterator:
        self.requests.append(([dict(m) for m in messages], bool(tools)))
        self.offered.append([t["function"]["name"] for t in tools or ()])
        yield from super().stream(messages, tools=tools, **kw)


class LoopingModel(RecordingEcho):
    """A model that calls ``add`` every time tools are offered: only the round cap stops it."""

    def stream(self, messages: Sequence[dict[str, Any]], *, tools=None, **kw: Any) -> Iterator:
        if not tools:
            yield from super().stream(messages, tools=tools, **kw)
            return
        self.requests.append(([dict(m) for m in messages], True))
        yield ToolCall("call_1", "add", '{"a": 1, "b": 1}')
        yield StreamEnd(None, "tool_calls")
