"""A session keeps its memory rule, through the real command line: what it was made with (a flag, the config file,
a default) is what it is continued with (``--session ID``, ``-c``, ``/load``), a flag given on continuing wins and is
kept, the config file never overrides a session's own rule, and ``/context`` says where each setting came from. Both
stores; a session stored before the rule was kept continues with today's defaults."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import assert_clean, run_chatbot

LINES = "".join(f"message {n}\n" for n in range(1, 8))


@pytest.fixture
def store(store_url: str) -> str:
    """Where the sessions of one test live (both stores: ``store_url`` of tests/conftest.py)."""
    return store_url


def bodies(stderr: str, kind: str) -> list[dict[str, Any]]:
    """The request bodies --show-requests printed, of one kind ("chat" or "summary"), in order."""
    found, decoder, at = [], json.JSONDecoder(), 0
    marker = f"chatbot: {kind} request"
    while (at := stderr.find(marker, at)) >= 0:
        start = stderr.index("{", at)
        body, end = decoder.raw_decode(stderr, start)
        found.append(body)
        at = end
    return found


def users(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "user"]


def chat(store: str, cwd: Path, *args: str, stdin: str = "") -> Any:
    result = run_chatbot("--provider", "echo", "--store", store, *args, stdin=stdin, cwd=cwd)
    assert result.returncode == 0, result.stderr
    assert_clean(result)
    return result


def test_a_window_session_continued_sends_its_window_and_a_flag_on_continuing_changes_it_for_good(store, tmp_path):
    chat(store, tmp_path, "--session", "w", "--memory", "window", "--window-turns", "5", stdin=LINES)
    continued = chat(store, tmp_path, "--session", "w", "--show-requests", "-p", "message 8")
    assert users(bodies(continued.stderr, "chat")[-1]) == [f"message {n}" for n in range(3, 9)]  # the last 5 turns
    narrowed = chat(store, tmp_path, "--session", "w", "--window-turns", "2", "--show-requests", "-p", "message 9")
    assert users(bodies(narrowed.stderr, "chat")[-1]) == ["message 7", "message 8", "message 9"]
    kept = chat(store, tmp_path, "-c", "--show-requests", "-p", "message 10")
    assert users(bodies(kept.stderr, "chat")[-1]) == ["message 8", "message 9", "message 10"]


def test_summaries_have_their_own_options_and_model_and_the_session_keeps_them_with_its_reply_limit(store, tmp_path):
    rule = ["--summary-trigger", "1", "--keep-turns", "0", "--summary-model", "small", "--max-output-tokens", "300"]
    rule += ["--summary-option", "temperature", "0.1", "--summary-option", "top_p", "0.5"]
    chat(store, tmp_path, "--session", "s", *rule, "-o", "temperature", "0.3", stdin="one\ntwo\n")
    # continued with no flag at all: the fold of this request uses the session's summary settings
    continued = chat(store, tmp_path, "--session", "s", "--show-requests", "-p", "three")
    (summary,) = bodies(continued.stderr, "summary")
    (request,) = bodies(continued.stderr, "chat")
    assert summary["model"] == "small" and summary["temperature"] == 0.1 and summary["top_p"] == 0.5
    assert request["model"] == "echo" and request["temperature"] == 0.3 and "top_p" not in request  # -o: chat only
    assert request["max_tokens"] == 300


def test_a_summary_option_is_checked_like_a_model_option(tmp_path):
    result = run_chatbot("--provider", "echo", "--summary-option", "model", "x", "-p", "hi", cwd=tmp_path)
    assert result.returncode == 2 and "'model' is set by chatbot itself" in result.stderr


def test_the_config_file_shapes_a_new_session_but_not_one_with_its_own_rule_and_context_says_where_each_came_from(
    store, tmp_path
):
    config = tmp_path / "config.toml"
    config.write_text('memory = "window"\nwindow_turns = 3\nsummary_options = { temperature = 0.2 }\n')
    made = chat(store, tmp_path, "--session", "c", stdin=LINES + "/context\n")
    assert '  config: --memory window, --window-turns 3, --summary-option {"temperature": 0.2}' in made.stdout
    assert "  default: --window-step 1, --first-turns 2, --summary-trigger 8, --keep-turns 4, --recall 1" in made.stdout
    config.write_text("window_turns = 4\n")  # the file changes: the session keeps its own window
    continued = chat(store, tmp_path, "--session", "c", "--keep-turns", "1", "--show-requests", "-p", "message 8")
    assert users(bodies(continued.stderr, "chat")[-1]) == ["message 5", "message 6", "message 7", "message 8"]
    shown = chat(store, tmp_path, "--session", "c", "--recall", "0", stdin="/context\n").stdout
    assert "  flag: --recall 0" in shown
    assert (
        "  session: --memory window, --window-turns 3, --window-step 1, --first-turns 2, --summary-trigger 8, "
        "--keep-turns 1"
    ) in shown
    assert "config:" not in shown.split("memory rule")[1]


def test_load_opens_a_session_with_its_own_rule(store, tmp_path):
    chat(store, tmp_path, "--session", "a", "--memory", "window", "--window-turns", "1", stdin="one\ntwo\nthree\n")
    other = chat(store, tmp_path, "--session", "b", "--show-requests", stdin="hello\n/load a\nfour\n")
    assert users(bodies(other.stderr, "chat")[-1]) == ["three", "four"]


def test_a_session_stored_before_the_rule_was_kept_continues_with_the_defaults_and_keeps_them(tmp_path):
    store = str(tmp_path / "store")
    chat(store, tmp_path, "--session", "old", "--memory", "window", "--window-turns", "1", stdin="one\ntwo\nthree\n")
    path = Path(store) / "old.json"
    doc = json.loads(path.read_text())
    del doc["rule"]  # as an earlier chatbot wrote it
    path.write_text(json.dumps(doc))
    continued = chat(store, tmp_path, "--session", "old", "--show-requests", "-p", "four")
    assert users(bodies(continued.stderr, "chat")[-1]) == ["one", "two", "three", "four"]  # summary memory, trigger 8
    rule = json.loads(path.read_text())["rule"]
    assert rule["strategy"] == "summary" and rule["window_turns"] == 6 and rule["max_input_tokens"] == 6000


def test_a_flag_that_changes_a_continued_sessions_rule_says_the_session_keeps_it(tmp_path: Path) -> None:
    """Kept silently, a flag given once went on shaping every later turn (a user trial: a budget of 300 tried once)."""
    made = run_chatbot("--provider", "echo", "--session", "flip", "--memory", "first-last", "-p", "a", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    changed = run_chatbot(
        "--session", "flip", "--memory", "summary", "--max-input-tokens", "5000", "-p", "b", cwd=tmp_path
    )
    assert_clean(changed)
    told = [line for line in changed.stderr.splitlines() if "keeps from now on" in line]
    assert told == [
        "chatbot: session flip keeps from now on: --memory summary (was first-last), --max-input-tokens 5000 (was 6000)"
    ]
    same = run_chatbot("--session", "flip", "--memory", "summary", "-p", "c", cwd=tmp_path)  # what it has: no word
    assert same.returncode == 0 and "keeps from now on" not in same.stderr
