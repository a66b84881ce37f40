"""The session file stores what calibration learned; older files (a plain factor per model) still load."""

from __future__ import annotations

import json

import pytest

from chatbot.engine.calibration import Calibration
from chatbot.engine.conversation import Conversation
from chatbot.errors import SessionCorrupt
from chatbot.storage.json_store import JsonStore
from chatbot.storage.session import Session


@pytest.fixture
def store(tmp_path):
    return JsonStore(tmp_path / "sessions")


def write(store: JsonStore, session_id: str, calibration: dict) -> None:
    session = Session(session_id, Conversation("sys"), model="m")
    with store.acquire(session_id):
        store.save(session)
    path = store.directory / f"{session_id}.json"
    data = json.loads(path.read_text())
    data["calibration"] = calibration
    path.write_text(json.dumps(data))


def test_learned_calibration_round_trips_below_one(store):
    session = Session("s", Conversation("sys"), model="m")
    session.calibration_for("m").learn(1000, 880)
    session.calibration_for("m").learn(1000, 890)
    session.calibration_for("unused")  # learned nothing: not written
    with store.acquire("s"):
        store.save(session)
    stored = json.loads((store.directory / "s.json").read_text())["calibration"]
    assert stored == {"m": {"ratios": [0.88, 0.89], "turns": 2}}
    assert store.load("s").calibration_for("m") == Calibration([0.88, 0.89], 2, plain=[0.88, 0.89])


def test_an_older_file_with_a_plain_factor_loads_and_is_rewritten_in_the_new_form(store):
    write(store, "old", {"m": 1.08})
    session = store.load("old")
    assert session.calibration_for("m").correction == pytest.approx(1.08)
    with store.acquire("old"):
        store.save(session)
    assert json.loads((store.directory / "old.json").read_text())["calibration"] == {
        "m": {"ratios": [1.08], "turns": 1}
    }


@pytest.mark.parametrize(
    "calibration, named",
    [
        ({"m": 0.1}, "calibration.m"),
        ({"m": {"ratios": [0.9, 12], "turns": 2}}, "calibration.m.ratios"),
        ({"m": {"ratios": [0.9], "turns": "2"}}, "calibration.m.turns"),
        ({"m": {"ratios": [], "turns": 0, "context": 0}}, "calibration.m.context"),
        ({"m": {"ratios": [], "turns": 0, "context": "3000"}}, "calibration.m.context"),
        ({"m": {"ratios": [], "turns": 0, "context": True}}, "calibration.m.context"),
    ],
)
def test_out_of_bounds_calibration_is_refused_by_name(store, calibration, named):
    write(store, "bad", calibration)
    with pytest.raises(SessionCorrupt, match=named.replace(".", r"\.")):
        store.load("bad")


def test_a_context_window_a_server_named_is_kept_with_the_models_calibration(store):
    session = Session("s", Conversation("sys"), model="m")
    session.calibration_for("m").context = 3000  # named by a context-length error; no count learned yet
    with store.acquire("s"):
        store.save(session)
    stored = json.loads((store.directory / "s.json").read_text())["calibration"]
    assert stored == {"m": {"ratios": [], "turns": 0, "context": 3000}}
    loaded = store.load("s")
    assert loaded.context_for("m") == 3000 and loaded.context_for("other") is None
    assert "other" not in loaded.calibration  # asking changes nothing
