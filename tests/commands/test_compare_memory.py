"""``--compare-memory`` replays a session's turns within the room each real request had: the budget, less the tool
definitions that turn's request carried beside its messages."""

from __future__ import annotations

from chatbot.commands.compare import compare, plain
from chatbot.engine.memory import MemoryConfig
from chatbot.storage.session import Session
from tests.conftest import make_turn

BUDGET = 400


def stored(tools: int) -> Session:
    """Twelve turns of about 60 tokens each under full memory; each request recorded with ``tools`` tokens of
    definitions beside it."""
    session = Session.new("c", system="sys", memory=MemoryConfig(strategy="full", max_input_tokens=BUDGET, recall=0))
    for n in range(1, 13):
        turn = make_turn(n)
        turn.messages[0]["content"] = f"question {n}: " + "word " * 25
        turn.messages[1]["content"] = f"answer {n}: " + "word " * 25
        turn.sent = {"budget": BUDGET - tools, "tools": tools, "parts": {}}
        session.conversation.add_turn(turn)
    return session


def test_a_turn_that_carried_tool_definitions_is_replayed_in_the_room_its_messages_had():
    plain_replay, with_tools = compare(stored(0)), compare(stored(150))
    for rule in with_tools:
        assert max(rule.tokens) <= BUDGET - 150, rule
    # the same turns with no definitions recorded have the whole budget: the full rule's requests grow bigger
    assert max(plain_replay[0].tokens) > BUDGET - 150
    assert max(plain_replay[0].tokens) <= BUDGET


def test_the_header_says_the_definitions_were_taken_off_the_budget():
    session = stored(150)
    shown = plain(session, compare(session), session.conversation.memory)
    assert f"budget {BUDGET} (less the tool definitions a turn's request carried (up to 150))" in shown
    assert "tool definitions" not in plain(stored(0), compare(stored(0)), MemoryConfig(max_input_tokens=BUDGET))
