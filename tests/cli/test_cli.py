"""The `chatbot` command as users and scripts run it: subprocesses, exact stdout, exit codes, no tracebacks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from chatbot.storage.json_store import JsonStore
from tests.support.cli import assert_clean, run_chatbot, session_doc
from tests.support.fake_server import FakeServer


def test_version(tmp_path):
    result = run_chatbot("--version", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.startswith("chatbot ")


def test_script_mode_prints_exactly_the_stored_replies(tmp_path):
    result = run_chatbot("--provider", "echo", "--session", "s1", stdin="hello\nwhat did I say?\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert_clean(result)
    turns = session_doc(tmp_path, "s1")["turns"]
    assert [t["messages"][0]["content"] for t in turns] == ["hello", "what did I say?"]
    replies = [t["messages"][-1]["content"] for t in turns]
    assert result.stdout == "".join(r + "\n" for r in replies)
    assert "session s1" in result.stderr


def test_script_mode_against_an_openai_compatible_server(tmp_path):
    with FakeServer(reply="Hello from the fake server.", chunks=5) as server:
        result = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url, "--session", "x", stdin="hi\n", cwd=tmp_path
        )
        sent = server.record.last_request()
    assert result.returncode == 0, result.stderr
    assert result.stdout == "Hello from the fake server.\n"
    assert sent["messages"][-1] == {"role": "user", "content": "hi"} and sent["messages"][0]["role"] == "system"
    usage = session_doc(tmp_path, "x")["turns"][0]["usage"]
    assert usage["source"] == "provider" and usage["prompt_tokens"] > 0


def test_slash_commands_in_script_mode_have_exact_output(tmp_path):
    script = "/system Be brief.\n/system\n/rename Trip plans\n/undo\n"
    result = run_chatbot("--provider", "echo", "--session", "cmds", stdin=script, cwd=tmp_path)
    # asked-for output on stdout; confirmations are notices, on stderr
    assert result.stdout == "system message:\nBe brief.\n"
    assert "chatbot: system message set" in result.stderr and "now titled 'Trip plans'" in result.stderr
    assert "nothing to undo" in result.stderr and result.returncode == 2
    assert session_doc(tmp_path, "cmds")["title"] == "Trip plans"


def test_eof_and_quit_end_the_session_saved(tmp_path):
    result = run_chatbot("--provider", "echo", "--session", "q", stdin="one\n/quit\ntwo\n", cwd=tmp_path)
    assert result.returncode == 0
    assert [t["messages"][0]["content"] for t in session_doc(tmp_path, "q")["turns"]] == ["one"]


def test_one_shot_continues_a_session(tmp_path):
    first = run_chatbot("--provider", "echo", "--session", "trip", "-p", "first", cwd=tmp_path)
    second = run_chatbot("--provider", "echo", "-c", "-p", "second", cwd=tmp_path)
    assert first.returncode == second.returncode == 0
    assert "It holds 4 messages" in second.stdout  # system, first, its answer, second
    assert [t["messages"][0]["content"] for t in session_doc(tmp_path, "trip")["turns"]] == ["first", "second"]


def test_list_sessions(tmp_path):
    run_chatbot("--provider", "echo", "--session", "alpha", "-p", "about cats", cwd=tmp_path)
    run_chatbot("--provider", "echo", "--session", "beta", "-p", "about dogs", cwd=tmp_path)
    result = run_chatbot("--list-sessions", cwd=tmp_path)
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and "beta" in lines[1] and "alpha" in lines[2] and "about cats" in lines[2]


@pytest.mark.parametrize("bad", ["../x", "/abs", "a/b", "..", "x" * 65, ""])
def test_bad_session_ids_are_refused_before_anything(tmp_path, bad):
    result = run_chatbot("--provider", "echo", "--session", bad, "-p", "hi", cwd=tmp_path)
    assert result.returncode == 3 and "session id" in result.stderr
    assert_clean(result)
    assert not (tmp_path / "sessions").exists() or list((tmp_path / "sessions").glob("*.json")) == []


def test_corrupt_session_file_is_refused_and_kept(tmp_path):
    sessions = tmp_path / "sessions"
    sessions.mkdir(mode=0o700)
    broken = sessions / "bad.json"
    broken.write_text('{"version": 1, "id": "bad", "turns": [')
    result = run_chatbot("--provider", "echo", "--session", "bad", stdin="hi\n", cwd=tmp_path)
    assert result.returncode == 3 and "sessions/bad.json" in result.stderr
    assert broken.read_text() == '{"version": 1, "id": "bad", "turns": ['
    assert_clean(result)


def test_a_session_in_use_is_refused(tmp_path):
    store = JsonStore(tmp_path / "sessions")
    with store.acquire("busy"):
        result = run_chatbot("--provider", "echo", "--session", "busy", "-p", "hi", cwd=tmp_path)
    assert result.returncode == 3 and "in use" in result.stderr


def test_missing_key_says_how_to_set_it(tmp_path):
    result = run_chatbot("--provider", "groq", "-p", "hi", cwd=tmp_path)
    assert result.returncode != 0
    assert "GROQ_API_KEY" in result.stderr and "--provider echo" in result.stderr
    assert_clean(result)


def test_key_from_dotenv_is_used_and_never_stored(tmp_path):
    # groq refuses to start without a key, so a reply proves the key came from .env
    (tmp_path / ".env").write_text("GROQ_API_KEY=gsk-test-dotenv-secret-123\n")
    with FakeServer(reply="ok") as server:
        result = run_chatbot(
            "--provider", "groq", "--base-url", server.root_url, "--session", "k", "-p", "hi", cwd=tmp_path
        )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ok\n"
    assert "using GROQ_API_KEY from .env" in result.stderr
    for path in (tmp_path / "sessions").rglob("*"):
        if path.is_file():
            assert b"gsk-test-dotenv-secret-123" not in path.read_bytes()


def test_unreachable_server_fails_cleanly_and_the_app_goes_on(tmp_path):
    result = run_chatbot(
        "--provider",
        "openai",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--session",
        "u",
        stdin="hi\n/tokens\n",
        cwd=tmp_path,
        env={"OPENAI_API_KEY": "x"},
    )
    assert result.returncode == 5
    assert "127.0.0.1:9" in result.stderr
    assert "Usage in session u" in result.stdout  # the next line still ran
    assert_clean(result)


def test_server_error_is_reported_with_nonzero_exit(tmp_path):
    with FakeServer(error="context_length") as server:
        result = run_chatbot("--provider", "openai", "--base-url", server.base_url, "-p", "hi", cwd=tmp_path)
    assert result.returncode == 5 and "context" in result.stderr.lower()
    assert_clean(result)


def test_budget_error_names_the_numbers(tmp_path):
    result = run_chatbot("--provider", "echo", "--max-input-tokens", "20", "-p", "word " * 50, cwd=tmp_path)
    assert result.returncode == 4 and "20" in result.stderr and "budget" in result.stderr


def test_keep_may_not_be_more_than_trigger(tmp_path):
    # keep == trigger is allowed since a fold may follow every reply (--summary-trigger 1 --keep-turns 1)
    result = run_chatbot("--provider", "echo", "--summary-trigger", "2", "--keep-turns", "3", "-p", "x", cwd=tmp_path)
    assert result.returncode == 2 and "--keep-turns (3) must not be more than --summary-trigger (2)" in result.stderr


def test_one_shot_shows_a_new_sessions_id(tmp_path):
    result = run_chatbot("--provider", "echo", "-p", "hi", cwd=tmp_path)
    (only,) = (tmp_path / "sessions").glob("*.json")
    assert f"session {only.stem} (new)" in result.stderr


def test_empty_one_shot_and_zero_limits_are_refused(tmp_path):
    assert run_chatbot("--provider", "echo", "-p", "  ", cwd=tmp_path).returncode == 2
    result = run_chatbot("--provider", "echo", "--max-output-tokens", "0", "-p", "x", cwd=tmp_path)
    assert result.returncode == 2 and "--max-output-tokens" in result.stderr


def test_a_session_resumed_on_another_provider_uses_that_providers_model(tmp_path):
    run_chatbot("--provider", "echo", "--session", "sw", "-p", "hi", cwd=tmp_path)
    with FakeServer(reply="ok") as server:
        result = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url, "--session", "sw", "-p", "again", cwd=tmp_path
        )
        sent = server.record.last_request()
    assert result.returncode == 0, result.stderr
    assert sent["model"] == "gpt-4o-mini"  # the openai default, not the echo session's "echo"
    assert session_doc(tmp_path, "sw")["model"] == "gpt-4o-mini"


def test_chatbot_settings_in_dotenv_are_ignored_with_one_notice(tmp_path):
    (tmp_path / ".env").write_text("CHATBOT_PROVIDER=groq\nCHATBOT_SESSIONS_DIR=elsewhere\n")
    result = run_chatbot("--session", "d", "-p", "hi", cwd=tmp_path, env={"CHATBOT_PROVIDER": "echo"})
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "sessions" / "d.json").exists() and not (tmp_path / "elsewhere").exists()
    (line,) = [s for s in result.stderr.splitlines() if "ignored" in s]
    assert "CHATBOT_PROVIDER, CHATBOT_SESSIONS_DIR" in line and "provider keys only" in line


def test_undecodable_input_does_not_crash(tmp_path):
    (tmp_path / "sessions").mkdir()
    result = subprocess.run(
        [sys.executable, "-m", "chatbot", "--provider", "echo", "--session", "bytes"],
        input=b"ok\n\xff\xfe broken\n",
        capture_output=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]), "PYTHONIOENCODING": "utf-8"},
    )
    assert result.returncode == 0 and b"Traceback" not in result.stderr
    assert "\ufffd" in session_doc(tmp_path, "bytes")["turns"][1]["messages"][0]["content"]


def test_a_closed_pipe_ends_quietly(tmp_path):
    for name in ("a", "b", "c"):
        run_chatbot("--provider", "echo", "--session", name, "-p", "x" * 5000, cwd=tmp_path)
    reader = subprocess.Popen(
        [sys.executable, "-m", "chatbot", "--provider", "echo", "--session", "a"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    reader.stdout.close()  # nobody reads the replies
    _, err = reader.communicate(b"one\ntwo\n/context\n", timeout=30)
    assert b"Traceback" not in err and reader.returncode == 141


def test_system_flag_on_a_resumed_session_is_explained(tmp_path):
    run_chatbot("--provider", "echo", "--session", "sys", "--system", "Be terse.", "-p", "hi", cwd=tmp_path)
    result = run_chatbot(
        "--provider", "echo", "--session", "sys", "--system", "Be verbose.", "-p", "again", cwd=tmp_path
    )
    assert "--system shapes new sessions only" in result.stderr
    assert session_doc(tmp_path, "sys")["system"] == "Be terse."
