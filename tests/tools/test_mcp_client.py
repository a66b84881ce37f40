"""The MCP client against real servers built with the same SDK: stdio and streamable HTTP on loopback."""

from __future__ import annotations

import builtins
import contextlib
import importlib
import logging
import os
import signal
import subprocess
import sys
import threading
import time

import mcp_types
import pytest

from chatbot.errors import ToolSourceError
from chatbot.tools import mcp_client
from chatbot.tools.base import ToolSpec, cut_result
from chatbot.tools.mcp_client import (
    McpHub,
    McpServer,
    McpTool,
    describe_error,
    is_http,
    result_text,
    silence_sdk_logging,
)
from chatbot.tools.registry import Registry
from tests.support import hostile_mcp
from tests.support.cli import chatbot_env
from tests.support.mcp_servers import dying_command, http_example_server, stdio_command

NAMES = ["now", "calculate", "add_note", "list_notes", "read_note"]


@pytest.fixture
def hub():
    hub = McpHub()
    yield hub
    hub.close()


def test_stdio_server_lists_and_runs_tools(hub):
    registry = Registry(hub.connect(stdio_command()))
    assert [s.name for s in registry.specs()] == NAMES
    calc = next(s for s in registry.specs() if s.name == "calculate")
    assert calc.parameters["required"] == ["expression"] and calc.source == stdio_command()
    assert registry.call("calculate", '{"expression": "(2 + 4) * 7"}').text == "42"
    assert registry.call("add_note", '{"title": "todo", "text": "buy milk"}').error is False
    assert registry.call("read_note", '{"title": "todo"}').text == "buy milk"
    assert registry.call("list_notes", "{}").text == "todo"


def test_http_server_lists_and_runs_tools(hub):
    with http_example_server() as (url, _process):
        registry = Registry(hub.connect(url))
        assert [s.name for s in registry.specs()] == NAMES
        assert registry.call("calculate", '{"expression": "2 ** 10"}').text == "1024"


def test_a_tool_error_on_the_server_is_a_tool_message(hub):
    registry = Registry(hub.connect(stdio_command()))
    outcome = registry.call("read_note", '{"title": "missing"}')
    assert outcome.error and "no note titled 'missing'" in outcome.text
    # the server's own argument check also comes back as a message
    outcome = registry.call("calculate", '{"expression": 5}')
    assert outcome.error and "'expression' should be string" in outcome.text


def test_unreachable_servers_are_reported(hub):
    with pytest.raises(ToolSourceError, match="could not be reached: ConnectError"):
        hub.connect("http://127.0.0.1:9/mcp")
    with pytest.raises(ToolSourceError, match="could not be reached: FileNotFoundError"):
        hub.connect("/no/such/server --flag")


def test_a_server_that_dies_mid_session_loses_its_tools(hub):
    dying = hub.connect(dying_command())
    registry = Registry(dying)
    registry.add(hub.connect(stdio_command()))
    outcome = registry.call("die", "{}")
    assert outcome.error and "stopped" in outcome.text and "its tools are gone" in outcome.text
    assert registry.gone() == [dying_command()]
    assert [tool.available for tool in dying] == [False] * len(dying)
    assert registry.gone() == []  # said once
    assert "slow" not in [s.name for s in registry.specs()]
    assert "is no longer available" in registry.call("slow", '{"seconds": 0}').text
    assert registry.call("calculate", '{"expression": "1+1"}').text == "2"  # the other server goes on


def test_a_call_that_outlives_the_timeout(hub):
    registry = Registry(hub.connect(dying_command()), timeout=0.5)
    outcome = registry.call("slow", '{"seconds": 5}')
    assert outcome.error and "did not finish within 0.5 seconds" in outcome.text


def test_http_server_killed_mid_session(hub):
    with http_example_server() as (url, process):
        registry = Registry(hub.connect(url), timeout=5)
        process.kill()
        process.wait()
        outcome = registry.call("calculate", '{"expression": "1"}')
        assert outcome.error and "stopped" in outcome.text
        assert registry.specs() == []


def test_helpers():
    assert is_http("https://x/mcp") and is_http("http://x") and not is_http("python server.py")
    group_type = getattr(builtins, "ExceptionGroup", None) or importlib.import_module("exceptiongroup").ExceptionGroup
    group = group_type("outer", [ValueError("inner reason\nmore")])
    assert describe_error(group) == "ValueError: inner reason"
    assert describe_error(TimeoutError()) == "TimeoutError"  # nothing to say: the kind alone


