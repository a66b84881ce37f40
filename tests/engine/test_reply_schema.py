"""Structured replies: the schema argument's forms, the option sent for it, and a reply checked against it."""

from __future__ import annotations

import json
import warnings

import pytest

from chatbot.engine.reply_schema import (
    JsonReply,
    asked_format,
    check_reply,
    check_schema,
    concise_schema,
    parse_schema,
    reply_problem,
    response_format,
    schema_problem,
)
from chatbot.errors import UsageError

DOG = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "age": {"type": "integer"},
        "bio": {"type": "string", "description": "a short bio"},
    },
    "required": ["name", "age", "bio"],
}
NO_FIELD = "--schema needs at least one field, e.g. 'name, age int, bio: a short bio'"
STORED = " (the turn is stored as the model wrote it)"


def usage_message(call, *args) -> str:
    """The message of the UsageError ``call(*args)`` raises."""
    with pytest.raises(UsageError) as caught:
        call(*args)
    return caught.value.message


# --- the concise form ------------------------------------------------------------------------------------------


def test_the_concise_form_with_commas_is_an_object_of_required_fields_in_order():
    assert concise_schema("name, age int, bio: a short bio") == DOG


def test_every_type_word_stands_for_its_json_schema_type_and_str_is_the_default():
    assert concise_schema("a str, b int, c float, d bool, e") == {
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": "integer"},
            "c": {"type": "number"},
            "d": {"type": "boolean"},
            "e": {"type": "string"},
        },
        "required": ["a", "b", "c", "d", "e"],
    }


def test_newlines_separate_fields_when_there_are_any_so_descriptions_may_hold_commas_and_colons():
    text = "\nname: the name, in full\n\nage int: years: whole ones\n  \nbio\n"
    assert concise_schema(text) == {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "the name, in full"},
            "age": {"type": "integer", "description": "years: whole ones"},
            "bio": {"type": "string"},
        },
        "required": ["name", "age", "bio"],
    }


def test_empty_fields_between_commas_are_skipped_and_an_empty_description_is_left_out():
    assert concise_schema(" ,name:  ,, age int ,\n") == {
        "type": "object",
        "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
        "required": ["name", "age"],
    }


def test_names_may_hold_letters_digits_underscores_and_dashes():
    schema = concise_schema("_id, first-name, x2 int")
    assert list(schema["properties"]) == ["_id", "first-name", "x2"]


@pytest.mark.parametrize(
    "field",
    [": a description without a name", "9lives", "first.name int", "name int extra", "a b c: three words"],
)
def test_a_field_that_is_not_name_type_and_description_is_named_in_the_error(field):
    assert usage_message(concise_schema, f"ok, {field}") == (
        f"--schema: {field!r} is not a field (NAME, NAME TYPE, or NAME [TYPE]: description)"
    )


def test_an_unknown_type_word_is_named_with_its_field_and_the_words_there_are():
    assert usage_message(concise_schema, "name, age integer: years") == (
        "--schema: field age: type 'integer' is not one of str, int, float, bool"
    )
    assert usage_message(concise_schema, "name STR") == (
        "--schema: field name: type 'STR' is not one of str, int, float, bool"
    )


@pytest.mark.parametrize("text", ["", " , ,", "\n\n"])
def test_a_concise_form_without_a_field_asks_for_one(text):
    assert usage_message(concise_schema, text) == NO_FIELD


# --- the schema argument ---------------------------------------------------------------------------------------


def test_inline_json_is_read_as_json_even_after_leading_space():
    schema = {"type": "object", "properties": {"colours": {"type": "array", "items": {"type": "string"}}}}
    assert parse_schema("\n  " + json.dumps(schema)) == schema


def test_text_that_does_not_start_with_a_brace_is_the_concise_form():
    assert parse_schema("name, age int, bio: a short bio") == DOG
    assert usage_message(parse_schema, "[1]") == (
        "--schema: '[1]' is not a field (NAME, NAME TYPE, or NAME [TYPE]: description)"
    )


def test_inline_json_that_does_not_parse_says_where():
    assert usage_message(parse_schema, "{name: 1}") == (
        "--schema: not valid JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))"
    )


def test_inline_json_that_is_not_a_json_schema_is_refused_with_what_is_wrong():
    assert usage_message(parse_schema, '{"type": "objekt"}') == (
        "--schema: not a valid JSON schema: 'objekt' is not valid under any of the given schemas"
    )


