"""The one rule of what a model option may be (chatbot/engine/options.py), shared by -o, /set and the session reader."""

from __future__ import annotations

import pytest

from chatbot.engine.options import MAX_DEPTH, option_problem


@pytest.mark.parametrize(
    "value",
    [0.2, 7, True, "low", ["END"], [["a"], "b"], {"type": "json_object"}, {"a": {"b": [1, None, {"c": "d"}]}}],
)
def test_json_values_are_options(value):
    assert option_problem("x", value) == ""


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("model", 1, "set by chatbot itself"),
        ("bad-name", 1, "letters, digits"),
        ("x", None, "needs a value"),
        ("x", float("nan"), "must be a finite number, found nan"),
        ("x", {"y": [float("inf")]}, "must be a finite number, found inf"),
        ("x", {1: "a"}, "keys must be strings"),
        ("x", {"y": object()}, "not a JSON value"),
        ("x", {"schema": {"a\x00": 1}}, "NUL character"),  # in an object's key too: jsonb refuses it anywhere
        ("x", ["ok", "\ud800"], "lone surrogate"),
        ("x", "a\udfff", "lone surrogate"),  # the range's last code point is one too
    ],
)
def test_what_is_not_an_option_is_named(key, value, words):
    assert words in option_problem(key, value)


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ({1: "a"}, "an object's keys must be strings"),
        ({"schema": {"a\x00": 1}}, "must not contain a NUL character (\\u0000)"),
        (["ok", "\ud800"], "must not contain a lone surrogate (\\ud800-\\udfff)"),
    ],
)
def test_what_is_wrong_in_a_value_is_told_whole_after_the_options_name(value, problem):
    assert option_problem("x", value) == f"option x: {problem}"


def test_nesting_is_bounded():
    deep: object = 1
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    assert "nested deeper" in option_problem("x", deep)
    assert option_problem("x", deep[0]) == ""  # type: ignore[index]


def test_nesting_of_objects_is_bounded_like_that_of_lists():
    deep: object = 1
    for _ in range(MAX_DEPTH + 1):
        deep = {"a": deep}
    assert option_problem("x", deep) == f"option x: nested deeper than {MAX_DEPTH} levels"
    assert option_problem("x", deep["a"]) == ""  # type: ignore[index]


def test_a_value_that_is_not_json_is_named_by_its_type():
    assert option_problem("x", {1, 2}) == "option x: set is not a JSON value"
    assert option_problem("x", {"y": (1, 2)}) == "option x: tuple is not a JSON value"


@pytest.mark.parametrize("text", ["nan", "NaN", "nAn", "inf", "INF", "-Infinity", "+infinity", " inf "])
def test_nan_and_infinity_written_as_text_are_refused_whatever_their_case(text):
    assert option_problem("temperature", text) == f"option temperature: must be a finite number, found {text.strip()}"


@pytest.mark.parametrize("value", ["info", "nano", "1e5", ["nan"], {"stop": "inf"}])
def test_text_that_only_looks_like_a_number_word_and_strings_inside_a_value_stay_options(value):
    assert option_problem("x", value) == ""
