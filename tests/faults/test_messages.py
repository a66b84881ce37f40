"""Hostile servers and odd input: never a traceback, and a message that names what really happened."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chatbot.engine.memory import MemoryConfig
from chatbot.providers.error_map import BRIEF_CHARS, ErrorContext, classify_error
from chatbot.storage.json_store import JsonStore
from tests.support.cli import chatbot_env, one_error_line, openai_flags, run_chatbot
from tests.support.hostile_server import DONE, Answer, HostileServer, chunk, reply
from tests.support.stores import admin

NO_RETRY = {"OPENAI_MAX_RETRIES": "0"}


def ask(server: HostileServer, tmp_path, stdin: str = "hi\n", *extra: str):
    return run_chatbot(*openai_flags(server.base_url), "--session", "s1", *extra, stdin=stdin, cwd=tmp_path)


def assert_one_clean_error(result) -> None:
    assert "Traceback" not in result.stderr and "Warning" not in result.stderr
    assert result.returncode != 0


def test_a_server_sending_one_endless_line_is_cut_off_at_the_event_limit_not_read_into_memory(tmp_path):
    """A chunk's data that never ends (no newline) grew chatbot by ~40 MB a second, --timeout never firing."""
    endless = [b'data: {"choices":[{"index":0,"delta":{"content":"', *[b"a" * 2**20] * 40]  # 40 MB, one line
    with HostileServer(Answer(events=endless)) as server:
        result = ask(server, tmp_path, "hi\n", "--timeout", "30")
    assert_one_clean_error(result)
    assert result.returncode == 5
    assert "sent over 16 MB without ending a server-sent event: not a chat stream" in result.stderr


def test_a_long_reply_of_many_events_is_read_whole_whatever_its_total_size(tmp_path, monkeypatch):
    """The limit is per event: a reply of many events, together far over it, comes whole."""
    from chatbot.providers import make_provider, reading

    monkeypatch.setattr(reading, "MAX_EVENT_BYTES", 4096)
    pieces = [chunk("x" * 1000) for _ in range(50)]  # ~1 kB an event, ~50 kB in all
    with HostileServer(Answer(events=[*pieces, chunk(None, "stop"), DONE])) as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        provider = make_provider("openai", model="m", base_url=server.base_url, max_retries=0)
        text = "".join(e.text for e in provider.stream([{"role": "user", "content": "hi"}]) if hasattr(e, "text"))
    assert text == "x" * 50_000


@pytest.mark.parametrize("junk", [b"[1,2,3]", b"null", b'"hi"', b"42"])
def test_chunks_that_are_json_but_not_objects_are_named(tmp_path, junk):
    with HostileServer(Answer(events=[chunk("ok "), b"data: " + junk + b"\n\n", *reply("fine")])) as server:
        result = ask(server, tmp_path)
    assert_one_clean_error(result)
    assert "not a JSON object" in result.stderr


