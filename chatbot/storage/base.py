"""What every session store offers: the :class:`SessionStore` protocol, and the lock handle it gives out.

Callers (the app, the commands, the CLI) use only this protocol, so a second backend needs no change above it.
A store keeps one document per session (:class:`~chatbot.storage.session.Session`), refuses a corrupt or foreign
one by name and never overwrites it, and lets one process at a time change a session: :meth:`SessionStore.acquire`
gives a lock that dies with its process.
"""

from __future__ import annotations

from typing import Protocol

from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.storage.session import SearchHit, Session, SessionInfo


class SessionLock(Protocol):
    """A held session lock. Use as a context manager or call :meth:`release`."""

    id: str

    @property
    def held(self) -> bool:
        """Whether this handle still holds the lock."""
        ...

    def release(self) -> None:
        """Give the lock up (idempotent)."""
        ...

    def __enter__(self) -> SessionLock: ...

    def __exit__(self, *exc: object) -> None: ...


class SessionStore(Protocol):
    """Where sessions live. ``location`` names it in messages; ``warnings`` are for the user at start."""

    location: str
    warnings: list[str]

    def new_id(self) -> str:
        """A short readable id not used yet."""
        ...

    def exists(self, session_id: str) -> bool:
        """Whether a session with this id is stored (loadable or not)."""
        ...

    def acquire(self, session_id: str, timeout: float = 0.0) -> SessionLock:
        """Lock a session for this process; raises SessionLocked naming the holder when another process has it."""
        ...

    def holds(self, session_id: str) -> bool:
        """Whether this store holds the lock of ``session_id``."""
        ...

    def create(
        self,
        session_id: str | None = None,
        *,
        system: str,
        provider: str = "",
        model: str = "",
        title: str = "",
        memory: MemoryConfig | None = None,
        counter: TokenCounter | None = None,
    ) -> Session:
        """A new, empty session (stored by the first :meth:`save`); refuses an id in use."""
        ...

    def load(self, session_id: str, memory: MemoryConfig | None = None, counter: TokenCounter | None = None) -> Session:
        """Read a session; SessionNotFound, or SessionCorrupt naming it and the fault."""
        ...

    def save(self, session: Session) -> None:
        """Store the session durably (needs its lock); sets ``updated_at``."""
        ...

    def list_sessions(self) -> list[SessionInfo]:
        """Every session, newest first; one that does not load is listed with ``broken`` set."""
        ...

    def latest(self) -> str | None:
        """The id of the most recently used session that loads, or None."""
        ...

    def rename(self, session_id: str, title: str) -> None:
        """Give a stored session a title."""
        ...

    def delete(self, session_id: str) -> None:
        """Remove a session; refuses one another process has open."""
        ...

    def search(self, text: str, limit: int = 50) -> list[SearchHit]:
        """Stored turns of every session whose text contains ``text`` (case-insensitive), newest sessions first."""
        ...

    def export(self, session_id: str) -> str:
        """The Markdown transcript of a stored session."""
        ...

    def close(self) -> None:
        """Release every lock this store holds."""
        ...