def test_result_text_joins_text_blocks_and_names_the_others():
    text = mcp_types.TextContent(type="text", text="first")
    image = mcp_types.ImageContent(type="image", data="AAAA", mime_type="image/png")
    resource = mcp_types.EmbeddedResource(
        type="resource", resource=mcp_types.TextResourceContents(uri="file:///a", text="x")
    )
    blocks = [text, image, resource, object(), mcp_types.TextContent(type="text", text="last")]
    assert result_text(blocks, {"ignored": True}) == (
        "first\n[image block: image/png]\n[resource block: not text]\n[content block: not text]\nlast"
    )
    assert result_text([], {"city": "Zürich"}) == '{"city": "Zürich"}'  # no blocks: the structured value
    assert result_text([], None) == ""


def test_a_huge_result_keeps_what_a_tool_message_holds_and_how_long_it_was():
    blocks = [mcp_types.TextContent(type="text", text="a" * 10_000) for _ in range(10_000)]  # 100 MB of text
    text = result_text(blocks, None)
    assert text == "\n".join(["a" * 10_000, "a" * 5_999])  # a 16,000 characters' start, not 100 MB joined
    assert getattr(text, "length", None) == 10_000 * 10_001 - 1
    assert cut_result(text) == (f"{text}\n[result cut: 16,000 of {10_000 * 10_001 - 1:,} characters kept]", True)
    structured = result_text([], {"rows": ["b" * 20_000]})
    assert len(structured) == 16_000 and getattr(structured, "length", None) == 20_014


def test_a_server_that_never_answers_is_given_up_with_its_last_words():
    hub = McpHub(connect_timeout=1)
    try:
        said = ["starting", "second", "E" * 250, "", "  "]  # the last line that says something, cut to 200
        for stderr, last in ((said, "E" * 200), (["bad \udcff byte"], "bad \ufffd byte"), ([], None)):
            address = hostile_mcp.command(mute=True, stderr=stderr)
            with pytest.raises(ToolSourceError) as raised:
                hub.connect(address)
            tail = f" (server said: {last})" if last else ""
            assert (
                raised.value.message == f"MCP server {address} could not be reached: no answer within 1 seconds{tail}"
            )
    finally:
        hub.close()


