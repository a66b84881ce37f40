"""Opening the tools named on the command line: --functions files (an error when they do not load), then --mcp
servers (a warning when they cannot be reached), and closing them all again."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from chatbot.errors import ToolSourceError
from chatbot.tools.mcp_client import CONNECT_TIMEOUT, McpHub
from chatbot.tools.registry import Registry
from chatbot.tools.setup import Toolbox, absolute_files, open_tools, why_missing
from tests.support.mcp_servers import stdio_command

TOOLS = 'def add(a: int, b: int) -> int:\n    """Add."""\n    return a + b\n'
MISSING_PROGRAM = "no-such-program-for-chatbot --flag"


def live_children() -> set[int]:
    """The processes this one started that still run (not yet-unreaped zombies)."""
    children = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:  # it ended while we looked
            continue
        if int(fields[1]) == os.getpid() and fields[0] != "Z":
            children.add(int(entry))
    return children


@pytest.fixture
def tools_file(tmp_path: Path) -> Path:
    path = tmp_path / "adder.py"
    path.write_text(TOOLS)
    return path


def test_why_a_source_cannot_be_on_this_machine(tools_file, tmp_path):
    assert why_missing("functions", str(tools_file)) == ""
    assert why_missing("functions", str(tmp_path / "gone.py")) == "no such file"
    assert why_missing("functions", str(tmp_path)) == "no such file"  # a folder is not a file
    assert why_missing("mcp", "http://127.0.0.1:9/mcp") == ""  # connecting tells
    assert why_missing("mcp", "https://tools.example/mcp") == ""
    assert why_missing("mcp", "sh -c 'exit 0'") == ""
    assert why_missing("mcp", MISSING_PROGRAM) == "no program no-such-program-for-chatbot here"
    assert why_missing("mcp", "") == "not a command line"
    assert why_missing("mcp", 'python "unclosed') == "not a command line"


def test_a_remembered_command_is_looked_for_in_the_folder_it_starts_in(tmp_path, monkeypatch):
    proj, clone = tmp_path / "proj", tmp_path / "clone"
    (proj / "bin").mkdir(parents=True)
    clone.mkdir()
    server = proj / "bin" / "serve"
    server.write_text("#!/bin/sh\n")
    server.chmod(0o755)
    monkeypatch.chdir(clone)  # continued from another folder, which has no bin/serve
    assert why_missing("mcp", "bin/serve --notes", str(proj)) == ""
    assert why_missing("mcp", "bin/serve --notes") == "no program bin/serve here"
    assert why_missing("mcp", "sh -c 'exit 0'", str(tmp_path / "gone")) == f"its folder {tmp_path / 'gone'} is gone"
    assert why_missing("mcp", "https://tools.example/mcp", str(tmp_path / "gone")) == ""  # a URL has no folder


def test_functions_paths_are_remembered_absolute(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    assert absolute_files(["~/tools.py", "here.py", "/abs/x.py", "a/../b.py"]) == (
        str(tmp_path / "home" / "tools.py"),
        str(tmp_path / "here.py"),
        "/abs/x.py",
        str(tmp_path / "b.py"),
    )
    assert absolute_files([]) == ()


def test_functions_files_open_into_one_registry_and_closing_stops_their_worker(tools_file):
    before = live_children()
    toolbox = open_tools([], [str(tools_file)], timeout=7.5)
    assert toolbox.hub is None  # no server named: the MCP SDK is not even started
    assert toolbox.registry.timeout == 7.5 and toolbox.registry.warnings == []
    assert [s.name for s in toolbox.registry.specs()] == ["add"]
    assert toolbox.registry.call("add", '{"a": 2, "b": 3}').text == "5"
    assert live_children() - before  # its worker process
    toolbox.close()
    assert live_children() == before
    toolbox.close()  # closing twice is harmless


def test_a_named_file_that_does_not_load_is_an_error_and_stops_what_was_opened(tools_file, tmp_path):
    before = live_children()
    missing = tmp_path / "missing.py"
    with pytest.raises(ToolSourceError) as raised:
        open_tools([], [str(tools_file), str(missing)], timeout=5)
    assert raised.value.message == f"--functions {missing}: no such file"
    assert live_children() == before  # the first file's worker was stopped


def test_a_remembered_file_that_does_not_load_is_a_warning(tools_file, tmp_path):
    missing = tmp_path / "missing.py"
    toolbox = open_tools([], [str(missing), str(tools_file)], timeout=5, strict=False)
    try:
        assert toolbox.registry.warnings == [f"--functions {missing}: no such file; its tools are not available"]
        assert [s.name for s in toolbox.registry.specs()] == ["add"]
    finally:
        toolbox.close()


def test_servers_connect_those_unreachable_become_warnings_and_closing_ends_them(tools_file):
    before = live_children()
    server = stdio_command()
    toolbox = open_tools([MISSING_PROGRAM, server], [str(tools_file)], timeout=CONNECT_TIMEOUT + 40)
    try:
        assert toolbox.hub is not None and toolbox.hub.connect_timeout == CONNECT_TIMEOUT  # at most that
        assert toolbox.registry.timeout == CONNECT_TIMEOUT + 40
        assert toolbox.registry.warnings == [
            f"MCP server {MISSING_PROGRAM} could not be reached: FileNotFoundError: [Errno 2] No such file or "
            "directory: 'no-such-program-for-chatbot'; its tools are not available"
        ]
        names = [s.name for s in toolbox.registry.specs()]
        assert names == ["add", "now", "calculate", "add_note", "list_notes", "read_note"]
        assert toolbox.registry.call("calculate", '{"expression": "6 * 7"}').text == "42"
        assert len(live_children() - before) == 2  # the functions worker and the stdio server
    finally:
        toolbox.close()
    assert toolbox.hub is None
    assert live_children() == before
    toolbox.close()


def test_a_toolbox_closes_the_hub_it_was_given():
    hub = McpHub()
    asyncio.run_coroutine_threadsafe(asyncio.sleep(0), hub.loop).result(5)  # its loop runs
    toolbox = Toolbox(Registry(), hub)
    assert toolbox.hub is hub
    toolbox.close()
    assert toolbox.hub is None and not hub.loop.is_running()
