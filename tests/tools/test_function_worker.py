"""The worker that runs a --functions file, driven in this process: its loop served over real pipes put on
descriptors 0 and 1, as the parent process (chatbot.tools.function_process) puts them."""

from __future__ import annotations

import ctypes
import json
import locale
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from chatbot.tools.function_worker import _call, _die_with_parent, _send, main
from tests.support.fds import open_descriptors

PR_SET_PDEATHSIG, PR_GET_PDEATHSIG = 1, 2

WORKER_FILE = '''
import os


def echo(text: str, times: int = 1) -> str:
    """Gives its text back."""
    return text * times


def plumbing() -> str:
    """Writes to descriptor 1 and reads descriptor 0, as print() and input() would."""
    os.write(1, b"noise for stdout\\n")
    return repr(os.read(0, 100))


def fails(reason: str) -> str:
    """Raises."""
    raise ValueError(reason)
'''


def death_signal() -> int:
    """The signal this thread gets when its parent process dies (0: none)."""
    sig = ctypes.c_int(-1)
    ctypes.CDLL(None, use_errno=True).prctl(PR_GET_PDEATHSIG, ctypes.byref(sig), 0, 0, 0)
    return sig.value


def set_death_signal(sig: int) -> None:
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)


@dataclass
class Served:
    """What the worker sent, and the state it left its process in while it served."""

    answers: list[dict[str, Any]]
    sigint: Any
    death_signal: int
    first_on_path: str


def serve(path: str, requests: bytes) -> Served:
    """Run the worker's ``main(path)`` in this process with ``requests`` waiting on descriptor 0 and a pipe on
    descriptor 1, until it has read them all; then put back what it changed (descriptors, SIGINT, sys.path, the
    modules it imported, its death signal)."""
    saved_in, saved_out = os.dup(0), os.dup(1)
    saved_sigint, saved_path, saved_modules = signal.getsignal(signal.SIGINT), list(sys.path), set(sys.modules)
    saved_death_signal = death_signal()
    set_death_signal(0)  # so that what main sets shows
    requests_r, requests_w = os.pipe()
    answers_r, answers_w = os.pipe()
    os.write(requests_w, requests)
    os.close(requests_w)
    os.dup2(requests_r, 0)
    os.dup2(answers_w, 1)
    os.close(requests_r)
    os.close(answers_w)
    try:
        main(path)
        state = (signal.getsignal(signal.SIGINT), death_signal(), sys.path[0])
    finally:
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        os.close(saved_in)
        os.close(saved_out)
        signal.signal(signal.SIGINT, saved_sigint)
        sys.path[:] = saved_path
        for name in set(sys.modules) - saved_modules:
            del sys.modules[name]
        set_death_signal(saved_death_signal)
    os.set_blocking(answers_r, False)
    try:
        sent = os.read(answers_r, 1 << 16)
    finally:
        os.close(answers_r)
    return Served([json.loads(line) for line in sent.decode().splitlines()], *state)


@pytest.fixture
def worker_file(tmp_path: Path) -> Path:
    path = tmp_path / "worker_tools.py"
    path.write_text(WORKER_FILE)
    return path


def request(name: str, **arguments: Any) -> bytes:
    return json.dumps({"name": name, "arguments": arguments}).encode() + b"\n"


def test_the_worker_lists_its_tools_then_answers_each_request_line(worker_file):
    served = serve(
        str(worker_file),
        request("echo", text="ab", times=2) + b"not json\n" + request("fails", reason="no") + request("missing"),
    )
    assert served.answers == [
        {
            "tools": [
                {
                    "name": "echo",
                    "description": "Gives its text back.",
                    "parameters": {
                        "type": "object",
                        "properties": {"text": {"type": "string"}, "times": {"type": "integer", "default": 1}},
                        "additionalProperties": False,
                        "required": ["text"],
                    },
                },
                {
                    "name": "plumbing",
                    "description": "Writes to descriptor 1 and reads descriptor 0, as print() and input() would.",
                    "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
                },
                {
                    "name": "fails",
                    "description": "Raises.",
                    "parameters": {
                        "type": "object",
                        "properties": {"reason": {"type": "string"}},
                        "additionalProperties": False,
                        "required": ["reason"],
                    },
                },
            ]
        },
        {"result": "abab", "length": 4},  # the line that is not JSON is skipped, the next one still answered
        {"error": "ValueError: no"},
        {"error": "no function 'missing' in this file"},
    ]


