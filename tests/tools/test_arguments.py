"""Tool arguments checked against the tool's JSON Schema, each problem told back in one line a model can act on."""

from __future__ import annotations

from typing import Any

from chatbot.tools.arguments import check_arguments, schema_refusal
from chatbot.tools.base import Tool, ToolSpec
from chatbot.tools.registry import Registry
from tests.support.listener import listening

TEXT = {"type": "object", "properties": {"text": {"type": "string"}}}


class Plain(Tool):
    """A tool of a given input schema that answers "ok"."""

    def __init__(self, name: str, schema: dict[str, Any]) -> None:
        self.spec = ToolSpec(name, "a tool", schema, source="tests")

    def run(self, arguments: dict[str, Any], timeout: float) -> str:
        return "ok"


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


NOTES = {
    "type": "object",
    "additionalProperties": False,  # (before "required": the problems are still told in one order)
    "properties": {
        "title": {"type": "string"},
        "stars": {"type": ["integer", "null"]},
        "opts": {
            "type": "object",
            "additionalProperties": False,
            "required": ["k"],
            "properties": {"k": {"type": "string"}},
        },
        "items": {"type": "array", "items": {"type": "object", "properties": {"Xname": {"type": "string"}}}},
        ".env": {"type": "string"},
    },
    "required": ["title", "stars"],
}
KNOWN = "(known: title, stars, opts, items, .env)"


def test_missing_and_unknown_arguments_are_named_together_in_the_plural_when_several():
    assert check_arguments({"title": "t"}, NOTES) == ["missing required argument 'stars'"]
    assert check_arguments({}, NOTES) == ["missing required arguments 'title', 'stars'"]
    assert check_arguments({"title": "t", "stars": 1, "z": 1}, NOTES) == [f"unknown argument 'z' {KNOWN}"]
    assert check_arguments({"z": 1, "y": 2}, NOTES) == [
        "missing required arguments 'title', 'stars'",
        f"unknown arguments 'z', 'y' {KNOWN}",
    ]
    no_properties = {"type": "object", "additionalProperties": False}
    assert check_arguments({"x": 1}, no_properties) == ["unknown argument 'x' (known: none)"]


def test_a_nested_problem_is_told_at_its_path_in_order_of_path_then_message():
    told = check_arguments({"title": "t", "stars": "5", "opts": {"zz": 1}, "items": [{"Xname": 1}], ".env": 3}, NOTES)
    assert told == [
        "'.env' should be string, not int 3",  # a name may start with a dot
        "'items[0].Xname' should be string, not int 1",
        "'opts': 'k' is a required property",
        "'opts': Additional properties are not allowed ('zz' was unexpected)",
        "'stars' should be integer or null, not str '5'",
    ]


def test_a_problem_of_the_whole_object_is_told_as_the_validator_words_it():
    assert check_arguments({"a": 1}, {"type": "object", "minProperties": 2}) == [
        "{'a': 1} does not have enough properties"
    ]


def test_more_than_five_problems_are_counted_after_the_fifth():
    def told(count: int) -> list[str]:
        schema = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(count)}}
        return check_arguments({f"p{i}": i for i in range(count)}, schema)

    five = [f"'p{i}' should be string, not int {i}" for i in range(5)]
    assert told(5) == five
    assert told(7) == [*five, "and 2 more"]


def test_a_schema_that_is_not_a_valid_object_schema_is_not_checked():
    assert check_arguments({"x": 1}, None) == []  # type: ignore[arg-type]
    assert check_arguments({"x": 1}, {"type": "nonsense"}) == []  # the server's mistake: its own check still applies


def test_a_tool_schema_that_refers_outside_itself_is_refused_at_registration_and_nothing_is_fetched():
    with listening() as (url, hits):
        planted = {"type": "object", "properties": {"x": {"$id": "http://example.com/x", "$ref": url}}}
        registry = Registry([Plain("planted", planted), Plain("fine", TEXT)])
        assert [s.name for s in registry.specs()] == ["fine"]
        assert registry.warnings == [
            f"tool 'planted' from tests skipped: its input schema is not usable: it refers to {url!r}, which cannot "
            "be resolved (a reference can only lead within the schema)"
        ]
        # checked without the door (a library caller): refused, never fetched
        assert check_arguments({"x": 1}, planted) == [
            f"the arguments cannot be checked: the tool's schema refers to {url!r}, which cannot be resolved"
        ]
        assert schema_refusal({"$ref": "#"}).startswith("a reference leads back to itself")
    assert hits == []


def test_arguments_nested_too_deeply_or_with_a_5000_digit_integer_fail_the_call_in_one_line():
    lists = {
        "$defs": {"list": {"type": "array", "items": {"$ref": "#/$defs/list"}}},
        "properties": {"v": {"$ref": "#/$defs/list"}},
    }
    registry = Registry([Plain("echo", {"type": "object", **lists})])
    deep = registry.call("echo", '{"v": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert deep.error and deep.text == "Error: the arguments cannot be read: they are nested too deeply"
    fifty = registry.call("echo", '{"v": ' + "[" * 50 + "]" * 50 + "}")
    assert fifty.error and fifty.text == (
        "Error: the arguments do not fit the tool's schema: the arguments cannot be checked: they are nested 51 levels "
        "deep, more than the 30 a check can take"
    )
    huge = registry.call("echo", '{"v": ' + "9" * 5000 + "}")
    assert huge.error and "Exceeds the limit (4300 digits)" in huge.text
    assert registry.call("echo", '{"v": [[], [[]]]}').text == "ok"


def test_a_dollar_schema_jsonschema_cannot_look_up_is_no_crash_and_the_call_goes_on():
    """A server's ``$schema`` that is no string (``5``, ``[]``) or no URI (``"http://["``) once crashed jsonschema's
    draft lookup, and with it the turn: the first makes the schema invalid (not checked), the second is read as an
    unknown draft (2020-12, checked)."""

    def odd(name: str, dialect: object) -> Plain:
        return Plain(name, {"$schema": dialect, "type": "object", "required": ["a"]})

    registry = Registry([odd("number", 5), odd("list", []), odd("no_uri", "http://[")])
    assert [s.name for s in registry.specs()] == ["number", "list", "no_uri"] and registry.warnings == []
    assert registry.call("number", "{}").text == "ok"
    assert registry.call("list", "{}").text == "ok"
    told = registry.call("no_uri", "{}")
    assert told.error and "missing required argument 'a'" in told.text
