"""The session in use: its edits and its saving, below the chat loop (:class:`chatbot.chat.Chat` builds on it).

Every change a slash command makes goes through a method here and is saved at once. A save that fails (a
read-only directory, a full disk) writes the session to a rescue file and says where, so a turn already shown is
never lost; a shared store that is away (:class:`StoreUnavailable`) keeps the turn in memory instead.
"""

from __future__ import annotations

from typing import Any

from chatbot.attach import Content
from chatbot.engine.conversation import Conversation
from chatbot.engine.turn import Turn
from chatbot.errors import ChatbotError, SaveFailed, StoreUnavailable
from chatbot.storage.base import SessionStore
from chatbot.storage.rescue import rescue
from chatbot.storage.session import Session


class OpenSession:
    """A session and the store it is saved to (None: nothing is saved, as in a library user's scratch chat)."""

    def __init__(self, session: Session, store: SessionStore | None) -> None:
        self.session = session
        self.store = store

    @property
    def conversation(self) -> Conversation:
        """The session's conversation."""
        return self.session.conversation

    def undo(self) -> Turn | None:
        """Drop the last stored turn and save; returns it (None when there is none)."""
        turn = self.conversation.undo()
        if turn is not None:
            self.save()
        return turn

    def take_back_for_edit(self, text: str) -> Content:
        """Drop the last turn (/edit) and return ``text`` as the message that replaces it; images the old message
        carried stay with the new one (its text, fenced files included, is what was edited)."""
        turn = self.undo()
        old = turn.messages[0].get("content") if turn else None
        if isinstance(old, list):
            images = [p for p in old if isinstance(p, dict) and p.get("type") == "image_url"]
            if images:
                return [{"type": "text", "text": text}, *images]
        return text

    def set_option(self, key: str, value: Any) -> None:
        """Send ``key: value`` with every later chat request of this session (None removes it) and save."""
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
        """Write the session (atomically) when a store is attached.

        When that fails (a read-only directory, a full disk), the session is written to a rescue file instead and
        :class:`SaveFailed` says where, so a turn already shown is never lost.
        """
        if self.store is None:
            return
        try:
            self.store.save(self.session)
        except StoreUnavailable:
            raise  # a shared store that is away keeps the turn in memory and saves it when it is back
        except (OSError, ChatbotError) as exc:
            reason = exc.message if isinstance(exc, ChatbotError) else f"{exc.strerror or exc}"
            path, problem = rescue(self.session)
            where = (
                f"it was kept in {path} (copy it into the sessions directory as {self.session.id}.json to resume)"
                if path
                else f"it could not be kept anywhere either ({problem})"
            )
            raise SaveFailed(f"cannot save session {self.session.id}: {reason}; {where}") from None
