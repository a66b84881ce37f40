"""Calibration against the provider's counts: learns both ways, shrugs off one odd turn, keeps a margin."""

from __future__ import annotations

import math
import statistics

import pytest

from chatbot.engine.calibration import (
    FIRST_MARGIN,
    MAX_MARGIN,
    MAX_RATIO,
    MIN_MARGIN,
    SMALL_TOKENS,
    WINDOW,
    Calibration,
    check_stored,
    sane_ratio,
)
from chatbot.engine.tokens import LLAMA31_FORMAT, OPENAI_FORMAT, TokenCounter


def test_nothing_learned_means_no_correction():
    calibration = Calibration()
    assert (calibration.correction, calibration.margin, calibration.factor) == (1.0, 0.0, 1.0)
    assert "nothing learned yet: no provider count" in calibration.describe()
    assert TokenCounter().correction == 1.0


def test_learns_downward_as_well_as_upward():
    low, high = Calibration(), Calibration()
    for _ in range(5):
        low.learn(1000, 880)
        high.learn(1000, 1200)
    assert low.correction == pytest.approx(0.88) and high.correction == pytest.approx(1.2)
    assert low.margin == MIN_MARGIN  # a steady ratio: only the floor of the margin
    assert low.factor == pytest.approx(0.88 * (1 + MIN_MARGIN))


def test_one_ratio_gets_the_first_margin():
    calibration = Calibration()
    assert calibration.learn(1000, 900)
    assert calibration.correction == pytest.approx(0.9) and calibration.margin == FIRST_MARGIN
    assert calibration.turns == 1


def test_one_odd_turn_does_not_move_the_median():
    calibration = Calibration()
    for provider in (900, 905, 2400, 902, 898):  # one request whose ratio is 2.4 (a base64 blob, say)
        calibration.learn(1000, provider)
    assert calibration.correction == pytest.approx(0.902)
    assert calibration.margin < 0.02  # the spread is measured robustly too


def test_margin_grows_with_the_variation_and_is_capped():
    steady, wobbly, wild = Calibration(), Calibration(), Calibration()
    for i in range(WINDOW):
        steady.learn(1000, 900)
        wobbly.learn(1000, 900 + (20 if i % 2 else -20))
        wild.learn(1000, 900 + (300 if i % 2 else -300))
    assert steady.margin == MIN_MARGIN < wobbly.margin < wild.margin == MAX_MARGIN


