"""The session document's small rules at their edges: ids, titles of untitled sessions, search snippets, copies,
and the changes an open session saves at once."""

from __future__ import annotations

import json

import pytest

from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import Turn
from chatbot.errors import InvalidSessionId
from chatbot.storage.session import Session, ToolSources, document_title, search_turns, snippet, validate_id


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


def test_changes_through_the_chat_are_saved_at_once(make_app):
    app = make_app()
    chat = app.open("o")
    chat.set_option("top_p", 0.5)
    assert app.store.load("o").options == {"top_p": 0.5}
    chat.set_system("be terse")
    assert app.store.load("o").conversation.system == "be terse"
    chat.rename("Named")
    stored = app.store.load("o")
    assert stored.options == {"top_p": 0.5} == chat.options
    assert stored.conversation.system == "be terse" and stored.title == "Named"
    chat.options["top_p"] = 1  # a copy: changing it changes nothing
    assert chat.options == {"top_p": 0.5}
    chat.set_option("top_p", None)
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


def _three_turns(summary_covers: int) -> Session:
    turns = [Turn([{"role": "user", "content": f"q{i}"}]) for i in range(3)]
    conversation = Conversation("sys", MemoryConfig(), TokenCounter(), turns=turns, summary="S", summary_covers=2)
    conversation.summary_covers = summary_covers
    session = Session("orig", conversation)
    session.created_at = session.updated_at = "2000-01-01T00:00:00+00:00"
    return session


@pytest.mark.parametrize("keep", [0, 3])
def test_a_branch_may_keep_from_none_to_all_turns(keep):
    branch = _three_turns(2).copy_as("b", turns=keep)
    assert [t.messages[0]["content"] for t in branch.conversation.turns] == [f"q{i}" for i in range(keep)]
    assert branch.title == f"fork of orig at turn {keep}"


@pytest.mark.parametrize("keep", [-1, 4])
def test_a_branch_outside_the_turns_is_refused(keep):
    with pytest.raises(ValueError, match=f"a branch keeps 0 to 3 turns, not {keep}"):
        _three_turns(2).copy_as("b", turns=keep)


def test_a_branch_keeps_the_summary_only_when_it_has_every_turn_the_summary_covers():
    session = _three_turns(2)
    kept = session.copy_as("b", turns=2)
    assert (kept.conversation.summary, kept.conversation.summary_covers) == ("S", 2)
    cut = session.copy_as("b", turns=1)
    assert (cut.conversation.summary, cut.conversation.summary_covers) == ("", 0)
    assert json.loads(cut.to_json())["summary"] == {"text": "", "covers": 0}
    assert [t.messages[0]["content"] for t in cut.conversation.turns] == ["q0"]


def test_a_copy_keeps_the_memory_rule_and_counter_and_gets_new_timestamps():
    session = _three_turns(0)
    copy = session.copy_as("b")
    assert copy.conversation.memory is session.conversation.memory
    assert copy.conversation.counter is session.conversation.counter
    assert copy.created_at == copy.updated_at > "2000-01-01T00:00:00+00:00"


def test_a_rescue_holds_only_the_turns_the_store_lacks_and_no_summary():
    session = _three_turns(2)
    rescue = json.loads(session.rescue_json(1))
    expected = {**session.fields(), "summary": {"text": "", "covers": 0}, "rescued_after": 1}
    expected["turns"] = [t.to_dict() for t in session.conversation.turns[1:]]
    assert rescue == expected
    header = list(session.fields())[:-2]  # every field before the turns (the trailer: totals, calibration)
    assert list(rescue) == [*header, "rescued_after", "turns", "totals", "calibration"]


def test_tool_sources_are_true_when_either_kind_is_given():
    assert not ToolSources()
    assert ToolSources(functions=("/f.py",))
    assert ToolSources(mcp=("http://x",))


def test_removing_an_option_that_was_never_set_is_harmless():
    session = Session("o", Conversation("s"))
    session.set_option("top_p", None)
    assert session.options == {}
