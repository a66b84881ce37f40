"""How a `/timeline` row is drawn: every part that holds tokens shows, the bar's length is the request against the
budget, an estimate is marked, and a request over the budget fills the bar and says so."""

from __future__ import annotations

from chatbot.commands.timeline import WIDTH, Row, cells, plain, timeline_of
from chatbot.engine.turn import Turn


def turn_with(sent: dict | None, usage: dict | None = None) -> Turn:
    return Turn([{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}], usage=usage, sent=sent)


def record(provider: int | None, budget: int = 1000, tools: int = 0, **parts: int) -> dict:
    return {"budget": budget, "tools": tools, "parts": parts, "summarized": 0, "summary_covers": 0, "dropped": 0,
            "provider": provider}  # fmt: skip


def test_every_part_that_holds_tokens_gets_a_character_and_the_bar_is_the_request_against_the_budget():
    row = Row(1, 500, False, (("system", 40), ("summary", 0), ("earlier", 455), ("new", 5)), 1000)
    drawn = cells(row, 1000)
    assert [name for name, _ in drawn] == ["system", "earlier", "new"]
    assert sum(n for _, n in drawn) == WIDTH // 2
    assert drawn == [("system", 1), ("earlier", 18), ("new", 1)]  # the new message shows, though worth less than one


def test_a_request_over_the_budget_fills_the_bar_and_is_marked():
    turns = [turn_with(record(1300, system=100, earlier=1100, new=50))]
    text = plain(timeline_of("x", turns, 1000))
    row = text.splitlines()[-1]
    assert row.startswith("   1    1300    1300 |s") and row.count(".") == 0 and "over the budget of 1000" in row


def test_an_estimate_is_marked_and_tool_definitions_are_part_of_the_request_and_its_budget():
    turns = [turn_with(record(None, budget=900, tools=100, system=50, new=50))]
    timeline = timeline_of("x", turns, 5000)
    assert timeline.scale == 1000  # the messages' budget and the tool definitions beside them
    row = plain(timeline).splitlines()[-1]
    assert row.startswith("   1    ~200     200 |ssnndddd....")
    assert "d tool definitions" in plain(timeline)


def test_an_older_turn_shows_its_total_from_its_usage():
    turns = [turn_with(None, {"prompt_tokens": None, "estimated_prompt_tokens": 250})]
    row = plain(timeline_of("x", turns, 1000)).splitlines()[-1]
    assert row == "   1    ~250     250 |##########..............................|  total only: parts not kept"
