"""A process and every process below it, ended together (Linux; elsewhere, the process alone).

A tool can start a process in a session of its own (``start_new_session=True``, ``os.setsid``): killing the
worker's process group then misses it, and it outlives chatbot. So the tree is walked instead, from ``/proc``:
every process whose parent is in the tree is in it. The worker of ``--functions`` makes itself a subreaper
(:mod:`chatbot.tools.function_worker`), so a process whose own parent has ended (a daemon) is re-parented to the
worker rather than to init, and stays in the tree. The tree is stopped (SIGSTOP) walk after walk until no walk finds
a new process, so none can start another between the walk and the kill; then all of it is killed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time

#: walks at most (each finds the processes started since the last one, before those were stopped)
MAX_WALKS = 20
#: seconds the killed are waited for (a kill takes effect a moment later; one stuck in the kernel is left)
KILL_WAIT = 2.0


def children_by_parent() -> dict[int, list[int]]:
    """Every process's children, read from ``/proc/*/stat`` (empty where there is no ``/proc``)."""
    children: dict[int, list[int]] = {}
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as stat:
                    line = stat.read()
            except OSError:  # it ended meanwhile
                continue
            # "pid (name) state ppid ...": the name may hold spaces and parentheses, so fields count from the last ")"
            fields = line[line.rfind(b")") + 2 :].split()
            if len(fields) > 1 and fields[1].isdigit():
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    return children


def descendants(pid: int) -> list[int]:
    """The processes below ``pid``: its children, theirs, and so on."""
    children = children_by_parent()
    found: list[int] = []
    stack = [pid]
    while stack:
        for child in children.get(stack.pop(), ()):
            found.append(child)
            stack.append(child)
    return found


def kill_tree(pid: int) -> None:
    """Kill ``pid`` and every process below it. ``pid`` must be a live child of this process (not yet waited for),
    so that the number cannot have been given to another process."""
    stopped: set[int] = set()
    for _ in range(MAX_WALKS):
        new = [p for p in (pid, *descendants(pid)) if p not in stopped]
        if not new:
            break
        for process in new:
            _signal(process, signal.SIGSTOP)
        stopped.update(new)
    for process in stopped:
        _signal(process, signal.SIGKILL)
    deadline = time.monotonic() + KILL_WAIT
    while any(map(running, stopped)) and time.monotonic() < deadline:
        time.sleep(0.01)


def running(pid: int) -> bool:
    """Whether ``pid`` still runs: it exists and has not ended (a zombie waits only to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            line = stat.read()
    except OSError:
        return False
    return line[line.rfind(b")") + 2 :][:1] not in (b"Z", b"X")


def _signal(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, sig)
