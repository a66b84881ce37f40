"""The session document: Session is its one owner (to and from JSON), and the helpers listings and search use."""

from __future__ import annotations

import json

from chatbot.engine.conversation import Conversation
from chatbot.engine.turn import Turn, json_bytes
from chatbot.engine.usage import Totals
from chatbot.storage.schema import check_session_data
from chatbot.storage.session import Session, document_title, search_turns, snippet


def make_session() -> Session:
    conv = Conversation("be brief", turns=[Turn([{"role": "user", "content": "Where is Jeju?"}])])
    conv.add_turn(Turn([{"role": "user", "content": "and Busan"}, {"role": "assistant", "content": "south-east"}]))
    conv.set_summary("user asked about Jeju", 1)
    session = Session("s1", conv, title="", provider="echo", model="echo", totals=Totals(requests=2))
    session.calibration_for("echo").learn(100, 125)
    return session


def test_the_document_round_trips_and_passes_its_own_checks():
    session = make_session()
    data = json.loads(session.to_json())
    assert check_session_data(data) == ""
    again = Session.from_dict(data, "s1")
    assert again.to_json() == session.to_json()
    assert again.conversation.summary == "user asked about Jeju" and again.conversation.summary_covers == 1
    assert again.totals == Totals(requests=2)
    assert again.calibration_for("echo").to_dict() == session.calibration_for("echo").to_dict()
    assert again.calibration_for("echo").correction == 1.25


def test_to_json_is_the_plain_encoding_of_to_dict():
    session = make_session()
    assert session.to_json() == json_bytes(session.to_dict())


def test_the_id_comes_from_where_the_document_was_found():
    data = json.loads(make_session().to_json())
    assert Session.from_dict(data, "copy").id == "copy"


def test_untitled_documents_are_named_by_their_first_message():
    data = json.loads(make_session().to_json())
    assert document_title(data) == "Where is Jeju?"
    data["title"] = "Trip"
    assert document_title(data) == "Trip"
    data["title"], data["turns"] = "", []
    assert document_title(data) == ""


def test_snippet_finds_case_insensitively_and_marks_cuts():
    text = "word " * 40 + "the Needle is here " + "word " * 40
    cut = snippet(text, "needle", width=40)
    assert "Needle" in cut and cut.startswith("…") and cut.endswith("…") and len(cut) <= 42
    assert snippet("short text", "TEXT") == "short text"
    assert snippet("nothing", "absent") == ""


def test_search_turns_numbers_matches_from_one():
    turns = json.loads(make_session().to_json())["turns"]
    hits = search_turns("s1", "Trip", turns, "busan")
    assert [(h.session_id, h.title, h.turn) for h in hits] == [("s1", "Trip", 2)]
    assert search_turns("s1", "Trip", turns, "SOUTH-EAST")[0].snippet == "south-east"