def test_the_last_words_of_a_server_are_read_as_utf_8_whatever_the_locale():
    """A server's stderr is read back as UTF-8, as servers write it: in a locale that is not UTF-8 (here ASCII, with
    Python's UTF-8 mode and locale coercion off) the locale's encoding would turn its accents into U+FFFD."""
    code = (
        "from chatbot.errors import ToolSourceError\n"
        "from chatbot.tools.mcp_client import McpHub\n"
        "from tests.support import hostile_mcp\n"
        "hub = McpHub(connect_timeout=1)\n"
        "try:\n"
        "    hub.connect(hostile_mcp.command(mute=True, stderr=['Gr\\u00f6\\u00dfe: 5 \\u00b5m']))\n"
        "except ToolSourceError as exc:\n"
        "    print(ascii(exc.message))\n"
        "finally:\n"
        "    hub.close()\n"
    )
    ascii_locale = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    child = subprocess.run(
        [sys.executable, "-c", code], env=chatbot_env(ascii_locale), capture_output=True, text=True, timeout=60
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip().endswith("(server said: Gr\\xf6\\xdfe: 5 \\xb5m)'")


def test_a_server_that_cannot_start_is_named_with_the_reason():
    hub = McpHub(connect_timeout=2)
    try:
        told = []
        for address in ("/no/such/server --flag", "  "):
            with pytest.raises(ToolSourceError) as raised:
                hub.connect(address)
            told.append(raised.value.message)
        assert told == [
            "MCP server /no/such/server --flag could not be reached: "
            "FileNotFoundError: [Errno 2] No such file or directory: '/no/such/server'",
            "MCP server    could not be reached: ToolSourceError: --mcp needs a URL or a command line",
        ]
    finally:
        hub.close()


def test_a_tool_is_described_by_its_description_else_its_title_else_its_name(hub):
    described = hub.connect(stdio_command())
    assert (
        described[1].spec.description == "Evaluate an arithmetic expression: numbers, + - * / // % ** and parentheses."
    )
    titled = hub.connect(hostile_mcp.command(description="", title="Echo it"))
    bare = hub.connect(hostile_mcp.command(description=""))
    assert [titled[0].spec.description, bare[0].spec.description] == ["Echo it", "echo"]


def test_what_a_server_answers_a_call_with_is_the_tool_message(hub):
    def answer(**behaviour):
        return Registry(hub.connect(hostile_mcp.command(**behaviour))).call("echo", '{"text": "hi"}')

    told = [
        answer(refuse="no such thing"),
        answer(result={"content": [], "isError": True}),
        answer(result={"content": [{"type": "text", "text": "bad input"}], "isError": True}),
        answer(result={"content": [], "structuredContent": {"city": "Zürich"}}),
        answer(junk=["\udcff not UTF-8, not JSON"]),  # a junk line is skipped, the answer still read
    ]
    assert [(o.error, o.text) for o in told] == [
        (True, "Error: the server refused the call: no such thing"),
        (True, "Error: echo failed on the server"),
        (True, "Error: bad input"),
        (False, '{"city": "Zürich"}'),
        (False, '{"text": "hi"}'),
    ]


def test_a_server_that_dies_is_named_with_how_it_ended(hub):
    outcome = Registry(hub.connect(dying_command())).call("die", "{}")
    assert (
        outcome.text == f"Error: MCP server {dying_command()} stopped (MCPError: Connection closed); its tools are gone"
    )


def test_a_stuck_loop_gives_up_a_call_and_a_connect_on_time(monkeypatch, caplog, tmp_path):
    hub = McpHub()
    live = Registry(hub.connect(hostile_mcp.command(pid_file=str(tmp_path / "pid"))))
    monkeypatch.setattr(mcp_client, "CLOSE_TIMEOUT", 0)  # the connect waits no longer than the server's own time
    hub.connect_timeout = 0.5
    try:
        tool = McpTool(McpServer(hub, "x"), ToolSpec("stuck", "", {}, "x"))
        assert tool.available is False  # its server never connected

        async def answer() -> str:
            return "late"

        hub.loop.call_soon_threadsafe(time.sleep, 1.5)  # the loop thread is busy, as a blocking bug would make it
        started = time.monotonic()
        with pytest.raises(mcp_client.ToolFailed) as failed:
            hub.submit(answer(), 0.3, tool)
        assert failed.value.message == "stuck did not finish within 0.3 seconds"
        monkeypatch.setattr(mcp_client, "CALL_GRACE", 0.2)
        with pytest.raises(mcp_client.ToolFailed) as failed:
            tool.run({}, 0.1)  # its own timeout fires on the loop, which is stuck: the grace ends the wait
        assert failed.value.message == "stuck did not finish within 0.3 seconds"
        with pytest.raises(ToolSourceError) as raised:
            hub.connect("/no/such/server")
        assert raised.value.message == "MCP server /no/such/server could not be reached: no answer within 0.5 seconds"
        assert time.monotonic() - started < 1.45
    finally:
        monkeypatch.undo()
        hub.close()
    # the server given up on while the loop was stuck does not keep the live one from closing, and stopping it (its
    # connection never began) is no error on the loop either
    assert live.specs() == [] and not hub.loop.is_running()
    assert [r.getMessage() for r in caplog.records if r.name == "asyncio"] == []
    pid = int((tmp_path / "pid").read_text())
    try:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # the live server was waited for until its process ended
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def test_the_hub_keeps_the_sdk_log_off_the_chat_and_never_keeps_the_process_alive(hub, capfd):
    # the intent, not the handler list: a test runner may add its own capturing handler beside ours (pytest 9.1+ does)
    for name in ("mcp", "mcp_types", "client"):
        logger = logging.getLogger(name)
        assert logging.NullHandler in [type(h) for h in logger.handlers] and logger.propagate is False
        logger.error("the SDK's traceback for a junk line (%s)", name)
    assert "the SDK's traceback" not in capfd.readouterr().err
    assert [t.daemon for t in threading.enumerate() if t.name == "chatbot-mcp"] == [True]


def test_silencing_the_sdk_log_touches_its_loggers_alone(monkeypatch):
    """Logger state outlives a test: each logger starts as a fresh process has it, and the root is left alone."""
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [logging.StreamHandler()])
    for name in ("mcp", "mcp_types", "client"):
        monkeypatch.setattr(logging.getLogger(name), "handlers", [])
        monkeypatch.setattr(logging.getLogger(name), "propagate", True)
    silence_sdk_logging()
    for name in ("mcp", "mcp_types", "client"):
        logger = logging.getLogger(name)
        assert [type(h) for h in logger.handlers] == [logging.NullHandler] and logger.propagate is False
    assert [type(h) for h in root.handlers] == [logging.StreamHandler]


