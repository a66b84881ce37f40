"""Saying so when the server keeps the user waiting, without blocking anything.

:func:`watch` passes a turn's events through; whenever the next one takes longer than ``delay`` seconds to come,
``on_wait`` is called once, from a timer thread, while the main thread stays blocked in the request (where Ctrl-C
still cancels it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Iterator
from typing import TypeVar

T = TypeVar("T")

WAIT_NOTICE = "waiting for the server… (Ctrl-C cancels)"
WAIT_DELAY = 3.0


def watch(events: Iterator[T], on_wait: Callable[[], None], delay: float = WAIT_DELAY) -> Generator[T, None, None]:
    """Yield ``events``; call ``on_wait`` when one is more than ``delay`` seconds in coming."""
    while True:
        timer = threading.Timer(delay, on_wait)
        timer.daemon = True
        timer.start()
        try:
            event = next(events)
        except StopIteration:
            return
        finally:
            timer.cancel()
        yield event
