"""Junk from a server, a malformed flag or file, a bug of the app's own: one ``chatbot:`` line, never a traceback."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from tests.support.cli import ROOT, assert_clean, one_error_line, openai_flags, run_chatbot
from tests.support.hostile_server import Answer, HostileServer, reply

#: what servers have sent as ``tool_calls``: not a list, a list of non-objects, an object whose function is a string
JUNK_TOOL_CALLS = ["abc", 5, [5], {"function": "x"}, [{"function": "x"}], [{"index": "a", "function": {"name": 5}}]]


def sse(body: object) -> bytes:
    return b"data: " + json.dumps(body).encode() + b"\n\n"


@pytest.mark.parametrize("junk", JUNK_TOOL_CALLS, ids=repr)
def test_junk_tool_calls_in_a_stream_are_skipped(tmp_path, junk):
    odd = sse({"choices": [{"index": 0, "delta": {"content": "ok", "tool_calls": junk}}]})
    with HostileServer(Answer(events=[odd, *reply(" fine")])) as server:
        result = run_chatbot(*openai_flags(server.base_url), "-p", "hi", cwd=tmp_path)
    assert_clean(result)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ok fine\n" and "Warning" not in result.stderr


@pytest.mark.parametrize("junk", JUNK_TOOL_CALLS, ids=repr)
def test_junk_tool_calls_in_a_whole_answer_are_skipped(tmp_path, junk):
    message = {"role": "assistant", "content": "whole", "tool_calls": junk}
    body = {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}
    with HostileServer(Answer(body=json.dumps(body).encode(), content_type="application/json")) as server:
        result = run_chatbot(*openai_flags(server.base_url), "--no-stream", "-p", "hi", cwd=tmp_path)
    assert_clean(result)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "whole\n" and "Warning" not in result.stderr


@pytest.mark.parametrize(
    ("body", "listed"),
    [
        ({"data": [5, {"id": None}, {"id": {"x": 1}}, "m2", {"id": "good"}]}, "  good\n"),
        ({"data": [{"id": None}]}, "the endpoint of provider openai lists no models; name one with --model\n"),
    ],
)
def test_junk_entries_in_the_model_list_are_skipped(tmp_path, body, listed):
    with HostileServer(Answer(body=json.dumps(body).encode(), content_type="application/json")) as server:
        result = run_chatbot(*openai_flags(server.base_url), "--list-models", cwd=tmp_path)
    assert_clean(result)
    assert result.returncode == 0, result.stderr
    assert result.stdout == listed


@pytest.mark.parametrize("body", [b'{"data": 5}', b'{"data": "abc"}', b"[1]", b"<html>hello</html>"])
def test_a_model_list_that_is_not_one_is_named(tmp_path, body):
    with HostileServer(Answer(body=body, content_type="application/json")) as server:
        result = run_chatbot(*openai_flags(server.base_url), "--list-models", cwd=tmp_path)
    assert result.returncode == 5
    assert "answered the list of models with something else" in one_error_line(result)


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("postgresql://h:notaport/db", "Port could not be cast"),
        ("postgresql://[::1/db", "Invalid IPv6 URL"),
        ("postgresql://u:secret@h:99999/db", "Port out of range"),
    ],
)
def test_a_malformed_store_url_is_one_line_with_status_2(tmp_path, url, why):
    result = run_chatbot("--provider", "echo", "--store", url, "-p", "hi", cwd=tmp_path)
    assert result.returncode == 2
    line = one_error_line(result)
    assert "not a valid postgresql:// URL" in line and why in line and "secret" not in result.stderr


@pytest.mark.parametrize(
    "nested",
    ["a = " + "[" * 100_000 + "]" * 100_000, "a = " + "{b=" * 5000 + "1" + "}" * 5000],
    ids=["arrays", "tables"],
)
def test_a_config_file_nested_too_deeply_is_one_config_error(tmp_path, nested):
    (tmp_path / "config.toml").write_text(nested + "\n")
    result = run_chatbot("--provider", "echo", "-p", "hi", cwd=tmp_path)
    assert result.returncode == 2
    assert "nested too deeply" in one_error_line(result)


# --- the last line of defence: a bug of the app's own -----------------------------------------------------------

# loaded by the child's interpreter at start-up (sitecustomize, found on PYTHONPATH): the chat's accounting breaks
# after a turn is recorded and before it is saved, as a bug there would
FAULT = """
import chatbot.engine.usage

def broken(self, *args, **kwargs):
    raise RuntimeError("injected fault: the totals cannot be added up")

chatbot.engine.usage.Totals.add_request = broken
"""


def run_with_fault(tmp_path, *args: str, stdin: str = ""):
    plugin = tmp_path / "fault"
    plugin.mkdir()
    (plugin / "sitecustomize.py").write_text(FAULT)
    pythonpath = f"{plugin}{os.pathsep}{ROOT}"
    return run_chatbot(*args, cwd=tmp_path, stdin=stdin, env={"PYTHONPATH": pythonpath, "CHATBOT_ECHO_DELAY": "0"})


def test_a_bug_is_one_line_with_status_70_and_the_traceback_in_a_private_log(tmp_path):
    result = run_with_fault(tmp_path, "--provider", "echo", "--session", "s1", "-p", "remember the milk")
    assert result.returncode == 70
    line = one_error_line(result)
    assert line.startswith("chatbot: internal error: RuntimeError: injected fault: the totals cannot be added up")
    log = Path(line.rsplit("(details in ", 1)[1].rstrip(")"))
    assert log.is_relative_to(tmp_path / ".data") and stat.S_IMODE(log.stat().st_mode) == 0o600
    assert "Traceback" in log.read_text() and "add_request" in log.read_text()


def test_a_bug_after_a_turn_was_shown_keeps_the_turn_in_a_rescue_file(tmp_path):
    result = run_with_fault(tmp_path, "--provider", "echo", "--session", "s1", stdin="remember the milk\n")
    assert result.returncode == 70 and "remember the milk" in result.stdout  # the reply was shown...
    assert not (tmp_path / "sessions" / "s1.json").exists()  # ...and never saved: the bug came first
    [kept] = [line for line in result.stderr.splitlines() if line.startswith("chatbot: warning: session s1 was kept")]
    rescued = Path(kept.split(" was kept in ", 1)[1].split(" (`chatbot --import-sessions", 1)[0])
    turns = json.loads(rescued.read_text())["turns"]
    assert turns[0]["messages"][0]["content"] == "remember the milk"
    assert stat.S_IMODE(rescued.stat().st_mode) == 0o600
