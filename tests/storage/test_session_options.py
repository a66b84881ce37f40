"""The session document's model options: saved, loaded, checked, and absent in older files."""

from __future__ import annotations

import json

import pytest

from chatbot.errors import SessionCorrupt
from chatbot.storage.json_store import JsonStore
from chatbot.storage.schema import check_session_data


def test_options_round_trip(tmp_path):
    store = JsonStore(tmp_path)
    session = store.create("o", system="s")
    session.set_option("temperature", 0.2)
    session.set_option("stop", ["END"])
    session.set_option("seed", 1)
    session.set_option("seed", None)
    with store.acquire("o"):
        store.save(session)
    assert store.load("o").options == {"temperature": 0.2, "stop": ["END"]}


def test_a_file_without_options_loads_with_none(tmp_path):
    store = JsonStore(tmp_path)
    with store.acquire("old"):
        store.save(store.create("old", system="s"))
    path = tmp_path / "old.json"
    data = json.loads(path.read_text())
    del data["options"]
    path.write_text(json.dumps(data))
    assert store.load("old").options == {}


@pytest.mark.parametrize("bad", [[], {"t": None}, {"t": {"x": 1}}, {"t": [[1]]}])
def test_bad_options_are_refused_by_name(tmp_path, bad):
    store = JsonStore(tmp_path)
    with store.acquire("b"):
        store.save(store.create("b", system="s"))
    data = json.loads((tmp_path / "b.json").read_text())
    data["options"] = bad
    assert "options" in check_session_data(data)
    (tmp_path / "b.json").write_text(json.dumps(data))
    with pytest.raises(SessionCorrupt):
        store.load("b")


def test_fork_copy_shares_nothing(tmp_path):
    store = JsonStore(tmp_path)
    session = store.create("a", system="s")
    session.set_option("seed", 1)
    copy = session.copy_as("b")
    copy.set_option("seed", 2)
    assert session.options == {"seed": 1} and copy.id == "b" and copy.title == "fork of a"
