"""Model options (-o, /set) are checked by the rules the session reader applies, before anything is stored: a value
the app could not read back, or that PostgreSQL refuses, is one clear line and never a broken session."""

from __future__ import annotations

import json

import pytest

from tests.support.cli import one_error_line, run_chatbot
from tests.support.fake_server import FakeServer

ECHO = ["--provider", "echo"]
FAST = {"CHATBOT_ECHO_DELAY": "0"}


@pytest.mark.parametrize("value", ["NaN", "Infinity", "1e999", "[1, NaN]"])
def test_a_number_that_is_not_finite_is_refused_at_the_flag_before_any_request(tmp_path, value):
    with FakeServer() as server:
        flags = ["--provider", "openai", "--base-url", server.base_url, "--model", "m"]
        result = run_chatbot(*flags, "--session", "s1", "-o", "temperature", value, "-p", "hi", cwd=tmp_path)
        assert server.record.requests == []  # the server is never blamed for what the app refused to send
    assert result.returncode == 2
    line = one_error_line(result)
    assert "option temperature" in line and "finite" in line
    assert not (tmp_path / "sessions" / "s1.json").exists()


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("NaN", "finite"),
        ("-Infinity", "finite"),
        ("1e999", "finite"),
        ('"\\u0000"', "NUL"),
        ('["a\\u0000"]', "NUL"),
        ('"\\ud800"', "surrogate"),
    ],
)
def test_set_refuses_what_a_store_cannot_keep_and_the_session_goes_on(tmp_path, store, value, words):
    script = f"/set stop {value}\nhello\n"
    result = run_chatbot(*ECHO, "--store", store, "--session", "s1", stdin=script, cwd=tmp_path, env=FAST)
    assert "Traceback" not in result.stderr
    assert "option stop" in result.stderr and words in result.stderr, result.stderr
    assert "cannot save" not in result.stderr, result.stderr
    listed = run_chatbot("--store", store, "--list-sessions", cwd=tmp_path)
    assert "BROKEN" not in listed.stdout and "s1" in listed.stdout, listed.stdout
    again = run_chatbot(*ECHO, "--store", store, "--session", "s1", "-p", "more", cwd=tmp_path, env=FAST)
    assert again.returncode == 0, again.stderr
    assert "session s1 (1 turn(s) stored)" in again.stderr  # the turn after the refused /set was stored


def test_a_turn_whose_text_holds_a_nul_is_stored_and_read_back(tmp_path, store):
    from chatbot.storage import open_store

    result = run_chatbot(*ECHO, "--store", store, "--session", "s1", stdin="a\x00b\n", cwd=tmp_path, env=FAST)
    assert result.returncode == 0, result.stderr
    again = run_chatbot(*ECHO, "--store", store, "--session", "s1", "-p", "more", cwd=tmp_path, env=FAST)
    assert again.returncode == 0 and "1 turn(s) stored" in again.stderr, again.stderr
    opened = open_store(store)
    try:
        assert opened.load("s1").conversation.turns[0].user_text == "a\x00b"  # kept exactly as typed
    finally:
        opened.close()


def test_a_session_file_with_an_infinite_option_is_listed_as_broken(tmp_path):
    """The reader's own rule: 1e999 parses as infinity, which no session may hold (it is written back as Infinity)."""
    made = run_chatbot(*ECHO, "--session", "s1", "-p", "hi", cwd=tmp_path, env=FAST)
    assert made.returncode == 0, made.stderr
    path = tmp_path / "sessions" / "s1.json"
    doc = json.loads(path.read_text())
    doc["options"] = {"temperature": 1}
    path.write_text(json.dumps(doc).replace('"temperature": 1', '"temperature": 1e999'))
    listed = run_chatbot("--list-sessions", cwd=tmp_path)
    assert "BROKEN" in listed.stdout and "options.temperature" in listed.stdout, listed.stdout


def test_a_postgres_save_goes_on_with_an_option_jsonb_would_refuse(open_pg):
    """A library caller can set what -o and /set refuse: the save still succeeds, the NUL kept as U+FFFD."""
    store = open_pg()
    with store.acquire("s"):
        session = store.create("s", system="sys")
        session.set_option("stop", ["a\x00b", "\ud800"])
        store.save(session)
        assert store.load("s").options == {"stop": ["a\ufffdb", "\ufffd"]}
