"""Process-wide guards the command installs first: signals, standard streams, output encoding.

- SIGTERM and SIGHUP (the terminal closed) raise :class:`~chatbot.errors.Interrupted`, handled like Ctrl-C: the
  partial answer is kept and marked, the session saved, and the process ends with 128 + the signal number.
- SIGXFSZ (``ulimit -f`` reached) is ignored, so a write over the limit fails with an error the app reports
  instead of killing the process mid-save.
- Output encoding is total: what the terminal's encoding cannot show (a lone surrogate) is replaced, not raised.
- A closed standard stream is reopened on /dev/null, so that no file the app opens can land on descriptor 1 and
  receive the output; the caller refuses to run without stdout.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

from chatbot.errors import Interrupted

_NAMES = {0: "input", 1: "output", 2: "error"}


def _raise_interrupted(signum: int, frame: FrameType | None) -> None:
    signal.signal(signum, signal.SIG_DFL)  # a second signal ends the process at once
    raise Interrupted.by_signal(signum)


def guard_process() -> list[str]:
    """Install the guards; returns the names of standard streams that were closed ("output", ...)."""
    closed = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.append(_NAMES[fd])
            devnull = os.open(os.devnull, os.O_RDWR)
            if devnull != fd:
                os.dup2(devnull, fd)
                os.close(devnull)
    if closed:
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - the process's own stream
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    # Undecodable input bytes become U+FFFD rather than a crash (and never reach a request as lone surrogates).
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _raise_interrupted)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    return [name for name in closed if name == "output"]


def quiet_stdout() -> None:
    """Point stdout at /dev/null: the interpreter's final flush must not fail once more on a dead output."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
