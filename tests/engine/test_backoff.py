"""The summary backoff schedule, /summary now, next_summary (what a summary written ahead is asked), --window-step."""

from __future__ import annotations

import pytest

from chatbot.engine import memory
from chatbot.engine.backoff import SummaryBackoff
from chatbot.errors import UsageError
from tests.conftest import make_turn


def test_the_schedule_is_the_1st_2nd_4th_8th_turn_after_the_first_failure():
    backoff = SummaryBackoff()
    assert all(backoff.due(n) for n in range(0, 40))
    backoff.failed(10)
    backoff.failed(11)  # later failures do not restart the count
    assert [n for n in range(0, 60) if backoff.due(n)] == [11, 12, 14, 18, 26, 42]
    assert backoff.next_try(14) == 18
    backoff.succeeded()
    assert backoff.due(13)


def test_undo_forgets_a_failure_in_a_request_that_is_taken_back(conv_factory):
    conv = conv_factory(5, strategy="summary", summary_trigger=2, keep_turns=1)
    conv.backoff.failed(4)  # the request for turn 5 failed to summarize
    conv.undo()  # turn 5 taken back: 4 turns remain, the failed request is gone
    assert conv.backoff.failed_at == 4
    conv.undo()
    assert conv.backoff.failed_at is None and conv.backoff.due(3)


class Failing:
    """A summarizer that fails its first ``failures`` calls, then writes one short line; records the turn counts."""

    def __init__(self, conv, failures: int = 10**6) -> None:
        self.conv = conv
        self.failures = failures
        self.at: list[int] = []

    def __call__(self, previous, turns, first):
        self.at.append(len(self.conv.turns))
        if len(self.at) <= self.failures:
            raise RuntimeError("summary model down")
        return f"s{first}-{first + len(turns) - 1}"


def grow(conv, summarizer, upto: int):
    """Send requests until the conversation has ``upto`` turns; returns each request's warnings."""
    warnings = {}
    while len(conv.turns) < upto:
        request = conv.build_request("next", summarizer=summarizer)
        warnings[len(conv.turns)] = request.warnings
        conv.add_turn(make_turn(len(conv.turns) + 1))
    return warnings


def test_failed_summaries_are_retried_on_a_backoff_and_every_turn_that_fits_is_sent_meanwhile(conv_factory):
    conv = conv_factory(3, strategy="summary", summary_trigger=2, keep_turns=1)
    summarizer = Failing(conv)
    warnings = grow(conv, summarizer, 30)
    assert summarizer.at == [3, 4, 5, 7, 11, 19]
    assert "is tried again before turn 12 (/summary now forces it)" in warnings[9][0]
    assert conv.summary == "" and conv.summary_covers == 0
    request = conv.build_request("next", summarizer=summarizer)
    assert request.first_turn == 0 and request.dropped == 0  # the budget has room for them all


def test_a_success_ends_the_backoff(conv_factory):
    conv = conv_factory(3, strategy="summary", summary_trigger=2, keep_turns=1)
    summarizer = Failing(conv, failures=2)
    grow(conv, summarizer, 12)
    # fails before turns 4 and 5, succeeds before turn 6, then folds on the trigger again (every 2 turns)
    assert summarizer.at == [3, 4, 5, 7, 9, 11]
    assert conv.backoff.failed_at is None and conv.summary_covers == 10


def test_summary_now_forces_a_fold_during_the_backoff(conv_factory):
    conv = conv_factory(3, strategy="summary", summary_trigger=2, keep_turns=1)
    summarizer = Failing(conv, failures=1)
    grow(conv, summarizer, 6)  # failed at 3, succeeded at 4
    conv.backoff.failed(6)
    assert not conv.backoff.due(6)
    assert memory.fold_now(conv, summarizer) == (2, [])  # turns 4-5; the last stays verbatim
    assert conv.summary_covers == 5 and conv.backoff.failed_at is None
    assert memory.fold_now(conv, summarizer) == (0, [])  # nothing left but the kept turn


def test_next_summary_names_exactly_what_the_next_fold_asks(conv_factory):
    conv = conv_factory(2, strategy="summary", summary_trigger=2, keep_turns=1)
    assert memory.next_summary(conv) is None  # 2 uncovered turns: not more than the trigger
    conv.add_turn(make_turn(3))
    expected = memory.next_summary(conv)
    seen = []

    def summarizer(previous, turns, first):
        seen.append((previous, turns, first))
        return "short"

    conv.build_request("next", summarizer=summarizer)
    assert seen == [expected] and expected[2] == 1 and len(expected[1]) == 2
    conv.backoff.failed(5)
    conv.add_turn(make_turn(4))
    conv.add_turn(make_turn(5))
    assert memory.next_summary(conv) is None  # backing off
    assert memory.next_summary(conv_factory(9, strategy="window")) is None


@pytest.mark.parametrize(
    ("step", "starts"),
    [
        (1, [0, 0, 0, 1, 2, 3, 4, 5, 6]),  # today: the last 2 turns, the start moves every request
        (3, [0, 0, 0, 0, 0, 3, 3, 3, 6]),  # 2 to 4 turns; each start (the cached prefix) holds for 3 requests
    ],
)
def test_the_window_slides_step_turns_at_a_time(conv_factory, step, starts):
    conv = conv_factory(0, strategy="window", window_turns=2, window_step=step)
    seen = []
    for n in range(9):
        request = conv.build_request("next")
        seen.append(request.first_turn)
        assert n - request.first_turn >= min(n, 2)  # never fewer than --window-turns
        conv.add_turn(make_turn(n + 1))
    assert seen == starts


def test_window_step_must_be_positive():
    with pytest.raises(UsageError, match="--window-step"):
        memory.MemoryConfig(window_step=0)
