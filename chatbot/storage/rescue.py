"""Rescue files: where a session goes when its store cannot take it, so that a turn already shown is not lost.

The rescue path has no single point of failure:

- **Small first.** When the store already holds the session's first turns, the turns it does not hold are written
  alone first (:meth:`Session.rescue_json`: a session document marked ``rescued_after``), so that a limit the whole
  session broke (``ulimit -f``, a nearly full disk) still leaves room for them; only if that fails everywhere is the
  whole session tried.
- **Three places.** ``$CHATBOT_RESCUE_DIR``, ``rescue/`` in the user's data directory, the system's temporary
  directory, in that order.
- **Unique names.** ``chatbot-rescue-<id>-<UTC time to the microsecond>-<pid>-<n>.json`` (``-turns-<a>-<b>`` before
  ``.json`` for a small rescue), created exclusively: a name that exists already is skipped for the next ``n``.
- **Every failure is a reason, never a crash**: whatever goes wrong with one place is reported and the next is tried;
  Ctrl-C, SIGTERM and SIGHUP wait until the rescue is written.

A rescue file is private (0600) and never replaces a file. ``chatbot --import-sessions FILE`` (or the folder holding
it) brings it back: a whole session is imported or continues the stored one; a small rescue's turns are appended to
their session (see :mod:`chatbot.storage.transfer`).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from chatbot.storage import files
from chatbot.storage.session import Session
from chatbot.storage.transfer import RESCUE_PREFIX, default_rescue_dir, write_rescue

_SERIAL = itertools.count()  # one process's rescues never share a name, even within a microsecond


def rescue_dirs() -> list[Path]:
    """Where rescue files may go, best first."""
    dirs = []
    if os.environ.get("CHATBOT_RESCUE_DIR"):
        dirs.append(Path(os.environ["CHATBOT_RESCUE_DIR"]))
    dirs.append(default_rescue_dir())  # the folder a PostgreSQL store that lost its database writes to
    dirs.append(Path(tempfile.gettempdir()))
    return dirs


def rescue(session: Session, stored: int = 0) -> tuple[Path | None, str]:
    """Keep ``session`` in a rescue file: (its path, "") or (None, why nowhere took it).

    ``stored`` is how many of its first turns the store holds as they are: the turns after them are tried alone
    first (a small rescue), then the whole session.
    """
    with files.signals_deferred():  # a signal now (a second SIGTERM) would cost the one copy left
        return _rescue(session, stored)


def _rescue(session: Session, stored: int) -> tuple[Path | None, str]:
    turns = len(session.conversation.turns)
    problem = ""
    if 0 < stored < turns:
        path, problem = _write(session, lambda: session.rescue_json(stored), f"-turns-{stored + 1}-{turns}")
        if path is not None:
            return path, ""
    path, whole_problem = _write(session, session.to_json, "")
    return (path, "") if path is not None else (None, whole_problem or problem)


def rescue_in(folder: Path, session: Session) -> tuple[Path | None, str]:
    """Write the whole ``session`` to a new folder of ``folder`` as ``<id>.json`` (what a PostgreSQL store that
    could not save does when it closes), else to the rescue places of :func:`rescue`: (its path, "") or (None, why
    nowhere took it, as a sentence)."""
    try:
        return write_rescue(session, folder), ""
    except Exception:  # that folder cannot take it: never the end of the turn
        path, problem = rescue(session)
        return path, "" if path else f"it could not be kept anywhere either ({problem})"


def _write(session: Session, payload: object, suffix: str) -> tuple[Path | None, str]:
    """Write ``payload()`` to a new file in the first rescue directory that takes it."""
    try:
        data = payload()  # type: ignore[operator]
    except Exception as exc:  # a session that cannot even be encoded: the caller tries the other form
        return None, f"cannot encode it ({type(exc).__name__}: {exc})"
    problems = []  # every place's reason: the user learns why each refused, not only the last
    for directory in rescue_dirs():
        try:
            return _write_in(directory, session.id, suffix, data), ""
        except OSError as exc:
            problems.append(f"{exc.filename or directory}: {exc.strerror or exc}")
        except Exception as exc:  # never a crash on the way to keeping a turn
            problems.append(f"{directory}: {type(exc).__name__}: {exc}")
    return None, "; ".join(problems)


def _write_in(directory: Path, sid: str, suffix: str, data: bytes) -> Path:
    """A new private file in ``directory`` holding ``data``, fsynced; a half-written one is removed."""
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
    for _ in range(100):
        path = directory / f"{RESCUE_PREFIX}{sid}-{stamp}-{os.getpid()}-{next(_SERIAL)}{suffix}.json"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except FileExistsError:
            continue  # someone's file has this name: the next serial number
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        except BaseException:
            with contextlib.suppress(OSError):
                path.unlink()  # a half-written rescue file (ours: O_EXCL made it) would only mislead
            raise
        return path
    raise FileExistsError(17, "every rescue file name tried exists", str(directory))


def import_hint(path: Path) -> str:
    """How the user brings a rescue file at ``path`` back into the store."""
    return f"`chatbot --import-sessions {path}` brings it back into the store"
