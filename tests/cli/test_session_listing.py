"""--list-sessions and /sessions show the newest sessions (50 unless told), each checked in full, then one line
saying how many older ones are not shown and how to see them; the same on the JSON store and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from chatbot.engine.turn import Turn
from chatbot.storage.json_store import JsonStore
from tests.support.cli import run_chatbot
from tests.support.stores import break_turn


def stored_sessions(store_url: str, tmp_path: Path, count: int) -> list[str]:
    """``count`` sessions of one turn each in the store, ``s00`` the oldest; their ids, newest first.

    Written as JSON files with their own times, then brought in by the real ``--import-sessions`` (which keeps
    them): one process instead of one per session."""
    source = JsonStore(tmp_path / "made")
    for i in range(count):
        sid = f"s{i:02d}"
        session = source.create(sid, system="s", model="m")
        session.conversation.add_turn(Turn([{"role": "user", "content": f"hello {sid}"}]))
        session.updated_at = f"2026-01-01T00:{i // 60:02d}:{i % 60:02d}+00:00"
        with source.acquire(sid):
            source.save(session, touch=False)
    imported = run_chatbot("--store", store_url, "--import-sessions", str(tmp_path / "made"), cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    return [f"s{i:02d}" for i in reversed(range(count))]


def listed_ids(stdout: str) -> list[str]:
    return [line.split()[0] for line in stdout.splitlines() if line.startswith("  s")]


def test_list_sessions_shows_the_newest_50_then_how_many_older_ones_are_not_shown(tmp_path, store_url):
    newest_first = stored_sessions(store_url, tmp_path, 53)
    listed = run_chatbot("--store", store_url, "--list-sessions", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert listed_ids(listed.stdout) == newest_first[:50]
    assert listed.stdout.splitlines()[-1] == (
        "… 3 older sessions not shown (--limit 0 lists all, --limit N the newest N)"
    )
    few = run_chatbot("--store", store_url, "--list-sessions", "--limit", "2", cwd=tmp_path)
    assert listed_ids(few.stdout) == newest_first[:2]
    assert few.stdout.splitlines()[-1].startswith("… 51 older sessions not shown")


def test_list_sessions_limit_0_lists_every_session_with_no_older_line(tmp_path, store_url):
    newest_first = stored_sessions(store_url, tmp_path, 53)
    everything = run_chatbot("--store", store_url, "--list-sessions", "--limit", "0", cwd=tmp_path)
    assert everything.returncode == 0, everything.stderr
    assert listed_ids(everything.stdout) == newest_first
    assert "not shown" not in everything.stdout
    exact = run_chatbot("--store", store_url, "--list-sessions", "--limit", "53", cwd=tmp_path)
    assert listed_ids(exact.stdout) == newest_first and "not shown" not in exact.stdout


def test_a_broken_session_among_the_newest_is_still_listed_broken(tmp_path, store_url):
    newest_first = stored_sessions(store_url, tmp_path, 5)
    break_turn(store_url, newest_first[0], 1)  # the newest: a broken JSON file is dated by its write, now
    listed = run_chatbot("--store", store_url, "--list-sessions", "--limit", "3", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert listed_ids(listed.stdout) == newest_first[:3]
    [broken] = [line for line in lines if newest_first[0] in line]
    assert "BROKEN" in broken and "robot" in broken
    assert lines[-1].startswith("… 2 older sessions not shown")


def test_sessions_in_a_chat_shows_the_newest_n_and_how_to_see_the_older_ones(tmp_path, store_url):
    newest_first = stored_sessions(store_url, tmp_path, 4)
    chat = run_chatbot(
        "--provider", "echo", "--store", store_url, "--session", "new", stdin="/sessions 2\n/sessions 0\n", cwd=tmp_path
    )
    assert chat.returncode == 0, chat.stderr
    shown = chat.stdout.split("* new")
    assert listed_ids(shown[0]) == newest_first[:2]
    assert "… 2 older sessions not shown (/sessions 0 lists all, /sessions N the newest N)" in shown[0]
    assert listed_ids(shown[1]) == newest_first and "not shown" not in shown[1]


def test_limit_without_list_sessions_is_refused(tmp_path):
    refused = run_chatbot("--provider", "echo", "--limit", "3", "-p", "hi", cwd=tmp_path)
    assert refused.returncode == 2 and "--limit works with --list-sessions" in refused.stderr
