"""The worker process of a --functions file: one per file, stoppable, restarted after a kill, plain data across."""

from __future__ import annotations

import json
import os
import subprocess
import time

import pytest

from chatbot.errors import ToolSourceError
from chatbot.tools.function_process import FunctionProcess
from chatbot.tools.functions import load_functions
from chatbot.tools.process_tree import running
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
    # a file that ends its process as it loads is a load failure too (a usage error's status), not a failed call
    (tmp_path / "quits.py").write_text(
        "import os, sys\nprint('no licence', file=sys.stderr, flush=True)\nos._exit(9)\n"
    )
    with pytest.raises(
        ToolSourceError, match=r"quits.py failed to load: the process running .* ended \(exit status 9\)"
    ):
        load_functions(str(tmp_path / "quits.py"))


def said(*pieces: bytes) -> str:
    """What a worker that wrote ``pieces`` to stderr is quoted as saying when it dies."""
    process = FunctionProcess("tools.py")
    for piece in pieces:
        process.log.add(piece)
    return process.log.last_line()


def test_a_dead_workers_last_line_is_quoted_from_the_tail_of_what_it_wrote():
    assert said(b"") == ""
    assert said(b"first\nlast words  \n   \n\n") == "; it said: last words"
    assert said(b"bad \xff byte\n") == "; it said: bad \ufffd byte"
    # only the last 4096 bytes are kept, and the quote keeps 200 characters of the line
    assert said(b"QR" + b"y" * 4095) == "; it said: R" + "y" * 199
    assert said(b"Q", b"R" + b"y" * 1000, b"y" * 3095) == "; it said: R" + "y" * 199


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


def test_a_long_result_crosses_cut_with_its_length_and_the_next_answer_is_its_own(tmp_path):
    path = tmp_path / "big.py"
    path.write_text('def big(n: int) -> str:\n    """A long text."""\n    return "x\\n" * n\n')
    process = FunctionProcess(str(path))
    try:
        process.start()
        text = process.call("big", {"n": 200000}, 5)  # 400 KB made, 16,000 characters sent
        assert text == "x\n" * 8000 and getattr(text, "length", None) == 400_000
        assert process.call("big", {"n": 1}, 5) == "x\n"  # and the next answer is its own
    finally:
        process.close()


HOSTILE = """
import fcntl
import os
import stat
import subprocess
import sys
import time


def huge(megabytes: int) -> str:
    \"\"\"A result of that many megabytes.\"\"\"
    return "y" * (megabytes << 20)


def chatter(megabytes: int) -> str:
    \"\"\"Prints that many megabytes, then answers.\"\"\"
    line = "z" * 1023 + "\\n"
    for _ in range(megabytes << 10):
        sys.stdout.write(line)
    sys.stdout.flush()
    return "done"


def forge() -> str:
    \"\"\"Writes two megabytes with no newline straight onto the answer pipe.\"\"\"
    for fd in range(3, 64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode) and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:
                os.write(fd, b"[" * (2 << 20))
        except OSError:
            continue
    return "never read"


def _daemon(pid_file: str) -> None:
    child = subprocess.Popen(["sleep", "300"], start_new_session=True)
    with open(pid_file, "w") as out:
        out.write(str(child.pid))


def hang(pid_file: str) -> str:
    \"\"\"Starts a sleep in a session of its own, then never returns.\"\"\"
    _daemon(pid_file)
    time.sleep(300)
    return "never"


def detach(pid_file: str) -> str:
    \"\"\"Starts a daemon the classic way: a child that starts a sleep in a new session and exits.\"\"\"
    if os.fork() == 0:
        os.setsid()
        _daemon(pid_file)
        os._exit(0)
    os.wait()
    return "detached"
"""


@pytest.fixture
def hostile(tmp_path):
    path = tmp_path / "hostile.py"
    path.write_text(HOSTILE)
    registry = Registry(load_functions(str(path)), timeout=10)
    yield registry
    registry.close()


def test_a_100_mb_result_is_read_in_linear_time_and_cut_with_its_size(hostile):
    started = time.monotonic()
    outcome = hostile.call("huge", '{"megabytes": 100}')
    assert not outcome.error, outcome.text
    assert outcome.text == "y" * 16_000 + f"\n[result cut: 16,000 of {100 << 20:,} characters kept]"
    assert time.monotonic() - started < 5  # it was 56 s, the whole answer read piece by piece onto a growing copy


def test_a_tool_that_prints_100_mb_has_it_dropped_and_its_result_says_so(hostile):
    outcome = hostile.call("chatter", '{"megabytes": 100}')
    assert outcome.text == (
        f"[the tool also printed {100 << 20:,} bytes, which were dropped: only what it returns is its result]\ndone"
    )
    process = hostile._tools["chatter"].process  # type: ignore[attr-defined]
    assert len(process.log.tail) == 4096 and process.log.total == 100 << 20  # counted, not kept
    assert hostile.call("chatter", '{"megabytes": 0}').text == "done"  # a call that prints little is told nothing


def test_an_answer_flooded_past_the_limit_stops_the_worker(hostile):
    outcome = hostile.call("forge", "")
    assert outcome.error and outcome.text == "Error: the answer of forge was over 1,048,576 bytes; it was stopped"
    assert hostile.call("huge", '{"megabytes": 0}').text == ""  # a fresh worker answers


def wait_for_pid(pid_file) -> int:
    deadline = time.monotonic() + 10
    while not (pid_file.exists() and pid_file.read_text()):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return int(pid_file.read_text())


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="the tree is walked in /proc")
def test_a_process_a_tool_started_in_a_session_of_its_own_ends_with_the_timed_out_worker(tmp_path):
    path = tmp_path / "hostile.py"
    path.write_text(HOSTILE)
    registry = Registry(load_functions(str(path)), timeout=1)
    try:
        pid_file = tmp_path / "sleep.pid"
        outcome = registry.call("hang", json.dumps({"pid_file": str(pid_file)}))
        assert outcome.error and "did not finish within 1 seconds; it was stopped" in outcome.text
        assert not running(wait_for_pid(pid_file))
    finally:
        registry.close()


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="the tree is walked in /proc")
def test_a_daemon_a_tool_left_behind_ends_when_the_tools_are_closed(tmp_path, hostile):
    pid_file = tmp_path / "daemon.pid"
    assert hostile.call("detach", json.dumps({"pid_file": str(pid_file)})).text == "detached"
    sleeper = wait_for_pid(pid_file)
    assert running(sleeper)  # its parent is gone: it was re-parented to the worker, not to init
    hostile.close()
    assert not running(sleeper)
