"""What a turn tells a front end: the events :meth:`chatbot.core.chat.Chat.send` yields, besides the provider's own
text and reasoning deltas. Plain frozen dataclasses, so any front end (terminal, script, a test) can render them.
Beside them, what ``/retry`` sends again: :class:`Unsent` (a message nothing of which was stored) and
:class:`TakenBack` (the last turn, taken back to be replaced).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass

from chatbot.attachments.attach import Content
from chatbot.engine.memory import Request
from chatbot.engine.reply_schema import JsonReply
from chatbot.engine.turn import Turn
from chatbot.providers.base import ReasoningDelta, TextDelta, ToolCall, Usage
from chatbot.text import preview


@dataclass(frozen=True)
class Notice:
    """Something the user should be told about this turn (summarized, dropped, retried, a warning)."""

    text: str
    warning: bool = False


@dataclass(frozen=True)
class Retrying(Notice):
    """A model call failed before its reply began and is sent again after ``pause`` seconds (told, as every notice):
    the pause is this side's own, so no "waiting for the server" is said during it."""

    pause: float = 0.0


@dataclass(frozen=True)
class TurnDone:
    """The end of a turn: what was stored and what it cost. (A turn that ends so is stored: a retry takes it back.)"""

    turn: Turn
    request: Request
    usage: Usage | None  # provider-reported; None when the server sent none
    estimated_prompt: int
    estimated_completion: int
    latency: float
    finish_reason: str | None = None
    reasoned: bool = False  # reasoning deltas arrived (gpt-oss), shown only with --reasoning
    #: the reply checked, when JSON was asked for (--schema, -o response_format): parsed, or what is wrong with it
    json: JsonReply | None = None

    @property
    def invalid_json(self) -> bool:
        """Whether JSON was asked for and the reply is not it (the chat told why, in a notice)."""
        return self.json is not None and bool(self.json.problem)


@dataclass(frozen=True)
class Asking:
    """A model call goes out now: the reply (``what="reply"``) or a summary of older turns (``"summary"``). Until
    the first one, the turn is local work (counting tokens, recall, building the request); from it, a wait is the
    server's."""

    what: str = "reply"


@dataclass(frozen=True)
class Saving:
    """The reply is complete and the turn is being saved: a wait now is the session store's, not the model's."""


@dataclass(frozen=True)
class ToolStarted:
    """The model called a tool; it runs now."""

    call: ToolCall


@dataclass(frozen=True)
class ToolFinished:
    """A tool call's result (``text`` is exactly what the model is sent back)."""

    call: ToolCall
    text: str
    error: bool = False


@dataclass(frozen=True)
class Unsent:
    """A message whose turn stopped before anything of it was stored: what ``/retry`` sends again.

    A failed turn's error carries it (:func:`unsent`); the front end keeps it. It stays good while the conversation
    it was sent to is as it was (:meth:`holds`): a new turn, /undo, /reset or another session leave nothing to resend.
    """

    content: Content
    turns: Sequence[object]  # the conversation's list of turns, by identity (/reset and another session make anew)
    count: int

    def holds(self, turns: Sequence[object]) -> bool:
        """Whether this is still the message to resend to the conversation whose turns are ``turns``."""
        return turns is self.turns and len(turns) == self.count


@dataclass(frozen=True)
class TakenBack:
    """The last turn, taken back by /retry or /edit to be replaced, with the summary as it was before.

    It is handed to :meth:`chatbot.core.chat.Chat.send` with the message that replaces it: a send that stores no turn
    puts it back (:meth:`chatbot.core.chat.Chat.put_back`).
    """

    turn: Turn
    summary: str
    covers: int

    @property
    def message(self) -> Content:
        """The user's message of the turn taken back (what /retry sends again)."""
        content: Content = self.turn.messages[0].get("content") or ""
        return content


def unsent(exc: BaseException) -> Unsent | None:
    """What a retry would send again after ``exc`` stopped a turn; None when the turn was stored (a retry takes it
    back) or ``exc`` came from no turn."""
    message = getattr(exc, "unsent", None)
    return message if isinstance(message, Unsent) else None


ChatEvent = Notice | TextDelta | ReasoningDelta | Asking | ToolStarted | ToolFinished | Saving | TurnDone
#: the events that start a phase of a turn, after which a wait is someone else's (see :func:`wait_notice`)
PHASES = (Asking, Retrying, ToolStarted, ToolFinished, Saving)


def request_notices(request: Request, *, dropped: bool = True) -> Iterator[Notice]:
    """What the user is told about how ``request`` was built (warnings, summarized turns, and the dropped ones when
    ``dropped``: a chat tells them once, not on every turn of a sliding window)."""
    for warning in request.warnings:
        yield Notice(warning, True)
    if request.summarized:
        yield Notice(
            f"summarized {request.summarized} earlier turn(s) into the rolling summary "
            f"(it now covers turns 1-{request.summary_covers})"
        )
    if request.dropped and dropped:
        yield Notice(f"{request.dropped} earlier turn(s) not sent (memory window / token budget)")


def stop_reply(events: Generator[ChatEvent, None, None], exc: BaseException) -> Unsent | None:
    """Stop a reply in progress because of ``exc`` (Ctrl-C, a signal, a closed output).

    The partial answer is stored, marked with the reason, before this returns; errors of that (a failed save) are
    raised, ``exc`` itself is not. Returns what a retry would send again: the message, when nothing was stored.
    """
    try:
        events.throw(exc)
    except StopIteration:
        pass
    except BaseException as raised:
        if raised is not exc:
            raise
    return unsent(exc)


# --- what the user is told while an event is slow in coming (run_turn's watch calls the sink) ----------------

WAIT_NOTICE = "waiting for the server… (Ctrl-C cancels)"
SUMMARY_WAIT_NOTICE = "waiting for the server to summarize older turns… (Ctrl-C cancels)"
PREPARE_NOTICE = "preparing the request (counting tokens, finding turns to recall)… (Ctrl-C cancels)"
SAVE_NOTICE = "saving the session: waiting for the session store (its database or disk)…"


def wait_notice(last: object) -> str:
    """What the user is told while the event after the phase ``last`` began (one of :data:`PHASES`, or None at the
    start of the turn) is slow in coming: this side's work until a model call goes out or after a tool finished,
    the server's once one has, the tool that started, the session store once the reply is done."""
    if last is None or isinstance(last, ToolFinished):
        return PREPARE_NOTICE
    if isinstance(last, Asking) and last.what == "summary":
        return SUMMARY_WAIT_NOTICE
    if isinstance(last, Saving):
        return SAVE_NOTICE
    if isinstance(last, ToolStarted):
        return f"waiting for the tool {preview(last.call.name, 60)}… (Ctrl-C cancels)"
    return WAIT_NOTICE
