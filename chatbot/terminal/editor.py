"""Writing a message in an editor: Ctrl-X Ctrl-E at the prompt, or ``/editor``.

The editor is ``$EDITOR``, else ``$VISUAL``, else the first of ``editor`` (Debian's choice), ``nano`` and ``vi``
found on the PATH; the variable may hold arguments (``code --wait``). It edits a private temporary file holding what
was typed so far; what is saved is the message. A file left empty or gone (an editor that deletes it), or an editor
that exits with an error (vim's ``:cq``), sends nothing.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Callable

from prompt_toolkit.application import run_in_terminal
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from chatbot.errors import UsageError
from chatbot.text import is_blank

FALLBACK_EDITORS = ("editor", "nano", "vi")


def editor_command() -> list[str]:
    """The editor to run, as a command line (its file name goes last); UsageError when there is none."""
    for variable in ("EDITOR", "VISUAL"):
        value = os.environ.get(variable, "").strip()
        if value:
            try:
                return shlex.split(value)
            except ValueError as exc:
                raise UsageError(f"${variable} cannot be read as a command line ({exc}): {value!r}") from None
    for name in FALLBACK_EDITORS:
        found = shutil.which(name)
        if found:
            return [found]
    raise UsageError("no editor: set $EDITOR (for example EDITOR=nano)")


def edit_text(initial: str) -> str:
    """Let the user edit ``initial`` in their editor and return what they saved ("" when they left it empty, the
    editor failed or the file is gone); UsageError when no editor can be started."""
    command = editor_command()
    fd, path = tempfile.mkstemp(prefix="chatbot-message-", suffix=".md")  # 0600: only the user reads the draft
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(initial)
        try:
            done = subprocess.run([*command, path], check=False)
        except OSError as exc:
            raise UsageError(f"cannot start the editor {command[0]}: {exc.strerror or exc}") from None
        if done.returncode != 0:
            return ""  # the editor's own way to say "abandon this" (vim :cq)
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:  # the editor deleted (or replaced) its file: nothing was saved
            return ""
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
    text = text.removesuffix("\n")  # editors end a file with a newline the message does not need
    return "" if is_blank(text) else text


EMPTY = "the message was left empty: nothing sent"


def add_editor_key(kb: KeyBindings, say: Callable[[str, bool], None]) -> None:
    """Ctrl-X Ctrl-E (as in bash): edit the line typed so far in the editor, then send what was saved (nothing
    when the file was left empty: the prompt comes back cleared). ``say(text, is_error)`` tells the user."""

    @kb.add("c-x", "c-e")
    def _open_editor(event: KeyPressEvent) -> None:
        buffer = event.current_buffer

        def run() -> str | None:
            try:
                text = edit_text(buffer.text)
            except UsageError as exc:
                say(exc.message, True)
                return None
            if not text:
                say(EMPTY, False)
            return text

        async def edit() -> None:
            text = await run_in_terminal(run, in_executor=True)  # the prompt steps aside while the editor runs
            if text is None:
                return  # no editor: what was typed stays
            buffer.text = text
            if text:
                buffer.validate_and_handle()

        event.app.create_background_task(edit())
