"""What a tool is, for everything above this layer: a frozen :class:`ToolSpec` and a :class:`Tool` that runs.

A tool's parameters are a JSON Schema object (the OpenAI ``function.parameters`` shape); its result is text. MCP and
SDK types never leave :mod:`chatbot.tools.mcp_client`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from chatbot.text import preview

#: a result longer than this many characters is cut before it is stored or sent (about 4,000 tokens)
MAX_RESULT_CHARS = 16_000


class Kept(str):
    """A result a tool read only in part (a worker's or a server's huge answer): the characters kept, at most
    :data:`MAX_RESULT_CHARS`, and ``length``, how many there were, so the cut is told with the true size."""

    length: int

    def __new__(cls, text: str, length: int) -> Kept:
        kept = super().__new__(cls, text[:MAX_RESULT_CHARS])
        kept.length = max(length, len(kept))
        return kept


def cut_result(text: str, limit: int = MAX_RESULT_CHARS) -> tuple[str, bool]:
    """``text`` cut to ``limit`` characters with a marker naming the original size (a :class:`Kept`'s ``length``);
    and whether it was cut."""
    length = getattr(text, "length", len(text))
    if length <= limit:
        return str(text), False
    return f"{text[:limit]}\n[result cut: {limit:,} of {length:,} characters kept]", True


@dataclass(frozen=True)
class ToolSpec:
    """A tool as the model sees it, plus where it comes from (``source``: a file path or an MCP server)."""

    name: str
    description: str
    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})
    source: str = ""

    def to_openai(self) -> dict[str, Any]:
        """The OpenAI ``tools`` entry for this tool (both providers accept it)."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


class Tool(ABC):
    """Something the model can call. ``run`` returns the result text or raises (any exception becomes a message)."""

    spec: ToolSpec

    @property
    def available(self) -> bool:
        """False once the tool can no longer run (its MCP server died)."""
        return True

    def close(self) -> None:
        """Release what the tool holds (a worker process); the run is ending. Nothing by default."""
        return None

    @abstractmethod
    def run(self, arguments: dict[str, Any], timeout: float) -> str:
        """Run with already-checked ``arguments``; give up with :class:`~chatbot.errors.ToolFailed` after
        ``timeout`` seconds."""


@dataclass(frozen=True)
class ToolOutcome:
    """What one call produced: the text for the ``tool`` message, and whether it is an error the user should see."""

    name: str
    text: str
    error: bool = False
    notice: str = ""  # for the user, beside the tool message (empty when all went well)


def describe_call(name: str, arguments: str, width: int = 100) -> str:
    """A call as the user sees it: ``name(arguments)`` on one line."""
    return preview(f"{name}({arguments})", width)
