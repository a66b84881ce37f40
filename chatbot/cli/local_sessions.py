"""Sessions from the current folder's ``./sessions``: the first resume of one shows what it brings.

chatbot uses ``./sessions`` when the working directory has one (a checkout's own layout), so a cloned repository
can ship a session, with a system prompt, a summary and model options (its summaries' too) the user never wrote;
``-c`` picks the newest (a planted file can claim any date) and sends those hidden instructions with the next
message. So the first time a session of ``./sessions`` is resumed (``-c``, ``--session ID``), one notice names the
folder and shows the session's system prompt, summary and options before anything is sent. Sessions the user started
there, and sessions shown once, are remembered in ``known-sessions`` in the user data folder (outside any clone) and
resumed quietly after.
A store chosen explicitly (``--store``, ``$CHATBOT_STORE``) or the user data folder's sessions are the user's own
choice and never noticed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chatbot.storage.session import Session

_SHOWN = 600  # characters of a system prompt or summary shown; the notice gives the whole length past that


def known_file() -> Path:
    """Where the sessions already seen in folders' ``./sessions`` are listed (one ``folder/id`` a line)."""
    import platformdirs

    return platformdirs.user_data_path("chatbot") / "known-sessions"


def _key(folder: Path, session_id: str) -> str:
    return str(folder.resolve() / session_id)


def is_known(folder: Path, session_id: str) -> bool:
    """Whether the session ``session_id`` of ``folder`` was started or shown here before."""
    try:
        lines = known_file().read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return False
    return _key(folder, session_id) in lines


def remember(folder: Path, session_id: str) -> None:
    """List the session as known (best effort: a user data folder that cannot be written only means more notices)."""
    path = known_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as out:
            out.write(_key(folder, session_id) + "\n")
    except OSError:
        pass


def _shown(text: str) -> str:
    quoted = json.dumps(text[:_SHOWN], ensure_ascii=False)  # one line: newlines show as \n
    if len(text) <= _SHOWN:
        return quoted
    return f"{quoted} … ({len(text)} characters in all; /system and /summary show them)"


def first_resume_notice(folder: Path, session: Session) -> str:
    """The one line shown before a session of ``folder`` (this directory's ./sessions) is first resumed."""
    conv = session.conversation
    parts = [f"system prompt {_shown(conv.system)}"]
    if conv.summary:
        parts.append(f"summary of turns 1-{conv.summary_covers} {_shown(conv.summary)}")
    parts.append(f"options {json.dumps(session.options, ensure_ascii=False)}" if session.options else "no options")
    model, options = session.rule.get("summary_model"), session.rule.get("summary_options")
    if model or options:  # its summaries go to this model, with these options (the rule it keeps)
        summaries = f"summary model {model}" if model else "summaries"
        parts.append(summaries + (f" with options {json.dumps(options, ensure_ascii=False)}" if options else ""))
    return (
        f"session {session.id} is from ./sessions of this directory ({folder.resolve()}), resumed here for the first "
        f"time; with its {len(conv.turns)} turn(s) it sends its own {'; '.join(parts)}"
    )
