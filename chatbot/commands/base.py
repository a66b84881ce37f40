"""What a slash command is and what it returns; shared by every room of :mod:`chatbot.commands`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chatbot.commands.effects import Effects
    from chatbot.core.app import App


@dataclass(frozen=True)
class Retry:
    """/retry's answer before it knows what to resend: :func:`chatbot.commands.table.run`, which has the message the
    front end kept, turns it into a :class:`~chatbot.commands.effects.Send`. A front end never gets it."""


Confirm = Callable[[str], bool]


@dataclass(frozen=True)
class Command:
    """A slash command: usage line, help text and handler (which returns its effects on the front end)."""

    usage: str
    help: str
    run: Callable[[App, str, Confirm | None], Effects | Retry]
