"""How every turn of a chat runs: one frozen object, made once (by the command line, or left at its defaults by a
library user) and handed down unchanged to every chat the app opens."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from chatbot.core.request_log import RequestLog

#: default cap on model calls answered by tool results within one turn
DEFAULT_TOOL_ROUNDS = 8


class ShowRequest(Protocol):
    """--show-requests: told each request body as it goes out, with its kind ("chat" or "summary") and, for a body
    the provider sent again after the server refused the one before, why (``resent``)."""

    def __call__(self, kind: str, body: dict[str, Any], resent: str = "") -> None: ...


@dataclass(frozen=True)
class TurnSettings:
    """The run's settings for each turn: what the command line says, for each session opened (the ones a session
    keeps, its summary model and options and reply limit, may be that session's own: :mod:`chatbot.core.rule`)."""

    max_output_tokens: int | None = None  # --max-output-tokens (None: the provider's default)
    summary_model: str | None = None  # --summary-model (None: the chat model writes summaries)
    #: --summary-option: model options sent with summary requests (never the chat's own: -o is for the chat)
    summary_options: Mapping[str, Any] = field(default_factory=dict)
    max_tool_rounds: int = DEFAULT_TOOL_ROUNDS  # model calls answered by tool results within one turn
    stream: bool = True  # False (--no-stream): ask for the whole reply at once
    log: RequestLog | None = None  # --log-requests
    background_summaries: bool = False  # terminal mode: write due summaries while the user types
    retries: int = 0  # how often a model call that failed before its reply began is tried again (announced)
    show_request: ShowRequest | None = None  # --show-requests: each request body as it goes out
