"""Retrying a model call that failed before its reply began: a few times, with a wait, and always announced.

The SDKs' own retries are silent (the CLI turns them off); a user waiting for a reply should hear each retry. A
reply that had already shown something is never resent behind the user's back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator

from chatbot.core.events import Notice, Retrying
from chatbot.errors import (
    ChatbotError,
    ConnectionFailed,
    ProviderTimeout,
    RateLimitError,
    ServerError,
    TokenRateLimitError,
)
from chatbot.providers.base import ProviderNote, Resent, StreamEnd, StreamEvent

MAX_RETRY_WAIT = 60.0  # a server asking for a longer pause is not waited for: the user hears it and decides
RETRYABLE = (RateLimitError, ServerError, ProviderTimeout, ConnectionFailed)


def retry_wait(exc: ChatbotError, attempt: int) -> float | None:
    """Seconds to wait before retrying after ``exc`` (attempt 0 is the first retry), or None: do not retry."""
    if isinstance(exc, TokenRateLimitError):
        return None  # the request alone is over the per-minute limit: waiting does not help
    if isinstance(exc, (RateLimitError, ServerError)) and exc.retry_after is not None:  # the server said how long
        return max(exc.retry_after, 0.1) if exc.retry_after <= MAX_RETRY_WAIT else None
    return float(2**attempt)  # 1 s, 2 s, 4 s...


def retrying(
    call: Callable[[], Generator[StreamEvent, None, None]], retries: int
) -> Generator[StreamEvent | Notice, None, None]:
    """The events of ``call()``; when it fails before its first event, it is called again (up to ``retries``
    more times), each retry announced by a :class:`Notice`."""
    attempt = 0
    while True:
        began = False
        stream = call()
        try:
            for event in stream:
                began = began or not isinstance(event, (StreamEnd, ProviderNote, Resent))
                yield event
            return
        except RETRYABLE as exc:
            wait = retry_wait(exc, attempt)
            if began or attempt >= retries or wait is None:
                raise  # a reply that began is not resent behind the user's back (it was shown in part)
            attempt += 1
            told = f"{exc.message} — retrying in {wait:g}s ({attempt} of {retries}; Ctrl-C cancels)"
            yield Retrying(told, True, pause=wait)
            time.sleep(wait)
        finally:
            stream.close()  # the provider's generator closes its HTTP response
