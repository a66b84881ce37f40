"""The session document's small rules at their edges: ids, titles of untitled sessions, search snippets, copies,
and the changes an open session saves at once."""

from __future__ import annotations

import pytest

from chatbot.engine.conversation import Conversation
from chatbot.engine.turn import Turn
from chatbot.errors import InvalidSessionId
from chatbot.storage.session import Session, document_title, search_turns, snippet, validate_id


@pytest.mark.parametrize("good", ["a", "A9", "9", "a" * 64, "x.y_z-1"])
def test_ids_at_the_edge_of_the_rule_are_accepted(good):
    assert validate_id(good) == good


@pytest.mark.parametrize("bad", ["", "a" * 65, ".hidden", "-x", "a/b", "..", "a\x00", None, 3])
def test_ids_outside_the_rule_are_refused(bad):
    with pytest.raises(InvalidSessionId, match="invalid session id"):
        validate_id(bad)


def test_a_very_long_bad_id_is_shown_cut():
    with pytest.raises(InvalidSessionId) as caught:
        validate_id("/" * 200)
    shown = caught.value.message.split(":")[0]
    assert shown.endswith("...") and len(shown) == len("invalid session id ") + 80


def test_an_untitled_session_is_named_by_its_first_message():
    turn = {"messages": [{"role": "user", "content": "  where   is\nJeju " + "x" * 80}]}
    assert document_title({"title": "", "turns": [turn]}) == ("where is Jeju " + "x" * 80)[:49] + "…"
    assert document_title({"title": "Mine", "turns": [turn]}) == "Mine"
    assert document_title({"title": "", "turns": []}) == ""


def test_snippets_are_cut_around_the_match_with_ellipses_where_cut():
    text = " ".join(f"w{i}" for i in range(100))
    cut = snippet(text, "w50", width=30)
    assert cut.startswith("…") and cut.endswith("…") and "w50" in cut
    assert len(cut) == 32
    assert snippet("short text here", "SHORT") == "short text here"
    assert snippet("a\n  multi   line", "multi line") == "a multi line"
    assert snippet("nothing", "else") == ""
    start = snippet(text, "w0", width=30)
    assert start.startswith("w0 ") and start.endswith("…")


def test_search_finds_one_hit_per_turn_numbered_from_one():
    turns = [
        {"messages": [{"role": "user", "content": "tea?"}, {"role": "assistant", "content": "tea, yes"}]},
        {"messages": [{"role": "user", "content": "coffee"}], "created_at": "2026-01-01T00:00:00+00:00"},
        {"messages": [{"role": "user", "content": "x"}, {"role": "tool", "tool_call_id": "c", "content": "Coffee!"}]},
    ]
    hits = search_turns("s", "t", turns, "coffee")
    assert [(h.turn, h.snippet, h.created_at) for h in hits] == [
        (2, "coffee", "2026-01-01T00:00:00+00:00"),
        (3, "Coffee!", ""),
    ]
    assert [h.turn for h in search_turns("s", "t", turns, "TEA")] == [1]


def test_a_copy_shares_nothing_and_is_titled_as_a_fork():
    session = Session("orig", Conversation("sys", turns=[Turn([{"role": "user", "content": "q"}])]), title="Trip")
    session.set_option("temperature", 0.2)
    copy = session.copy_as("copy")
    assert (copy.id, copy.title) == ("copy", "fork of orig: Trip")
    copy.conversation.add_turn(Turn([{"role": "user", "content": "more"}]))
    copy.set_option("temperature", None)
    assert len(session.conversation.turns) == 1 and session.options == {"temperature": 0.2}
    assert copy.options == {}
    assert Session("o", Conversation("s")).copy_as("c").title == "fork of o"


def test_changes_through_an_open_session_are_saved_at_once(make_app):
    app = make_app()
    chat = app.open("o")
    chat.open_session.set_option("top_p", 0.5)
    assert app.store.load("o").options == {"top_p": 0.5}
    chat.open_session.set_system("be terse")
    assert app.store.load("o").conversation.system == "be terse"
    chat.open_session.rename("Named")
    stored = app.store.load("o")
    assert stored.options == {"top_p": 0.5} == chat.open_session.options
    assert stored.conversation.system == "be terse" and stored.title == "Named"
    chat.open_session.options["top_p"] = 1  # a copy: changing it changes nothing
    assert chat.open_session.options == {"top_p": 0.5}
    chat.open_session.set_option("top_p", None)
    assert app.store.load("o").options == {}


def test_a_bad_id_is_cut_only_past_eighty_characters_shown():
    with pytest.raises(InvalidSessionId) as caught:
        validate_id("/" * 78)  # its repr is exactly 80 characters: shown whole
    assert f"'{'/' * 78}':" in caught.value.message


def test_a_snippet_ends_without_an_ellipsis_when_it_reaches_the_end():
    text = "x" * 80
    assert snippet(text, "x") == text
    assert snippet(text + "y", "x") == text + "…"
    assert snippet("a" * 40 + "needle", "needle") == "…" + "a" * 26 + "needle"  # a third of the width before it
