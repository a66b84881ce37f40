"""Folder trees deeper or longer than a path may name, made a level at a time (each folder opened from the last)."""

from __future__ import annotations

import os
from pathlib import Path


def nested(top: Path, levels: int, name: str = "d") -> None:
    """``levels`` folders called ``name``, each inside the one before, under ``top``: deeper than recursion goes
    (``os.makedirs`` itself fails), and longer than the 4,096 bytes a path may have when the names are long."""
    fd = os.open(top, os.O_RDONLY)
    try:
        for _ in range(levels):
            os.mkdir(name, dir_fd=fd)
            fd, old = os.open(name, os.O_RDONLY, dir_fd=fd), fd
            os.close(old)
    finally:
        os.close(fd)


def remove_nested(top: Path, name: str = "d") -> None:
    """Remove what :func:`nested` made under ``top``, deepest first, without recursion (``shutil.rmtree``, and so
    pytest's own cleanup of its temporary folders, recurse a level a frame and fail past a thousand)."""
    fds = [os.open(top, os.O_RDONLY)]
    try:
        while True:  # down to the deepest folder, each opened from the one above
            try:
                fds.append(os.open(name, os.O_RDONLY, dir_fd=fds[-1]))
            except FileNotFoundError:
                break
        while len(fds) > 1:  # then up: each folder, empty by now, removed from its parent
            os.close(fds.pop())
            os.rmdir(name, dir_fd=fds[-1])
    finally:
        for fd in fds:
            os.close(fd)
