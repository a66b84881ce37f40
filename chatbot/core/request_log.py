"""The structured request log (``--log-requests FILE``): one JSON line per model call, appended.

A line says what a call cost and why it was made, never what it said: no message text, no key, no headers.
Fields (docs/config.md lists them): ``time``, ``session``, ``provider``, ``model``, ``kind`` (``chat``, ``tool_call``
for a reply that called tools, or ``summary``), ``strategy``, ``request_tokens`` (``provider`` and ``estimate``),
``max_tokens`` (the reply limit asked for: ``--max-output-tokens``, or a summary's cap; null when none),
``completion_tokens`` (likewise), ``latency`` and ``ttft`` (seconds to the first streamed piece; null when not
streamed), ``finish_reason``, ``summarized`` and ``dropped`` (turns folded into the summary or left out for this
request), ``ok`` and, on failure, ``error`` (the error's type name only: its message may quote the request).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from chatbot.engine.turn import now_iso
from chatbot.errors import ConfigError
from chatbot.providers.base import Usage
from chatbot.storage.output_files import open_appending

FIELDS = (
    "time",
    "session",
    "provider",
    "model",
    "kind",
    "strategy",
    "request_tokens",
    "max_tokens",
    "completion_tokens",
    "latency",
    "ttft",
    "finish_reason",
    "summarized",
    "dropped",
    "ok",
    "error",
)


class RequestLog:
    """Appends one JSON line per model call to a file (created 0600; each line written whole with O_APPEND).

    The file is a log: an existing one is appended to, never replaced. Like every file the user names for chatbot to
    write, it is never one of the session store's ``store_paths`` or inside one, and never a symbolic link but one to
    a terminal or a pipe (``/dev/stderr``) (:mod:`~chatbot.storage.output_files`)."""

    def __init__(self, path: str, store_paths: Sequence[Path]) -> None:
        self.path = path
        self.lost = 0  # lines that could not be written (a full disk): told once the run ends (:meth:`problem`)
        self._why = ""
        try:
            self._fd = open_appending(path, store_paths)
        except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
            raise ConfigError(f"cannot open the request log {path}: {getattr(exc, 'strerror', None) or exc}") from None

    def write(self, **fields: Any) -> None:
        """Append one record; unknown field names are a programming error (the set is documented)."""
        unknown = set(fields) - set(FIELDS)
        if unknown:
            raise ValueError(f"not a request-log field: {sorted(unknown)}")
        record = {"time": now_iso(), **{k: fields.get(k) for k in FIELDS if k != "time"}}
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
        try:
            os.write(self._fd, line.encode("utf-8"))
        except OSError as exc:  # a full disk must not end the chat (the session file is the record): counted, told
            self.lost += 1
            self._why = self._why or str(exc.strerror or exc)

    def problem(self) -> str:
        """What the user is told when lines could not be written ("" when every one was)."""
        if not self.lost:
            return ""
        return f"the request log {self.path} could not be written ({self._why}): {self.lost} line(s) are not in it"

    def call(
        self,
        kind: str,
        *,
        session: str,
        provider: str,
        model: str,
        strategy: str,
        started: float,
        estimate: tuple[int, int | None],
        usage: Usage | None = None,
        max_tokens: int | None = None,
        first: float | None = None,
        finish_reason: str | None = None,
        summarized: int = 0,
        dropped: int = 0,
        error: str = "",
    ) -> None:
        """Record one model call that began at ``started`` (``time.monotonic()``) and ends now.

        ``estimate`` is the local (prompt, completion) count; ``usage`` what the provider reported; ``first`` when
        the first streamed piece arrived; ``max_tokens`` the reply limit the call asked for; ``error`` the failure's
        type name ("" when the call succeeded).
        """
        self.write(
            session=session,
            provider=provider,
            model=model,
            kind=kind,
            strategy=strategy,
            request_tokens={"provider": usage.prompt_tokens if usage else None, "estimate": estimate[0]},
            max_tokens=max_tokens,
            completion_tokens={"provider": usage.completion_tokens if usage else None, "estimate": estimate[1]},
            latency=round(time.monotonic() - started, 3),
            ttft=round(first - started, 3) if first is not None else None,
            finish_reason=finish_reason,
            summarized=summarized,
            dropped=dropped,
            ok=not error,
            error=error or None,
        )

    def close(self) -> None:
        """Close the file."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
