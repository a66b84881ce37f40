"""--schema: a JSON schema (file, inline, or llm's concise form) asked for as response_format, the reply checked."""

from __future__ import annotations

import json

import pytest

from chatbot.engine.reply_schema import concise_schema, reply_problem
from chatbot.errors import InvalidReply, UsageError
from tests.support.cli import assert_clean, one_error_line, openai_flags, run_chatbot, session_doc
from tests.support.fake_server import FakeServer
from tests.support.hostile_server import Answer, HostileServer, reply

DOG = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "age": {"type": "integer"},
        "bio": {"type": "string", "description": "a short bio"},
    },
    "required": ["name", "age", "bio"],
}


def test_the_concise_form_reads_as_llm_reads_it():
    assert concise_schema("name, age int, bio: a short bio") == DOG
    lines = "name: the person's name\nage int: their age\nbio: a short bio, three sentences at most\n"
    schema = concise_schema(lines)
    assert list(schema["properties"]) == ["name", "age", "bio"]
    assert schema["properties"]["bio"] == {"type": "string", "description": "a short bio, three sentences at most"}
    assert concise_schema("score float, ok bool, n str")["properties"] == {
        "score": {"type": "number"},
        "ok": {"type": "boolean"},
        "n": {"type": "string"},
    }


@pytest.mark.parametrize(
    ("text", "words"),
    [("age integer", "type 'integer' is not one of str, int, float, bool"), (" , ", "at least one field")],
)
def test_a_concise_form_that_cannot_be_read_is_one_usage_error(text, words):
    with pytest.raises(UsageError, match=words):
        concise_schema(text)


def test_a_reply_is_parsed_and_a_mismatch_names_the_field():
    rex = {"name": "Rex", "age": 3, "bio": "good"}
    assert reply_problem(json.dumps(rex), DOG) == (rex, "")
    assert reply_problem('```json\n{"name": "Rex", "age": 3, "bio": "b"}\n```', DOG)[1] == ""
    value, problem = reply_problem('{"name": "Rex", "age": "three", "bio": "b"}', DOG)
    assert value is None and problem == "the reply does not match the schema: age: 'three' is not of type 'integer'"
    assert reply_problem("Rex is a dog", DOG)[1].startswith("the reply is not JSON")


def test_the_concise_form_goes_out_as_json_schema_and_json_output_carries_the_object(tmp_path):
    with FakeServer(reply="Rex") as server:
        result = run_chatbot(
            *openai_flags(server.base_url), "--schema", "name, age int, bio: a short bio", "-p", "a dog", "--json",
            cwd=tmp_path,
        )  # fmt: skip
        sent = server.record.last_request()
    assert result.returncode == 0, result.stderr
    assert_clean(result)
    assert sent is not None and sent["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "reply", "schema": DOG},
    }
    out = json.loads(result.stdout)
    assert out["data"] == {"name": "Rex", "age": 7, "bio": "Rex"}  # what a model held to the schema writes
    assert json.loads(out["reply"]) == out["data"]


def test_a_schema_file_and_inline_json_are_sent_as_given(tmp_path):
    schema = {"type": "object", "properties": {"colours": {"type": "array", "items": {"type": "string"}}}}
    (tmp_path / "colours.json").write_text(json.dumps(schema))
    with FakeServer(reply="red") as server:
        for given in ("colours.json", json.dumps(schema)):
            result = run_chatbot(*openai_flags(server.base_url), "--schema", given, "-p", "colours", cwd=tmp_path)
            assert result.returncode == 0, result.stderr
            assert json.loads(result.stdout) == {"colours": ["red"]}
        sent = [r["response_format"]["json_schema"]["schema"] for r in server.record.requests]
    assert sent == [schema, schema]


#: llama-cpp-python's server's answer to a json_schema response format, as it sent it (a 500 wrapping the validation)
LLAMA_REFUSAL = {
    "error": {
        "message": "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
        "'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', 'ctx': {'expected': \"'text' "
        'or \'json_object\'"}}\n\n  File "/srv/llama_cpp/server/app.py", line 376, in create_chat_completion\n'
        "    POST /v1/chat/completions",
        "type": "internal_server_error",
        "param": None,
        "code": None,
    }
}


