"""Servers that make the user wait: a bounded time to first byte, a visible wait, a notice on every retry."""

from __future__ import annotations

import json
import time

from tests.support.cli import openai_flags, run_chatbot
from tests.support.hostile_server import Answer, HostileServer, reply


def ask(server: HostileServer, tmp_path, *extra: str, env: dict | None = None):
    flags = openai_flags(server.base_url)
    return run_chatbot(*flags, "--session", "s1", *extra, "-p", "hi", cwd=tmp_path, env=env)


def test_a_server_that_never_answers_gives_up_after_the_timeout_with_a_notice_per_retry(tmp_path):
    with HostileServer(Answer(hang=60, events=reply("too late"))) as server:
        started = time.monotonic()
        result = ask(server, tmp_path, "--timeout", "1")
        took = time.monotonic() - started
    assert took < 20, took  # 3 attempts of 1 s plus 1 s and 2 s of backoff, not the SDK's 10 minutes
    assert result.returncode == 5 and "Traceback" not in result.stderr
    assert "did not answer" in result.stderr
    assert result.stderr.count("retrying in") == 2
    assert len(server.requests) == 3


def test_the_timeout_can_come_from_the_environment(tmp_path):
    with HostileServer(Answer(hang=60, events=reply("too late"))) as server:
        started = time.monotonic()
        result = ask(server, tmp_path, env={"CHATBOT_TIMEOUT": "0.5"})
    assert time.monotonic() - started < 15 and "did not answer" in result.stderr


def test_a_slow_first_byte_shows_that_the_app_is_waiting(tmp_path):
    with HostileServer(Answer(hang=4, events=reply("worth the wait"))) as server:
        result = ask(server, tmp_path, "--timeout", "30")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "worth the wait\n"
    assert "waiting for the server" in result.stderr and "Ctrl-C cancels" in result.stderr


def test_a_429_with_retry_after_gets_a_notice_then_the_reply(tmp_path):
    body = json.dumps({"error": {"message": "Rate limit reached", "code": "rate_limit_exceeded"}}).encode()
    limited = Answer(status=429, headers={"Retry-After": "1"}, body=body, content_type="application/json")
    with HostileServer(limited, Answer(events=reply("finally"))) as server:
        result = ask(server, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "finally\n"
    assert "rate limit" in result.stderr and "retrying in 1s" in result.stderr


def test_a_500_is_retried_with_a_notice(tmp_path):
    failed = Answer(status=500, body=b'{"error": {"message": "boom"}}', content_type="application/json")
    with HostileServer(failed, Answer(events=reply("recovered"))) as server:
        result = ask(server, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "recovered\n" and "boom" in result.stderr and "retrying in" in result.stderr


def test_a_reply_that_broke_mid_stream_is_not_retried_behind_the_users_back(tmp_path):
    from tests.support.hostile_server import chunk

    with HostileServer(Answer(events=[chunk("half")], drop=True), Answer(events=reply("other"))) as server:
        result = ask(server, tmp_path)
    assert result.returncode == 5 and "retrying" not in result.stderr and len(server.requests) == 1


def test_bad_timeouts_are_refused(tmp_path):
    for value in ("0", "-1", "soon", "nan"):
        result = run_chatbot("--provider", "echo", "--timeout", value, "-p", "hi", cwd=tmp_path)
        assert result.returncode == 2 and "--timeout" in result.stderr, value
