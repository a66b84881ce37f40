"""``--functions`` tools run in a child process, so that a call that never returns can be stopped.

A Python function called in a thread of this process cannot be stopped: a runaway regex holds the GIL, and then
neither ``--tool-timeout`` nor SIGTERM gets a turn. So each ``--functions`` file gets ONE long-lived worker
process (:mod:`chatbot.tools.function_worker`), started once, that imports the file and runs the calls one at a
time. A call that outlives the timeout, or that Ctrl-C or a signal interrupts, kills the worker (with every process
below it: :mod:`chatbot.tools.process_tree`); the next call starts a fresh one. Only plain JSON data crosses:
arguments in, result text (cut by the worker) or an error line out, read in linear time and at most
:data:`MAX_ANSWER_BYTES`. What the functions print goes to the worker's stderr, a pipe read here as it comes: its
last lines are kept, to be quoted when the worker dies, and the rest is dropped (a tool that floods it is told so).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from chatbot.errors import ToolFailed, ToolSourceError
from chatbot.tools.base import Kept, Tool, ToolSpec
from chatbot.tools.process_tree import kill_tree

#: seconds the worker may take to import the file and list its functions
LOAD_TIMEOUT = 30.0
#: an answer of the worker larger than this is refused (a result crosses cut to 16,000 characters: 200 KB at most)
MAX_ANSWER_BYTES = 1 << 20
#: the bytes of the worker's stderr kept (the last ones): the line quoted when it dies is among them
LOG_TAIL_BYTES = 4096
#: a call that prints more than this many bytes gets a note in its result: the output was dropped
MAX_PRINTED_BYTES = 1 << 16
# the worker imports the very package this process runs, never a module planted in the current folder (-c puts ""
# first on the path; -P, Python 3.11+, keeps it off from the start)
_ROOT = str(Path(__file__).resolve().parents[2])
_BOOT = (
    "import sys; sys.path[:] = [sys.argv[1], *(p for p in sys.path if p)]; "
    "from chatbot.tools.function_worker import main; main(sys.argv[2])"
)
_SAFE_PATH = ["-P"] if sys.version_info >= (3, 11) else []


class _Timeout(Exception):
    pass


class _TooLarge(Exception):
    pass


class _Log:
    """The worker's stderr as it is read: its last :data:`LOG_TAIL_BYTES` kept, the rest counted and dropped."""

    def __init__(self) -> None:
        self.tail = bytearray()
        self.total = 0

    def add(self, data: bytes) -> None:
        self.total += len(data)
        self.tail += data
        del self.tail[:-LOG_TAIL_BYTES]

    def last_line(self) -> str:
        """The last line that is not blank, as the worker's last words ("; it said: ..."), or ""."""
        lines = [ln for ln in self.tail.decode("utf-8", "replace").splitlines() if ln.strip()]
        return f"; it said: {lines[-1].strip()[:200]}" if lines else ""


