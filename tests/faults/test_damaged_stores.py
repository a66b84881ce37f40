"""A store that holds something damaged: the command names it, skips it where it can, and says so in its status."""

from __future__ import annotations

import json

from tests.support.cli import run_chatbot
from tests.support.stores import break_turn

ECHO = ["--provider", "echo"]
FAST = {"CHATBOT_ECHO_DELAY": "0"}


def test_a_damaged_turn_row_is_listed_as_broken_and_continue_skips_it_naming_it(tmp_path, store):
    for sid in ("older", "newer"):
        made = run_chatbot(*ECHO, "--store", store, "--session", sid, "-p", f"hello {sid}", cwd=tmp_path, env=FAST)
        assert made.returncode == 0, made.stderr
    break_turn(store, "newer", 1)
    listed = run_chatbot("--store", store, "--list-sessions", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    [line] = [line for line in listed.stdout.splitlines() if "newer" in line]
    assert "BROKEN" in line and "robot" in line
    resumed = run_chatbot(*ECHO, "--store", store, "-c", "-p", "go on", cwd=tmp_path, env=FAST)
    assert resumed.returncode == 0, resumed.stderr
    assert "session older (1 turn(s) stored)" in resumed.stderr
    assert "skips session newer" in resumed.stderr and "robot" in resumed.stderr


def test_an_import_that_refuses_every_file_fails(tmp_path, store):
    source = tmp_path / "old"
    source.mkdir()
    (source / "a.json").write_text("{not json")
    (source / "b.json").write_text(json.dumps({"version": 1}))
    result = run_chatbot("--store", store, "--import-sessions", str(source), cwd=tmp_path)
    assert result.returncode == 3, result.stdout + result.stderr
    assert "imported 0, updated 0, unchanged 0, refused 2" in result.stdout
    assert "Traceback" not in result.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    nothing = run_chatbot("--store", store, "--import-sessions", str(empty), cwd=tmp_path)
    assert nothing.returncode == 0, nothing.stderr  # nothing refused: nothing went wrong
