"""Model options, system prompts, models, JSON and extracted output through the real CLI against the fake server."""

from __future__ import annotations

import json

import pytest

from tests.support.cli import assert_clean, one_error_line, run_chatbot, session_doc
from tests.support.fake_server import FakeServer

ESC = "\x1b"

CODE_REPLY = "Here you go:\n\n```python\nprint('hi')\n```\n\nand a second:\n\n```sh\nls\n```\n"


def openai_args(server: FakeServer, *more: str) -> list[str]:
    return ["--provider", "openai", "--base-url", server.base_url, *more]


def test_options_reach_the_server_and_stay_with_the_session(tmp_path):
    with FakeServer(reply="ok") as server:
        first = run_chatbot(
            *openai_args(server, "--session", "o", "-o", "temperature", "0.2", "-o", "stop", '["END"]', "-p", "hi"),
            cwd=tmp_path,
        )
        second = run_chatbot(*openai_args(server, "--session", "o", "-p", "again"), cwd=tmp_path)
        bodies = server.record.requests
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    for body in bodies:
        assert body["temperature"] == 0.2 and body["stop"] == ["END"]
    assert session_doc(tmp_path, "o")["options"] == {"temperature": 0.2, "stop": ["END"]}


def test_set_shows_sets_and_removes_options_in_script_mode(tmp_path):
    script = "/set seed 42\n/set reasoning_effort low\n/set\nhi\n/set seed\n/set\n"
    with FakeServer(reply="ok") as server:
        result = run_chatbot(*openai_args(server, "--session", "set"), stdin=script, cwd=tmp_path)
        body = server.record.last_request()
    assert result.returncode == 0, result.stderr
    assert body["seed"] == 42 and body["reasoning_effort"] == "low"
    assert result.stdout == 'reasoning_effort = "low"\nseed = 42\nok\nreasoning_effort = "low"\n'
    assert session_doc(tmp_path, "set")["options"] == {"reasoning_effort": "low"}


GROQ_OPTION_WAYS = {
    "temperature": (["-o", "temperature", "0.3", "-p", "hi"], "", {"temperature": 0.3}),
    "seed": (["-o", "seed", "7", "-p", "hi"], "", {"seed": 7}),
    "set": ([], "/set temperature 0.3\nhi\n", {"temperature": 0.3}),
}


@pytest.mark.parametrize("way", GROQ_OPTION_WAYS)
@pytest.mark.parametrize("stream", ["streamed", "--no-stream"])
def test_groq_sends_options_and_asks_for_usage(tmp_path, way, stream):
    args, script, options = GROQ_OPTION_WAYS[way]
    more = ["--no-stream"] if stream == "--no-stream" else []
    with FakeServer(reply="ok", flavour="groq") as server:  # usage in x_groq, as Groq streams it
        result = run_chatbot(
            *["--provider", "groq", "--base-url", server.root_url, "--session", "g", *more, *args],
            stdin=script,
            cwd=tmp_path,
            env={"GROQ_API_KEY": "gsk-test"},
        )
        body = server.record.last_request()
    assert_clean(result)
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("ok\n") and body is not None
    assert {key: body[key] for key in options} == options
    assert ("stream_options" in body) == (stream == "streamed")  # usage asked for while streaming only
    doc = session_doc(tmp_path, "g")
    assert doc["options"] == options and doc["turns"][0]["usage"]["source"] == "provider"


SCHEMA = {
    "type": "json_schema",
    "json_schema": {
        "name": "answer",
        "schema": {"type": "object", "properties": {"why": {"type": "string"}, "answer": {"type": "string"}}},
    },
}


def test_json_object_options_reach_the_server_as_given_and_stay_with_the_session(tmp_path):
    schema_text = json.dumps(SCHEMA)
    with FakeServer(reply="{}") as server:
        first = run_chatbot(
            *openai_args(server, "--session", "js", "-o", "response_format", '{"type": "json_object"}', "-p", "hi"),
            cwd=tmp_path,
        )
        second = run_chatbot(*openai_args(server, "--session", "js", "-p", "again"), cwd=tmp_path)
        script = f"/set response_format {schema_text}\n/set\nthird\n"
        third = run_chatbot(*openai_args(server, "--session", "js", "--no-stream"), stdin=script, cwd=tmp_path)
        bodies = server.record.requests
    for result in (first, second, third):
        assert_clean(result)
        assert result.returncode == 0, result.stderr
    assert [body["response_format"] for body in bodies] == [{"type": "json_object"}] * 2 + [SCHEMA]
    assert json.dumps(bodies[-1]["response_format"]) == schema_text  # the keys in the order given
    assert f"response_format = {schema_text}" in third.stdout
    assert json.dumps(session_doc(tmp_path, "js")["options"]) == json.dumps({"response_format": SCHEMA})


