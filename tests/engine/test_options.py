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
        ("x", float("nan"), "nan is not a number JSON allows"),
        ("x", {"y": [float("inf")]}, "inf is not a number JSON allows"),
        ("x", {1: "a"}, "keys must be strings"),
        ("x", {"y": object()}, "not a JSON value"),
    ],
)
def test_what_is_not_an_option_is_named(key, value, words):
    assert words in option_problem(key, value)


def test_nesting_is_bounded():
    deep: object = 1
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    assert "nested deeper" in option_problem("x", deep)
    assert option_problem("x", deep[0]) == ""  # type: ignore[index]
