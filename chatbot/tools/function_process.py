"""``--functions`` tools run in a child process, so that a call that never returns can be stopped.

A Python function called in a thread of this process cannot be stopped: a runaway regex holds the GIL, and then
neither ``--tool-timeout`` nor SIGTERM gets a turn. So each ``--functions`` file gets ONE long-lived worker
process (:mod:`chatbot.tools.function_worker`), started once, that imports the file and runs the calls one at a
time. A call that outlives the timeout, or that Ctrl-C or a signal interrupts, kills the worker (its whole process
group); the next call starts a fresh one. Only plain JSON data crosses: arguments in, result text or an error line
out.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from chatbot.errors import ToolFailed, ToolSourceError
from chatbot.tools.base import Tool, ToolSpec

#: seconds the worker may take to import the file and list its functions
LOAD_TIMEOUT = 30.0
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


class FunctionProcess:
    """The worker process of one functions file: started, asked, killed and restarted from here."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.process: subprocess.Popen[bytes] | None = None
        # the functions' own prints and the worker's log: kept off the chat, quoted when the worker dies
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed with the process

    def start(self) -> list[ToolSpec]:
        """Start the worker and return the tools of the file. Raises ToolSourceError when it does not load."""
        self.process = subprocess.Popen(
            [sys.executable, *_SAFE_PATH, "-c", _BOOT, _ROOT, self.path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            start_new_session=True,  # its own process group: killed whole, and out of reach of the terminal's Ctrl-C
        )
        try:
            hello = self._answer(LOAD_TIMEOUT)
        except _Timeout:
            self.kill()
            raise ToolSourceError(f"--functions {self.path} did not load within {LOAD_TIMEOUT:g} seconds") from None
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
        except BaseException:  # Ctrl-C, SIGTERM: the call is abandoned, and with it the worker
            self.kill()
            raise
        if "error" in answer:
            raise ToolFailed(f"the tool raised {answer['error']}")
        return str(answer["result"])  # the worker answers every call with a result or an error

    def _answer(self, timeout: float) -> dict[str, Any]:
        """The worker's answer, waited for at most ``timeout`` seconds (signals still interrupt). The worker writes
        one line of JSON (newlines in it escaped) for each request and then waits for the next, so the answer is
        whole once what came ends with a newline."""
        assert self.process is not None and self.process.stdout is not None
        fd = self.process.stdout.fileno()
        deadline = time.monotonic() + timeout
        answer = b""
        while not answer.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Timeout
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                data = os.read(fd, 1 << 16)
                if not data:
                    raise self._died()
                answer += data
        return dict(json.loads(answer))

    def _died(self) -> ToolFailed:
        """The worker ended on its own (a function called os._exit, or the process was killed)."""
        assert self.process is not None
        code = self.process.wait()
        self.process = None
        return ToolFailed(f"the process running {self.path} ended (exit status {code}){self._stderr_tail()}")

    def _stderr_tail(self) -> str:
        with contextlib.suppress(OSError, ValueError):
            self._stderr.seek(0, os.SEEK_END)
            self._stderr.seek(max(0, self._stderr.tell() - 4096))
            lines = [ln for ln in self._stderr.read().decode("utf-8", "replace").splitlines() if ln.strip()]
            if lines:
                return f"; it said: {lines[-1].strip()[:200]}"
        return ""

    def kill(self) -> None:
        """Kill the worker and everything it started (its process group), and reap it."""
        process, self.process = self.process, None
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            process.wait(5)
        for stream in (process.stdin, process.stdout):
            with contextlib.suppress(Exception):
                stream.close()  # type: ignore[union-attr]

    def close(self) -> None:
        """End the worker: it is killed with its group (a stuck call cannot delay the exit)."""
        self.kill()
        with contextlib.suppress(OSError):
            self._stderr.close()


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