def test_llama_cpp_pythons_500_refusing_json_schema_is_asked_for_json_object_not_retried(tmp_path):
    """Its refusal was taken for a failing server: retried twice, then given up (a user trial, exit 5)."""
    dog = '{"name": "Rex", "age": 3}'
    answers = [Answer(status=500, body=json.dumps(LLAMA_REFUSAL).encode(), content_type="application/json")]
    with HostileServer(*answers, Answer(events=reply(dog))) as server:
        result = run_chatbot(*openai_flags(server.base_url), "--schema", "name, age int", "-p", "a dog", cwd=tmp_path)
        sent = server.requests
    assert result.returncode == 0, result.stderr
    assert [r["response_format"]["type"] for r in sent] == ["json_schema", "json_object"]
    assert "does not take JSON schemas" in result.stderr and "retrying" not in result.stderr
    assert json.loads(result.stdout) == {"name": "Rex", "age": 3}


def test_a_server_without_schemas_is_asked_for_json_object_once_and_the_user_is_told(tmp_path):
    # Groq's own SDK, its own wording; the options and Groq's usage request merge into one extra_body
    reply = '{"name": "Rex", "age": 3, "bio": "a good dog"}'
    with FakeServer(flavour="groq", schemas=False, replies=[reply]) as server:
        result = run_chatbot(
            "--provider", "groq", "--model", "llama-3.3-70b-versatile", "--schema", "name, age int, bio: a short bio",
            "-o", "temperature", "0.2", "-p", "invent a dog", "--json",
            cwd=tmp_path, env={"GROQ_API_KEY": "gsk-test", "GROQ_BASE_URL": server.root_url},
        )  # fmt: skip
        sent = server.record.requests
    assert result.returncode == 0, result.stderr
    assert [r["response_format"]["type"] for r in sent] == ["json_schema", "json_object"]
    assert all(r["temperature"] == 0.2 and r["stream_options"] == {"include_usage": True} for r in sent)
    assert json.dumps(DOG) in sent[1]["messages"][0]["content"]  # the shape is told in the system message
    told = [line for line in result.stderr.splitlines() if "does not take JSON schemas" in line]
    assert len(told) == 1 and "asking for plain JSON (json_object)" in told[0]
    assert json.loads(result.stdout)["data"] == {"name": "Rex", "age": 3, "bio": "a good dog"}


def test_a_reply_that_does_not_match_is_one_line_and_exit_status_5(tmp_path):
    with FakeServer(flavour="openai", schemas=False, replies=['{"name": "Rex", "age": "old", "bio": "b"}']) as server:
        result = run_chatbot(
            *openai_flags(server.base_url), "--schema", "name, age int, bio", "-p", "a dog", "--json", cwd=tmp_path
        )
    assert result.returncode == InvalidReply.exit_code == 5
    assert result.stdout == ""  # no JSON that looks like data
    assert one_error_line(result) == (
        "chatbot: the reply does not match the schema: age: 'old' is not of type 'integer' "
        "(the turn is stored as the model wrote it)"
    )


def test_response_format_as_an_option_is_checked_the_same_way(tmp_path):
    option = json.dumps({"type": "json_schema", "json_schema": {"name": "dog", "schema": DOG}})
    with FakeServer(reply="Rex") as server:
        ok = run_chatbot(*openai_flags(server.base_url), "-o", "response_format", option, "-p", "x", "--json",
                         cwd=tmp_path)  # fmt: skip
        both = run_chatbot(*openai_flags(server.base_url), "-o", "response_format", option, "--schema", "a", "-p",
                           "x", cwd=tmp_path)  # fmt: skip
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["data"] == {"name": "Rex", "age": 7, "bio": "Rex"}
    assert both.returncode == 2
    assert "--schema and -o response_format cannot be used together" in one_error_line(both)


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("{not json", "--schema: not valid JSON"),
        ('{"type": 5}', "--schema: not a valid JSON schema"),
        ("name, age integer", "type 'integer' is not one of"),
    ],
)
def test_a_schema_that_cannot_be_used_is_refused_before_anything_is_sent(tmp_path, given, words):
    with FakeServer() as server:
        result = run_chatbot(*openai_flags(server.base_url), "--schema", given, "-p", "x", cwd=tmp_path)
        assert server.record.requests == []
    assert result.returncode == 2
    assert words in one_error_line(result)


