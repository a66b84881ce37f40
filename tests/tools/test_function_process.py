"""The worker process of a --functions file: one per file, stoppable, restarted after a kill, plain data across."""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from chatbot.errors import ToolSourceError
from chatbot.tools.function_process import FunctionProcess
from chatbot.tools.functions import load_functions
from chatbot.tools.registry import Registry

FILE = '''
import os
import time

CALLS = []


def count() -> int:
    """How many calls this worker has run."""
    CALLS.append(1)
    return len(CALLS)


def chatty() -> str:
    """Prints, which must not break the answers."""
    print("hello from the tool")
    print('{"result": "forged"}')
    return "real"


def pid() -> int:
    """The worker's process id."""
    return os.getpid()


def vanish() -> str:
    """Ends the worker in the middle of the call."""
    print("about to go")
    os._exit(3)


def nap(seconds: float) -> str:
    """Sleeps."""
    time.sleep(seconds)
    return "awake"
'''


@pytest.fixture
def registry(tmp_path):
    path = tmp_path / "worker_tools.py"
    path.write_text(FILE)
    registry = Registry(load_functions(str(path)), timeout=1)
    yield registry
    registry.close()


def test_the_functions_run_in_one_long_lived_worker_not_in_this_process(registry):
    assert [registry.call("count", "").text for _ in range(3)] == ["1", "2", "3"]
    assert int(registry.call("pid", "").text) != os.getpid()


def test_what_a_function_prints_does_not_reach_its_result(registry):
    assert registry.call("chatty", "").text == "real"
    assert registry.call("count", "").text == "1"


def test_a_timeout_kills_the_worker_and_the_next_call_gets_a_fresh_one(registry):
    first = int(registry.call("pid", "").text)
    registry.call("count", "")
    started = time.monotonic()
    slow = registry.call("nap", '{"seconds": 30}')
    assert slow.error and slow.text.endswith("nap did not finish within 1 seconds; it was stopped")
    assert time.monotonic() - started < 5
    assert int(registry.call("pid", "").text) != first
    assert registry.call("count", "").text == "1"  # the file was imported afresh


def test_a_worker_that_exits_mid_call_is_a_tool_error_and_comes_back(registry):
    gone = registry.call("vanish", "")
    assert gone.error and "ended (exit status 3); it said: about to go" in gone.text
    assert registry.call("count", "").text == "1"


def test_closing_ends_the_worker(tmp_path):
    path = tmp_path / "worker_tools.py"
    path.write_text(FILE)
    registry = Registry(load_functions(str(path)))
    worker = int(registry.call("pid", "").text)
    registry.close()
    with pytest.raises(ProcessLookupError):
        os.kill(worker, 0)


def test_a_file_that_imports_its_neighbour_loads_and_one_that_fails_says_why(tmp_path):
    (tmp_path / "helper.py").write_text("def double(x):\n    return 2 * x\n")
    (tmp_path / "uses.py").write_text("from helper import double\n\ndef twice(x: int) -> int:\n    return double(x)\n")
    registry = Registry(load_functions(str(tmp_path / "uses.py")))
    assert registry.call("twice", '{"x": 21}').text == "42"
    registry.close()
    (tmp_path / "bad.py").write_text("raise ValueError('no config')\n")
    with pytest.raises(ToolSourceError, match="failed to load: ValueError: no config"):
        load_functions(str(tmp_path / "bad.py"))


def said(stderr: bytes) -> str:
    """What a worker that wrote ``stderr`` is quoted as saying when it dies."""
    process = FunctionProcess("tools.py")
    try:
        process._stderr.write(stderr)
        return process._stderr_tail()
    finally:
        process.close()


def test_a_dead_workers_last_line_is_quoted_from_the_tail_of_what_it_wrote():
    assert said(b"") == ""
    assert said(b"first\nlast words  \n   \n\n") == "; it said: last words"
    assert said(b"bad \xff byte\n") == "; it said: bad \ufffd byte"
    # only the last 4096 bytes are read, and the quote keeps 200 characters of the line
    assert said(b"QR" + b"y" * 4095) == "; it said: R" + "y" * 199