@pytest.mark.parametrize("junk", [b'{"choices": ["x"]}', b'{"choices": [{"delta": "oops"}]}', b'{"choices": "abc"}'])
def test_object_chunks_with_odd_insides_are_skipped(tmp_path, junk):
    with HostileServer(Answer(events=[chunk("ok "), b"data: " + junk + b"\n\n", *reply("fine")])) as server:
        result = ask(server, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ok fine\n" and "Warning" not in result.stderr


def test_sse_that_is_not_data_is_ignored(tmp_path):
    noise = [b"retry: 1000\n\n", b"event: ping\n\n", b"data:\n\n", b": keep-alive\n\n", b"id: 7\n\n"]
    with HostileServer(Answer(events=[*noise, chunk("hello"), *noise, chunk(None, "stop"), DONE])) as server:
        result = ask(server, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "hello\n"


def test_an_html_page_with_status_200_is_named_not_called_context_overflow(tmp_path):
    page = b"<html><body><h1>Welcome to the hotel wifi</h1><p>Please log in</p></body></html>"
    with HostileServer(Answer(body=page, content_type="text/html; charset=utf-8")) as server:
        result = ask(server, tmp_path)
    assert_one_clean_error(result)
    assert "HTML page" in result.stderr and "context" not in result.stderr


def test_a_whole_json_answer_to_a_streaming_request_is_used(tmp_path):
    whole = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "whole"}, "finish_reason": "stop"}]}
    with HostileServer(Answer(body=json.dumps(whole).encode(), content_type="application/json")) as server:
        result = ask(server, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "whole\n"


def test_a_json_answer_that_is_no_reply_is_named(tmp_path):
    with HostileServer(Answer(body=b'{"status": "ok"}', content_type="application/json")) as server:
        result = ask(server, tmp_path)
    assert_one_clean_error(result)
    assert "not a stream" in result.stderr and "context" not in result.stderr


def test_a_reset_mid_stream_says_it_was_streaming(tmp_path):
    with HostileServer(Answer(events=[chunk("part of it")], drop=True)) as server:
        result = ask(server, tmp_path)
    assert_one_clean_error(result)
    assert "while the reply was streaming" in result.stderr
    assert "is the server running" not in result.stderr


def test_a_failed_partial_line_is_ended_and_marked_before_the_retry(tmp_path):
    answers = [Answer(events=[chunk("partial-from-failed-attempt")], drop=True), Answer(events=reply("RETRIED-OK"))]
    with HostileServer(*answers) as server:
        result = ask(server, tmp_path, "hi\n/retry\n")
    assert "partial-from-failed-attempt RETRIED-OK" not in result.stdout
    lines = result.stdout.splitlines()
    assert lines[0] == "partial-from-failed-attempt" and "not stored" in lines[1] and lines[-1] == "RETRIED-OK"


def test_a_reply_the_store_refused_is_marked_with_where_it_was_kept_not_as_lost(tmp_path, pg_url):
    flags = ("--provider", "echo", "--store", pg_url, "--session", "s1")
    env = {"CHATBOT_ECHO_DELAY": "0", "CHATBOT_RESCUE_DIR": str(tmp_path / "rescue")}
    assert run_chatbot(*flags, "-p", "first", cwd=tmp_path, env=env).returncode == 0
    with admin(pg_url) as conn:  # the database refuses every further turn (a quota, as a full disk would)
        conn.execute("ALTER TABLE chatbot_turns ADD CONSTRAINT quota CHECK (n <= 1)")
    result = run_chatbot(*flags, stdin="second\n", cwd=tmp_path, env=env)
    assert result.returncode == 3 and "quota" in result.stderr
    assert "not stored" not in result.stdout
    mark = result.stdout.splitlines()[-1]
    assert mark.startswith("[not saved in the session store: this reply was kept in ")
    kept = Path(mark.split(" was kept in ", 1)[1].removesuffix("]"))
    assert kept.parent == tmp_path / "rescue" and "second" in kept.read_text()


@pytest.mark.parametrize("flag", ["-p", "--system", "--model"])
def test_undecodable_argument_bytes_are_refused_before_anything_is_sent(tmp_path, flag):
    args = [b"--provider", b"echo", b"--session", b"s1", flag.encode(), b"bad \xff byte"]
    if flag != "-p":
        args += [b"-p", b"hi"]
    result = subprocess.run(
        [sys.executable.encode(), b"-m", b"chatbot", *args],
        capture_output=True,
        cwd=tmp_path,
        env=chatbot_env({"XDG_DATA_HOME": str(tmp_path / ".data")}),
    )
    assert result.returncode == 2 and b"Traceback" not in result.stderr
    assert flag.encode() in result.stderr and b"UTF-8" in result.stderr
    assert not (tmp_path / "sessions" / "s1.json").exists()


def test_an_answer_that_is_not_http_is_one_short_line_that_says_so_not_unreachable(tmp_path):
    junk = bytes(range(14, 256)) * 8 + b"\r\n\r\n"  # ~1,900 bytes that are no status line: one short line, not them
    with HostileServer(Answer(raw=junk)) as server:
        result = ask(server, tmp_path)
    line = one_error_line(result)
    assert result.returncode == 5 and "retrying" not in result.stderr and len(server.requests) == 1
    assert line.startswith(f"chatbot: openai ({server.base_url}) answered with something that is not HTTP (")
    assert "could not reach" not in line and "Is --base-url right" in line
    assert len(line) < 250, line
    assert "bytearray" not in line  # what came, as text: not the HTTP library's Python repr of it


def test_a_server_that_closes_after_a_line_that_is_not_http_is_not_called_unreachable(tmp_path):
    """An SSH server's banner, then the door shut: too little to be any answer; it may be restarting, so retried."""
    with HostileServer(Answer(raw=b"SSH-2.0-OpenSSH_9.6\r\nProtocol mismatch.\n")) as server:
        result = ask(server, tmp_path)
    line = one_error_line(result)
    assert result.returncode == 5 and len(server.requests) == 3  # two announced retries
    assert line == (
        f"chatbot: openai ({server.base_url}) closed the connection without an HTTP answer. Is --base-url right "
        "(its port, http or https)?"
    )


def test_an_answer_cut_off_in_its_body_is_a_broken_connection_retried_not_junk(tmp_path):
    """An HTTP answer whose body stops short (the server died while sending it) is no "not HTTP": asked again."""
    cut = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n" + b'{"id": "chatcmp'
    with HostileServer(Answer(raw=cut)) as server:
        result = ask(server, tmp_path, "hi\n", "--no-stream")
    line = one_error_line(result)
    assert result.returncode == 5 and len(server.requests) == 3  # two announced retries
    assert line == f"chatbot: openai ({server.base_url}) closed the connection in the middle of its answer"


@pytest.mark.parametrize("value", ["2306432640", "Wed, 21 Oct 2099 07:28:00 GMT"])
def test_retry_after_far_in_the_future_is_capped(tmp_path, value):
    body = json.dumps({"error": {"message": "slow down", "code": "rate_limit_exceeded"}}).encode()
    answer = Answer(status=429, headers={"Retry-After": value}, body=body, content_type="application/json")
    with HostileServer(answer) as server:
        result = ask(server, tmp_path, "hi\n", "--timeout", "5")
    assert_one_clean_error(result)
    assert "rate limit" in result.stderr
    assert "2306432640" not in result.stderr and "over an hour" in result.stderr


def test_one_shot_in_a_terminal_does_not_suggest_retry(clean_env, make_app):
    from chatbot.providers import make_provider
    from chatbot.terminal.render import make_console
    from chatbot.terminal.repl import Repl

    with HostileServer(Answer(status=500, body=b'{"error": {"message": "boom"}}')) as server:
        app = make_app(make_provider("openai", model="m", base_url=server.base_url, max_retries=0))
        app.open("s1")
        out = io.StringIO()
        status = Repl(app, console=make_console(file=out, width=80), one_shot=True).send("hi")
    assert status == 5 and "boom" in out.getvalue() and "/retry" not in out.getvalue()


def test_a_fifo_named_like_a_session_is_not_a_session(tmp_path):
    sessions = tmp_path / "sessions"
    sessions.mkdir(mode=0o700)
    os.mkfifo(sessions / "x.json")
    (sessions / "y.json").mkdir()
    listed = run_chatbot("--list-sessions", cwd=tmp_path, timeout=20)
    assert listed.returncode == 0 and "x" not in listed.stdout.replace("no sessions", "")
    cont = run_chatbot("--provider", "echo", "-c", "-p", "hi", cwd=tmp_path, timeout=20)
    assert cont.returncode == 3 and "no session to continue" in cont.stderr
    direct = run_chatbot("--provider", "echo", "--session", "x", "-p", "hi", cwd=tmp_path, timeout=20)
    assert direct.returncode == 3 and "not a regular file" in direct.stderr


def test_invisible_lines_are_not_sent(tmp_path):
    result = run_chatbot(
        "--provider", "echo", "--session", "s1", stdin="\u200b\u200b\n\x00\n\ufeff \u2060\n", cwd=tmp_path
    )
    assert result.returncode == 0 and result.stdout == ""
    assert not (tmp_path / "sessions" / "s1.json").exists()
    one_shot = run_chatbot("--provider", "echo", "--session", "s1", "-p", "\u200b", cwd=tmp_path)
    assert one_shot.returncode == 2


def test_a_huge_title_is_not_echoed_whole(tmp_path):
    result = run_chatbot(
        "--provider", "echo", "--session", "s1", stdin="hi\n/rename " + "t" * 10000 + "\n", cwd=tmp_path
    )
    assert result.returncode == 0
    assert max(len(line) for line in result.stderr.splitlines()) < 200


def test_an_unreadable_session_file_is_not_listed_as_1970(tmp_path, monkeypatch):
    from chatbot.storage import files

    (tmp_path / "s").mkdir(mode=0o700)
    store = JsonStore(tmp_path / "s")
    (tmp_path / "s" / "x.json").write_text("{}")

    def unreadable(path):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files, "read_regular", unreadable)
    [info] = store.list_sessions()
    assert info.broken and "Permission denied" in info.broken
    assert not info.updated_at.startswith("1970")


