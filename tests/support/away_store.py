"""A JSON store that can go away like a shared database does: while ``away`` is set, every save raises
:class:`StoreUnavailable` (what the PostgreSQL store raises when its server cannot be reached) and writes nothing."""

from __future__ import annotations

from chatbot.errors import StoreUnavailable
from chatbot.storage.json_store import JsonStore
from chatbot.storage.session import Session


class AwayStore(JsonStore):
    """A real JSON store whose saves fail with :class:`StoreUnavailable` while ``away`` is True."""

    away = False

    def save(self, session: Session, *, touch: bool = True) -> None:
        if self.away:
            raise StoreUnavailable(f"lost the session store {self.location}; session {session.id} is kept here")
        super().save(session, touch=touch)
