"""The store flags end to end: --store (and $CHATBOT_STORE), where sessions live by default, --search, /search,
--import-sessions; against JSON files, SQLite and PostgreSQL."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def chatbot(*args: str, cwd: Path, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m chatbot`` in ``cwd`` with a private user data folder (``cwd/.data``) and no CHATBOT_* settings."""
    full = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and not k.startswith("CHATBOT_")}
    full.update(PYTHONPATH=str(ROOT), NO_COLOR="1", XDG_DATA_HOME=str(cwd / ".data"))
    full.update(env or {})
    result = subprocess.run(
        [sys.executable, "-m", "chatbot", *args], input=stdin, capture_output=True, text=True, cwd=cwd, env=full
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


def test_sessions_go_to_the_user_data_folder_and_c_finds_them_from_anywhere(tmp_path):
    home, elsewhere = tmp_path / "project", tmp_path / "other"
    home.mkdir()
    elsewhere.mkdir()
    data = {"XDG_DATA_HOME": str(tmp_path / "data")}
    failed = chatbot("--provider", "echo", "-c", "-p", "hi", cwd=home, env=data)
    assert failed.returncode == 3 and "no session to continue" in failed.stderr
    assert sorted(p.name for p in home.iterdir()) == [] and not (tmp_path / "data").exists()  # created nothing
    assert chatbot("--provider", "echo", "--session", "trip", "-p", "hello", cwd=home, env=data).returncode == 0
    store = tmp_path / "data" / "chatbot" / "sessions"
    assert (store / "trip.json").exists() and stat.S_IMODE(store.stat().st_mode) == 0o700
    again = chatbot("--provider", "echo", "-c", "-p", "again", cwd=elsewhere, env=data)
    assert again.returncode == 0 and "session trip (1 turn(s) stored)" in again.stderr
    assert "trip" in chatbot("--list-sessions", cwd=elsewhere, env=data).stdout
    assert not (home / "sessions").exists() and not (elsewhere / "sessions").exists()


def test_c_in_a_folder_with_its_own_sessions_says_where_the_others_are(tmp_path):
    data = {"XDG_DATA_HOME": str(tmp_path / "data")}
    assert chatbot("--provider", "echo", "--session", "mine", "-p", "hi", cwd=tmp_path, env=data).returncode == 0
    found = chatbot("--search", "hi", cwd=tmp_path, env=data).stdout.splitlines()
    assert found[-1] == "1 matching turn(s); chatbot --session ID opens a session"  # the default store: no --store
    project = tmp_path / "project"
    (project / "sessions").mkdir(parents=True)
    failed = chatbot("--provider", "echo", "-c", "-p", "again", cwd=project, env=data)
    mine = tmp_path / "data" / "chatbot" / "sessions"
    assert failed.returncode == 3
    assert "no session to continue in sessions" in failed.stderr and "this folder's own" in failed.stderr
    assert f"your other sessions are in {mine}" in failed.stderr
    assert f"chatbot -c --sessions-dir {mine}" in failed.stderr
    reached = chatbot("--provider", "echo", "-c", "--sessions-dir", str(mine), "-p", "again", cwd=project, env=data)
    assert reached.returncode == 0 and "session mine (1 turn(s) stored)" in reached.stderr


def test_a_folder_with_its_own_sessions_dir_keeps_using_it_and_an_empty_loose_one_is_tightened(tmp_path):
    (tmp_path / "sessions").mkdir()
    (tmp_path / "sessions").chmod(0o755)  # as a fresh clone has it
    result = chatbot("--provider", "echo", "--session", "here", "-p", "hi", cwd=tmp_path)
    assert result.returncode == 0 and "warning" not in result.stderr
    assert (tmp_path / "sessions" / "here.json").exists()
    assert stat.S_IMODE((tmp_path / "sessions").stat().st_mode) == 0o700


def test_store_flag_and_env_pick_a_directory(tmp_path):
    chatbot("--provider", "echo", "--store", f"file://{tmp_path}/a", "--session", "x", "-p", "hi", cwd=tmp_path)
    chatbot(
        "--provider", "echo", "--session", "y", "-p", "hi", cwd=tmp_path, env={"CHATBOT_STORE": str(tmp_path / "b")}
    )
    assert (tmp_path / "a" / "x.json").exists() and (tmp_path / "b" / "y.json").exists()
    bad = chatbot("--store", "redis://localhost", "--list-sessions", cwd=tmp_path)
    assert bad.returncode == 2 and "--store redis://…: unknown store" in bad.stderr


def test_a_db_path_env_or_url_is_one_sqlite_file_and_never_a_folder(tmp_path):
    listed = chatbot("--store", "checkpoint.db", "--list-sessions", cwd=tmp_path)
    assert listed.returncode == 0 and not (tmp_path / "checkpoint.db").exists()  # a look makes nothing
    env = {"CHATBOT_STORE": "sqlite:///checkpoint.db"}  # seed 000's URL: the same file
    assert chatbot("--provider", "echo", "--session", "a", "-p", "hi", cwd=tmp_path, env=env).returncode == 0
    again = chatbot("--provider", "echo", "-c", "-p", "again", cwd=tmp_path, env=env)
    assert again.returncode == 0 and "session a (1 turn(s) stored)" in again.stderr
    assert "  a " in chatbot("--store", str(tmp_path / "checkpoint.db"), "--list-sessions", cwd=tmp_path).stdout
    out = chatbot("--store", str(tmp_path / "out"), "--import-sessions", "sqlite:///checkpoint.db", cwd=tmp_path)
    assert out.stdout.startswith(f"imported 1, updated 0, unchanged 0, refused 0 session(s) from {tmp_path}/checkpoint")
    assert (tmp_path / "out" / "a.json").is_file()  # out of the SQLite file, as JSON: the same command the other way
    shutil.rmtree(tmp_path / "out")
    assert not [p for p in tmp_path.iterdir() if p.is_dir() and p.name != "checkpoint.db-locks"]
    (tmp_path / "old.sqlite").mkdir()
    refused = chatbot("--store", "old.sqlite", "--list-sessions", cwd=tmp_path)
    assert refused.returncode == 2 and "old.sqlite is a folder, not a SQLite file" in refused.stderr
    assert len(refused.stderr.splitlines()) == 1


@pytest.mark.parametrize("store", ["sqlite:{}/new/chat.db", "{}/new/chat.sqlite", "file://{}/new/sessions"])
def test_a_read_only_look_at_a_store_that_is_not_there_finds_no_sessions_and_leaves_nothing(store, tmp_path):
    where = store.format(tmp_path)
    looks = (["--list-sessions"], ["--search", "hello"], ["--timeline", "a"], ["--compare-memory", "a"])
    for look in looks:
        result = chatbot("--provider", "echo", "--store", where, *look, cwd=tmp_path)
        assert result.returncode in (0, 3), result.stderr
        said = result.stdout + result.stderr
        assert "no sessions in" in said or "no turn in" in said or "no session a in" in said, said
    assert [p.name for p in tmp_path.iterdir()] == []  # no file, no folder, no lock folder


def store_args(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> list[str]:
    if kind == "json":
        return ["--store", str(tmp_path / "store")]
    if kind == "sqlite":
        return ["--store", f"sqlite:///{tmp_path / 'store' / 'chat.db'}"]
    from tests.support.stores import postgres_base_url, scratch_schema

    context = scratch_schema(postgres_base_url())
    url = context.__enter__()
    request.addfinalizer(lambda: context.__exit__(None, None, None))
    return ["--store", url]


@pytest.mark.parametrize("kind", ["json", "sqlite", "postgres"])
def test_search_import_and_export_through_the_command_line(kind, tmp_path, request):
    store = store_args(kind, tmp_path, request)
    old = ["--store", str(tmp_path / "old")]
    chatbot("--provider", "echo", *old, "--session", "trip", stdin="plans for Paris\nweather in May\n", cwd=tmp_path)
    chatbot("--provider", "echo", *old, "--session", "cats", "-p", "cats and dogs", cwd=tmp_path)
    first = chatbot(*store, "--import-sessions", str(tmp_path / "old"), cwd=tmp_path)
    assert first.returncode == 0 and first.stdout.startswith("imported 2, updated 0, unchanged 0, refused 0")
    second = chatbot(*store, "--import-sessions", str(tmp_path / "old"), cwd=tmp_path)
    assert second.stdout.startswith("imported 0, updated 0, unchanged 2, refused 0")
    found = chatbot(*store, "--search", "PARIS", cwd=tmp_path)
    assert found.returncode == 0
    lines = found.stdout.splitlines()
    assert lines[1].split()[:2] == ["trip", "1"] and "plans for Paris" in lines[2]
    # (the redacted URL keeps its options; a SQLite store is named by its file)
    location = {"json": store[1], "sqlite": str(tmp_path / "store" / "chat.db")}.get(kind, store[1].split("?")[0])
    assert lines[-1].startswith("1 matching turn(s); chatbot --store ")  # the shell's way, in this store, not /load
    assert lines[-1].endswith(" --session ID opens a session") and location in lines[-1]
    script = "/search dogs\n/export out.md\n"
    result = chatbot("--provider", "echo", *store, "--session", "trip", stdin=script, cwd=tmp_path)
    assert result.returncode == 0 and "cats" in result.stdout
    assert "1 matching turn(s); /load ID opens a session" in result.stdout  # in a chat, the chat command
    transcript = (tmp_path / "out.md").read_text()
    assert "## Turn 2" in transcript and "weather in May" in transcript
    assert chatbot(*store, "--search", " ", cwd=tmp_path).returncode == 2


def test_a_postgres_session_in_use_is_refused_like_a_file_one(tmp_path, request):
    store = store_args("postgres", tmp_path, request)
    holder = subprocess.Popen(
        [sys.executable, "-m", "tests.support.store_process", "hold", store[1], "busy"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        result = chatbot("--provider", "echo", *store, "--session", "busy", "-p", "hi", cwd=tmp_path)
        assert result.returncode == 3
        assert f"session busy is in use by another chatbot process (pid {holder.pid} on " in result.stderr
    finally:
        holder.kill()
        holder.wait()
        assert holder.stdout is not None
        holder.stdout.close()


@pytest.mark.parametrize("kind", ["json", "sqlite", "postgres"])
def test_kill_9_mid_turn_keeps_the_earlier_turns_and_frees_the_session(kind, tmp_path, request):
    store = store_args(kind, tmp_path, request)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHATBOT_")}
    env.update(PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path / ".data"), CHATBOT_ECHO_DELAY="0.05")
    child = subprocess.Popen(
        [sys.executable, "-m", "chatbot", "--provider", "echo", *store, "--session", "k"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write("first question\n")
    child.stdin.flush()
    while "Last user message: first question" not in child.stdout.readline():
        pass
    child.stdin.write("second question, cut by kill -9\n")
    child.stdin.flush()
    child.stdout.readline()  # the second reply is streaming now
    child.kill()
    child.wait()
    child.stdin.close()
    child.stdout.close()
    after = chatbot("--provider", "echo", *store, "--session", "k", "-p", "third", cwd=tmp_path)
    assert after.returncode == 0, after.stderr
    found = chatbot(*store, "--search", "question", cwd=tmp_path).stdout
    assert "first question" in found and "cut by kill -9" not in found
    assert "k" in chatbot(*store, "--list-sessions", cwd=tmp_path).stdout