def test_sigpipe_is_not_labelled_a_user_interrupt(tmp_path):
    (tmp_path / "sessions").mkdir(mode=0o700)
    env = chatbot_env({"CHATBOT_ECHO_DELAY": "0.02", "XDG_DATA_HOME": str(tmp_path / ".data")})
    proc = subprocess.Popen(
        [sys.executable, "-m", "chatbot", "--provider", "echo", "--session", "s1", "-p", "say a lot " * 40],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    proc.stdout.read(10)
    proc.stdout.close()
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 141 and b"Traceback" not in err
    answer = json.loads((tmp_path / "sessions" / "s1.json").read_text())["turns"][0]["messages"][-1]["content"]
    assert "output was closed" in answer and "by the user" not in answer


def test_keep_turns_only_matters_in_summary_mode():
    MemoryConfig(strategy="window", keep_turns=9)
    MemoryConfig(strategy="full", keep_turns=9)
    with pytest.raises(Exception, match="keep-turns"):  # more than the trigger (8); equal to it is a fold every reply
        MemoryConfig(strategy="summary", keep_turns=9)


def test_a_servers_error_page_is_one_short_line():
    page = "<html><head><title>502 Bad Gateway</title></head><body>" + "<p>nginx</p>\n" * 5000 + "</body></html>"
    error = classify_error(
        502, page, page, None, ErrorContext("openai", "m", "http://127.0.0.1:9/v1", "OPENAI_API_KEY")
    )
    assert "\n" not in error.message and "502 Bad Gateway" in error.message
    assert len(error.message) < BRIEF_CHARS + 200


@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "not-streamed"])
@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_a_redirect_from_the_endpoint_is_named_and_the_conversation_does_not_follow_it(tmp_path, status, stream):
    from tests.support.fake_server import FakeServer

    with FakeServer(reply="elsewhere") as other:
        moved = Answer(status=status, headers={"Location": f"{other.base_url}/chat/completions"}, body=b"")
        with HostileServer(moved) as server:
            result = ask(server, tmp_path, "the secret plan\n", *([] if stream else ["--no-stream"]))
        assert other.record.requests == []  # the body never reached the other address
    assert_one_clean_error(result)
    assert f"answered with a redirect ({status}) to {other.base_url}/chat/completions" in result.stderr
    assert "chatbot does not follow it" in result.stderr and "--base-url" in result.stderr


def test_an_html_page_is_named_alike_streamed_or_not_and_not_retried(tmp_path):
    page = b"<!DOCTYPE html><html><body>Login to wifi</body></html>"
    for extra in ([], ["--no-stream"]):
        with HostileServer(Answer(body=page, content_type="text/html")) as server:
            result = run_chatbot(*openai_flags(server.base_url), *extra, "-p", "hi", cwd=tmp_path)
            asked = len(server.requests)
        assert_one_clean_error(result)
        assert "answered with an HTML page (status 200), not a chat answer" in result.stderr, extra
        assert "captive portal" in result.stderr and "retrying" not in result.stderr
        assert asked == 1  # a web page is not a server failure a second try mends
