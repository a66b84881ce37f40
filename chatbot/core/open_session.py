"""The session in use: its edits and its saving, below the chat loop (:class:`chatbot.core.chat.Chat` holds one).

Every change a slash command makes goes through a method here and is saved at once. A save that fails (a
read-only directory, a full disk, any error at all, or a signal while the database was awaited) writes what the store
does not hold to a rescue file and says where, so a turn already shown is never lost; a shared store that is away
(:class:`StoreUnavailable`) keeps the turn in memory instead. :meth:`OpenSession.rescue` is that path on its own,
for a caller that must give up on the session (the command's last line of defence).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chatbot.attachments.attach import Content, with_text
from chatbot.core import saving
from chatbot.core.events import TakenBack
from chatbot.engine.conversation import Conversation
from chatbot.engine.options import option_problem
from chatbot.engine.turn import Turn
from chatbot.errors import UsageError
from chatbot.storage.base import SessionStore
from chatbot.storage.session import Session


class OpenSession:
    """A session and the store it is saved to (None: nothing is saved, as in a library user's scratch chat)."""

    def __init__(self, session: Session, store: SessionStore | None) -> None:
        self.session = session
        self.store = store
        self._stored = saving.held(session)  # the turns the store holds

    @property
    def conversation(self) -> Conversation:
        """The session's conversation."""
        return self.session.conversation

    def reset(self) -> int:
        """Forget every turn and the summary (the system message stays) and save; returns how many turns went."""
        count = len(self.conversation.turns)
        self.conversation.reset()
        self.save()
        return count

    def clear_summary(self) -> tuple[str, int]:
        """Forget the summary and save; returns what it was (its text, and how many turns it covered)."""
        conv = self.conversation
        old = conv.summary, conv.summary_covers
        conv.clear_summary()
        self.save()
        return old

    def undo(self) -> Turn | None:
        """Drop the last stored turn and save; returns it (None when there is none)."""
        turn = self.conversation.undo()
        if turn is not None:
            self.save()
        return turn

    def take_back(self) -> TakenBack | None:
        """Take the last turn back to replace it (/retry, /edit); None when there is none.

        Unlike :meth:`undo` nothing is saved: the stored session keeps the turn until its replacement is stored; the
        send it is handed to puts it back if no replacement is (the server down, Ctrl-C before any answer).
        """
        conv = self.conversation
        summary, covers = conv.summary, conv.summary_covers
        turn = conv.undo()
        return TakenBack(turn, summary, covers) if turn is not None else None

    def retake(self) -> TakenBack:
        """/retry of the last turn: take it back (:meth:`take_back`); a usage error when there is none."""
        taken = self.take_back()
        if taken is None:
            raise UsageError("nothing to retry yet")
        return taken

    def put_back(self, taken: TakenBack) -> None:
        """Put a turn taken back in place again (its replacement was not stored), with the summary as it was."""
        self.conversation.add_turn(taken.turn)
        self.conversation.set_summary(taken.summary, taken.covers)

    def take_back_for_edit(self, text: str) -> tuple[Content, TakenBack | None]:
        """Take the last turn back (/edit): ``text`` as the message that replaces it, and the turn taken back. Images
        the old message carried stay with the new one (its text, fenced files included, is what was edited)."""
        taken = self.take_back()
        return with_text(taken.turn.messages[0].get("content") if taken else None, text), taken

    def set_option(self, key: str, value: Any) -> None:
        """Send ``key: value`` with every later chat request of this session (None removes it) and save.

        A value the session reader would refuse (NaN, a NUL character, ...) is refused here, before it is stored.
        """
        problem = option_problem(key, value) if value is not None else ""
        if problem:
            raise UsageError(problem)
        self.session.set_option(key, value)
        self.save()

    @property
    def options(self) -> dict[str, Any]:
        """The model options this session sends (a copy)."""
        return dict(self.session.options)

    def set_system(self, text: str) -> None:
        """Replace the system message (sent first in every later request) and save."""
        self.conversation.system = text
        self.save()

    def rename(self, title: str) -> None:
        """Give the session a title and save."""
        self.session.title = title
        self.save()

    def save(self) -> None:
        """Write the session (atomically) when a store is attached; a failure rescues what the store does not hold
        (:func:`chatbot.core.saving.save`)."""
        if self.store is not None:
            self._stored = saving.save(self.session, self.store, self._stored)

    def rescue(self, reason: str) -> str:
        """Write what the store does not hold of this session to a rescue file and return the line that tells the
        user why (``reason``) and where, or why nowhere took it. Never raises: it is what a failing caller does last."""
        return saving.rescued(self.session, self._stored, reason)[1]

    def keep(self) -> tuple[Path | None, str]:
        """Write what the store does not hold of this session to a rescue file: (its path, "") or (None, why nowhere
        took it). Never raises."""
        return saving.keep(self.session, self._stored)