def test_a_json_option_from_the_config_file_is_sent(tmp_path):
    (tmp_path / "config.toml").write_text('[option]\nresponse_format = { type = "json_object" }\n')
    with FakeServer(reply="{}") as server:
        result = run_chatbot(*openai_args(server, "-p", "hi"), cwd=tmp_path)
        body = server.record.last_request()
    assert result.returncode == 0, result.stderr
    assert body is not None and body["response_format"] == {"type": "json_object"}


def test_a_rejected_option_shows_the_servers_message(tmp_path):
    with FakeServer(reject=("top_k",)) as server:
        result = run_chatbot(*openai_args(server, "-o", "top_k", "5", "-p", "hi"), cwd=tmp_path)
    assert result.returncode == 5
    assert "Unsupported parameter: 'top_k'" in one_error_line(result)


def test_bad_option_names_are_refused(tmp_path):
    for key in ("model", "bad-name"):
        result = run_chatbot("--provider", "echo", "-o", key, "x", "-p", "hi", cwd=tmp_path)
        assert result.returncode == 2 and key in one_error_line(result)


def test_no_stream_asks_for_the_whole_reply(tmp_path):
    with FakeServer(reply="whole reply") as server:
        result = run_chatbot(*openai_args(server, "--no-stream", "--session", "ns", "-p", "hi"), cwd=tmp_path)
        body = server.record.last_request()
    assert result.returncode == 0 and result.stdout == "whole reply\n"
    assert not body.get("stream")
    assert session_doc(tmp_path, "ns")["turns"][0]["usage"]["source"] == "provider"


