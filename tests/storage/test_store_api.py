"""The parts of the SessionStore protocol that listings and commands use: the store table, open_store, search, rename,
export."""

from __future__ import annotations

import os

import pytest

from chatbot.engine.turn import Turn
from chatbot.errors import ConfigError, SessionLocked, SessionNotFound
from chatbot.storage import STORES, open_store, store_kind
from chatbot.storage.json_store import JsonStore
from tests.support.store_child import hold_lock_in_child


def store_with(tmp_path, *sessions: tuple[str, list[str]]) -> JsonStore:
    store = JsonStore(tmp_path / "s")
    for sid, texts in sessions:
        with store.acquire(sid):
            session = store.create(sid, system="sys")
            for text in texts:
                session.conversation.add_turn(Turn([{"role": "user", "content": text}]))
            store.save(session)
    return store


def test_open_store_takes_a_path_or_a_file_url_and_creates_nothing_until_a_session_is_used(tmp_path):
    plain = open_store(tmp_path / "a")
    url = open_store(f"file://{tmp_path / 'b'}")
    assert isinstance(plain, JsonStore) and isinstance(url, JsonStore) and url.location == str(tmp_path / "b")
    assert plain.list_sessions() == [] and not (tmp_path / "a").exists()
    url.acquire("x").release()
    assert (tmp_path / "b").is_dir()


@pytest.mark.parametrize(
    ("location", "kind"),
    [
        ("postgresql://chat@db/chatbot", "postgresql"),
        ("postgres://chat@db/chatbot", "postgresql"),
        ("host=db dbname=chatbot", "postgresql"),
        ("sqlite:///checkpoint.db", "sqlite"),
        ("sqlite:chat", "sqlite"),
        ("checkpoint.db", "sqlite"),
        ("~/chats/all.SQLITE3", "sqlite"),
        ("sessions", "json"),
        ("file:///tmp/checkpoint.db", "json"),  # named a folder on purpose
        ("./host=x", "json"),
    ],
)
def test_one_table_picks_the_store_a_location_names(location, kind):
    assert store_kind(location).name == kind
    assert [k.name for k in STORES] == ["postgresql", "sqlite", "json"]


def test_a_scheme_no_store_answers_to_is_refused_naming_every_form():
    with pytest.raises(ConfigError) as err:
        store_kind("mysql://root@db/chat")
    assert err.value.message == (
        "--store mysql://…: unknown store; use a directory or file://DIR, sqlite:///PATH.db, postgresql://USER@HOST/DB"
    )


def test_search_lists_matching_turns_across_sessions(tmp_path):
    store = store_with(tmp_path, ("a", ["plan a trip to Jeju", "budget"]), ("b", ["jeju weather", "JEJU again"]))
    hits = store.search("jeju")
    assert sorted((h.session_id, h.turn) for h in hits) == [("a", 1), ("b", 1), ("b", 2)]
    assert all("jeju" in h.snippet.lower() and h.created_at for h in hits)
    assert store.search("nowhere") == []
    assert len(store.search("jeju", limit=2)) == 2


def test_search_skips_broken_files(tmp_path):
    store = store_with(tmp_path, ("a", ["needle"]))
    (tmp_path / "s" / "broken.json").write_text("{not json")
    assert [h.session_id for h in store.search("needle")] == ["a"]


def test_rename_a_stored_session_and_refuse_one_in_use_elsewhere(tmp_path):
    store = store_with(tmp_path, ("a", ["hello"]), ("b", ["hi"]))
    store.rename("a", "Trip")
    assert JsonStore(tmp_path / "s").load("a").title == "Trip"
    with hold_lock_in_child(tmp_path / "s", "b"), pytest.raises(SessionLocked):
        store.rename("b", "no")
    with pytest.raises(SessionNotFound):
        store.rename("missing", "x")


def test_export_renders_a_stored_session(tmp_path):
    store = store_with(tmp_path, ("a", ["hello there"]))
    text = store.export("a")
    assert text.startswith("# Session a") and "hello there" in text


def test_a_lock_of_a_session_that_was_never_saved_leaves_no_file(tmp_path):
    store = JsonStore(tmp_path / "s")
    lock = store.acquire("fresh")
    assert (tmp_path / "s" / ".fresh.lock").exists()
    lock.release()
    assert os.listdir(tmp_path / "s") == []
