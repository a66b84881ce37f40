"""Two flags that decide the same thing are refused with one line (exit 2), never one of them silently dropped:
two places for sessions (--store and --sessions-dir, on the command line or as config keys), two runs of their own
(-p and --list-sessions, --search and --list-sessions, --timeline and --compare-memory, ...)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import one_error_line, run_chatbot

STORE_CONFLICT = "chatbot: --store and --sessions-dir cannot be used together: both say where sessions live; give one"


@pytest.mark.parametrize("extra", [["-p", "hi"], ["--config"], ["--list-sessions"]])
def test_store_and_sessions_dir_together_are_refused(extra: list[str], tmp_path: Path) -> None:
    result = run_chatbot(
        "--provider", "echo", "--store", str(tmp_path / "a"), "--sessions-dir", str(tmp_path / "b"), *extra,
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 2
    assert one_error_line(result) == STORE_CONFLICT
    assert result.stdout == ""
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_either_store_flag_alone_still_chooses_where_sessions_live(tmp_path: Path) -> None:
    for flag, folder in (("--store", "a"), ("--sessions-dir", "b")):
        result = run_chatbot("--provider", "echo", flag, str(tmp_path / folder), "--session", "s", "-p", "hi",
                             cwd=tmp_path)  # fmt: skip
        assert result.returncode == 0, result.stderr
        assert (tmp_path / folder / "s.json").exists()


def test_store_and_sessions_dir_both_in_the_config_file_are_refused(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(f'store = "{tmp_path / "a"}"\nsessions_dir = "{tmp_path / "b"}"\n')
    result = run_chatbot("--provider", "echo", "-p", "hi", cwd=tmp_path)
    assert result.returncode == 2
    assert one_error_line(result).endswith("line 2: sessions_dir: the same setting as the key store; give one")


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["-p", "hi", "--list-sessions"], "-p/--prompt and --list-sessions"),
        (["--search", "x", "--list-sessions"], "--list-sessions and --search"),
        (["--timeline", "a", "--compare-memory", "a"], "--timeline and --compare-memory"),
        (["-p", "hi", "--list-models"], "-p/--prompt and --list-models"),
        (["--list-providers", "--search", "x"], "--search and --list-providers"),
        (["--import-sessions", "elsewhere", "--list-sessions"], "--list-sessions and --import-sessions"),
    ],
)
def test_two_runs_of_their_own_are_refused_in_one_line(flags: list[str], said: str, tmp_path: Path) -> None:
    result = run_chatbot("--provider", "echo", *flags, cwd=tmp_path)
    assert result.returncode == 2
    assert one_error_line(result) == f"chatbot: {said} cannot be used together: each is a run of its own; give one"
    assert result.stdout == ""
    assert not list((tmp_path / "sessions").iterdir())  # nothing was sent or stored