def test_json_prints_one_object_describing_the_turn(tmp_path):
    with FakeServer(reply="Hello there") as server:
        run_chatbot(*openai_args(server, "--session", "j", "-p", "first"), cwd=tmp_path)
        result = run_chatbot(*openai_args(server, "--session", "j", "-p", "second", "--json"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["reply"] == "Hello there" and data["session"] == "j" and data["turn"] == 2
    assert data["usage"]["prompt_tokens"] > 0 and data["estimate"]["prompt_tokens"] > 0
    assert data["finish_reason"] == "stop" and isinstance(data["latency"], float)
    assert result.stdout.count("\n") == 1


def test_json_error_is_one_line_and_nonzero(tmp_path):
    with FakeServer(error="server_error") as server:
        result = run_chatbot(*openai_args(server, "-p", "hi", "--json"), cwd=tmp_path, env={"OPENAI_API_KEY": "k"})
    assert result.returncode == 5 and result.stdout == ""
    assert "500" in one_error_line(result)


def test_extract_prints_the_first_code_block(tmp_path):
    with FakeServer(reply=CODE_REPLY, chunks=7) as server:
        result = run_chatbot(*openai_args(server, "-x", "-p", "code please"), cwd=tmp_path)
    assert result.returncode == 0 and result.stdout == "print('hi')\n"


def test_extract_without_a_code_block_prints_the_reply_with_a_notice(tmp_path):
    with FakeServer(reply="no code here") as server:
        result = run_chatbot(*openai_args(server, "--extract", "-p", "code please"), cwd=tmp_path)
    assert result.stdout == "no code here\n" and "no fenced code block" in result.stderr


def test_json_and_extract_need_p(tmp_path):
    for flag in ("--json", "-x"):
        result = run_chatbot("--provider", "echo", flag, cwd=tmp_path)
        assert result.returncode == 2 and "works with -p" in one_error_line(result)


def test_list_models_and_the_models_command(tmp_path):
    with FakeServer(models=["b-model", "a-model", "fake-model"]) as server:
        listed = run_chatbot(*openai_args(server, "--model", "fake-model", "--list-models"), cwd=tmp_path)
        command = run_chatbot(*openai_args(server, "--model", "a-model"), stdin="/models\n", cwd=tmp_path)
    assert listed.returncode == 0 and listed.stdout == "  a-model\n  b-model\n* fake-model\n"
    assert command.stdout == "* a-model\n  b-model\n  fake-model\n"


def test_an_endpoint_without_models_says_so(tmp_path):
    with FakeServer(models=[]) as server:
        result = run_chatbot(*openai_args(server, "--list-models"), cwd=tmp_path)
    assert result.returncode == 0 and "lists no models" in result.stdout


def test_list_models_on_an_unreachable_server_is_one_line(tmp_path):
    result = run_chatbot(
        "--provider", "openai", "--base-url", "http://127.0.0.1:9/v1", "--list-models", cwd=tmp_path,
        env={"OPENAI_API_KEY": "k"},
    )  # fmt: skip
    assert result.returncode == 5 and "127.0.0.1:9" in one_error_line(result)


def test_system_file_sets_a_new_sessions_system_message(tmp_path):
    (tmp_path / "prompt.txt").write_text("You review Python code.\n")
    result = run_chatbot(
        "--provider", "echo", "--session", "sf", "--system-file", "prompt.txt", "-p", "hi", cwd=tmp_path
    )
    assert result.returncode == 0 and session_doc(tmp_path, "sf")["system"] == "You review Python code."
    missing = run_chatbot("--provider", "echo", "--system-file", "nope.txt", "-p", "hi", cwd=tmp_path)
    assert missing.returncode == 2 and "nope.txt" in one_error_line(missing)
    both = run_chatbot("--provider", "echo", "--system", "x", "--system-file", "prompt.txt", "-p", "hi", cwd=tmp_path)
    assert both.returncode == 2 and "cannot be used together" in one_error_line(both)


def test_roles_from_the_config_file(tmp_path):
    (tmp_path / "config.toml").write_text('[roles]\npirate = "Talk like a pirate."\nterse = "Be terse."\n')
    result = run_chatbot("--provider", "echo", "--session", "r", "--role", "pirate", "-p", "hi", cwd=tmp_path)
    assert result.returncode == 0 and session_doc(tmp_path, "r")["system"] == "Talk like a pirate."
    script = run_chatbot("--provider", "echo", "--session", "r", stdin="/role\n/role terse\n/role nope\n", cwd=tmp_path)
    assert script.stdout == "pirate: Talk like a pirate.\nterse: Be terse.\n"
    assert "no role 'nope'" in script.stderr and script.returncode == 2
    assert session_doc(tmp_path, "r")["system"] == "Be terse."
    unknown = run_chatbot("--provider", "echo", "--role", "ghost", "-p", "hi", cwd=tmp_path)
    assert unknown.returncode == 2 and "no role 'ghost' (roles: pirate, terse)" in one_error_line(unknown)


def test_extract_and_json_never_print_escape_sequences(tmp_path):
    reply = f"see {ESC}]52;c;cHduZWQ=\x07this\n```sh\nrm -rf x{ESC}[2K{ESC}]8;;http://evil\x07link{ESC}]8;;\x07\n```\n"
    with FakeServer(reply=reply) as server:
        flags = ["--provider", "openai", "--base-url", server.base_url, "-p", "hi"]
        extracted = run_chatbot(*flags, "-x", cwd=tmp_path, env={"OPENAI_API_KEY": "k"})
        as_json = run_chatbot(*flags, "--json", cwd=tmp_path, env={"OPENAI_API_KEY": "k"})
    assert ESC not in extracted.stdout and "rm -rf x" in extracted.stdout and "link" in extracted.stdout
    assert all(ord(c) < 128 for c in as_json.stdout) and ESC not in as_json.stdout
    assert ESC in json.loads(as_json.stdout)["reply"]  # the reply itself is reported as received, escaped in JSON


def test_a_bidi_override_in_script_output_is_shown_as_its_code(tmp_path):
    message = "open invoice\u202etxt.exe, שלום"
    script = run_chatbot("--provider", "echo", "--session", "s", stdin=message + "\n", cwd=tmp_path)
    once = run_chatbot("--provider", "echo", "-p", message, cwd=tmp_path)
    for result in (script, once):
        assert_clean(result)
        assert "\u202e" not in result.stdout and "invoice\\u202etxt.exe, שלום" in result.stdout
    assert message in json.dumps(session_doc(tmp_path, "s"), ensure_ascii=False)  # stored as received


def test_a_folder_given_for_an_output_file_is_named_as_one_with_a_file_in_it_to_name(tmp_path):
    assert run_chatbot("--provider", "echo", "--session", "s", "-p", "hi", cwd=tmp_path).returncode == 0
    (tmp_path / "out").mkdir()
    page = run_chatbot("--timeline", "s", "--html", "out", "--force", cwd=tmp_path)
    assert one_error_line(page) == "chatbot: out is a folder; name a file in it, e.g. out/chat.html"
    log = run_chatbot("--provider", "echo", "--log-requests", "out", "-p", "hi", cwd=tmp_path)
    assert one_error_line(log) == "chatbot: out is a folder; name a file in it, e.g. out/requests.jsonl"
    chat = run_chatbot("--provider", "echo", "--session", "s", stdin="/export out\n", cwd=tmp_path)
    assert "out is a folder; name a file in it, e.g. out/chat.md" in chat.stdout + chat.stderr
    assert list((tmp_path / "out").iterdir()) == []