class FunctionProcess:
    """The worker process of one functions file: started, asked, killed and restarted from here."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.process: subprocess.Popen[bytes] | None = None
        # the functions' own prints and the worker's log: kept off the chat, quoted when the worker dies
        self.log = _Log()

    def start(self) -> list[ToolSpec]:
        """Start the worker and return the tools of the file. Raises ToolSourceError when it does not load."""
        self.process = subprocess.Popen(
            [sys.executable, *_SAFE_PATH, "-c", _BOOT, _ROOT, self.path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group: killed whole, and out of reach of the terminal's Ctrl-C
        )
        try:
            hello = self._answer(LOAD_TIMEOUT)
        except _Timeout:
            self.kill()
            raise ToolSourceError(f"--functions {self.path} did not load within {LOAD_TIMEOUT:g} seconds") from None
        except _TooLarge:
            self.kill()
            raise ToolSourceError(f"--functions {self.path}: its tools are over {MAX_ANSWER_BYTES:,} bytes") from None
        except ToolFailed as exc:  # the file ended its process while it loaded (os._exit): a load failure as any
            raise ToolSourceError(f"--functions {self.path} failed to load: {exc.message}") from None
        except BaseException:
            self.kill()
            raise
        if "load_error" in hello:
            self.kill()
            raise ToolSourceError(str(hello["load_error"]))
        return [
            ToolSpec(str(t["name"]), str(t["description"]), dict(t["parameters"]), self.path) for t in hello["tools"]
        ]

    def call(self, name: str, arguments: dict[str, Any], timeout: float) -> str:
        """Run ``name`` in the worker; its result text, or ToolFailed. A call that outlives ``timeout`` (or is
        interrupted) kills the worker; the next call starts another."""
        if self.process is None:
            try:
                self.start()  # after a kill: the same file, imported afresh
            except ToolSourceError as exc:
                raise ToolFailed(exc.message) from None
        assert self.process is not None and self.process.stdin is not None
        printed = self.log.total
        try:
            try:
                self.process.stdin.write(json.dumps({"name": name, "arguments": arguments}).encode() + b"\n")
                self.process.stdin.flush()
            except OSError:  # it ended between calls
                raise self._died() from None
            answer = self._answer(timeout)
        except _Timeout:
            self.kill()
            raise ToolFailed(f"{name} did not finish within {timeout:g} seconds; it was stopped") from None
        except _TooLarge:
            self.kill()
            raise ToolFailed(f"the answer of {name} was over {MAX_ANSWER_BYTES:,} bytes; it was stopped") from None
        except BaseException:  # Ctrl-C, SIGTERM: the call is abandoned, and with it the worker
            self.kill()
            raise
        if "error" in answer:
            raise ToolFailed(f"the tool raised {answer['error']}")
        return _result(answer, self.log.total - printed)

    def _answer(self, timeout: float) -> dict[str, Any]:
        """The worker's answer, waited for at most ``timeout`` seconds (signals still interrupt), its stderr read
        meanwhile. The worker writes one line of JSON (newlines in it escaped) for each request and then waits for
        the next, so the answer is whole once what came ends with a newline."""
        assert self.process is not None and self.process.stdout is not None and self.process.stderr is not None
        out, err = self.process.stdout.fileno(), self.process.stderr.fileno()
        watched = [out, err]
        deadline = time.monotonic() + timeout
        chunks: list[bytes] = []  # (joined once: adding bytes to bytes piece by piece takes quadratic time)
        size = 0
        while not (chunks and chunks[-1].endswith(b"\n")):
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Timeout
            ready, _, _ = select.select(watched, [], [], left)
            if err in ready and not self._read_log(err):
                watched.remove(err)  # closed: the worker is ending, its answer pipe tells
            if out in ready:
                data = os.read(out, 1 << 16)
                if not data:
                    raise self._died()
                chunks.append(data)
                size += len(data)
                if size > MAX_ANSWER_BYTES:
                    raise _TooLarge
        return dict(json.loads(b"".join(chunks)))

    def _read_log(self, fd: int) -> bool:
        """Read what is waiting on the worker's stderr into the log; False at its end."""
        data = os.read(fd, 1 << 16)
        self.log.add(data)
        return bool(data)

    def _died(self) -> ToolFailed:
        """The worker ended on its own (a function called os._exit, or the process was killed)."""
        assert self.process is not None
        code = self.process.wait()
        with contextlib.suppress(OSError, ValueError):  # its last words, as far as they came (a child may hold it)
            err = self.process.stderr.fileno()  # type: ignore[union-attr]
            while select.select([err], [], [], 0)[0] and self._read_log(err):
                pass
        self.kill()
        return ToolFailed(f"the process running {self.path} ended (exit status {code}){self.log.last_line()}")

    def kill(self) -> None:
        """Kill the worker and everything it started, and reap it. Every process below it is ended (a process
        started in a session of its own too: :func:`~chatbot.tools.process_tree.kill_tree`), then its process
        group (where there is no ``/proc`` to walk)."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:  # not yet waited for: its number is still its own
            kill_tree(process.pid)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            process.wait(5)
        for stream in (process.stdin, process.stdout, process.stderr):
            with contextlib.suppress(Exception):
                stream.close()  # type: ignore[union-attr]

    def close(self) -> None:
        """End the worker: it is killed with what it started (a stuck call cannot delay the exit)."""
        self.kill()


def _result(answer: dict[str, Any], printed: int) -> str:
    """A call's result from the worker's answer: its text as the worker cut it, with its length; when the call
    printed more than :data:`MAX_PRINTED_BYTES`, a note first that the output was dropped."""
    text = str(answer["result"])  # the worker answers every call with a result or an error
    length = int(answer.get("length", len(text)))
    if printed > MAX_PRINTED_BYTES:
        note = f"[the tool also printed {printed:,} bytes, which were dropped: only what it returns is its result]\n"
        text, length = note + text, len(note) + length
    return Kept(text, length) if length > len(text) else text


class ProcessTool(Tool):
    """One function of a ``--functions`` file, run by the file's worker process."""

    def __init__(self, process: FunctionProcess, spec: ToolSpec) -> None:
        self.process = process
        self.spec = spec

    def run(self, arguments: dict[str, Any], timeout: float) -> str:
        """Run the call in the worker; ToolFailed after ``timeout`` seconds (the worker is stopped)."""
        return self.process.call(self.spec.name, arguments, timeout)

    def close(self) -> None:
        """Stop the worker (shared by the file's tools; closing twice is harmless)."""
        self.process.close()