def test_a_schema_must_be_an_object():
    for schema in ([DOG], "object", None, True):
        assert usage_message(check_schema, schema) == "--schema: a JSON schema is an object ({...})"


def test_a_valid_schema_passes_the_check():
    check_schema(DOG)
    check_schema({})


def test_a_pattern_that_is_no_regular_expression_is_refused():
    schema = {"type": "object", "properties": {"code": {"type": "string", "pattern": "("}}}
    assert usage_message(check_schema, schema) == "--schema: not a valid JSON schema: '(' is not a 'regex'"


def test_a_schema_is_checked_by_the_draft_its_dollar_schema_names_else_by_draft_2020_12():
    # an array of item schemas is draft 7's tuple form; draft 2020-12 calls it prefixItems and wants a schema here
    tuple_form = {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}
    check_schema({"$schema": "http://json-schema.org/draft-07/schema#", **tuple_form})
    assert usage_message(check_schema, tuple_form) == (
        "--schema: not a valid JSON schema: [{'type': 'string'}, {'type': 'integer'}] is not of type 'object', "
        "'boolean'"
    )


def test_an_unknown_dollar_schema_is_checked_by_draft_2020_12_without_a_warning():
    tuple_form = {"$schema": "https://example.com/my-draft", "type": "array", "items": [{"type": "string"}]}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert usage_message(check_schema, tuple_form) == (
            "--schema: not a valid JSON schema: [{'type': 'string'}] is not of type 'object', 'boolean'"
        )
        assert reply_problem('{"a": 1}', {"$schema": "https://example.com/my-draft", "type": "object"}) == (
            {"a": 1},
            "",
        )


def test_a_dollar_schema_that_is_not_a_string_is_refused_as_not_valid():
    for dialect in ([], 5):
        assert usage_message(check_schema, {"$schema": dialect, "type": "object"}) == (
            f"--schema: not a valid JSON schema: {dialect!r} is not of type 'string'"
        )


def test_a_dollar_schema_that_is_no_uri_is_checked_by_draft_2020_12_not_a_crash():
    """jsonschema's draft lookup splits ``$schema`` as a URI: ``"http://["`` raised ValueError (``--schema`` ended in
    an internal error). It is an unknown draft like any other."""
    schema = {"$schema": "http://[", "type": "object", "required": ["a"]}
    assert schema_problem(schema) == ""
    assert reply_problem('{"a": 1}', schema) == ({"a": 1}, "")
    assert reply_problem("{}", schema) == (None, "the reply does not match the schema: 'a' is a required property")


# --- what is sent ----------------------------------------------------------------------------------------------


def test_the_option_sent_asks_for_a_json_schema_named_reply_holding_a_copy_of_the_schema():
    given = dict(DOG)
    sent = response_format(given)
    assert sent == {"type": "json_schema", "json_schema": {"name": "reply", "schema": DOG}}
    sent["json_schema"]["schema"]["type"] = "array"
    assert given == DOG


# --- what the options ask for ----------------------------------------------------------------------------------


def test_a_json_schema_format_asks_for_its_schema():
    assert asked_format({"temperature": 0, "response_format": response_format(DOG)}) == ("json_schema", DOG)


def test_plain_json_mode_asks_for_json_without_a_schema():
    assert asked_format({"response_format": {"type": "json_object"}}) == ("json_object", None)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"temperature": 0},
        {"response_format": {"type": "text"}},
        {"response_format": {"kind": "json_object"}},
        {"response_format": "json_object"},
        {"response_format": None},
    ],
)
def test_options_without_a_json_response_format_ask_for_no_json(options):
    assert asked_format(options) == ("", None)


@pytest.mark.parametrize(
    "fmt",
    [
        {"type": "json_schema"},
        {"type": "json_schema", "json_schema": "reply"},
        {"type": "json_schema", "json_schema": {"name": "reply"}},
        {"type": "json_schema", "json_schema": {"name": "reply", "schema": "object"}},
        {"type": "json_schema", "json_schema": {"name": "reply", "schema": None}},
    ],
)
def test_a_json_schema_format_without_a_schema_object_asks_for_json_unchecked(fmt):
    assert asked_format({"response_format": fmt}) == ("json_schema", None)


# --- a reply checked -------------------------------------------------------------------------------------------


