"""The one way a front end runs a turn: :func:`run_turn` feeds a turn's events to an :class:`EventSink`.

The terminal (:mod:`chatbot.terminal.repl`) and the plain-text modes (:mod:`chatbot.cli.modes`) differ only in how
they show things, their sink; what happens when the reply is slow, interrupted, cut by a closed output or stopped by
an error is the same for both, and is here.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from chatbot.attachments.attach import Content
from chatbot.core.chat import Chat
from chatbot.core.events import (
    PHASES,
    Notice,
    Retrying,
    Saving,
    TakenBack,
    ToolFinished,
    ToolStarted,
    TurnDone,
    stop_reply,
)
from chatbot.errors import Interrupted, OutputError
from chatbot.providers.base import ReasoningDelta, TextDelta

#: seconds an event may be in coming before the sink is told the user is waiting
WAIT_DELAY = 3.0
#: how often the watch looks (a notice comes at most this late)
WAIT_TICK = 0.1


class EventSink(Protocol):
    """What a front end shows of a turn, event by event. ``output`` names where the reply goes, for the error that
    says it cannot be written there ("to the terminal")."""

    output: str

    def text(self, text: str) -> None:
        """A delta of the answer."""

    def reasoning(self, text: str) -> None:
        """A delta of the model's reasoning."""

    def notice(self, notice: Notice) -> None:
        """Something the user is told about this turn."""

    def tool(self, event: ToolStarted | ToolFinished) -> None:
        """A tool call that starts, or its result."""

    def waiting(self, last: object) -> None:
        """The event after the phase ``last`` began is slow in coming (called from a timer thread; see
        :func:`~chatbot.core.events.wait_notice`)."""

    def finish(self) -> None:
        """The reply came whole."""

    def stop(self, exc: BaseException) -> None:
        """The reply stopped early because of ``exc`` (Ctrl-C, a signal, an error); what it showed is ended."""


#: how a sink shows each kind of event (an event of a kind not here, such as :class:`Saving`, is not shown)
SHOWN: dict[type, Callable[[EventSink, Any], None]] = {
    TextDelta: lambda sink, event: sink.text(event.text),
    ReasoningDelta: lambda sink, event: sink.reasoning(event.text),
    Notice: lambda sink, event: sink.notice(event),
    Retrying: lambda sink, event: sink.notice(event),
    ToolStarted: lambda sink, event: sink.tool(event),
    ToolFinished: lambda sink, event: sink.tool(event),
}


def run_turn(chat: Chat, text: Content, sink: EventSink, *, replacing: TakenBack | None = None) -> TurnDone | None:
    """Send ``text`` (replacing the turn /retry or /edit took back) and show the turn through ``sink``.

    Returns the turn done. Ctrl-C or a signal stores the partial answer, marked, then is raised again; an output
    that cannot be written is a turn interrupted too, raised as :class:`OutputError` (a closed pipe as it is, for
    its exit status). Errors are raised as they come; each carries what a retry would resend
    (:func:`~chatbot.core.events.unsent`).
    """
    events = chat.send(text, replacing=replacing)
    done: TurnDone | None = None
    phase: object = None  # the turn's own work, until a model call goes out (see PHASES)
    try:
        with _Watch(sink.waiting, WAIT_DELAY) as watch:  # the sink hears when an event is slow (in which phase)
            while True:
                watch.begin(phase)
                event = next(events, None)
                watch.end()
                if event is None:
                    break
                phase = _phase(event, phase)
                if isinstance(event, TurnDone):
                    done = event
                elif show := SHOWN.get(type(event)):
                    show(sink, event)
        sink.finish()
        return done
    except KeyboardInterrupt as exc:
        stop_reply(events, exc)  # stores the partial answer, marked as interrupted (by the user, or by a signal)
        _show_stopped(sink, exc, phase)
        raise
    except OSError as exc:  # the output went away (EIO), was closed (a pipe's reader left) or is full
        broken = isinstance(exc, BrokenPipeError)
        reason = "the output was closed" if broken else f"the output could not be written ({exc.strerror})"
        stop_reply(events, Interrupted(reason, 141 if broken else OutputError.exit_code))
        sink.stop(exc)
        if broken:
            raise
        raise OutputError(f"cannot write {sink.output}: {exc.strerror}; the turn is saved") from None
    except BaseException as exc:  # an error (it carries what a retry resends), or a bug: the display ends first
        sink.stop(exc)
        raise
    finally:
        events.close()  # on any other failure too, before the caller releases the session's lock


def _phase(event: object, phase: object) -> object:
    """The phase the turn is in once ``event`` came (see :data:`~chatbot.core.events.PHASES`)."""
    return event if isinstance(event, PHASES) else phase


def _show_stopped(sink: EventSink, exc: KeyboardInterrupt, phase: object) -> None:
    """End the display of a turn Ctrl-C or a signal stopped: marked, unless it came while the turn was saved (the
    reply is whole, and stored or rescued whole, so it is shown whole; the terminal may be gone)."""
    if not isinstance(phase, Saving):
        sink.stop(exc)
        return
    with contextlib.suppress(Exception):
        sink.finish()


class _Watch:
    """Tells ``on_wait(phase)`` once when a read of the turn's next event, begun in ``phase``, takes more than
    ``delay`` seconds, from one thread for the whole turn, while the main thread stays blocked in the request (where
    Ctrl-C still cancels it). One thread, not a timer a read: a reply comes in thousands of pieces, and starting a
    thread for each cost more than the reply (a 1 MB reply: 87 s)."""

    def __init__(self, on_wait: Callable[[object], None], delay: float) -> None:
        self._on_wait, self._delay = on_wait, delay
        self._read: tuple[float, object] | None = None  # (when, phase) while a read is under way; one assignment
        self._over = threading.Event()
        self._thread = threading.Thread(target=self._run, name="chatbot wait notices", daemon=True)

    def __enter__(self) -> _Watch:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._over.set()
        self._thread.join(1.0)  # (woken at once; a notice being told is finished before the caller goes on)

    def begin(self, phase: object) -> None:
        """A read begins, in ``phase``."""
        self._read = (time.monotonic(), phase)

    def end(self) -> None:
        """The read is done."""
        self._read = None

    def _run(self) -> None:
        told = None
        while not self._over.wait(WAIT_TICK):
            read = self._read
            # (a retry's own pause is not the server's slowness: the delay counts from its end)
            pause = read[1].pause if read is not None and isinstance(read[1], Retrying) else 0.0
            if read is not None and read is not told and time.monotonic() - read[0] >= self._delay + pause:
                told = read
                self._on_wait(read[1])