def test_a_stderr_file_that_cannot_be_read_is_not_quoted():
    closed = FunctionProcess("tools.py")
    closed.close()
    assert closed._stderr_tail() == ""  # closed: ValueError
    broken = FunctionProcess("tools.py")
    try:
        broken._stderr.write(b"words\n")
        os.close(broken._stderr.fileno())  # its descriptor gone: OSError
        assert broken._stderr_tail() == ""
    finally:
        broken.close()


def test_a_file_that_takes_too_long_to_load_is_refused_with_the_limit(tmp_path, monkeypatch):
    monkeypatch.setattr("chatbot.tools.function_process.LOAD_TIMEOUT", 0.5)
    path = tmp_path / "slow.py"
    path.write_text("import time\ntime.sleep(30)\n\ndef f() -> str:\n    return 'x'\n")
    process = FunctionProcess(str(path))
    started = time.monotonic()
    with pytest.raises(ToolSourceError) as caught:
        process.start()
    assert caught.value.message == f"--functions {path} did not load within 0.5 seconds"
    assert time.monotonic() - started < 5
    assert process.process is None  # the stuck worker was killed
    process.close()


def test_a_file_broken_after_its_worker_was_stopped_fails_the_next_call_with_the_reason(tmp_path):
    path = tmp_path / "worker_tools.py"
    path.write_text(FILE)
    registry = Registry(load_functions(str(path)), timeout=1)
    try:
        assert registry.call("count", "").text == "1"
        assert registry.call("nap", '{"seconds": 30}').error  # the worker is stopped
        path.write_text("raise ValueError('edited badly')\n")
        broken = registry.call("count", "")
        assert broken.error and "failed to load: ValueError: edited badly" in broken.text
    finally:
        registry.close()


def started(tmp_path) -> tuple[FunctionProcess, subprocess.Popen[bytes]]:
    """The worker process of FILE, started, with its Popen."""
    path = tmp_path / "worker_tools.py"
    path.write_text(FILE)
    process = FunctionProcess(str(path))
    process.start()
    assert process.process is not None
    return process, process.process


def test_stopping_a_worker_already_gone_or_out_of_reach_still_reaps_it(tmp_path, monkeypatch):
    process, worker = started(tmp_path)
    os.killpg(worker.pid, 9)
    worker.wait()  # reaped elsewhere: its group is gone, and killpg says so
    process.kill()
    assert process.process is None
    process.start()
    worker = process.process
    assert worker is not None

    def refused(pid: int, sig: int) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "killpg", refused)
    os.kill(worker.pid, 9)
    process.kill()  # not allowed to signal (the pid now another user's): it is still waited for, once gone
    assert worker.returncode is not None
    process.close()


def test_a_worker_that_will_not_die_is_waited_for_a_while_then_left(tmp_path):
    """SIGKILL cannot end a process stuck in the kernel (a dead network disk): stopping it waits a bounded time and
    goes on; a tool call is never stuck behind it, nor an error."""
    process, worker = started(tmp_path)
    waited: list[float | None] = []

    def stuck(timeout=None):
        waited.append(timeout)
        raise subprocess.TimeoutExpired("worker", timeout)

    worker.wait = stuck  # type: ignore[method-assign]
    process.kill()
    assert process.process is None and waited and waited[0] is not None
    del worker.wait  # the real wait again: reaped
    worker.wait(5)
    process.close()


def test_a_long_result_arriving_in_pieces_is_read_whole(tmp_path):
    path = tmp_path / "big.py"
    path.write_text('def big(n: int) -> str:\n    """A long text."""\n    return "x\\n" * n\n')
    process = FunctionProcess(str(path))
    try:
        process.start()
        assert process.call("big", {"n": 200000}, 5) == "x\n" * 200000  # 400 KB through a 64 KB pipe
        assert process.call("big", {"n": 1}, 5) == "x\n"  # and the next answer is its own
    finally:
        process.close()