def test_no_check_when_the_options_ask_for_no_json():
    assert check_reply({"temperature": 0}, "not JSON") is None


def test_a_reply_that_matches_carries_its_value_and_no_problem():
    rex = {"name": "Rex", "age": 3, "bio": "good"}
    assert check_reply({"response_format": response_format(DOG)}, json.dumps(rex)) == JsonReply(rex, "")


def test_a_reply_that_does_not_match_is_told_and_kept_as_written():
    assert check_reply({"response_format": response_format(DOG)}, '{"name": "Rex", "bio": "b"}') == JsonReply(
        None, "the reply does not match the schema: 'age' is a required property" + STORED
    )


def test_plain_json_mode_takes_any_json_and_tells_what_is_not_json():
    assert check_reply({"response_format": {"type": "json_object"}}, "[1, 2]") == JsonReply([1, 2], "")
    assert check_reply({"response_format": {"type": "json_object"}}, "Rex") == JsonReply(
        None, "the reply is not JSON (Expecting value at line 1, column 1)" + STORED
    )


def test_a_reply_without_a_schema_to_check_is_only_parsed():
    assert reply_problem('{"any": ["thing"]}', None) == ({"any": ["thing"]}, "")
    assert reply_problem("", None) == (None, "the reply is not JSON (Expecting value at line 1, column 1)")


def test_not_json_says_where_the_parse_stopped():
    assert reply_problem('{"name": "Rex",\n "age": }', DOG) == (
        None,
        "the reply is not JSON (Expecting value at line 2, column 9)",
    )


@pytest.mark.parametrize(
    "text",
    [
        '```json\n{"name": "Rex", "age": 3, "bio": "b"}\n```',
        '  \n```\n{"name": "Rex",\n "age": 3, "bio": "b"}\n```\n\n',
    ],
)
def test_a_reply_in_one_code_fence_is_read_inside_it(text):
    assert reply_problem(text, DOG) == ({"name": "Rex", "age": 3, "bio": "b"}, "")


def test_a_fence_that_does_not_wrap_the_whole_reply_is_not_taken_off():
    text = 'here:\n```json\n{"name": "Rex", "age": 3, "bio": "b"}\n```'
    assert reply_problem(text, DOG) == (None, "the reply is not JSON (Expecting value at line 1, column 1)")


def test_a_mismatch_names_where_it_is_with_dots_for_fields_and_brackets_for_items():
    schema = {
        "type": "object",
        "properties": {"dogs": {"type": "array", "items": DOG}, "Xmas": {"type": "boolean"}},
    }
    assert reply_problem(
        '{"dogs": [{"name": "Rex", "age": 3, "bio": "b"}, {"name": 7, "age": 1, "bio": "b"}]}', schema
    ) == (
        None,
        "the reply does not match the schema: dogs[1].name: 7 is not of type 'string'",
    )
    assert reply_problem('{"Xmas": "yes"}', schema) == (
        None,
        "the reply does not match the schema: Xmas: 'yes' is not of type 'boolean'",
    )
    items = {"type": "array", "items": {"type": "integer"}}
    assert reply_problem('[1, "two"]', items) == (
        None,
        "the reply does not match the schema: [1]: 'two' is not of type 'integer'",
    )


def test_a_mismatch_of_the_whole_reply_names_no_place():
    assert reply_problem("[1]", DOG) == (None, "the reply does not match the schema: [1] is not of type 'object'")


def test_a_mismatch_is_told_in_one_line_of_at_most_200_characters():
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    told = "the reply does not match the schema: n: "

    def problem(value: str) -> str:
        return reply_problem(json.dumps({"n": value}), schema)[1]

    def message(value: str) -> str:
        return f"'{value}' is not of type 'integer'"

    assert problem("a    b") == told + message("a b")  # a run of white space becomes one space
    assert len(message("x" * 173)) == 200
    assert problem("x" * 173) == told + message("x" * 173)  # 200 characters: kept whole
    assert problem("x" * 174) == told + message("x" * 174)[:199] + "…"  # 201: cut to 200


def test_a_reply_cannot_be_checked_against_a_schema_that_is_not_valid_and_that_is_told():
    # ``-o response_format`` sends a schema as given: it reaches the check unchecked
    assert reply_problem('{"a": 1}', {"type": "objekt"}) == (
        None,
        "the reply cannot be checked: the schema is not a valid JSON schema: 'objekt' is not valid under any of the "
        "given schemas",
    )
    assert reply_problem('{"a": 1}', {"$schema": [], "type": "object"}) == (
        None,
        "the reply cannot be checked: the schema is not a valid JSON schema: [] is not of type 'string'",
    )


