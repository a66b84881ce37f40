"""Announced retries (chatbot/core/retry.py): how long each wait is, which failures are retried and how often, that
every retry is a warning the user sees, that a reply already begun is never resent, and that a stream the user stops is
closed at once."""

from __future__ import annotations

import time

import pytest

from chatbot.core.events import Retrying
from chatbot.core.retry import MAX_RETRY_WAIT, retry_wait, retrying
from chatbot.errors import (
    AuthenticationError,
    ConnectionFailed,
    RateLimitError,
    ServerError,
    TokenRateLimitError,
)
from chatbot.providers.base import StreamEnd, TextDelta, Usage

REPLY = [TextDelta("hello"), StreamEnd(Usage(3, 1, 4), "stop")]


class Flaky:
    """A model call that raises the given errors on its first calls, then streams ``events``; it counts its calls
    and which of its streams were closed."""

    def __init__(self, *failures: Exception, events=REPLY, fail_after: Exception | None = None) -> None:
        self.failures = list(failures)
        self.events = events
        self.fail_after = fail_after  # raised after the events of the first stream (a reply that broke mid-stream)
        self.calls = 0
        self.closed: list[int] = []

    def __call__(self):
        self.calls += 1
        return self._stream(self.calls)

    def _stream(self, n):
        try:
            if self.failures:
                raise self.failures.pop(0)
            yield from self.events
            if self.fail_after is not None and n == 1:
                raise self.fail_after
        finally:
            self.closed.append(n)


def test_the_backoff_doubles_from_one_second():
    assert [retry_wait(ServerError("down"), n) for n in range(4)] == [1.0, 2.0, 4.0, 8.0]
    assert retry_wait(ConnectionFailed("unreachable"), 0) == 1.0


def test_a_rate_limit_waits_what_the_server_asks_up_to_the_cap():
    assert retry_wait(RateLimitError("slow down", retry_after=5), 0) == 5
    assert retry_wait(RateLimitError("slow down", retry_after=MAX_RETRY_WAIT), 3) == MAX_RETRY_WAIT
    assert retry_wait(RateLimitError("slow down", retry_after=MAX_RETRY_WAIT + 0.5), 0) is None  # the user decides
    assert retry_wait(RateLimitError("slow down", retry_after=0), 0) == 0.1  # never a busy loop
    assert retry_wait(RateLimitError("slow down"), 1) == 2.0  # no Retry-After: the usual backoff


def test_a_server_error_with_retry_after_waits_what_the_server_asks_up_to_the_cap():
    assert retry_wait(ServerError("busy", retry_after=5), 0) == 5
    assert retry_wait(ServerError("busy", retry_after=MAX_RETRY_WAIT + 0.5), 0) is None  # the user decides
    assert retry_wait(ServerError("busy"), 1) == 2.0  # no Retry-After: the usual backoff


def test_a_request_over_the_per_minute_token_limit_is_not_retried():
    assert retry_wait(TokenRateLimitError("too many tokens", retry_after=1), 0) is None
    call = Flaky(TokenRateLimitError("too many tokens", retry_after=1))
    with pytest.raises(TokenRateLimitError):
        list(retrying(call, 3))
    assert call.calls == 1


def test_each_retry_is_a_warning_that_counts_and_the_wait_really_happens():
    call = Flaky(RateLimitError("slow down", retry_after=0.2), RateLimitError("slow down", retry_after=0))
    started = time.monotonic()
    events = list(retrying(call, 2))
    assert time.monotonic() - started >= 0.3  # 0.2 s, then the 0.1 s floor
    assert events == [
        Retrying("slow down — retrying in 0.2s (1 of 2; Ctrl-C cancels)", True, pause=0.2),
        Retrying("slow down — retrying in 0.1s (2 of 2; Ctrl-C cancels)", True, pause=0.1),
        *REPLY,
    ]
    assert call.calls == 3 and call.closed == [1, 2, 3]


def test_retries_stop_at_the_number_asked_for():
    call = Flaky(*[RateLimitError("slow down", retry_after=0)] * 3)
    seen = []
    with pytest.raises(RateLimitError):
        for event in retrying(call, 2):
            seen.append(event)
    assert [e.text for e in seen] == [
        "slow down — retrying in 0.1s (1 of 2; Ctrl-C cancels)",
        "slow down — retrying in 0.1s (2 of 2; Ctrl-C cancels)",
    ]
    assert call.calls == 3


def test_no_retries_asked_for_means_the_first_failure_is_raised():
    call = Flaky(ServerError("down"))
    with pytest.raises(ServerError):
        list(retrying(call, 0))
    assert call.calls == 1


def test_an_error_that_waiting_does_not_cure_is_raised_at_once():
    call = Flaky(AuthenticationError("bad key"))
    with pytest.raises(AuthenticationError):
        list(retrying(call, 3))
    assert call.calls == 1


def test_a_reply_that_began_is_never_resent():
    call = Flaky(events=[TextDelta("half")], fail_after=ServerError("dropped"))
    seen = []
    with pytest.raises(ServerError):
        for event in retrying(call, 3):
            seen.append(event)
    assert seen == [TextDelta("half")] and call.calls == 1


def test_a_stream_that_only_ended_before_failing_had_not_begun_and_is_retried():
    # nothing was shown (no text, only the end of the stream): resending it hides nothing from the user
    call = Flaky(events=[StreamEnd(None, None)], fail_after=RateLimitError("late", retry_after=0))
    events = list(retrying(call, 1))
    assert [type(e) for e in events] == [StreamEnd, Retrying, StreamEnd]
    assert call.calls == 2


def test_ctrl_c_during_a_reply_closes_the_stream_at_once():
    # the provider's stream holds an HTTP response: it is closed when Ctrl-C arrives, not when the interrupted
    # traceback is finally dropped
    call = Flaky(events=[TextDelta("one"), TextDelta("two"), StreamEnd(None, "stop")])
    events = retrying(call, 2)
    assert next(events) == TextDelta("one")
    with pytest.raises(KeyboardInterrupt) as interrupted:
        events.throw(KeyboardInterrupt())
    assert call.closed == [1]
    assert interrupted.value is not None
