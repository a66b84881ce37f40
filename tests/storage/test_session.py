"""The session document: Session is its one owner (to and from JSON), and the helpers listings and search use."""

from __future__ import annotations

import json
import sys

from hypothesis import example, given, settings
from hypothesis import strategies as st

from chatbot.engine.conversation import Conversation
from chatbot.engine.turn import Turn, json_bytes
from chatbot.engine.usage import Totals
from chatbot.storage.session import LOWER_TO_ASCII, Session, document_title, may_hold, search_turns, snippet
from chatbot.storage.session_format import check_session_data


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


def test_a_query_is_found_across_a_line_break_in_any_message_of_the_turn():
    reply = "Meet at\nthe  Kimchi bar"  # the words of the query split by a newline and two spaces
    messages = [{"role": "user", "content": "where shall we meet?"}, {"role": "assistant", "content": reply}]
    turns = [{"messages": messages}]
    hits = search_turns("s", "T", turns, "at the KIMCHI")
    assert [(h.turn, h.matches, h.snippet) for h in hits] == [(1, 1, "Meet at the Kimchi bar")]


# text the file's bytes could mislead a quick look on: case pairs beyond ASCII, letters that lower to ASCII, sigmas,
# what JSON escapes (quotes, backslashes, newlines, tabs), whitespace of every kind; a control character or a lone
# surrogate (escaped as \\u) makes the look give up, so they come in few examples
_TRICKY = 'aAkKiIsS \u0130\u212a\u03a3\u03c3\u03c2\u00c9\u00e9"\\\n\t\u00a0\u3000\uae40\uce58'
_TEXT = st.text(alphabet=_TRICKY, max_size=12) | st.text(alphabet=_TRICKY + "\x01\ud800", max_size=6)


@settings(max_examples=1000, deadline=None)
@given(st.lists(_TEXT, min_size=1, max_size=3), st.data())
@example(["\u0130stanbul"], "i")  # İ lowers to "i" and a dot
@example(["\u212a"], "k")  # the Kelvin sign lowers to k
@example(["\u0130\u212a\u212a"], "kk")  # both of them in one file: still no look at the bytes alone
@example(["\u039f\u0394\u039f\u03a3\nx"], "\u03bf\u03b4\u03bf\u03c2")  # a final sigma: the file has \\n after it
@example(["\n\u03a3"], "\u03a3")  # a sigma after a newline: the file has the "n" of \\n before it
@example(['say "hi"'], 'say "hi"')
def test_a_file_skipped_unread_by_a_search_holds_no_turn_the_search_finds(texts, data):
    """The JSON store's search skips decoding a file whose bytes cannot hold the query: never one it would find."""
    turns = [{"messages": [{"role": "user", "content": t}, {"role": "assistant", "content": "ok"}]} for t in texts]
    raw = json_bytes({"turns": turns})
    if isinstance(data, str):
        query = data
    else:
        source = data.draw(st.sampled_from(texts))
        start = data.draw(st.integers(0, len(source)))
        part = source[start : start + data.draw(st.integers(1, 6))]
        query = data.draw(st.sampled_from([part, part.upper(), part.lower(), part.swapcase()]) | _TEXT)
    assert search_turns("s", "", turns, query) == [] or may_hold(raw, query)


def test_only_two_characters_beyond_ascii_lower_to_an_ascii_letter():
    lowering = [chr(o).encode() for o in range(128, sys.maxunicode + 1) if not 0xD800 <= o <= 0xDFFF
                if any(c.isascii() for c in chr(o).lower())]  # fmt: skip
    assert tuple(lowering) == LOWER_TO_ASCII


def test_a_search_for_a_word_a_file_lacks_skips_it_and_one_it_holds_in_any_case_does_not():
    raw = json_bytes({"turns": [{"messages": [{"role": "user", "content": "Meet at the KIMCHI bar 김치"}]}]})
    assert may_hold(raw, "kimchi") and may_hold(raw, "the kimchi") and may_hold(raw, "김치")
    assert not may_hold(raw, "tangerine") and not may_hold(raw, "kimchi tangerine") and not may_hold(raw, "감자")


def test_the_custom_endpoint_mark_round_trips_and_a_file_without_it_is_not_known():
    session = make_session()
    session.endpoint = "custom"
    data = json.loads(session.to_json())
    assert data["endpoint"] == "custom" and "http" not in json.dumps({k: v for k, v in data.items() if k != "turns"})
    assert Session.from_dict(data, "s1").endpoint == "custom"
    del data["endpoint"]  # a file written before the mark was kept
    assert check_session_data(data) == ""
    assert Session.from_dict(data, "s1").endpoint == "unknown"  # it may have been served anywhere


def test_an_endpoint_mark_other_than_custom_is_refused_by_name():
    data = json.loads(make_session().to_json())
    for bad in ("http://127.0.0.1:8080/v1", None, 1):
        data["endpoint"] = bad
        assert "'endpoint' must be one of '', 'custom', 'unknown'" in check_session_data(data)


def test_a_search_extract_is_cut_from_the_cleaned_text_so_no_half_sequence_shows():
    from chatbot.storage.session import snippet

    text = "x" * 50 + "\x1b]8;;http://evil.example/\x1b\\bidi: the word we look for\x1b]8;;\x1b\\ and more"
    found = snippet(text, "word we look for", width=40)
    assert "8;;" not in found and "evil" not in found and "\x1b" not in found
    assert "bidi: the word we look for" in found
