"""First-last memory: the first ``--first-turns`` turns (how the conversation was set up) and then the latest turns
the budget holds, the turns between left out as one gap that the request says it left.

The word counter of conftest makes the arithmetic exact: the system message "sys" costs 2, a stored turn costs 8 and
a one-word user message 2.
"""

from __future__ import annotations

import pytest

from chatbot.engine.memory import MemoryConfig
from chatbot.engine.request_record import Built
from chatbot.engine.strategies import STRATEGIES
from chatbot.errors import UsageError
from tests.conftest import make_turn

SYSTEM, TURN, USER = 2, 8, 2


def sent_users(request) -> list[str]:
    """The first word of each earlier user message the request sends (``u3``), in order."""
    return [m["content"].split()[0] for m in request.messages[1:-1] if m["role"] == "user"]


def test_the_first_turns_and_the_latest_that_fit_are_sent_with_a_gap_between(conv_factory):
    budget = SYSTEM + USER + 5 * TURN  # the 2 first turns and the 3 latest
    req = conv_factory(10, strategy="first-last", first_turns=2, max_input_tokens=budget).build_request("hi")
    assert sent_users(req) == ["u1", "u2", "u8", "u9", "u10"]
    assert (req.head, req.first_turn, req.dropped) == (2, 7, 5)
    assert req.tokens == req.parts.total == budget
    assert list(Built.from_refs(req.refs).verbatim) == [1, 2, 8, 9, 10]  # the record keeps the gap


def test_with_room_for_all_every_turn_is_sent_once_in_order(conv_factory):
    req = conv_factory(6, strategy="first-last", first_turns=2).build_request("hi")
    assert sent_users(req) == ["u1", "u2", "u3", "u4", "u5", "u6"]
    assert (req.head, req.first_turn, req.dropped) == (2, 2, 0)
    assert req.tokens == SYSTEM + 6 * TURN + USER
    assert list(Built.from_refs(req.refs).verbatim) == [1, 2, 3, 4, 5, 6]


def test_fewer_turns_than_the_first_turns_are_all_sent(conv_factory):
    req = conv_factory(1, strategy="first-last", first_turns=3).build_request("hi")
    assert sent_users(req) == ["u1"]
    assert (req.head, req.dropped) == (1, 0)


def test_the_first_turns_come_before_the_latest_and_shrink_to_the_budget(conv_factory):
    budget = SYSTEM + USER + TURN  # room for one turn: the first, not the latest
    req = conv_factory(5, strategy="first-last", first_turns=2, max_input_tokens=budget).build_request("hi")
    assert sent_users(req) == ["u1"]
    assert (req.head, req.first_turn, req.dropped) == (1, 5, 4)


def test_a_first_turn_too_long_for_the_budget_leaves_no_gap_before_the_latest_that_fit(conv_factory):
    conv = conv_factory(0, strategy="first-last", first_turns=2, max_input_tokens=SYSTEM + USER + 2 * TURN)
    conv.add_turn(make_turn(1, words=100))  # far over the budget alone
    conv.add_turn(make_turn(2))
    req = conv.build_request("hi")
    assert sent_users(req) == ["u2"]  # not nothing: the latest turn fits, and no first turn is sent instead
    assert (req.head, req.first_turn, req.dropped) == (0, 1, 1)


def test_no_first_turns_sends_the_latest_that_fit(conv_factory):
    budget = SYSTEM + USER + 3 * TURN
    req = conv_factory(6, strategy="first-last", first_turns=0, max_input_tokens=budget).build_request("hi")
    assert sent_users(req) == ["u4", "u5", "u6"]
    assert (req.head, req.first_turn, req.dropped) == (0, 3, 3)


def test_first_turns_must_not_be_negative_and_the_rule_does_not_summarize():
    with pytest.raises(UsageError, match="--first-turns must be 0 or more"):
        MemoryConfig(strategy="first-last", first_turns=-1)
    assert not MemoryConfig(strategy="first-last").summarizes
    assert STRATEGIES["first-last"].head is not None and STRATEGIES["window"].head is None
