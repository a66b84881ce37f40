"""The session document's model options: saved, loaded, checked, and absent in older files."""

from __future__ import annotations

import json

import pytest

from chatbot.errors import SessionCorrupt
from chatbot.storage.json_store import JsonStore
from chatbot.storage.session_format import check_session_data


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


#: a JSON schema for structured output: objects and lists nested, keys in the order the model should answer in
SCHEMA_OPTION = {
    "type": "json_schema",
    "json_schema": {
        "name": "answer",
        "strict": True,
        "schema": {
            "type": "object",
            "properties": {"reasoning": {"type": "string"}, "answer": {"type": ["string", "null"]}},
            "required": ["reasoning", "answer"],
            "additionalProperties": False,
        },
    },
}


def test_json_object_options_round_trip_in_both_stores_keeping_their_key_order(open_test_store):
    store = open_test_store()
    session = store.create("j", system="s")
    session.set_option("response_format", SCHEMA_OPTION)
    session.set_option("logit_bias", {"50256": -100})
    session.set_option("stop", [["a"], "b"])
    with store.acquire("j"):
        store.save(session)
    loaded = open_test_store().load("j").options
    assert loaded == {"response_format": SCHEMA_OPTION, "logit_bias": {"50256": -100}, "stop": [["a"], "b"]}
    assert json.dumps(loaded) == json.dumps(session.options)  # the same keys in the same order, at every depth


def test_an_options_column_of_an_earlier_postgres_store_keeps_its_sessions_and_then_key_order(open_pg, pg_url):
    from tests.support.stores import admin

    first = open_pg()
    session = first.create("old", system="s")
    session.set_option("seed", 7)
    with first.acquire("old"):
        first.save(session)
    first.close()
    with admin(pg_url) as conn:  # as an earlier chatbot made it: jsonb, which sorts an object's keys
        conn.execute("ALTER TABLE chatbot_sessions ALTER COLUMN options TYPE jsonb USING options::jsonb")
    store = open_pg()
    session = store.load("old")
    assert session.options == {"seed": 7}
    session.set_option("response_format", SCHEMA_OPTION)
    with store.acquire("old"):
        store.save(session)
    assert json.dumps(open_pg().load("old").options) == json.dumps({"seed": 7, "response_format": SCHEMA_OPTION})


@pytest.mark.parametrize(
    "bad",
    [[], {"t": None}, {"model": 1}, {"bad-name": 1}, {"t": float("nan")}, {"t": {"x": [float("inf")]}}],
)
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
