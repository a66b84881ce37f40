"""Tool arguments checked against the tool's JSON Schema, each problem told back in one line a model can act on."""

from __future__ import annotations

from chatbot.tools.schema import check_arguments

TEXT = {"type": "object", "properties": {"text": {"type": "string"}}}


def test_arguments_that_are_not_an_object_are_named_by_their_json_kind():
    told = [check_arguments(value, TEXT) for value in (7, 1.5, "x", True, [1], None, ("a",))]
    assert told == [
        ["the arguments must be a JSON object, not int"],
        ["the arguments must be a JSON object, not float"],
        ["the arguments must be a JSON object, not str"],
        ["the arguments must be a JSON object, not bool"],
        ["the arguments must be a JSON object, not list"],
        ["the arguments must be a JSON object, not null"],
        ["the arguments must be a JSON object, not tuple"],  # a library caller's Python value: its type's name
    ]


def test_an_argument_of_the_wrong_type_is_named_with_the_kind_it_has():
    told = [check_arguments({"text": value}, TEXT) for value in ({"a": 1}, None, [1, 2])]
    assert told == [
        ["'text' should be string, not dict {'a': 1}"],
        ["'text' should be string, not null None"],
        ["'text' should be string, not list [1, 2]"],
    ]
