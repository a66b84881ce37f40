"""Counting this process's open file descriptors: a call that fails must not leave one behind."""

from __future__ import annotations

import gc
import os


def open_descriptors() -> set[str]:
    """The descriptors this process has open now (Linux: the entries of /proc/self/fd, less the one that lists
    them).

    Garbage is collected first: a file or connection an earlier test dropped is closed whenever the collector runs,
    and when that was during the call under test, a descriptor seemed to vanish (it did, in a run under mutmut).
    """
    gc.collect()
    listing = os.path.realpath("/proc/self/fd")
    found = set()
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{name}") != listing:
                found.add(name)
        except FileNotFoundError:  # the listing's own descriptor, closed by now
            pass
    return found
