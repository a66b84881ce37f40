"""Calibration at its bounds: the smallest request that teaches, the sane ratios, the stored turn count."""

from __future__ import annotations

from chatbot.engine.calibration import MAX_RATIO, Calibration, check_stored, sane_ratio


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
