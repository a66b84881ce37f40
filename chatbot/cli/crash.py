"""The last line of defence: an exception no layer expected (a bug) still ends in one line, never a traceback.

:func:`report` writes the traceback to a private log file in the user's data folder and prints one line that says
where; :func:`rescue_open_session` first keeps the session in use in a rescue file, so that a turn already shown is
not lost with the bug. The process then ends with :data:`~chatbot.errors.INTERNAL_ERROR` (70, EX_SOFTWARE).
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import traceback
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from chatbot.errors import INTERNAL_ERROR, ChatbotError
from chatbot.text import clean

if TYPE_CHECKING:
    from chatbot.core.app import App


def _stderr(line: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr, flush=True)


def log_dirs() -> list[Path]:
    """Where an internal error's log may go, best first: ``logs/`` in the user data folder, then the temporary one."""
    import platformdirs

    return [platformdirs.user_data_path("chatbot") / "logs", Path(tempfile.gettempdir())]


def write_log(exc: BaseException) -> tuple[Path | None, str]:
    """Write ``exc``'s traceback to a new private (0600) log file: (its path, "") or (None, why it could not be)."""
    from chatbot import __version__

    stamp = datetime.now().strftime("%Y%m%dT%H%M%S")
    text = "".join(
        [
            f"chatbot {__version__}, Python {sys.version.split()[0]}, {datetime.now().isoformat(timespec='seconds')}\n",
            *traceback.format_exception(exc),
        ]
    )
    problem = ""
    for directory in log_dirs():
        path = directory / f"chatbot-internal-error-{stamp}-{os.getpid()}.log"
        try:
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8", errors="replace") as log:
                log.write(text)
            return path, ""
        except OSError as exc_log:
            problem = f"{directory}: {exc_log.strerror}"
    return None, problem


def report(exc: BaseException) -> int:
    """Tell the user about an unexpected ``exc`` in one line (the details go to a log file); the exit status."""
    try:
        path, problem = write_log(exc)
    except Exception as log_exc:  # noqa: BLE001 - the one line must come out whatever else is broken
        path, problem = None, f"{type(log_exc).__name__}: {log_exc}"
    where = f"details in {path}" if path else f"no log could be written: {problem}"
    message = " ".join(str(exc).split())[:300]
    _stderr(f"chatbot: internal error: {type(exc).__name__}: {clean(message)} ({where})")
    return INTERNAL_ERROR


def rescue_open_session(app: App) -> None:
    """Keep the session in use in a rescue file (the store's own format, never replacing a file) and say where.

    Called when a bug stops the app: what the session holds in memory may not be stored yet (a turn recorded but
    not saved). Nothing here raises: the bug itself is what the user must hear about.
    """
    from chatbot.storage.rescue import import_hint

    try:
        session = app.chat.session
        if not session.conversation.turns and not app.store.exists(session.id):
            return  # a new session with nothing in it: nothing to lose
        path, problem = app.keep()
    except ChatbotError:
        return  # no session is open
    except Exception as exc:  # noqa: BLE001 - a second fault must not hide the first
        return _stderr(f"chatbot: warning: the open session could not be kept in a rescue file ({exc!r})")
    if path is not None:
        _stderr(f"chatbot: warning: session {session.id} was kept in {path} ({import_hint(path)})")
    else:
        _stderr(f"chatbot: warning: session {session.id} could not be kept in a rescue file ({clean(problem)})")
