"""How often the summary strategy folds when turns are long, and what a request sends when no summary can be made.

A fold the budget forces leaves headroom (the turns it keeps take about half the room they have), so long turns cost
a summary every few turns, not one per turn; and the summary written ahead (``next_summary``) still names exactly
what the next request asks. When the summary fails (or backs off, or there is no summarizer), the request sends every
unsummarized turn the budget has room for, and its warning says how many.
"""

from __future__ import annotations

import random

import pytest

from chatbot.engine import memory
from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import Turn
from tests.conftest import RecordingSummarizer, make_turn

SENTENCE = "the model reads every earlier turn again so the memory rule decides what each request carries"
PROSE = SENTENCE.split()


def prose(words: int) -> str:
    return " ".join(PROSE[i % len(PROSE)] for i in range(words))


class Counting:
    """A summarizer that counts its calls and answers with a short summary of at most about 250 words."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list, int]] = []

    def __call__(self, previous, turns, first):
        self.calls.append((previous, turns, first))
        lines = [previous] if previous else []
        lines += [f"turn {first + k}: {prose(12)}" for k in range(len(turns))]
        return " ".join(" ".join(lines).split()[-250:])


def long_turns(turns: int, summarizer, conv: Conversation) -> list[memory.Request]:
    """``turns`` turns of about 1,200 tokens (a 200-word question, a 1,000-word answer); the requests they made."""
    requests = []
    for _ in range(turns):
        question = prose(200)
        requests.append(conv.build_request(question, summarizer=summarizer))
        conv.add_turn(Turn([{"role": "user", "content": question}, {"role": "assistant", "content": prose(1000)}]))
    return requests


def test_long_turns_at_the_default_settings_cost_a_summary_every_few_turns_not_every_turn():
    conv, summarizer = Conversation("You are a helpful assistant.", MemoryConfig(), TokenCounter()), Counting()
    requests = long_turns(30, summarizer, conv)
    assert 1150 <= conv.turns[0].tokens(conv.counter) <= 1300  # "about 1,200 tokens" a turn
    # before the headroom each early fold made room for one more turn only: 25 summaries in 30 turns
    assert len(summarizer.calls) <= 10
    folding = [n for n, request in enumerate(requests) if request.summarized]
    assert all(later - earlier >= 3 for earlier, later in zip(folding, folding[1:], strict=False))
    for request in requests:  # the budget still holds, nothing is dropped, and the newest turns stay verbatim
        assert request.tokens <= request.budget and request.dropped == 0 and request.warnings == ()
    assert requests[-1].first_turn <= len(conv.turns) - 3


def test_a_fold_the_budget_forces_keeps_about_half_the_room_for_the_turns_it_keeps(conv_factory, summarizer):
    # the word counter: "sys" costs 2, a turn 8, "hi" 2; 12 turns, below the trigger, over a budget of 8 turns
    conv = conv_factory(12, summary_trigger=16, keep_turns=6)
    budget = 2 + 8 * 8 + 2
    request = conv.build_request("hi", summarizer=summarizer, budget=budget)
    # the room beside the system message and the new one is 64: the turns kept verbatim take at most half of it
    # (folding only what did not fit, as much as the trigger would, kept 6 and folded again on the next turn)
    assert summarizer.calls == [("", 1, 8)]
    assert (request.first_turn, request.summarized, request.dropped) == (8, 8, 0)
    assert request.tokens <= budget


@pytest.mark.parametrize("seed", range(5))
def test_next_summary_names_what_the_next_request_asks_whatever_the_turn_sizes(seed):
    rng = random.Random(seed)
    conv = Conversation("sys", MemoryConfig(summary_trigger=4, keep_turns=2, max_input_tokens=400), TokenCounter())
    summarizer = Counting()
    for _ in range(40):
        expected = memory.next_summary(conv)
        before = len(summarizer.calls)
        conv.build_request(prose(rng.choice([5, 20, 60])), summarizer=summarizer)
        if expected is not None:  # the fold the trigger makes comes first, on exactly the predicted inputs
            assert summarizer.calls[before] == expected
        words = rng.choice([5, 30, 120])
        conv.add_turn(Turn([{"role": "user", "content": prose(words)}, {"role": "assistant", "content": prose(words)}]))
    assert len(summarizer.calls) > 5


# --- when no summary is made --------------------------------------------------------------------------------------


def failing(previous, turns, first):
    raise RuntimeError("summary model down")


def test_a_failed_summary_sends_every_unsummarized_turn_that_fits_and_says_how_many(conv_factory):
    conv = conv_factory(9, summary_trigger=8, keep_turns=4)
    request = conv.build_request("hi", summarizer=failing)
    assert (request.first_turn, request.summarized, request.dropped, conv.summary_covers) == (0, 0, 0, 0)
    assert len(request.messages) == 1 + 9 * 2 + 1
    assert request.warnings == (
        "summarizing failed (summary model down): this request sends all 9 unsummarized turn(s) instead",
    )


def test_over_budget_a_failed_summary_drops_the_oldest_turns_only(conv_factory):
    conv = conv_factory(9, summary_trigger=8, keep_turns=4)
    request = conv.build_request("hi", summarizer=failing, budget=2 + 7 * 8 + 2)
    assert (request.first_turn, request.dropped) == (2, 2)  # not the 5 the fold would have covered
    assert request.warnings == (
        "summarizing failed (summary model down): this request sends the last 7 of 9 unsummarized turn(s), as "
        "many as the budget has room for",
    )


def test_while_backing_off_and_without_a_summarizer_every_turn_that_fits_is_sent(conv_factory):
    conv = conv_factory(9, summary_trigger=8, keep_turns=4)
    conv.build_request("hi", summarizer=failing)  # failed with 9 earlier turns: tried again at 10, 11, 13...
    for i in (10, 11, 12):
        conv.add_turn(make_turn(i))
    later = RecordingSummarizer()
    skipped = conv.build_request("hi", summarizer=later)
    assert later.calls == [] and (skipped.first_turn, skipped.dropped, skipped.summarized) == (0, 0, 0)
    assert skipped.warnings == (
        "summarizing failed before and is tried again before turn 14 (/summary now forces it): this request sends "
        "all 12 unsummarized turn(s) instead",
    )
    bare = conv_factory(9, summary_trigger=8, keep_turns=4).build_request("hi")
    assert (bare.first_turn, bare.dropped) == (0, 0)
    assert bare.warnings == ("no summarizer available: this request sends all 9 unsummarized turn(s) instead",)


def test_a_summary_kept_before_still_rides_along_when_the_next_one_fails(conv_factory):
    conv = conv_factory(12, summary_trigger=8, keep_turns=4)
    conv.set_summary("earlier facts", 3)
    request = conv.build_request("hi", summarizer=failing)
    assert request.summary_included and (request.first_turn, request.dropped) == (3, 0)
    assert request.warnings[0].endswith("this request sends all 9 unsummarized turn(s) instead")


def test_a_failed_summary_with_no_room_for_any_turn_says_so(conv_factory):
    conv = conv_factory(9, summary_trigger=8, keep_turns=4)
    request = conv.build_request("hi", summarizer=failing, budget=2 + 2 + 7)
    assert (request.first_turn, request.dropped) == (9, 9)
    assert request.warnings == (
        "summarizing failed (summary model down): the budget has no room for any of the 9 unsummarized turn(s)",
    )


def test_a_summary_warning_with_no_turn_left_unsummarized_says_only_why():
    # a later piece of the same fold was kept: "sends all 0 unsummarized turn(s) instead" would be nonsense
    from chatbot.engine.memory import _without_summary

    assert _without_summary("the summary was not shorter", 0, 0) == "the summary was not shorter"
    assert _without_summary("x", 2, 2) == "x: this request sends all 2 unsummarized turn(s) instead"


def test_the_servers_count_of_a_summary_request_teaches_the_counter_when_the_fold_is_kept():
    # a summary request offers no tool definitions: its count is the one that may teach a lower count (chat
    # requests with tools may only raise it, a template may leave the definitions out)
    from chatbot.engine.folds import FoldStep, RollingSummary, Written, fold, summary_messages

    conv = Conversation("You are a helpful assistant.", MemoryConfig(), TokenCounter())
    for _ in range(4):
        conv.add_turn(Turn([{"role": "user", "content": prose(300)}, {"role": "assistant", "content": prose(300)}]))
    asked: list[int] = []

    def summarizer(previous, turns, first):
        sent = tuple(summary_messages(conv, previous, turns, first))
        local = conv.counter.count_request(sent)
        asked.append(local)
        return Written(f"turns {first}-{first + len(turns) - 1}: {prose(20)}", (), local * 9 // 10, sent)

    folded = fold(conv, FoldStep(3), summarizer, RollingSummary())
    assert folded.kept and folded.counted == tuple((local, local * 9 // 10) for local in asked) and asked
    assert conv.counter.calibration.ratios == []  # the fold changes nothing; the conversation takes what it came to
    conv.take_fold(folded)
    calibration = conv.counter.calibration
    assert calibration.turns == len(asked) and calibration.ratios == []  # the chat requests' count: theirs alone
    assert 0.89 <= calibration.plain[-1] <= 0.91 and calibration.plain_factor < 0.95  # a summary request's count


def test_the_count_is_of_the_messages_the_summary_request_sent_not_of_the_request_rebuilt():
    # a summary request that taught the window is asked again as it was built; rebuilt after, the fold's request
    # asks fewer words (and may ask a tighter rewrite): counted so, the ratio came out low
    from chatbot.engine.folds import FoldStep, RollingSummary, Written, fold

    conv = Conversation("You are a helpful assistant.", MemoryConfig(), TokenCounter())
    for _ in range(4):
        conv.add_turn(Turn([{"role": "user", "content": prose(300)}, {"role": "assistant", "content": prose(300)}]))
    sent = ({"role": "user", "content": prose(500)},)

    def summarizer(previous, turns, first):
        return Written("turns folded: " + prose(20), (), 600, sent)

    folded = fold(conv, FoldStep(3), summarizer, RollingSummary())
    assert folded.counted and all(local == conv.counter.count_request(sent) for local, _ in folded.counted)


def test_a_summarizer_that_reports_no_count_teaches_nothing():
    from chatbot.engine.folds import FoldStep, RollingSummary, fold

    conv = Conversation("You are a helpful assistant.", MemoryConfig(), TokenCounter())
    for _ in range(4):
        conv.add_turn(Turn([{"role": "user", "content": prose(300)}, {"role": "assistant", "content": prose(300)}]))
    folded = fold(conv, FoldStep(3), Counting(), RollingSummary())
    conv.take_fold(folded)
    assert folded.kept and folded.counted == () and conv.counter.calibration.ratios == []
