"""Copying to the clipboard through the terminal: the OSC 52 escape sequence.

The terminal emulator itself sets the clipboard, so it works over ssh; tmux passes it on with
``set -g set-clipboard on``. Terminals that do not support OSC 52 ignore it.
"""

from __future__ import annotations

import base64


def osc52(text: str) -> str:
    """The escape sequence that puts ``text`` on the system clipboard."""
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return f"\x1b]52;c;{data}\x07"
