"""What the SQLite store adds to the behaviour every store shares (test_store_behaviour.py): which --store values
name it, a private file, a damaged or foreign file refused untouched, a schema a person can query, search through the
trigram index (and without it), and sessions moved between stores with their ids and times."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import sys
from pathlib import Path

import pytest

from chatbot.engine.turn import Turn
from chatbot.errors import ConfigError, SessionError, SessionNotFound
from chatbot.storage import open_store, sqlite_schema, sqlite_store
from chatbot.storage.json_store import JsonStore
from chatbot.storage.session import Session
from chatbot.storage.sqlite_store import SqliteStore
from chatbot.storage.transfer import import_sessions

ROOT = Path(__file__).resolve().parents[2]


def at(when: str, user: str, reply: str = "ok", usage: dict | None = None) -> Turn:
    return Turn(
        [{"role": "user", "content": user}, {"role": "assistant", "content": reply}], created_at=when, usage=usage
    )


def saved(store, session: Session) -> Session:
    with store.acquire(session.id):
        store.save(session, touch=False)
    return session


def filled(store, sid: str, *turns: Turn, title: str = "") -> Session:
    session = store.create(sid, system="s", model="m", title=title)
    for turn in turns:
        session.conversation.add_turn(turn)
    session.created_at = session.updated_at = turns[-1].created_at if turns else "2026-01-01T00:00:00+00:00"
    return saved(store, session)


# --- which --store values name it ---------------------------------------------------------------------------------


def test_sqlite_urls_and_db_paths_open_one_file_and_never_make_a_folder_of_its_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    relative = open_store("sqlite:///checkpoint.db")  # as SQLAlchemy and LangGraph read it: in this folder
    assert isinstance(relative, SqliteStore) and relative.path == tmp_path / "checkpoint.db"
    assert relative.warnings == []
    nested = open_store("sqlite:///tmp/x/chat.db")  # reads like /tmp/x/chat.db, so a new file there is said
    assert nested.path == tmp_path / "tmp" / "x" / "chat.db" and nested.warnings == [
        f"no session store at {tmp_path}/tmp/x/chat.db yet (a session saved makes it): sqlite:///tmp/x/chat.db is "
        "relative to this folder; sqlite:////tmp/x/chat.db (four slashes) is /tmp/x/chat.db"
    ]
    nested.acquire("a").release()  # a session opened to be written makes the file
    nested.close()
    assert open_store("sqlite:///tmp/x/chat.db").warnings == []  # said while it was not there
    shutil.rmtree(tmp_path / "tmp")
    relative.acquire("a").release()
    assert (tmp_path / "checkpoint.db").is_file()
    for location in (f"sqlite:///{tmp_path}/a.db", f"sqlite:{tmp_path}/b.sqlite", "c.sqlite3", "D.DB"):
        store = open_store(location)
        assert isinstance(store, SqliteStore), location
        filled(store, "s", at("2026-01-01T00:00:00+00:00", "hello"))
        assert store.path.is_file(), location
        store.close()
    assert open_store(f"sqlite:{tmp_path}/plain").location == f"sqlite:{tmp_path}/plain"  # reopens as a SQLite file
    assert not [p for p in tmp_path.iterdir() if p.is_dir() and not p.name.endswith("-locks")]  # none named as a file
    relative.close()


def test_a_look_at_a_store_that_is_not_there_reads_no_sessions_and_makes_no_file(tmp_path):
    store = open_store(f"sqlite:{tmp_path}/new/chat.db")
    assert store.list_sessions() == [] and store.count_sessions() == 0 and store.search("hello") == []
    assert store.choose_latest() == (None, []) and not store.exists("a")
    with pytest.raises(SessionNotFound):
        store.load("a")
    with pytest.raises(SessionNotFound):
        store.delete("a")
    assert list(tmp_path.iterdir()) == []
    other = open_store(f"sqlite:{tmp_path}/new/chat.db")  # another process makes it meanwhile: this one reads it
    filled(other, "a", at("2026-01-01T00:00:00+00:00", "hello there"))
    other.close()
    assert [info.id for info in store.list_sessions()] == ["a"] and store.search("hello")[0].session_id == "a"
    store.close()


def test_a_folder_named_like_a_database_or_a_url_naming_no_file_is_refused_with_the_forms_that_work(tmp_path):
    (tmp_path / "old.db").mkdir()
    with pytest.raises(ConfigError, match=r"old\.db is a folder, not a SQLite file; .*--store file://"):
        open_store(str(tmp_path / "old.db"))
    for bad in ("sqlite://host/x.db", "sqlite:", "sqlite:///", "sqlite::memory:"):
        with pytest.raises(ConfigError, match=r"sqlite:///relative/path\.db, sqlite:////absolute/path\.db"):
            open_store(bad)
    with pytest.raises(
        ConfigError, match=r"--store redis://…: unknown store; use a directory or file://DIR, sqlite:///PATH"
    ):
        open_store("redis://localhost")


# --- a private file, refused when it is not ours ----------------------------------------------------------------


def test_the_file_its_journal_and_the_locks_are_private(tmp_path):
    store = open_store(f"sqlite:{tmp_path}/new/chat.db")
    filled(store, "a", at("2026-01-01T00:00:00+00:00", "hello"))
    assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o700
    for name in ("chat.db", "chat.db-wal", "chat.db-shm"):
        assert stat.S_IMODE((tmp_path / "new" / name).stat().st_mode) == 0o600, name
    assert stat.S_IMODE((tmp_path / "new" / "chat.db-locks").stat().st_mode) == 0o700
    with sqlite3.connect(tmp_path / "new" / "chat.db") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert list((tmp_path / "new" / "chat.db-locks").iterdir()) == []  # a released lock leaves no file
    store.close()
    (tmp_path / "new" / "chat.db").chmod(0o644)
    again = open_store(f"sqlite:{tmp_path}/new/chat.db")
    assert again.warnings == [f"session store {tmp_path}/new/chat.db is readable by other users (mode 644); "
                              f"run `chmod 600 {tmp_path}/new/chat.db`"]  # fmt: skip
    assert stat.S_IMODE((tmp_path / "new" / "chat.db").stat().st_mode) == 0o644  # told, not changed
    again.close()


def test_a_file_that_is_not_a_sqlite_database_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "notes.db"
    path.write_bytes(b"my notes, not a database\n" * 100)
    with pytest.raises(SessionError, match=r"notes\.db is not a SQLite database .* left untouched"):
        open_store(str(path))
    assert path.read_bytes() == b"my notes, not a database\n" * 100
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]


def test_a_damaged_database_is_refused_with_one_line_and_not_written(tmp_path):
    path = tmp_path / "chat.db"
    store = open_store(str(path))
    filled(store, "a", *(at(f"2026-01-01T00:00:{i:02}+00:00", f"question {i} " + "x" * 3000) for i in range(20)))
    store.close()
    raw = bytearray(path.read_bytes())
    raw[4096 * 2 : 4096 * 6] = b"\xff" * (4096 * 4)  # pages of the tables' b-trees
    path.write_bytes(bytes(raw))
    damaged = bytes(raw)
    with pytest.raises(SessionError) as err:
        reopened = open_store(str(path))
        reopened.list_sessions()
    assert len(err.value.message.splitlines()) == 1
    assert err.value.message.startswith(f"the session store {path} cannot be read: ")
    assert "left untouched" in err.value.message and ".recover" in err.value.message
    assert path.read_bytes() == damaged


def test_a_database_of_another_program_or_a_newer_chatbot_is_refused_untouched(tmp_path):
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE checkpoints (id TEXT)")
    before = other.read_bytes()
    with pytest.raises(SessionError, match=r"a SQLite database of something else \(it holds checkpoints\)"):
        open_store(str(other))
    assert other.read_bytes() == before
    newer = tmp_path / "newer.db"
    made = open_store(str(newer))
    made.acquire("a").release()  # (a store is made by a session opened to be written)
    made.close()
    with sqlite3.connect(newer) as conn:
        conn.execute("UPDATE chatbot_schema SET version = 99")
    with pytest.raises(SessionError, match=r"made by a newer chatbot \(schema 99; this one reads 1\)"):
        open_store(str(newer))


# --- a schema made to be read -----------------------------------------------------------------------------------


def test_the_turn_log_view_shows_each_turn_with_its_text_and_usage(tmp_path):
    store = open_store(str(tmp_path / "chat.db"))
    usage = {"prompt_tokens": 120, "completion_tokens": 30}
    filled(store, "trip", at("2026-05-01T10:00:00+00:00", "안녕, Jeju?", "Sunny.", usage), title="Trip")
    with sqlite3.connect(tmp_path / "chat.db") as conn:
        rows = conn.execute("SELECT * FROM turn_log").fetchall()
        names = [d[0] for d in conn.execute("SELECT * FROM turn_log").description]
    assert names == ["session_id", "title", "model", "n", "created_at", "user_text", "reply_text", "prompt_tokens",
                     "completion_tokens", "latency_s"]  # fmt: skip
    assert rows == [("trip", "Trip", "m", 1, "2026-05-01T10:00:00+00:00", "안녕, Jeju?", "Sunny.", 120, 30, None)]
    store.close()


# --- search -----------------------------------------------------------------------------------------------------


def test_search_finds_korean_and_inner_substrings_through_the_trigram_index(tmp_path):
    store = open_store(str(tmp_path / "chat.db"))
    assert store.indexed and store.warnings == []
    filled(store, "ko", at("2026-01-01T00:00:00+00:00", "제주도 날씨는 어때요?", "맑아요"))
    filled(store, "en", at("2026-01-02T00:00:00+00:00", "Unbelievably good", "ok"))
    assert [h.session_id for h in store.search("주도 날")] == ["ko"]
    assert [h.session_id for h in store.search("BELIEV")] == ["en"]
    assert [h.session_id for h in store.search("맑")] == ["ko"]  # shorter than a trigram: the scan finds it
    with sqlite3.connect(tmp_path / "chat.db") as conn:
        plan = conn.execute(f"EXPLAIN QUERY PLAN {sqlite_schema.SEARCH_INDEXED}", ('"주도 날"', 10)).fetchall()
    assert any("VIRTUAL TABLE INDEX" in row[-1] for row in plan)
    store.close()


def test_the_search_window_is_exact_when_older_turns_were_stored_last(tmp_path, monkeypatch):
    """An import keeps its turns' times, so the newest matches are not always the last stored: the SQLite store
    ranks the same turns as the JSON store all the same."""
    for module in (sqlite_store, sys.modules["chatbot.storage.session"]):
        monkeypatch.setattr(module, "SEARCH_WINDOW", 3)
    json_store, sqlite = JsonStore(tmp_path / "json"), open_store(str(tmp_path / "chat.db"))
    for store in (json_store, sqlite):
        filled(store, "late", *(at(f"2026-03-0{d}T00:00:00+00:00", "tea " * d) for d in range(1, 5)))
        filled(store, "early", *(at(f"2026-05-0{d}T00:00:00+00:00", "tea") for d in range(1, 3)))  # stored last
    expected = [(h.session_id, h.turn, h.matches) for h in json_store.search("tea")]
    assert [(h.session_id, h.turn, h.matches) for h in sqlite.search("tea")] == expected
    assert expected == [("late", 4, 4), ("early", 2, 1), ("early", 1, 1)]
    sqlite.close()


def test_without_fts5_the_store_scans_and_says_so_once(tmp_path, monkeypatch):
    monkeypatch.setattr(sqlite_schema, "fts5_available", lambda conn: False)  # a SQLite built without FTS5
    store = open_store(str(tmp_path / "chat.db"))
    assert store.warnings == [f"this SQLite has no FTS5: /search in {tmp_path}/chat.db reads every turn"]
    filled(store, "a", at("2026-01-01T00:00:00+00:00", "Paris in May"), at("2026-01-02T00:00:00+00:00", "paris"))
    assert [(h.turn, h.matches) for h in store.search("PARIS")] == [(2, 1), (1, 1)]
    with sqlite3.connect(tmp_path / "chat.db") as conn:
        assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'turns_search'").fetchall() == []
    store.close()


# --- import and export -----------------------------------------------------------------------------------------


def test_sessions_move_between_stores_with_their_ids_and_times_and_a_second_run_changes_nothing(tmp_path):
    source = JsonStore(tmp_path / "json")
    one = filled(source, "one", at("2025-01-01T00:00:00+00:00", "first"), at("2025-01-02T00:00:00+00:00", "second"))
    sqlite = open_store(str(tmp_path / "chat.db"))
    report = import_sessions(tmp_path / "json", sqlite)
    assert (report.imported, report.unchanged) == (1, 0)
    assert sqlite.load("one").to_dict() == one.to_dict()
    assert import_sessions(tmp_path / "json", sqlite).unchanged == 1
    out = JsonStore(tmp_path / "back")
    back = import_sessions(str(tmp_path / "chat.db"), out)  # out of SQLite: the same command, the other way
    assert (back.imported, back.source) == (1, str(tmp_path / "chat.db"))
    assert out.load("one").to_dict() == one.to_dict() and (tmp_path / "back" / "one.json").exists()
    again = import_sessions(f"sqlite:///{tmp_path}/chat.db", out)
    assert (again.imported, again.updated, again.unchanged, again.refused) == (0, 0, 1, [])
    with pytest.raises(Exception, match="is the store in use"):
        import_sessions(str(tmp_path / "chat.db"), sqlite)
    sqlite.close()
    assert os.path.exists(tmp_path / "chat.db")


def test_a_file_of_an_earlier_chatbot_gets_the_endpoint_column_keeping_its_sessions(tmp_path):
    path = tmp_path / "chat.db"
    filled(SqliteStore(path), "old", at("2026-01-01T00:00:00+00:00", "kept"))
    with sqlite3.connect(path) as conn:  # the sessions table as it was before the mark was kept
        conn.execute("ALTER TABLE sessions DROP COLUMN endpoint")
    store = SqliteStore(path)
    old = store.load("old")
    assert ([t.user_text for t in old.conversation.turns], old.endpoint) == (["kept"], "unknown")
    old.endpoint = "custom"
    saved(store, old)
    assert SqliteStore(path).load("old").endpoint == "custom"


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        ("UPDATE turns SET data = '{not json' WHERE n = 2", "turn row 2 not valid JSON"),
        ("UPDATE sessions SET options = '[broken'", "its options column not valid JSON"),
        ("UPDATE turns SET data = 'null' WHERE n = 2", "turns[1] must be an object, found null"),  # JSON, but null
    ],
    ids=["a-turn-row", "a-json-column", "a-turn-of-json-null"],
)
def test_a_row_that_is_not_valid_json_is_listed_as_broken_for_what_it_is(tmp_path, damage, said):
    store = open_store(str(tmp_path / "chat.db"))
    filled(store, "s", at("2026-05-01T10:00:00+00:00", "one"), at("2026-05-01T10:01:00+00:00", "two"))
    with sqlite3.connect(tmp_path / "chat.db") as conn:
        conn.execute(damage)
    [info] = store.list_sessions()
    assert info.broken == said
    store.close()
