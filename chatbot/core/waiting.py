"""Saying so when the server (or the session store) keeps the user waiting, without blocking anything.

:func:`watch` passes a turn's events through; whenever the next one takes longer than ``delay`` seconds to come,
``on_wait`` is called once with the last event that did come (None before the first), from a timer thread, while the
main thread stays blocked in the request (where Ctrl-C still cancels it). :func:`wait_notice` says who is slow: the
model's server, a tool that started, or (the reply is done) the session store.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Iterator
from typing import TypeVar

from chatbot.core.events import Saving, ToolStarted
from chatbot.text import preview

T = TypeVar("T")

WAIT_NOTICE = "waiting for the server… (Ctrl-C cancels)"
SAVE_NOTICE = "saving the session: waiting for the session store (its database or disk)…"
WAIT_DELAY = 3.0


def wait_notice(last: object) -> str:
    """What the user is told while the event after ``last`` is slow in coming: the tool that started, the session
    store once the reply is done, else the model's server."""
    if isinstance(last, Saving):
        return SAVE_NOTICE
    if isinstance(last, ToolStarted):
        return f"waiting for the tool {preview(last.call.name, 60)}… (Ctrl-C cancels)"
    return WAIT_NOTICE


def watch(
    events: Iterator[T], on_wait: Callable[[T | None], None], delay: float = WAIT_DELAY
) -> Generator[T, None, None]:
    """Yield ``events``; call ``on_wait(last event)`` when one is more than ``delay`` seconds in coming."""
    last: T | None = None
    while True:
        timer = threading.Timer(delay, on_wait, args=(last,))
        timer.daemon = True
        timer.start()
        try:
            event = next(events)
        except StopIteration:
            return
        finally:
            timer.cancel()
        last = event
        yield event
