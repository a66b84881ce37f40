"""What every session store offers: the :class:`SessionStore` protocol, and the lock handle it gives out.

Callers (the app, the commands, the CLI) use only this protocol, so a second backend needs no change above it.
A store keeps one document per session (:class:`~chatbot.storage.session.Session`), refuses a corrupt or foreign
one by name and never overwrites it, and lets one process at a time change a session: :meth:`SessionStore.acquire`
gives a lock that dies with its process.
"""

from __future__ import annotations

import secrets
import string
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Protocol

from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.errors import SessionError
from chatbot.storage.session import SearchHit, Session, SessionInfo, validate_id


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
    """Where sessions live. ``location`` names it in messages; ``warnings`` are for the user at start; ``paths``
    are the files and folders on this machine the store keeps (none for a database server): a file chatbot writes
    at the user's word never goes there (:mod:`~chatbot.storage.output_files`)."""

    location: str
    warnings: list[str]
    paths: tuple[Path, ...]

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
        """A new, empty session (stored by the first :meth:`save`); refuses an id in use.

        Every store makes a session the same way (nothing is written until the first save), so the stores inherit
        this one body instead of repeating it.
        """
        sid = self.new_id() if session_id is None else validate_id(session_id)
        if self.exists(sid):
            raise SessionError(f"session {sid} already exists in {self.location}; load it or choose another id")
        return Session.new(
            sid, system=system, provider=provider, model=model, title=title, memory=memory, counter=counter
        )

    def load(self, session_id: str, memory: MemoryConfig | None = None, counter: TokenCounter | None = None) -> Session:
        """Read a session; SessionNotFound, or SessionCorrupt naming it and the fault."""
        ...

    def save(self, session: Session, *, touch: bool = True) -> None:
        """Store the session durably (needs its lock); sets ``updated_at`` unless ``touch`` is False (an import)."""
        ...

    def list_sessions(self, limit: int = 0) -> list[SessionInfo]:
        """The newest ``limit`` sessions (every one when 0), newest first; one that does not load is listed with
        ``broken`` set."""
        ...

    def count_sessions(self) -> int:
        """How many sessions :meth:`list_sessions` would list without a limit, without reading them."""
        ...

    def latest(self) -> str | None:
        """The id of the most recently used session that loads, or None."""
        ...

    def choose_latest(self) -> tuple[str | None, list[SessionInfo]]:
        """What ``-c`` continues: :meth:`latest`, and the damaged sessions newer than it, which it skips."""
        ...

    def rename(self, session_id: str, title: str) -> None:
        """Give a stored session a title."""
        ...

    def delete(self, session_id: str) -> None:
        """Remove a session; refuses one another process has open."""
        ...

    def search(self, text: str, limit: int = 50) -> list[SearchHit]:
        """Stored turns of the caller's sessions whose text contains ``text`` (case-insensitive): the turns where it
        occurs most first, then the newest (:func:`~chatbot.storage.session.ranked`)."""
        ...

    def export(self, session_id: str) -> str:
        """The Markdown transcript of a stored session."""
        ...

    def close(self) -> None:
        """Release every lock this store holds."""
        ...


def locked_message(session_id: str, holder: str) -> str:
    """The one message for a session another process holds (``holder`` names it when known, e.g. "pid 42")."""
    who = f" ({holder})" if holder else ""
    return f"session {session_id} is in use by another chatbot process{who}; close it or use --session with another id"


def make_id(taken: Callable[[str], bool], where: str) -> str:
    """A short readable id like ``20261130-k3f9`` for which ``taken`` is False."""
    alphabet = string.ascii_lowercase + string.digits
    day = datetime.now().strftime("%Y%m%d")
    for size in (4, 4, 4, 6, 6, 8, 8, 12):
        sid = f"{day}-{''.join(secrets.choice(alphabet) for _ in range(size))}"
        if not taken(sid):
            return sid
    raise SessionError(f"could not find an unused session id in {where}")


def latest_healthy(listing: list[SessionInfo]) -> tuple[str | None, list[SessionInfo]]:
    """What ``-c`` continues, from a store's listing (newest first): the newest session that loads (None when none
    does), and the damaged ones newer than it, which it skips (the caller names them)."""
    skipped: list[SessionInfo] = []
    for info in listing:
        if not info.broken:
            return info.id, skipped
        skipped.append(info)
    return None, skipped
