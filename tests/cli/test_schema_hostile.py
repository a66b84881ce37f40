"""Hostile schemas, JSON replies and tool arguments through the real command: one ``chatbot:`` line and an exit
status that names the failure (a usage error, a failed check), never an internal error (70); nothing is fetched."""

from __future__ import annotations

import json

import pytest

from chatbot.errors import InvalidReply
from tests.support.cli import assert_clean, one_error_line, openai_flags, run_chatbot, session_doc
from tests.support.fake_server import FakeServer
from tests.support.listener import listening

STORED = " (the turn is stored as the model wrote it)"
JSON_MODE = ("-o", "response_format", '{"type": "json_object"}')
SCHEMA = ("--schema", "name, age int")


@pytest.mark.parametrize("asked", [JSON_MODE, SCHEMA], ids=["json-mode", "schema"])
@pytest.mark.parametrize(
    ("reply", "told"),
    [
        ('{"a": ' * 100_000 + "1" + "}" * 100_000, "the reply cannot be read: it is nested too deeply"),
        (
            '{"name": "Rex", "age": ' + "9" * 5000 + "}",
            "the reply cannot be read: it holds a number of more than 4,300 digits",
        ),
    ],
    ids=["nested-100000-deep", "5000-digit-integer"],
)
def test_a_reply_that_cannot_be_read_is_a_failed_check_in_one_line(tmp_path, asked, reply, told):
    with FakeServer(flavour="openai", schemas=False, replies=[reply]) as server:
        result = run_chatbot(*openai_flags(server.base_url), *asked, "--session", "h", "-p", "a json dog",
                             cwd=tmp_path)  # fmt: skip
    assert result.returncode == InvalidReply.exit_code == 5
    assert one_error_line(result) == f"chatbot: {told}{STORED}"
    assert session_doc(tmp_path, "h")["turns"][0]["messages"][-1]["content"] == reply  # kept as written


@pytest.mark.parametrize(
    ("schema", "told"),
    [
        (
            '{"$ref": "#"}',
            "a reference leads back to itself without reading any of the value, so no check would ever end",
        ),
        (
            '{"type": "object", "properties": {"a": ' * 250 + "{}" + "}}" * 250,
            "it is nested 501 levels deep, more than the 30 a check can take",
        ),
        ('{"not": ' * 100_000 + "{}" + "}" * 100_000, "it is nested too deeply to be read"),
    ],
    ids=["self-reference", "501-levels", "100000-levels-past-the-parser"],
)
def test_a_schema_no_check_survives_is_refused_in_one_line_before_anything_is_sent(tmp_path, schema, told):
    (tmp_path / "hostile.json").write_text(schema)  # a file: 100,000 levels are more than one argument may hold
    with FakeServer() as server:
        given = run_chatbot(*openai_flags(server.base_url), "--schema", "hostile.json", "-p", "x", cwd=tmp_path)
        inline = run_chatbot(*openai_flags(server.base_url), "--schema", schema[:100_000], "-p", "x", cwd=tmp_path)
        assert server.record.requests == []
    assert given.returncode == inline.returncode == 2
    assert one_error_line(given) == f"chatbot: --schema hostile.json: not a usable JSON schema: {told}"
    assert "Traceback" not in inline.stderr and one_error_line(inline).startswith("chatbot: --schema: not ")


def test_a_schema_that_refers_to_a_url_is_refused_at_the_door_and_the_url_is_never_asked(tmp_path):
    with listening() as (url, hits), FakeServer(reply='{"dog": 1}') as server:
        planted = {"type": "object", "properties": {"dog": {"$id": "http://example.com/dog", "$ref": url}}}
        refused = run_chatbot(*openai_flags(server.base_url), "--schema", json.dumps(planted), "-p", "x", cwd=tmp_path)
        # as a stored session's schema would be (an option is checked only for its shape): the reply is not checked
        option = json.dumps({"type": "json_schema", "json_schema": {"name": "reply", "schema": planted}})
        unchecked = run_chatbot(
            *openai_flags(server.base_url), "-o", "response_format", option, "-p", "x", cwd=tmp_path
        )
        asked = list(hits)
    told = f"it refers to {url!r}, which cannot be resolved (a reference can only lead within the schema)"
    assert refused.returncode == 2
    assert one_error_line(refused) == f"chatbot: --schema: not a usable JSON schema: {told}"
    assert unchecked.returncode == 5
    assert one_error_line(unchecked) == (
        f"chatbot: the reply cannot be checked: the schema is not a usable JSON schema: {told}{STORED}"
    )
    assert asked == []


def test_tool_call_arguments_too_deep_or_with_a_5000_digit_integer_fail_the_call_and_the_chat_goes_on(tmp_path):
    (tmp_path / "tools.py").write_text('def show(v: list) -> str:\n    """Shows v."""\n    return str(v)\n')
    deep = '{"v": ' + "[" * 100_000 + "]" * 100_000 + "}"
    huge = '{"v": [' + "9" * 5000 + "]}"
    calls = {"content": "", "tool_calls": [["c1", "show", deep], ["c2", "show", huge], ["c3", "show", '{"v": [1]}']]}
    with FakeServer(flavour="openai", replies=[calls, "done"]) as server:
        result = run_chatbot(
            *openai_flags(server.base_url), "--functions", str(tmp_path / "tools.py"), "--session", "t", "-p", "go",
            "--max-input-tokens", "500000",
            cwd=tmp_path,
        )  # fmt: skip
        results = [m["content"] for m in server.record.requests[1]["messages"] if m["role"] == "tool"]
    assert result.returncode == 0, result.stderr
    assert_clean(result)
    assert result.stdout.strip() == "done"
    assert results[0] == "Error: the arguments cannot be read: they are nested too deeply"
    assert results[1].startswith("Error: the arguments are not valid JSON (Exceeds the limit (4300 digits)")
    assert results[2] == "[1]"