def test_a_tools_prints_and_reads_stay_off_the_protocol(worker_file, capfd):
    # a long request behind it: more than the worker has read ahead, so descriptor 0 would still hold some of it
    long = "x" * 30_000
    served = serve(str(worker_file), request("plumbing") + request("echo", text=long))
    # it read an empty input, not a request; and a result crosses cut to what a result can hold, with its length
    assert served.answers[1:] == [{"result": "b''", "length": 3}, {"result": long[:16_000], "length": 30_000}]
    assert "noise for stdout" in capfd.readouterr().err  # descriptor 1 became stderr


def test_requests_are_read_as_utf8_whatever_the_locale_and_a_bad_byte_is_still_answered(worker_file):
    saved = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")  # an ASCII locale
    try:
        served = serve(
            str(worker_file),
            '{"name": "echo", "arguments": {"text": "한"}}\n'.encode()
            + b'{"name": "echo", "arguments": {"text": "a\xffb"}}\n',
        )
    finally:
        locale.setlocale(locale.LC_CTYPE, saved)
    assert served.answers[1:] == [{"result": "한", "length": 1}, {"result": "a\ufffdb", "length": 3}]


def test_serving_ignores_ctrl_c_dies_with_its_parent_and_leaves_no_descriptor_open(worker_file):
    before = open_descriptors()
    served = serve(str(worker_file), request("echo", text="x"))
    assert served.sigint == signal.SIG_IGN  # Ctrl-C is the parent's: it stops the worker itself
    assert served.death_signal == signal.SIGKILL
    assert open_descriptors() == before


def test_the_files_folder_comes_first_on_the_path_so_it_imports_its_neighbours(tmp_path, monkeypatch):
    (tmp_path / "helper_for_worker.py").write_text("def double(x):\n    return 2 * x\n")
    (tmp_path / "uses.py").write_text(
        "from helper_for_worker import double\n\n\ndef twice(x: int) -> int:\n    return double(x)\n"
    )
    monkeypatch.chdir(tmp_path)
    served = serve("uses.py", request("twice", x=21))
    assert served.first_on_path == str(tmp_path)  # absolute: a later change of folder does not lose it
    assert served.answers[1:] == [{"result": "42", "length": 2}]


def test_a_file_that_does_not_load_is_answered_with_why_and_nothing_more(tmp_path):
    (tmp_path / "bad.py").write_text("raise ValueError('no config')\n")
    served = serve(str(tmp_path / "bad.py"), request("anything"))
    why = f"--functions {tmp_path / 'bad.py'} failed to load: ValueError: no config"
    assert served.answers == [{"load_error": why}]


def test_a_call_answers_its_result_or_what_it_raised():
    def hello(name: str = "you") -> str:
        return f"hello {name}"

    def nothing() -> None:
        return None

    def leaves() -> str:
        raise SystemExit(3)

    def interrupted() -> str:
        raise KeyboardInterrupt

    functions = {"hello": hello, "nothing": nothing, "leaves": leaves, "interrupted": interrupted}
    assert _call(functions, {"name": "hello", "arguments": {"name": "Ann"}}) == {"result": "hello Ann", "length": 9}
    assert _call(functions, {"name": "hello"}) == {"result": "hello you", "length": 9}  # no arguments: none passed
    assert _call(functions, {"name": "nothing"}) == {"result": "null", "length": 4}
    assert _call(functions, {"name": "leaves"}) == {"error": "SystemExit: 3"}
    assert _call(functions, {"name": "interrupted"}) == {"error": "KeyboardInterrupt: "}
    assert _call(functions, {}) == {"error": "no function None in this file"}


def test_each_answer_is_one_ascii_json_line_sent_at_once():
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    with os.fdopen(write_end, "w", encoding="utf-8") as answers:
        _send(answers, {"result": "한 \ud800"})
        assert os.read(read_end, 1024) == b'{"result": "\\ud55c \\ud800"}\n'  # there before the next request
    os.close(read_end)


def test_the_worker_asks_to_be_killed_with_its_parent():
    saved = death_signal()
    set_death_signal(0)
    try:
        _die_with_parent()
        assert death_signal() == signal.SIGKILL
    finally:
        set_death_signal(saved)
