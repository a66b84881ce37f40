"""Counting this process's open file descriptors: a call that fails must not leave one behind."""

from __future__ import annotations

import os


def open_descriptors() -> set[str]:
    """The descriptors this process has open now (Linux: the entries of /proc/self/fd, less the one that lists
    them)."""
    listing = os.path.realpath("/proc/self/fd")
    found = set()
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{name}") != listing:
                found.add(name)
        except FileNotFoundError:  # the listing's own descriptor, closed by now
            pass
    return found
