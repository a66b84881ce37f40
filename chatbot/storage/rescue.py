"""Rescue files: where a session goes when its store cannot take it, so that a turn already shown is not lost.

Tried in order: ``$CHATBOT_RESCUE_DIR``, ``rescue/`` in the user's data directory, the system's temporary directory.
A rescue file is the session document itself (the store's own format), private (0600), never replacing a file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from datetime import datetime
from pathlib import Path

from chatbot.storage.session import Session
from chatbot.storage.transfer import default_rescue_dir


def rescue_dirs() -> list[Path]:
    """Where rescue files may go, best first."""
    dirs = []
    if os.environ.get("CHATBOT_RESCUE_DIR"):
        dirs.append(Path(os.environ["CHATBOT_RESCUE_DIR"]))
    dirs.append(default_rescue_dir())  # the folder a PostgreSQL store that lost its database writes to
    dirs.append(Path(tempfile.gettempdir()))
    return dirs


def rescue(session: Session) -> tuple[Path | None, str]:
    """Write ``session`` to the first rescue directory that takes it: (its path, "") or (None, why none did)."""
    payload = session.to_json()
    stamp = datetime.now().strftime("%Y%m%dT%H%M%S")
    problem = ""
    for directory in rescue_dirs():
        path = directory / f"chatbot-rescue-{session.id}-{stamp}-{os.getpid()}.json"
        try:
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            problem = f"{directory}: {exc.strerror}"
            continue
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
                f.flush()
                os.fsync(f.fileno())
            return path, ""
        except OSError as exc:
            problem = f"{path}: {exc.strerror}"
            with contextlib.suppress(OSError):
                path.unlink()  # a half-written rescue file (ours: O_EXCL made it) would only mislead
    return None, problem
