"""The MCP client against real servers built with the same SDK: stdio and streamable HTTP on loopback."""

from __future__ import annotations

import builtins
import importlib

import pytest

from chatbot.errors import ToolSourceError
from chatbot.tools.mcp_client import McpHub, describe_error, is_http
from chatbot.tools.registry import Registry
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
    registry = Registry(hub.connect(dying_command()))
    registry.add(hub.connect(stdio_command()))
    outcome = registry.call("die", "{}")
    assert outcome.error and "stopped" in outcome.text and "its tools are gone" in outcome.text
    assert registry.gone() == [dying_command()]
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
