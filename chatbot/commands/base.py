"""What a slash command is and what it returns; shared by every room of :mod:`chatbot.commands`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chatbot.attachments.attach import Content
    from chatbot.commands.timeline import Timeline
    from chatbot.core.app import App
    from chatbot.core.open_session import TakenBack


@dataclass(frozen=True)
class Result:
    """What a command produced: text to show, and whether to quit or to send a message (/retry).

    ``notice`` marks a confirmation ("session renamed") rather than asked-for output: script mode prints it to
    stderr with the other notices, keeping stdout for replies and requested output (/context, /help, ...).
    """

    output: str = ""
    quit: bool = False
    send: Content | None = None  # a message to send now (/retry resends one that may carry images)
    replacing: TakenBack | None = None  # with ``send``: the turn it replaces once stored (/retry, /edit)
    retry: bool = False  # /retry: resend the failed message, else the last turn's (:func:`commands.table.run`)
    notice: bool = False
    edit: str | None = None  # text to put back in the prompt for editing (/edit); its turn is replaced on send
    edit_turn: int | None = None  # with ``edit``: the turn it is (/edit N), resent in a branch (commands.edit_at)
    clipboard: str | None = None  # text for the terminal to copy (/copy, OSC 52)
    editor: str | None = None  # open the user's editor on this text; what is saved is sent (/editor)
    timeline: Timeline | None = None  # /timeline's rows, which the terminal draws in colour (``output`` is the text)
    readable: str | None = None  # what the terminal shows instead of ``output`` (/context json: folded, not escaped)


Confirm = Callable[[str], bool]


@dataclass(frozen=True)
class Command:
    """A slash command: usage line, help text and handler."""

    usage: str
    help: str
    run: Callable[[App, str, Confirm | None], Result]
