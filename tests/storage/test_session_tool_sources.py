"""The session document's ``tool_sources``: kept by both stores, checked, absent in older files and tables."""

from __future__ import annotations

import json

import pytest

from chatbot.storage.json_store import JsonStore
from chatbot.storage.session import ToolSources
from chatbot.storage.session_format import check_session_data

SOURCES = ToolSources(
    ("/home/me/tools.py", "/srv/more tools.py"), ("python server.py --notes", "https://mcp.example/x"), "/home/me/proj"
)


def test_tool_sources_round_trip_in_both_stores(open_test_store):
    store = open_test_store()
    session = store.create("t", system="s")
    session.tool_sources = SOURCES
    with store.acquire("t"):
        store.save(session)
    loaded = open_test_store().load("t")
    assert loaded.tool_sources == SOURCES
    assert loaded.copy_as("fork").tool_sources == SOURCES  # a fork keeps them


def test_a_file_without_tool_sources_remembers_none(tmp_path):
    store = JsonStore(tmp_path)
    with store.acquire("old"):
        store.save(store.create("old", system="s"))
    data = json.loads((tmp_path / "old.json").read_text())
    assert data["tool_sources"] == {"functions": [], "mcp": []}
    del data["tool_sources"]
    (tmp_path / "old.json").write_text(json.dumps(data))
    assert not store.load("old").tool_sources


def test_the_folder_the_mcp_commands_were_given_in_is_kept_and_counts_as_part_of_the_tools():
    data = SOURCES.to_dict()
    assert data["folder"] == "/home/me/proj"
    assert "folder" not in ToolSources(("/home/me/tools.py",)).to_dict()  # functions alone: no folder to keep
    older = ToolSources.from_dict({"functions": [], "mcp": ["python server.py"]})  # stored before it was kept
    assert older.folder == "" and older.mcp == ("python server.py",)
    moved = ToolSources(SOURCES.functions, SOURCES.mcp, "/tmp/clone")
    assert not SOURCES.same_tools(moved)  # the same command in another folder runs other code


@pytest.mark.parametrize(
    "bad",
    [
        [],
        {"functions": "a.py"},
        {"mcp": [3]},
        {"functions": [""]},
        {"mcp": ["a\x00"]},
        {"folder": "proj"},  # a relative folder would move with the folder the session is continued from
        {"folder": 3},
    ],
)
def test_bad_tool_sources_are_refused_by_name(tmp_path, bad):
    store = JsonStore(tmp_path)
    with store.acquire("b"):
        store.save(store.create("b", system="s"))
    data = json.loads((tmp_path / "b.json").read_text())
    data["tool_sources"] = bad
    assert "'tool_sources" in check_session_data(data)


def test_an_earlier_postgres_table_gets_the_column_and_keeps_its_sessions(open_pg, pg_url):
    from tests.support.stores import admin

    first = open_pg()
    with first.acquire("old"):
        first.save(first.create("old", system="s"))
    first.close()
    with admin(pg_url) as conn:  # as an earlier chatbot made it
        conn.execute("ALTER TABLE chatbot_sessions DROP COLUMN tool_sources")
    store = open_pg()
    session = store.load("old")
    assert not session.tool_sources
    session.tool_sources = SOURCES
    with store.acquire("old"):
        store.save(session)
    assert open_pg().load("old").tool_sources == SOURCES
