"""What a slash command does to the front end, as values, and the one function that does it: :func:`apply`.

A command changes the session itself (it has the app); what it asks of the screen it returns as effects: text to
show, a notice, a message to send, quitting, text to copy or to edit first. The terminal
(:class:`chatbot.terminal.repl.Repl`) and script mode (:class:`chatbot.cli.modes.Script`) are each a :class:`Front`;
:func:`apply` is the only place an effect is turned into calls on one. A command with a new effect adds its type and
its ``case`` here, beside the command itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeAlias

if TYPE_CHECKING:
    from chatbot.attachments.attach import Content
    from chatbot.commands.timeline import Timeline
    from chatbot.core.events import TakenBack


@dataclass(frozen=True)
class Show:
    """Output the user asked for (/context, /help, ...): stdout in a script. ``readable`` is what a person at the
    terminal reads instead (/context json: folded, real line breaks, where ``text`` is the exact JSON)."""

    text: str
    readable: str | None = None


@dataclass(frozen=True)
class Note:
    """A confirmation ("session renamed") rather than asked-for output: dim in the terminal, stderr in a script,
    one notice a line."""

    text: str


@dataclass(frozen=True)
class Chart:
    """/timeline's rows: drawn in colour in the terminal, as plain text elsewhere."""

    timeline: Timeline


@dataclass(frozen=True)
class Send:
    """A message to send now, as the next turn; ``replacing`` the turn /retry or /edit took back (once the new one
    is stored)."""

    message: Content
    replacing: TakenBack | None = None


@dataclass(frozen=True)
class Quit:
    """Leave (the session is saved)."""


@dataclass(frozen=True)
class Copy:
    """Text for the user's clipboard (/copy: OSC 52 through the terminal)."""

    text: str


@dataclass(frozen=True)
class Edit:
    """Text for the user to edit in the prompt first (/edit, /quote); what they send goes on as ``then(edited)``.
    ``no_prompt`` is what a front end without a prompt (a script) says instead: how to do it there."""

    text: str
    no_prompt: str
    then: Callable[[str], Effects]


@dataclass(frozen=True)
class Compose:
    """Open the user's editor on ``text``; what is saved is sent (/editor)."""

    text: str


Effect: TypeAlias = Show | Note | Chart | Send | Quit | Copy | Edit | Compose
#: what a command returns: one effect, or several applied in order
Effects: TypeAlias = Effect | tuple[Effect, ...]


class Front(Protocol):
    """What a front end does for :func:`apply`: each method one thing the screen can do."""

    def show(self, shown: Show) -> None:
        """Show asked-for output."""

    def note(self, text: str) -> None:
        """Tell the user something happened."""

    def chart(self, timeline: Timeline) -> None:
        """Draw /timeline's rows."""

    def send(self, text: Content, *, replacing: TakenBack | None = None) -> object:
        """Send a message as the next turn and show the reply; its errors are told here, not raised."""

    def copy(self, text: str) -> None:
        """Put ``text`` on the clipboard and say so (a :class:`~chatbot.errors.UsageError` where it cannot)."""

    def edit(self, text: str, no_prompt: str) -> str:
        """``text`` in the prompt to edit; what the user sends ("" if they cancelled). Without a prompt, a
        :class:`~chatbot.errors.UsageError` saying ``no_prompt``."""

    def compose(self, text: str) -> str:
        """What the user saved in their editor, started on ``text`` ("" for nothing, told here)."""


def apply(effects: Effects, front: Front) -> bool:
    """Do ``effects`` on ``front``, in order. Returns True to quit. Errors (:class:`~chatbot.errors.ChatbotError`)
    are raised for the front end to tell, like a command's own."""
    for effect in effects if isinstance(effects, tuple) else (effects,):
        match effect:
            case Show():
                front.show(effect)
            case Note(text):
                front.note(text)
            case Chart(timeline):
                front.chart(timeline)
            case Send(message, replacing):
                front.send(message, replacing=replacing)
            case Quit():
                return True
            case Copy(text):
                front.copy(text)
            case Edit(text, no_prompt, then):
                edited = front.edit(text, no_prompt)
                if not edited.strip():
                    front.note("edit cancelled; the session stays as it was")
                elif apply(then(edited), front):
                    return True
            case Compose(text):
                message = front.compose(text)
                if message:
                    front.send(message)
    return False