def test_without_the_sdk_the_hub_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "mcp", None)  # import mcp raises ImportError
    with pytest.raises(ToolSourceError) as raised:
        McpHub()
    assert raised.value.message == "--mcp needs the mcp SDK: pip install 'chatbot[mcp]'"


def test_closing_the_hub_ends_every_server_and_its_tools():
    hub = McpHub()
    tools = hub.connect(stdio_command())
    registry = Registry(tools)
    hub.close()
    assert registry.specs() == [] and not hub.loop.is_running()
    assert [tool.available for tool in tools] == [False] * len(tools)
    # ended by its stop, never cancelled: a cancel could cut the SDK's kill escalation short
    assert hub.servers[0].task is not None and not hub.servers[0].task.cancelled()


def test_closing_the_hub_returns_while_its_loop_is_stuck(monkeypatch):
    monkeypatch.setattr(mcp_client, "CLOSE_TIMEOUT", 0.1)
    monkeypatch.setattr(mcp_client, "LOOP_GRACE", 0.2)
    hub = McpHub()
    release = threading.Event()
    hub.loop.call_soon_threadsafe(release.wait, 10)  # the loop thread is held, as a blocking bug would hold it
    started = time.monotonic()
    try:
        hub.close()  # no error: closing is best effort, and the process is ending anyway
        took = time.monotonic() - started
    finally:
        release.set()
    assert took < 1.5  # the drain given 0.3 s, the thread 0.2 s: a stuck loop does not hold up the exit
    deadline = time.monotonic() + 5
    while hub.loop.is_running() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not hub.loop.is_running()  # once free, the loop stops as it was asked to


def test_closing_the_hub_while_a_server_is_still_connecting_gives_it_up_at_once():
    hub = McpHub(connect_timeout=30)
    told: list[str] = []

    def connect() -> None:
        with pytest.raises(ToolSourceError) as raised:
            hub.connect(hostile_mcp.command(mute=True))
        told.append(raised.value.message)

    connecting = threading.Thread(target=connect)
    connecting.start()
    deadline = time.monotonic() + 10
    while not (hub.servers and hub.servers[0].task) and time.monotonic() < deadline:
        time.sleep(0.05)
    started = time.monotonic()
    hub.close()
    connecting.join(5)
    assert time.monotonic() - started < 5
    assert told == [f"MCP server {hostile_mcp.command(mute=True)} could not be reached: CancelledError"]


def test_closing_the_hub_kills_a_server_that_ignores_the_end_of_its_input_and_sigterm(tmp_path):
    pid_file = tmp_path / "pid"
    hub = McpHub()
    hub.connect(hostile_mcp.command(stubborn=True, pid_file=str(pid_file)))
    hub.close()  # (the SDK's escalation: stdin closed, 2 s, SIGTERM, 2 s, SIGKILL; never cut short)
    pid = int(pid_file.read_text())
    try:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)  # not left running when this fails


def test_a_result_over_the_limit_from_a_real_server_is_cut_with_its_marker_and_the_user_is_told(hub):
    """The whole way, server to tool message: the length the client read survives the hand-over from its loop (a
    plain ``str`` of it had dropped it, so 100,000 characters were cut to 16,000 with no marker and no notice)."""
    big = {"content": [{"type": "text", "text": "z" * 100_000}]}
    outcome = Registry(hub.connect(hostile_mcp.command(result=big))).call("echo", '{"text": "hi"}')
    assert not outcome.error
    assert outcome.text == "z" * 16_000 + "\n[result cut: 16,000 of 100,000 characters kept]"
    assert outcome.notice == "the result of echo was cut to 16,000 characters"
