"""What a tool is, for everything above this layer: a frozen :class:`ToolSpec` and a :class:`Tool` that runs.

A tool's parameters are a JSON Schema object (the OpenAI ``function.parameters`` shape); its result is text. MCP and
SDK types never leave :mod:`chatbot.tools.mcp_client`.
"""

from __future__ import annotations

import re
import unicodedata
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from chatbot.engine.text import clean


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


def preview(text: str, width: int = 100) -> str:
    """One line of at most ``width`` characters (text from a model or a server): whole escape sequences and control
    characters removed first, then cut, so no fragment of a sequence (``[2J``) is left to show."""
    flat = " ".join(clean(text).split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


_BLANK_RUN = re.compile(r"\s{4,}")


def _visible(ch: str) -> str:
    if ch in " \n":
        return ch
    kind = unicodedata.category(ch)
    if kind[0] == "C" or kind in ("Zl", "Zp") or (kind == "Zs" and ch != " "):
        # controls, and the invisible characters that hide or reorder text (zero-width, bidi overrides)
        return f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}"
    return ch


def shown_arguments(arguments: str) -> str:
    """A call's arguments as the user confirms them: whole, every character visible, nothing cut.

    A run of more than three blank characters becomes ``⟨N blanks⟩`` (padding cannot push the rest out of view);
    control characters and invisible ones (zero-width spaces, bidi overrides) are shown as ``\\uXXXX``.
    """
    collapsed = _BLANK_RUN.sub(lambda m: f"⟨{len(m.group())} blanks⟩", arguments)
    return "".join(_visible(ch) for ch in collapsed)


def describe_call(name: str, arguments: str, width: int = 100) -> str:
    """A call as the user sees it: ``name(arguments)`` on one line."""
    return preview(f"{name}({arguments})", width)