def test_a_reply_cannot_be_checked_against_a_schema_whose_reference_leads_nowhere_and_that_is_told():
    nowhere = {"type": "object", "properties": {"dog": {"$ref": "#/$defs/dog"}}}
    assert reply_problem('{"dog": {}}', nowhere) == (
        None,
        "the reply cannot be checked: the schema is not a usable JSON schema: it refers to '#/$defs/dog', which "
        "cannot be resolved (a reference can only lead within the schema)",
    )
    remote = {"$ref": "https://example.com/dog.schema.json"}
    assert reply_problem("{}", remote) == (
        None,
        "the reply cannot be checked: the schema is not a usable JSON schema: it refers to "
        "'https://example.com/dog.schema.json', which cannot be resolved (a reference can only lead within the schema)",
    )
    assert check_reply({"response_format": response_format(remote)}, "{}") == JsonReply(
        None, reply_problem("{}", remote)[1] + STORED
    )


def test_a_schema_given_with_a_reference_that_leads_nowhere_is_refused_before_any_request():
    with pytest.raises(UsageError) as refused:
        parse_schema('{"type": "object", "properties": {"dog": {"$ref": "#/$defs/dog"}}}')
    assert refused.value.message == (
        "--schema: not a usable JSON schema: it refers to '#/$defs/dog', which cannot be resolved (a reference can "
        "only lead within the schema)"
    )


def test_references_that_resolve_are_accepted_in_any_draft_and_data_keywords_are_not_read_as_schemas():
    assert schema_problem({"$defs": {"d": DOG}, "type": "array", "items": {"$ref": "#/$defs/d"}}) == ""
    draft7 = {"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"a": {"type": "string"}}}
    assert schema_problem({**draft7, "properties": {"x": {"$ref": "#/definitions/a"}}}) == ""
    assert schema_problem({"$ref": "https://json-schema.org/draft/2020-12/schema"}) == ""  # a draft's own schema
    assert schema_problem({"type": "object", "properties": {"$ref": {"type": "string"}}}) == ""  # a field's name
    assert schema_problem({"enum": [{"$ref": "#/nowhere"}], "default": {"$ref": "#/x"}}) == ""  # data, not schemas
    # below a nested $id a reference resolves against that id, and must lead somewhere there
    assert "'#/nope'" in schema_problem({"properties": {"x": {"$id": "http://e.com/x", "$ref": "#/nope"}}})
    assert "'#/nope'" in schema_problem({"properties": {"x": {"allOf": [{"$ref": "#/nope"}]}}})


def test_references_are_resolved_by_the_rules_of_the_draft_the_schema_names():
    # draft 4 names a place with "id": "#foo"; under 2020-12's rules "#foo" would lead nowhere
    draft4 = {"definitions": {"a": {"id": "#foo", "type": "string"}}, "properties": {"x": {"$ref": "#foo"}}}
    assert schema_problem({"$schema": "http://json-schema.org/draft-04/schema#", **draft4}) == ""
    assert "'#foo'" in schema_problem(draft4)
    unknown = {
        "$schema": "https://example.com/my-dialect",
        "$defs": {"a": {}},
        "properties": {"x": {"$ref": "#/$defs/a"}},
    }
    assert schema_problem(unknown) == ""  # an unknown dialect is read as 2020-12, as the validator does


def test_an_id_at_the_root_or_below_it_does_not_stop_the_check():
    rooted = {"$id": "https://example.com/s", "properties": {"x": {"$ref": "#/nope"}}}
    assert "'#/nope'" in schema_problem(rooted)
    assert "'#/nope'" in schema_problem({"anyOf": [{"type": "string"}, {"$id": "http://e.com/x", "$ref": "#/nope"}]})


def test_a_reference_within_the_schema_is_followed():
    schema = {"$defs": {"dog": DOG}, "type": "array", "items": {"$ref": "#/$defs/dog"}}
    assert reply_problem('[{"name": "Rex", "age": "3", "bio": "b"}]', schema) == (
        None,
        "the reply does not match the schema: [0].age: '3' is not of type 'integer'",
    )
