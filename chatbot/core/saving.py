"""A session saved to its store, and what the store does not hold rescued when that fails.

A save that fails (a read-only directory, a full disk, any error at all, or a signal while the database was awaited)
writes what the store does not hold to a rescue file and says where, so a turn already shown is never lost; a shared
store that is away (:class:`StoreUnavailable`) keeps the turn in memory instead. What the store holds is known by
:func:`held`, each turn's cached JSON as it was last saved: a turn changed since has a new JSON object.
"""

from __future__ import annotations

from pathlib import Path

from chatbot.errors import ChatbotError, Interrupted, SaveFailed, SessionChanged, SessionLocked, StoreUnavailable
from chatbot.storage.base import SessionStore
from chatbot.storage.rescue import import_hint, rescue
from chatbot.storage.session import Session

#: the turns a store holds: each turn's cached JSON as it was saved, compared by identity
Held = tuple[bytes, ...]


def held(session: Session) -> Held:
    """The turns of ``session`` as a store holds them once it is saved (or just loaded)."""
    return tuple(t.to_json() for t in session.conversation.turns)


def holds_all(session: Session, stored: Held) -> bool:
    """Whether a store that holds ``stored`` holds every turn of ``session`` as it is now (no save failed since)."""
    return len(stored) == len(session.conversation.turns) and _unchanged(session, stored) == len(stored)


def save(session: Session, store: SessionStore, stored: Held) -> Held:
    """Write ``session`` to ``store`` (atomically); returns what the store holds now.

    When that fails (a read-only directory, a full disk, any other error), what the store does not hold (``stored``
    says what it did) is written to a rescue file instead and :class:`SaveFailed` says where. A signal that stopped a
    save waiting for the database is raised again once the session is rescued, with a ``note`` naming the file.
    """
    try:
        store.save(session)
    except StoreUnavailable:
        raise  # a shared store that is away keeps the turn in memory and saves it when it is back
    except Interrupted as exc:
        if not exc.unsaved:
            raise
        raise Interrupted(exc.reason, exc.exit_code, note=rescued(session, stored, exc.reason)[1]) from None
    except Exception as exc:  # every failure: OSError, a store's refusal, or a bug in the way
        # a store whose copy is not the one this process loaded (written since, gone) or whose lock was lost may not
        # hold the first turns any more: the whole session is kept, which an import can always take back
        holds = () if isinstance(exc, (SessionChanged, SessionLocked)) else stored
        path, line = rescued(session, holds, _reason(exc))
        raise SaveFailed(line, rescued=str(path) if path else None) from None
    return held(session)


def _reason(exc: Exception) -> str:
    """Why a save failed, as the user reads it."""
    if isinstance(exc, ChatbotError):
        return exc.message
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}"
    return f"{type(exc).__name__}: {exc}"


def rescued(session: Session, stored: Held, reason: str) -> tuple[Path | None, str]:
    """Write what the store does not hold of ``session`` to a rescue file: its path (None: nowhere took it) and the
    line that tells the user why (``reason``) and where, or why nowhere took it. Never raises."""
    sid = session.id
    path, problem = keep(session, stored)
    if path is None:
        return None, f"cannot save session {sid}: {reason}; it could not be kept anywhere either ({problem})"
    return path, f"cannot save session {sid}: {reason}; it was kept in {path} ({import_hint(path)})"


def keep(session: Session, stored: Held) -> tuple[Path | None, str]:
    """Write what the store does not hold of ``session`` to a rescue file (:func:`chatbot.storage.rescue.rescue`: the
    unsaved turns first, then the whole session): (its path, "") or (None, why nowhere took it). Never raises."""
    try:
        return rescue(session, _unchanged(session, stored))
    except Exception as exc:  # the rescue catches its own failures; this is the very last resort
        return None, f"{type(exc).__name__}: {exc}"


def _unchanged(session: Session, stored: Held) -> int:
    """How many leading turns the store holds as they are (a turn changed since has a new JSON object)."""
    n = 0
    for turn, json in zip(session.conversation.turns, stored, strict=False):
        if turn.to_json() is not json:
            break
        n += 1
    return n
