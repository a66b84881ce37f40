"""The API key never reaches a line the user reads: a server that echoes it (a 401 body quoting the key it refused,
a 500 whose text names it, announced in each retry) has it masked, and a key that cannot be an HTTP header value
(a line break, a control character, a letter outside ASCII) is refused before any request, by its variable's name."""

from __future__ import annotations

import json

import pytest

from chatbot.providers.error_map import KEY_MASK, hide_key
from tests.support.cli import one_error_line, run_chatbot
from tests.support.hostile_server import Answer, HostileServer

KEY = "sk-live-0123456789abcdef"


def error_answer(status: int, message: str, code: str = "") -> Answer:
    body = json.dumps({"error": {"message": message, "code": code or None}}).encode()
    return Answer(status=status, body=body, content_type="application/json")


def test_a_server_that_echoes_the_key_has_it_masked_in_the_retries_and_the_error(tmp_path):
    busy = error_answer(500, f"overloaded while serving {KEY}")
    refused = error_answer(401, f"Incorrect API key provided: {KEY}", "invalid_api_key")
    with HostileServer(busy, refused) as server:
        result = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url, "-p", "hi", cwd=tmp_path, env={"OPENAI_API_KEY": KEY}
        )  # fmt: skip
        sent = len(server.requests)
    assert sent == 2 and result.returncode == 5, result.stderr
    assert KEY not in result.stdout + result.stderr
    retry = next(line for line in result.stderr.splitlines() if "retrying" in line)
    assert f"overloaded while serving {KEY_MASK}" in retry
    assert f"Incorrect API key provided: {KEY_MASK}" in one_error_line(result)


def test_a_key_is_masked_as_written_and_as_a_repr_or_json_escapes_it():
    key = 'sk-abc"def\\ghi'
    assert hide_key(f"raw {key}, repr {key!r}, json {json.dumps(key)}", key) == (
        f"raw {KEY_MASK}, repr '{KEY_MASK}', json \"{KEY_MASK}\""
    )
    assert hide_key("a short x stays", "x") == "a short x stays"  # no key is that short: nothing else is eaten


@pytest.mark.parametrize(
    ("key", "what"),
    [
        ("sk-live-0123\n456789abcdef", "a line break (character 13 of 25)"),
        ("sk-live-0123\x1b456789abcdef", "a control character (character 13 of 25)"),
        ("sk-live-0123ключ456789", "a character outside ASCII (character 13 of 22)"),
    ],
    ids=["newline", "control", "non-latin-1"],
)
def test_a_key_that_cannot_be_a_header_value_is_refused_before_any_request_by_its_variable(tmp_path, key, what):
    with HostileServer() as server:
        result = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url, "-p", "hi", cwd=tmp_path, env={"OPENAI_API_KEY": key}
        )  # fmt: skip
        sent = len(server.requests)
    assert sent == 0 and result.returncode == 2
    assert one_error_line(result) == (
        f"chatbot: OPENAI_API_KEY cannot be sent as an API key: it holds {what}; an API key is printable ASCII. Set "
        "it again (environment or .env)."
    )
    assert "0123" not in result.stdout + result.stderr
