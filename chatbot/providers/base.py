"""The provider interface: everything above this line sees plain message dicts and these frozen dataclasses.

SDK types never leave a provider module.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

Message = dict[str, Any]


@dataclass(frozen=True)
class Usage:
    """Token usage of one request as the provider reported it."""

    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    #: of ``prompt_tokens``, how many the provider served from its prompt cache (None: it did not say)
    cached_tokens: int | None = None


@dataclass(frozen=True)
class TextDelta:
    """A piece of the answer."""

    text: str


@dataclass(frozen=True)
class ReasoningDelta:
    """A piece of the model's reasoning (gpt-oss ``delta.reasoning``): shown on request, never stored as the answer."""

    text: str


@dataclass(frozen=True)
class StreamEnd:
    """The last event of a stream. ``usage`` is None when the server sent none (use the local estimate)."""

    usage: Usage | None
    finish_reason: str | None


StreamEvent = TextDelta | ReasoningDelta | StreamEnd


@dataclass(frozen=True)
class Completion:
    """A whole (non-streamed) reply, as used for summaries."""

    text: str
    usage: Usage | None
    finish_reason: str | None


class ChatProvider(ABC):
    """A chat-completions backend.

    ``stream`` yields ``TextDelta``/``ReasoningDelta`` events and ends with exactly one ``StreamEnd``. Closing the
    generator early (Ctrl-C) closes the HTTP response. Errors are raised as :mod:`chatbot.errors` types.
    """

    #: provider family name, e.g. "groq", "openai", "echo"
    name: str = ""
    #: the chat model used when a call names none
    model: str = ""

    @abstractmethod
    def stream(
        self, messages: Sequence[Message], *, model: str | None = None, max_tokens: int | None = None
    ) -> Generator[StreamEvent, None, None]:
        """Stream a reply to ``messages``."""

    @abstractmethod
    def complete(
        self, messages: Sequence[Message], *, model: str | None = None, max_tokens: int | None = None
    ) -> Completion:
        """Return a whole reply to ``messages`` without streaming."""
