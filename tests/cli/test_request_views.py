"""Seeing the exact request through the real CLI: ``/context json`` prints the body the server then receives,
``--show-requests`` prints each body as it goes out, and ``/context`` says what a shortened tool result and the budget
are. The scripted server records every body, so what is shown is compared with what arrived."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pexpect
import pytest

from tests.support.cli import assert_clean, run_chatbot, spawn_chatbot
from tests.support.fake_server import FakeServer

#: a tool whose result (about 1,000 tokens) is sent shortened once its turn is an earlier one
FUNCTIONS = '''
def lookup(topic: str) -> str:
    """Look a topic up in the almanac."""
    return ("The almanac says many things about " + topic + ". ") * 120
'''
SUMMARY = "Summary: the user asked numbered questions about tides."
KEY = "sk-test-not-to-be-shown-1234567890"


def printed_bodies(text: str) -> list[tuple[str, dict[str, Any]]]:
    """Every top-level JSON object printed in ``text`` (indented: it starts on a line of its own), with the line
    printed just before it."""
    decoder = json.JSONDecoder()
    found = []
    for match in re.finditer(r"^\{$", text, re.MULTILINE):
        body, _ = decoder.raw_decode(text, match.start())
        before = text[: match.start()].rstrip("\n").rpartition("\n")[2]
        found.append((before, body))
    return found


def first_call(server: FakeServer, message: str) -> dict[str, Any]:
    """The one request that asked the model about ``message`` first (later rounds end with a tool result)."""
    calls = [r for r in server.record.requests if r.get("stream") and r["messages"][-1] == user(message)]
    assert len(calls) == 1, calls
    return calls[0]


def user(text: str) -> dict[str, str]:
    return {"role": "user", "content": text}


@pytest.fixture
def tools_file(tmp_path: Path) -> Path:
    path = tmp_path / "almanac.py"
    path.write_text(FUNCTIONS)
    return path


def chat_flags(server: FakeServer, tools_file: Path, memory: str) -> list[str]:
    return [
        "--provider", "openai", "--base-url", server.base_url, "--model", "fake-model", "--session", "views",
        "--functions", str(tools_file), "--memory", memory, "--window-turns", "2", "--summary-trigger", "2",
        "--keep-turns", "1", "--max-output-tokens", "300", "-o", "temperature", "0.5",
    ]  # fmt: skip


@pytest.mark.parametrize("memory", ["full", "window", "summary"])
def test_context_json_is_the_body_the_server_then_receives(tmp_path, tools_file, memory):
    questions = [f"question {i} about the tides" for i in range(6)]
    script = "".join(f"/context json {q}\n{q}\n" for q in questions)
    with FakeServer(reply="Noted.", whole_reply=SUMMARY, calls_tool={"lookup": '{"topic": "tides"}'}) as server:
        result = run_chatbot(*chat_flags(server, tools_file, memory), stdin=script, cwd=tmp_path)
        assert_clean(result)
        assert result.returncode == 0, result.stderr
        printed = printed_bodies(result.stdout)
        assert len(printed) == len(questions)
        exact = with_summary = 0
        for (before, shown), question in zip(printed, questions, strict=True):
            sent = first_call(server, question)
            assert shown["tools"][0]["function"]["name"] == "lookup"  # the tools ride along, as sent
            assert shown["temperature"] == 0.5 and shown["max_tokens"] == 300 and shown["model"] == "fake-model"
            if before.startswith("(before this is sent"):
                # a summary is due: only the model can write it, so the system message holds a placeholder
                assert "summarized before sending" in shown["messages"][0]["content"]
                assert {**shown, "messages": shown["messages"][1:]} == {**sent, "messages": sent["messages"][1:]}
                continue
            assert shown == sent  # messages exactly (tool calls and shortened results too), tools, model, options
            exact += 1
            with_summary += SUMMARY in shown["messages"][0]["content"]
    assert exact >= 4
    lengths = [len(first_call(server, q)["messages"]) for q in questions]
    if memory == "full":
        assert lengths == sorted(lengths) and len(set(lengths)) == len(lengths)  # every turn re-sent, growing
    else:
        assert max(lengths) < lengths[0] + 3 * 4  # a window, or a summary, keeps the request from growing
    if memory == "summary":
        assert with_summary >= 1  # the body with a summary in its system message is exact too


def test_context_json_without_a_message_leaves_the_new_message_empty(tmp_path):
    result = run_chatbot("--provider", "echo", stdin="hello\n/context json\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    [(_, body)] = printed_bodies(result.stdout)
    assert [m["role"] for m in body["messages"]] == ["system", "user", "assistant", "user"]
    assert body["messages"][1] == user("hello") and body["messages"][-1] == user("")


def test_context_json_shows_hidden_characters_as_escapes_that_read_back(tmp_path):
    hidden = "pay\u202eevil\u200b now"  # a bidi override and a zero-width space would act on the terminal
    result = run_chatbot("--provider", "echo", stdin=f"/context json {hidden}\n", cwd=tmp_path)
    assert "\u202e" not in result.stdout and "\u200b" not in result.stdout
    assert "\\u202e" in result.stdout
    [(_, body)] = printed_bodies(result.stdout)
    assert body["messages"][-1] == user(hidden)


def test_show_requests_prints_every_body_as_sent_summaries_marked_and_never_the_key(tmp_path, tools_file):
    script = "".join(f"question {i}\n" for i in range(5))
    with FakeServer(reply="Noted.", whole_reply=SUMMARY, calls_tool={"lookup": '{"topic": "tides"}'}) as server:
        flags = chat_flags(server, tools_file, "summary")
        result = run_chatbot(*flags, "--show-requests", stdin=script, cwd=tmp_path, env={"OPENAI_API_KEY": KEY})
        assert_clean(result)
        assert result.returncode == 0, result.stderr
        shown = printed_bodies(result.stderr)
        assert [body for _, body in shown] == server.record.requests  # each one, in order, as it arrived
    kinds = [before for before, _ in shown]
    assert kinds.count("chatbot: chat request, JSON body:") == 10  # two model calls a turn: the tool, then the answer
    summaries = [k for k in kinds if k.startswith("chatbot: summary request (")]
    assert summaries and len(summaries) + 10 == len(kinds)
    assert KEY not in result.stderr and KEY not in result.stdout
    assert result.stdout.count("Noted.") == 5  # the replies stay on stdout


def test_show_requests_in_one_shot_mode(tmp_path):
    with FakeServer(reply="Hi there.") as server:
        flags = ["--provider", "openai", "--base-url", server.base_url, "--no-stream", "-o", "seed", "7"]
        result = run_chatbot(*flags, "--show-requests", "-p", "hello", cwd=tmp_path, env={"OPENAI_API_KEY": KEY})
        assert result.returncode == 0, result.stderr
        [(before, body)] = printed_bodies(result.stderr)
        assert before == "chatbot: chat request, JSON body:"
        assert body == server.record.requests[0] and body["seed"] == 7 and "stream" not in body
    assert result.stdout.strip() == "Hi there." and KEY not in result.stderr


SCHEMA_AGAIN = (
    "chatbot: chat request, sent again: the server refused response_format json_schema; sent again in plain JSON "
    "mode (json_object), the schema in the system message, JSON body:"
)
OPTIONS_AGAIN = (
    "chatbot: chat request, sent again: the server refused stream_options; sent again without them (no usage in the "
    "stream), JSON body:"
)


@pytest.mark.parametrize(
    ("flags", "config", "told"),
    [
        (["--no-stream"], {}, [SCHEMA_AGAIN]),
        ([], {}, [SCHEMA_AGAIN]),
        ([], {"error": "stream_options"}, [SCHEMA_AGAIN, OPTIONS_AGAIN]),  # refused twice: each body as it went
    ],
)
def test_show_requests_shows_each_body_the_provider_sent_again_marked_with_why(tmp_path, flags, config, told):
    dog = '{"name": "Rex", "age": 3}'
    with FakeServer(flavour="openai", schemas=False, reply=dog, **config) as server:
        result = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url, *flags, "--schema", "name, age int",
            "--show-requests", "-p", "a dog", cwd=tmp_path, env={"OPENAI_API_KEY": KEY},
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        shown = printed_bodies(result.stderr)
        assert [body for _, body in shown] == server.record.requests  # exactly what went out, in order
    assert [before for before, _ in shown] == ["chatbot: chat request, JSON body:", *told]
    assert [body["response_format"]["type"] for _, body in shown][-1] == "json_object"
    assert result.stdout.strip() == dog


def test_show_requests_shows_a_body_sent_again_even_when_the_server_refuses_it_too(tmp_path):
    with FakeServer(reject=("response_format",)) as server:  # no response_format at all, whatever its type
        result = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url, "--schema", "name, age int", "--show-requests",
            "-p", "a dog", cwd=tmp_path,
        )  # fmt: skip
        shown = printed_bodies(result.stderr)
        assert [body for _, body in shown] == server.record.requests
    assert [before for before, _ in shown] == ["chatbot: chat request, JSON body:", SCHEMA_AGAIN]
    assert result.returncode == 5 and "Unsupported parameter: 'response_format'" in result.stderr


def test_show_requests_is_refused_in_a_terminal_chat(tmp_path):
    child = spawn_chatbot("--provider", "echo", "--show-requests", cwd=tmp_path)
    child.expect("--show-requests works in script and one-shot modes; in a chat, /context json shows it")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


def test_context_marks_a_tool_result_sent_shortened_with_both_sizes(tmp_path, tools_file):
    with FakeServer(reply="Noted.", calls_tool={"lookup": '{"topic": "tides"}'}) as server:
        flags = chat_flags(server, tools_file, "full")
        result = run_chatbot(*flags, stdin="what about the tides?\n/context\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    [row] = [line for line in result.stdout.splitlines() if re.match(r"\s*\d+  tool ", line)]
    stored, sent = (
        int(n.replace(",", "")) for n in re.search(r"\[([\d,]+) → ([\d,]+) tokens, shortened\]", row).groups()
    )
    assert stored > 900 and sent < 500 and int(row.split()[2]) == sent  # the tokens column is what is sent
    assert "shortened: 1 tool result(s) of earlier turns are sent cut to their start" in result.stdout


def budget_line(stdout: str) -> tuple[int, int, int, int]:
    match = re.search(
        r"^budget ([\d,]+) \(--max-input-tokens\) − ([\d,]+) tool definitions − ([\d,]+) safety margin = ([\d,]+) "
        r"for the conversation, about [\d,]+ of it used before your message$",
        stdout,
        re.MULTILINE,
    )
    assert match, stdout
    budget, tools, margin, room = (int(n.replace(",", "")) for n in match.groups())
    return budget, tools, margin, room


def test_context_explains_the_budget_before_any_provider_count(tmp_path, tools_file):
    result = run_chatbot("--provider", "echo", "--functions", str(tools_file), stdin="/context\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    budget, tools, margin, room = budget_line(result.stdout)
    assert budget == 6000 and tools > 0 and margin == 0 and room == budget - tools
    assert "correction: none yet; until a provider count teaches one (one lower than the estimate only" in result.stdout


def test_counts_of_small_requests_that_teach_nothing_are_not_called_missing(tmp_path):
    script = "hello there\nand a second message\n/tokens\n/context\n"
    with FakeServer() as server:  # counts words: far under the estimate, on requests too small to lower it
        result = run_chatbot("--provider", "openai", "--base-url", server.base_url, stdin=script, cwd=tmp_path)
    assert_clean(result)
    assert "(2 of 2 request(s) reported usage)" in result.stdout
    assert (
        "correction for gpt-4o-mini: x1.000 (nothing learned yet: no provider count, or only lower ones of small "
        in (result.stdout)
    )
    assert "no provider counts yet" not in result.stdout
    assert "(one lower than the estimate only from a request of 400 tokens or more)" in result.stdout


def test_context_explains_the_budget_with_a_learned_correction_and_its_margin(tmp_path):
    long = "a sentence of ordinary words, " * 120  # large enough for its count to teach the correction
    with FakeServer(reply="Noted.") as server:
        flags = ["--provider", "openai", "--base-url", server.base_url]
        result = run_chatbot(*flags, stdin=f"{long}\n/context\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    budget, tools, margin, room = budget_line(result.stdout)
    assert tools == 0 and margin > 0 and budget - tools - margin == room
    line = next(ln for ln in result.stdout.splitlines() if ln.startswith("correction x"))
    assert "tokens for each token this app estimates" in line and "safety margin (5.0%) stays free" in line


@pytest.mark.parametrize("argument", ["full", "jsn", "json-please", "for"])
def test_an_unknown_context_argument_is_a_usage_error(tmp_path, argument):
    result = run_chatbot("--provider", "echo", stdin=f"/context {argument}\n", cwd=tmp_path)
    assert result.returncode == 2
    assert "chatbot: usage: /context (the next request, a row per message), /context for MESSAGE" in result.stderr
    assert "/context json [--exact] [MESSAGE]" in result.stderr and "/context at N" in result.stderr
    assert "preview" not in result.stdout  # not silently the plain view


def test_an_at_tool_line_without_tools_says_once_how_to_attach_one(tmp_path):
    script = '@tool add {"a": 1}\n@tool add {"a": 2}\nplain\n'
    result = run_chatbot("--provider", "echo", stdin=script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    told = [ln for ln in result.stderr.splitlines() if "no tool is attached" in ln]
    assert len(told) == 1 and "--functions FILE.py" in told[0] and "--mcp SERVER" in told[0]


def test_an_at_tool_line_with_a_tool_attached_calls_it_without_the_notice(tmp_path, tools_file):
    script = '@tool lookup {"topic": "tides"}\n'
    result = run_chatbot("--provider", "echo", "--functions", str(tools_file), stdin=script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "no tool is attached" not in result.stderr and "tool call: lookup" in result.stderr
