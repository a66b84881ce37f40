"""Servers (and session stores) that make the user wait: a bounded time to first byte, a visible wait that names
who is slow, a notice on every retry."""

from __future__ import annotations

import email.utils
import json
import re
import threading
import time
from typing import Any

from tests.support.cli import openai_flags, run_chatbot
from tests.support.hostile_server import Answer, HostileServer, reply
from tests.support.stores import admin


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


def test_a_503_whose_retry_after_is_a_near_date_is_retried_after_that_wait(tmp_path):
    soon = email.utils.formatdate(time.time() + 6, usegmt=True)  # the seconds left when it is read: start-up varies
    busy = Answer(status=503, headers={"Retry-After": soon}, body=b'{"error": {"message": "busy"}}')
    with HostileServer(busy, Answer(events=reply("finally"))) as server:
        started = time.monotonic()
        result = ask(server, tmp_path)
        took = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    told = re.search(r"\(503\): busy; the server asks to wait (\d)\.0s\. — retrying in \1s \(1 of 2", result.stderr)
    assert told, result.stderr
    assert 1 <= int(told[1]) <= 6 and took >= int(told[1])  # the wait the date means, read and kept
    assert result.stdout == "finally\n" and len(server.requests) == 2


def test_a_retrys_own_pause_is_not_told_as_waiting_for_the_server(tmp_path):
    busy = Answer(status=503, headers={"Retry-After": "4"}, body=b'{"error": {"message": "busy"}}')
    with HostileServer(busy, Answer(events=reply("after the pause"))) as server:
        result = ask(server, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "retrying in 4s" in result.stderr and result.stdout == "after the pause\n"
    assert "waiting for the server" not in result.stderr  # the 4 s were chatbot's own pause (the notice comes at 3 s)


def test_a_503_whose_retry_after_is_a_far_date_is_refused_like_a_long_wait_not_retried(tmp_path):
    busy = Answer(status=503, headers={"Retry-After": "Wed, 21 Oct 2099 07:28:00 GMT"}, body=b'{"error": "busy"}')
    with HostileServer(busy) as server:
        result = ask(server, tmp_path)
    assert result.returncode == 5 and "retrying" not in result.stderr and len(server.requests) == 1
    assert "failed (503)" in result.stderr and "over an hour" in result.stderr


def test_a_reply_that_broke_mid_stream_is_not_retried_behind_the_users_back(tmp_path):
    from tests.support.hostile_server import chunk

    with HostileServer(Answer(events=[chunk("half")], drop=True), Answer(events=reply("other"))) as server:
        result = ask(server, tmp_path)
    assert result.returncode == 5 and "retrying" not in result.stderr and len(server.requests) == 1


def test_bad_timeouts_are_refused(tmp_path):
    for value in ("0", "-1", "soon", "nan"):
        result = run_chatbot("--provider", "echo", "--timeout", value, "-p", "hi", cwd=tmp_path)
        assert result.returncode == 2 and "--timeout" in result.stderr, value


def test_a_slow_database_save_is_named_and_not_blamed_on_the_server(tmp_path, pg_url):
    flags = ("--provider", "echo", "--store", pg_url, "--session", "s1")
    fast = {"CHATBOT_ECHO_DELAY": "0"}
    assert run_chatbot(*flags, "-p", "first", cwd=tmp_path, env=fast).returncode == 0
    done: dict[str, Any] = {}
    with admin(pg_url) as conn, conn.transaction():
        # another client holds the session's row: the next save waits for it (a busy or stalled database)
        conn.execute("SELECT 1 FROM chatbot_sessions WHERE id = 's1' FOR UPDATE")
        second = threading.Thread(
            target=lambda: done.update(r=run_chatbot(*flags, "-p", "second", cwd=tmp_path, env=fast))
        )
        second.start()
        deadline = time.monotonic() + 30
        while not blocked_saves(conn) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(4)  # longer than the 3 s after which a wait is announced
    second.join(60)
    result = done["r"]
    assert result.returncode == 0, result.stderr
    assert "saving the session: waiting for the session store" in result.stderr
    assert "waiting for the server" not in result.stderr


def blocked_saves(conn) -> int:
    """How many store connections of this database wait for a lock (a save held up by the row lock)."""
    row = conn.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' "
        "AND application_name LIKE 'chatbot pid %'"
    ).fetchone()
    return int(row[0])


def test_a_slow_summary_is_named_in_the_wait_notice(tmp_path):
    from tests.support.fake_server import FakeServer

    # the fourth line makes a summary due (trigger 2, keep 1); the summary takes 4 s, longer than the 3 s after which
    # a wait is told: the user hears that the server is summarizing, not that it is slow to answer their line
    with FakeServer(reply="A reply.", whole_reply="- the gist", whole_delay=4.0) as server:
        flags = (*openai_flags(server.base_url), "--summary-trigger", "2", "--keep-turns", "1")
        result = run_chatbot(*flags, stdin="one\ntwo\nthree\nfour\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "waiting for the server to summarize older turns… (Ctrl-C cancels)" in result.stderr
    assert "waiting for the server…" not in result.stderr and "preparing the request" not in result.stderr
