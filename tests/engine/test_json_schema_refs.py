"""Hostile schemas and replies: a reference is never fetched, a loop or a depth no check survives is one clear line,
and a reply that cannot be read or checked is a failed check, never a crash."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from chatbot.engine.json_schema_refs import MAX_DEPTH, nesting, reference_problem
from chatbot.engine.reply_schema import JsonReply, check_reply, parse_schema, reply_problem, response_format
from chatbot.errors import UsageError
from tests.support.listener import listening

LOOP = (
    "not a usable JSON schema: a reference leads back to itself without reading any of the value, so no check would "
    "ever end"
)


@pytest.fixture
def listener() -> Iterator[tuple[str, list[str]]]:
    with listening() as listened:
        yield listened


def nested_schema(levels: int) -> str:
    """A schema of objects in objects, ``levels`` deep, as text (json.dumps itself cannot write one 500 deep)."""
    return '{"type": "object", "properties": {"a": ' * levels + '{"type": "string"}' + "}}" * levels


def test_a_reference_to_a_url_below_a_nested_id_is_refused_and_never_fetched(listener):
    url, hits = listener
    planted = {"type": "object", "properties": {"dog": {"$id": "http://example.com/dog", "$ref": url}}}
    told = f"it refers to {url!r}, which cannot be resolved (a reference can only lead within the schema)"
    assert reference_problem(planted) == told
    with pytest.raises(UsageError) as refused:
        parse_schema(json.dumps(planted))
    assert refused.value.message == f"--schema: not a usable JSON schema: {told}"
    # a stored session's schema, or one sent with -o response_format: the reply is not checked, and nothing fetched
    reply = check_reply({"response_format": response_format(planted)}, '{"dog": 3}')
    assert reply == JsonReply(
        None, f"the reply cannot be checked: the schema is not a usable JSON schema: {told} (the turn is stored as "
        "the model wrote it)"
    )  # fmt: skip
    assert hits == []


def test_a_relative_reference_below_a_nested_id_resolves_against_that_id():
    inside = {
        "properties": {"x": {"$id": "http://example.com/x", "$defs": {"y": {"type": "integer"}}, "$ref": "#/$defs/y"}}
    }
    assert reference_problem(inside) == ""
    assert reply_problem('{"x": "no"}', inside) == (
        None,
        "the reply does not match the schema: x: 'no' is not of type 'integer'",
    )
    elsewhere = {"properties": {"x": {"$id": "http://example.com/x", "$ref": "y.json"}}}
    assert "'y.json', which cannot be resolved" in reference_problem(elsewhere)


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#"},
        {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"},
        {"type": "object", "anyOf": [{"type": "string"}, {"not": {"$ref": "#"}}]},
        {"if": {"type": "string"}, "then": {"$ref": "#"}},
    ],
)
def test_a_reference_that_loops_without_reading_the_value_is_one_line_not_a_crash(schema):
    with pytest.raises(UsageError) as refused:
        parse_schema(json.dumps(schema))
    assert refused.value.message == f"--schema: {LOOP}"
    assert reply_problem('"x"', schema) == (None, f"the reply cannot be checked: the schema is {LOOP}")


def test_a_reference_that_reads_deeper_into_the_value_is_a_tree_and_is_checked():
    tree = {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}}}
    assert reference_problem(tree) == ""
    assert reply_problem('{"kids": [{"kids": [{"kids": "no"}]}]}', tree) == (
        None,
        "the reply does not match the schema: kids[0].kids[0].kids: 'no' is not of type 'array'",
    )


def test_a_schema_nested_500_levels_is_refused_in_one_line():
    with pytest.raises(UsageError) as refused:
        parse_schema(nested_schema(250))  # 501 levels of objects: the parser reads it, no check could
    assert refused.value.message == (
        f"--schema: not a usable JSON schema: it is nested 501 levels deep, more than the {MAX_DEPTH} a check can take"
    )
    for levels in (500, 100_000):  # past what the parser itself reads
        with pytest.raises(UsageError) as refused:
            parse_schema(nested_schema(levels))
        assert refused.value.message == "--schema: not a usable JSON schema: it is nested too deeply to be read"
    assert reply_problem("{}", json.loads(nested_schema(250)))[1].startswith(
        "the reply cannot be checked: the schema is not a usable"
    )
    assert parse_schema(nested_schema(14))  # as deep as one can be


def test_the_depth_is_counted_without_recursion():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert nesting(deep) == 100_001
    assert nesting({"a": [1, {"b": 2}]}) == 3 and nesting(7) == 0


@pytest.mark.parametrize(
    "options", [{"response_format": {"type": "json_object"}}, {"response_format": response_format({"type": "array"})}]
)
def test_a_reply_nested_too_deeply_is_a_failed_check_not_a_crash(options):
    stored = " (the turn is stored as the model wrote it)"
    assert check_reply(options, "[" * 100_000 + "]" * 100_000) == JsonReply(
        None, "the reply cannot be read: it is nested too deeply" + stored
    )
    assert check_reply(options, "[" * 40 + "]" * 40) == JsonReply(
        None,
        f"the reply cannot be checked: it is nested 40 levels deep, more than the {MAX_DEPTH} a check can take{stored}",
    )


@pytest.mark.parametrize(
    "options", [{"response_format": {"type": "json_object"}}, {"response_format": response_format({"type": "object"})}]
)
def test_a_reply_with_a_5000_digit_integer_is_a_failed_check_not_a_crash(options):
    assert check_reply(options, '{"n": ' + "9" * 5000 + "}") == JsonReply(
        None, "the reply cannot be read: it holds a number of more than 4,300 digits (the turn is stored as the model "
        "wrote it)"
    )  # fmt: skip
    assert check_reply(options, '{"n": ' + "9" * 4000 + "}") == JsonReply({"n": int("9" * 4000)}, "")