def test_only_a_window_of_recent_ratios_decides():
    calibration = Calibration()
    for _ in range(WINDOW):
        calibration.learn(1000, 1300)
    for _ in range(WINDOW // 2 + 1):
        calibration.learn(1000, 900)
    assert calibration.correction == pytest.approx(0.9)
    assert len(calibration.ratios) == WINDOW and calibration.turns == WINDOW + WINDOW // 2 + 1


def test_tiny_requests_and_absurd_ratios_teach_nothing():
    calibration = Calibration()
    assert not calibration.learn(10, 30)  # too small to say anything
    assert not calibration.learn(1000, 5000)  # ratio 5
    assert not calibration.learn(1000, 200)  # ratio 0.2
    assert not calibration.learn(1000, 0)  # the provider reported nothing
    assert calibration.turns == 0 and calibration.factor == 1.0


def test_a_small_request_may_raise_the_count_but_never_lower_it():
    """A greeting's request is mostly chat format: a format that is not the server's (20 tokens of preamble assumed
    and not sent) made it teach 0.72, and the next, larger request went 14% under the server's count."""
    calibration = Calibration()
    assert not calibration.learn(SMALL_TOKENS - 1, SMALL_TOKENS - 100)  # would lower: a small request cannot
    assert calibration.learn(SMALL_TOKENS - 1, SMALL_TOKENS + 50)  # raising is safe: the estimate errs high
    assert calibration.learn(SMALL_TOKENS, SMALL_TOKENS - 40)  # a request of SMALL_TOKENS may lower it
    assert calibration.turns == 2


def test_a_request_made_mostly_of_tool_definitions_may_raise_the_count_but_never_lower_it():
    """Tool definitions are JSON, which the rough count overstates more than prose (~6%): a correction learned from
    requests that were mostly definitions put the prose of later ones 2.7% under a Qwen server's count."""
    calibration = Calibration()
    assert not calibration.learn(1000, 940, tools=600)  # would lower, and 600 of 1000 tokens are definitions
    assert calibration.learn(1000, 1040, tools=600)  # raising is safe whatever the request holds
    assert calibration.learn(1000, 960, tools=400)  # mostly the conversation's own tokens: it may lower the count
    assert calibration.ratios == [1.04, 0.96]


def test_the_formats_fixed_tokens_are_left_out_of_the_ratio_and_the_correction():
    counter = TokenCounter(LLAMA31_FORMAT)  # 25 tokens a request, whatever it holds
    fixed = LLAMA31_FORMAT.per_request
    counter.calibrate(1000 + fixed, 900 + fixed)
    assert counter.calibration.correction == pytest.approx(0.9)  # the rate of the messages' own tokens
    assert counter.total(1000) == fixed + math.ceil(1000 * counter.correction)
    # a greeting (68 by our count, 47 by a server without the 20-token date preamble) teaches nothing at all
    assert not TokenCounter(LLAMA31_FORMAT).calibration.learn(68, 47, fixed)


def test_counter_total_follows_its_calibration():
    counter = TokenCounter(OPENAI_FORMAT)
    before = counter.total(1000)
    assert counter.calibrate(1003, 800) == pytest.approx(counter.calibration.factor)
    assert counter.total(1000) < before  # an estimate that ran high now counts lower


def test_stored_form_round_trips_and_reads_older_files():
    calibration = Calibration()
    for provider in (880, 890, 870):
        calibration.learn(1000, provider)
    again = Calibration.from_stored(calibration.to_dict())
    assert again == calibration
    legacy = Calibration.from_stored(1.08)  # older files: one correction factor per model
    assert legacy.correction == pytest.approx(1.08) and legacy.turns == 1


@pytest.mark.parametrize(
    "value, problem",
    [
        (1.08, ""),
        (0.9, ""),  # a correction below 1 is now a normal thing to store
        ({"ratios": [0.88, 0.9], "turns": 12}, ""),
        (0, "must be a number"),
        (7.5, "must be a number"),
        ("x", "must be a number"),
        ({"ratios": [0.1], "turns": 1}, ".ratios"),
        ({"ratios": "0.9", "turns": 1}, ".ratios"),
        ({"ratios": [0.9], "turns": -1}, ".turns"),
        ({"ratios": [0.9]}, ".turns"),
    ],
)
def test_check_stored(value, problem):
    found = check_stored(value)
    assert (found == "") if not problem else (problem in found)


# --- bounds ----------------------------------------------------------------------------------------------


def test_requests_under_fifty_tokens_teach_nothing():
    cal = Calibration()
    assert not cal.learn(49, 60)
    assert cal.learn(50, 60) and cal.ratios == [1.2] and cal.turns == 1
    assert not cal.learn(100, 0) and not cal.learn(100, -5)
    assert cal.turns == 1


def test_ratios_are_sane_up_to_three_either_way_inclusive():
    assert sane_ratio(MAX_RATIO) and sane_ratio(1 / MAX_RATIO)
    assert not sane_ratio(MAX_RATIO + 0.001) and not sane_ratio(1 / MAX_RATIO - 0.001)
    assert not sane_ratio(True) and not sane_ratio("1.0")
    cal = Calibration()
    assert cal.learn(100, 300) and not cal.learn(100, 301)
    assert cal.learn(3000, 1000) and cal.ratios == [3.0, 1 / 3]  # rounding would fall under the bound: kept on it


def test_a_ratio_a_billionth_past_either_bound_is_still_sane_and_more_is_not():
    # the tolerance lets a bound read back from a file (1/3 as 0.3333333333333333) pass: it is inclusive too
    assert sane_ratio(MAX_RATIO + 1e-9) and sane_ratio(1 / MAX_RATIO - 1e-9)
    assert not sane_ratio(MAX_RATIO + 2e-9) and not sane_ratio(1 / MAX_RATIO - 2e-9)


def test_a_small_request_counted_alike_by_the_provider_is_learned():
    # only a lower count is refused from a small request: an equal one is a ratio of 1, learned
    cal = Calibration()
    assert cal.learn(100, 100) and cal.ratios == [1.0]


def test_a_request_half_of_tool_definitions_may_still_lower_the_count():
    cal = Calibration()
    assert not cal.learn(1000, 900, tools=501)  # more than half: may only raise
    assert cal.learn(1000, 900, tools=500) and cal.ratios == [0.9]  # exactly half: a lower count is learned


def test_a_stored_calibration_problem_names_the_field_and_the_bounds():
    assert check_stored(7.5) == "'calibration' must be a number from 0.333 to 3 or an object, found 7.5"
    assert check_stored({"ratios": [0.1], "turns": 1}, "calibration.m") == (
        "'calibration.m.ratios' must be a list of numbers from 0.333 to 3, found [0.1]"
    )


def test_a_stored_turn_count_of_zero_is_valid_and_below_zero_is_not():
    assert check_stored({"ratios": [], "turns": 0}) == ""
    assert "turns" in check_stored({"ratios": [], "turns": -1})
    assert "turns" in check_stored({"ratios": [], "turns": True})


def test_the_margin_follows_the_spread_within_its_bounds():
    assert Calibration().margin == 0.0
    assert Calibration([1.2], 1).margin == 0.05
    assert Calibration([1.0, 1.0, 1.0], 3).margin == 0.005  # no spread: the floor
    assert Calibration([1.0, 1.5, 2.0], 3).margin == 0.05  # a wide spread: the ceiling
    middle = Calibration([1.0, 1.01, 1.02], 3)  # spread 0.01 / 1.01, doubled
    assert abs(middle.margin - 2 * 0.01 / 1.01) < 1e-9
    assert abs(middle.factor - 1.01 * (1 + middle.margin)) < 1e-12


# --- stored ratios ---------------------------------------------------------------------------------------


def test_learned_ratios_are_stored_to_four_places():
    calibration = Calibration()
    assert calibration.learn(300, 371)  # 1.236666...
    assert calibration.learn(7000, 6123)  # 0.874714...
    assert calibration.to_dict() == {"ratios": [1.2367, 0.8747], "turns": 2}


def test_a_server_seen_to_drop_system_messages_is_kept_in_the_stored_form_and_read_back():
    calibration = Calibration(drops_system=True)
    assert calibration.learned  # worth keeping, though no count was learned from
    stored = calibration.to_dict()
    assert stored == {"ratios": [], "turns": 0, "drops_system": True} and check_stored(stored) == ""
    assert Calibration.from_stored(stored).drops_system
    assert "drops_system" not in Calibration([1.0], 1).to_dict()  # the usual case stores nothing more
    assert not Calibration.from_stored({"ratios": [1.0], "turns": 1}).drops_system  # an older file


def test_a_stored_drops_system_that_is_not_true_or_false_is_refused():
    assert "'calibration.drops_system' must be true or false" in check_stored(
        {"ratios": [], "turns": 0, "drops_system": "yes"}
    )


def test_requests_without_tool_definitions_are_kept_apart_and_count_a_request_without_them():
    # a template may leave the definitions out: a chat request's ratio then runs low by their share, right for the
    # chat requests (they all carry them) and 8% under the server's count for a summary request, which has none
    calibration = Calibration()
    assert calibration.learn(1000, 800, tools=200)  # the server counted the messages alone
    assert calibration.ratios == [0.8] and calibration.plain == []
    assert calibration.plain_factor == 1.0  # nothing learned without definitions: never below 1
    assert calibration.learn(1000, 1000)  # a summary request: no definitions
    assert calibration.plain == [1.0] and calibration.plain_factor == pytest.approx(1.0 * (1 + FIRST_MARGIN))
    assert calibration.learn(1000, 1020)
    assert calibration.plain_factor == pytest.approx(
        statistics.median([1.0, 1.02]) * (1 + calibration_margin([1.0, 1.02]))
    )
    raised = Calibration()
    assert raised.learn(1000, 1100, tools=200) and raised.plain_factor == pytest.approx(raised.factor)


def calibration_margin(ratios):
    return Calibration(list(ratios)).margin


def test_the_plain_ratios_are_stored_when_they_differ_and_read_back():
    calibration = Calibration()
    calibration.learn(1000, 800, tools=200)
    calibration.learn(1000, 1000)
    stored = calibration.to_dict()
    assert stored == {"ratios": [0.8, 1.0], "turns": 2, "plain": [1.0]}
    assert check_stored(stored) == "" and Calibration.from_stored(stored) == calibration
    same = Calibration()
    same.learn(1000, 900)
    assert "plain" not in same.to_dict() and Calibration.from_stored(same.to_dict()) == same  # absent: the ratios
    assert "'calibration.plain' must be a list of numbers" in check_stored({**stored, "plain": [9]})


def test_a_summary_requests_count_teaches_only_the_count_of_requests_without_tools():
    # chat requests carry the session's tool definitions: their count stays what they taught (a summary's ratio,
    # mixed in, made the tool-heavy requests of a tight budget count over it)
    calibration = Calibration()
    assert calibration.learn(1000, 800, tools=200)
    assert calibration.learn(1000, 1000, chat=False)
    assert calibration.ratios == [0.8] and calibration.plain == [1.0] and calibration.turns == 2