def test_a_schema_naming_a_draft_that_is_no_uri_is_used_as_an_unknown_draft(tmp_path):
    schema = json.dumps({"$schema": "http://[", **DOG})  # once an internal error (exit 70) from jsonschema's lookup
    with FakeServer(reply="Rex") as server:
        result = run_chatbot(*openai_flags(server.base_url), "--schema", schema, "--json", "-p", "x", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["data"] == {"name": "Rex", "age": 7, "bio": "Rex"}


def test_a_model_that_refused_the_schema_is_asked_for_json_object_straight_away_after_that(tmp_path):
    dogs = ['{"name": "Rex", "age": 3}', '{"name": "Fido", "age": 5}']
    with FakeServer(flavour="openai", schemas=False, replies=dogs) as server:
        result = run_chatbot(
            *openai_flags(server.base_url), "--schema", "name, age int", cwd=tmp_path, stdin="a json dog\nanother\n"
        )
        sent = [r["response_format"]["type"] for r in server.record.requests]
    assert result.returncode == 0, result.stderr
    assert sent == ["json_schema", "json_object", "json_object"]  # one refused request, then never again
    assert result.stderr.count("does not take JSON schemas") == 1


MISMATCH = (
    "chatbot: the reply does not match the schema: age: 'old' is not of type 'integer' "
    "(the turn is stored as the model wrote it)"
)


def test_script_mode_tells_a_reply_that_does_not_match_in_one_line_and_goes_on(tmp_path):
    wrong, right = '{"name": "Rex", "age": "old"}', '{"name": "Fido", "age": 5}'
    with FakeServer(flavour="openai", schemas=False, replies=[wrong, right]) as server:
        result = run_chatbot(
            *openai_flags(server.base_url), "--schema", "name, age int", "--session", "dogs",
            cwd=tmp_path, stdin="a json dog\nanother\n",
        )  # fmt: skip
    assert_clean(result)
    assert result.stdout.splitlines() == [wrong, right]  # the chat went on to the second message
    assert [line for line in result.stderr.splitlines() if "schema:" in line] == [MISMATCH]
    assert result.returncode == InvalidReply.exit_code  # as an error in a script would, the run says it failed
    turns = session_doc(tmp_path, "dogs")["turns"]
    assert [t["messages"][-1]["content"] for t in turns] == [wrong, right]  # kept as the model wrote it


def test_a_reply_in_a_json_code_fence_is_read_inside_the_fence_and_stored_as_written(tmp_path):
    fenced = '```json\n{"name": "Rex", "age": 3}\n```'
    with FakeServer(flavour="openai", schemas=False, replies=[fenced, fenced]) as server:
        out = run_chatbot(*openai_flags(server.base_url), "--schema", "name, age int", "--session", "f",
                          "-p", "a json dog", "--json", cwd=tmp_path)  # fmt: skip
        script = run_chatbot(*openai_flags(server.base_url), "--session", "f", cwd=tmp_path, stdin="another json\n")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["data"] == {"name": "Rex", "age": 3}
    assert json.loads(out.stdout)["reply"] == fenced
    assert script.returncode == 0, script.stderr  # the session keeps the schema: the fenced reply is checked, fine
    assert "does not match" not in script.stderr and "not JSON" not in script.stderr
    assert [t["messages"][-1]["content"] for t in session_doc(tmp_path, "f")["turns"]] == [fenced, fenced]


def test_the_echo_provider_answers_a_schema_with_a_matching_json_object_offline(tmp_path):
    result = run_chatbot("--provider", "echo", "--schema", "name, age int, bio: a short bio", "--json", "-p", "hi",
                         cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["data"] == {"name": "hi", "age": 0, "bio": "hi"}
    plain = run_chatbot("--provider", "echo", "-o", "response_format", '{"type": "json_object"}', "-p", "hi",
                        cwd=tmp_path)  # fmt: skip
    assert plain.returncode == 0, plain.stderr
    assert json.loads(plain.stdout) == {"echo": "hi"}
