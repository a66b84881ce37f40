"""Ctrl-D pressed while the app is busy (a reply streaming, a slow command): the chat ends once it is done.

The prompt is not there to read keys while a reply streams, so the terminal holds them in its line mode; there
Ctrl-D on an empty line is an end of input that waits for the next read. The prompt, which reads the terminal key by
key, would get it as a stray NUL and drop it: the key was lost. A shell given Ctrl-D while a command runs ends once
the command is done; so does the chat. Read here, the end of input is also kept from the shell the user goes back to
(a shell that reads lines, such as sh, would take it and end too).
"""

from __future__ import annotations

import fcntl
import os
import select
import struct
import termios
from typing import IO


def ctrl_d_typed(stream: IO[str] | int) -> bool:
    """Whether Ctrl-D was pressed on the terminal ``stream`` (a file or its descriptor) and not read yet; every such
    Ctrl-D is read here. Text typed ahead is left for the prompt."""
    try:
        fd = stream if isinstance(stream, int) else stream.fileno()
    except (OSError, ValueError):  # replaced by something that is no file, or closed
        return False
    typed = False
    while _end_of_input_waits(fd):
        os.read(fd, 1)  # (reads nothing: it takes the end of input)
        typed = True
    return typed


def _end_of_input_waits(fd: int) -> bool:
    """An end of input comes next: the terminal, in line mode, is ready to be read and holds no characters."""
    try:
        if not os.isatty(fd) or not termios.tcgetattr(fd)[3] & termios.ICANON:
            return False
        if not select.select([fd], [], [], 0)[0]:
            return False
        (waiting,) = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))
    except (OSError, ValueError, termios.error):
        return False  # not a terminal we can ask (closed, a pipe): nothing was typed there
    return waiting == 0
