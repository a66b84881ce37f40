"""A continued session attaches its tools again: the --functions files and --mcp servers it remembers, through the
real CLI, on the JSON store and on PostgreSQL; a source missing here is named and the chat goes on without it;
flags replace what is remembered; a session in this folder's own ./sessions never runs what it remembers."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from tests.support.cli import assert_clean, run_chatbot
from tests.support.fake_server import FakeServer
from tests.support.mcp_servers import EXAMPLE, stdio_command

FUNCTIONS = '''
def add(a: int, b: int) -> int:
    """Add two whole numbers."""
    return a + b
'''
OTHER = '''
def shout(text: str) -> str:
    """Upper-case a text."""
    return text.upper()
'''


def offered(body: dict | None) -> list[str]:
    """The names of the tools a request offered, but the built-in search of the conversation that rides beside any
    (tests/tools/test_conversation_search.py pins it)."""
    assert body is not None
    names = sorted(tool["function"]["name"] for tool in body.get("tools") or [])
    if names:
        names.remove("search_conversation")
    return names


def notices(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [line for line in result.stderr.splitlines() if "tools from the session" in line]


@pytest.fixture(params=["json", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> list[str]:
    """The user's own store: a JSON directory that is not this folder's ./sessions, or a PostgreSQL schema."""
    if request.param == "json":
        return ["--store", str(tmp_path / "mine")]
    from tests.support.stores import postgres_base_url, scratch_schema

    context = scratch_schema(postgres_base_url())
    url = context.__enter__()
    request.addfinalizer(lambda: context.__exit__(None, None, None))
    return ["--store", url]


def test_a_continued_session_attaches_its_functions_and_mcp_tools_again(tmp_path, store):
    tools = tmp_path / "tools.py"
    tools.write_text(FUNCTIONS)
    with FakeServer(reply="ok") as server:
        flags = ["--provider", "openai", "--base-url", server.base_url, *store]
        first = run_chatbot(*flags, "--functions", "tools.py", "--mcp", stdio_command(), "-p", "hello", cwd=tmp_path)
        with_tools = offered(server.record.last_request())
        again = run_chatbot(*flags, "-c", "-p", "again", cwd=tmp_path)
        assert offered(server.record.last_request()) == with_tools
        tools.rename(tmp_path / "gone.py")  # the file is not on this machine any more
        third = run_chatbot(*flags, "-c", "-p", "third", cwd=tmp_path)
        assert offered(server.record.last_request()) == sorted(set(with_tools) - {"add"})
        (tmp_path / "other.py").write_text(OTHER)
        replaced = run_chatbot(*flags, "-c", "--functions", "other.py", "-p", "fourth", cwd=tmp_path)
        assert offered(server.record.last_request()) == ["shout"]
        after = run_chatbot(*flags, "-c", "-p", "fifth", cwd=tmp_path)
        assert offered(server.record.last_request()) == ["shout"]
    for result in (first, again, third, replaced, after):
        assert_clean(result)
        assert result.returncode == 0, result.stderr
    assert "add" in with_tools and "calculate" in with_tools
    assert notices(first) == [] and notices(replaced) == []  # flags given: nothing remembered is used
    assert notices(again) == [f"chatbot: tools from the session: functions tools.py, mcp {stdio_command()}"]
    missing, attached = notices(third)
    assert missing == (
        f"chatbot: warning: tools from the session missing here: functions {tools} (no such file); "
        "the chat goes on without them"
    )
    assert attached == f"chatbot: tools from the session: mcp {stdio_command()}"
    assert notices(after) == ["chatbot: tools from the session: functions other.py"]


def test_a_stdio_server_whose_program_is_not_here_is_named(tmp_path, store):
    with FakeServer(reply="ok") as server:
        flags = ["--provider", "openai", "--base-url", server.base_url, *store]
        first = run_chatbot(*flags, "--mcp", "no-such-mcp-program --flag", "--session", "m", "-p", "hi", cwd=tmp_path)
        again = run_chatbot(*flags, "--session", "m", "-p", "again", cwd=tmp_path)
        body = server.record.last_request()
    assert first.returncode == 0 and again.returncode == 0, again.stderr
    assert notices(again) == [
        "chatbot: warning: tools from the session missing here: mcp no-such-mcp-program --flag "
        "(no program no-such-mcp-program here); the chat goes on without them"
    ]
    assert offered(body) == []


def test_a_session_in_this_folders_own_sessions_never_runs_its_tools(tmp_path):
    marker = tmp_path / "ran"
    (tmp_path / "tools.py").write_text(f"open({str(marker)!r}, 'w').close()\n{FUNCTIONS}")
    with FakeServer(reply="ok") as server:
        flags = ["--provider", "openai", "--base-url", server.base_url]  # sessions in ./sessions (it exists)
        first = run_chatbot(*flags, "--functions", "tools.py", "-p", "hello", cwd=tmp_path)
        marker.unlink()
        again = run_chatbot(*flags, "-c", "-p", "again", cwd=tmp_path)
        ran_on_continue = marker.exists()
        body = server.record.last_request()
        explicit = run_chatbot(*flags, "-c", "--functions", "tools.py", "-p", "third", cwd=tmp_path)
        explicit_body = server.record.last_request()
    assert first.returncode == again.returncode == explicit.returncode == 0, again.stderr
    assert not ran_on_continue and marker.exists()  # the file ran only when named on the command line
    assert offered(body) == [] and offered(explicit_body) == ["add"]
    (line,) = notices(again)
    assert line.startswith("chatbot: warning: tools from the session not attached (functions tools.py)")
    assert "this folder's ./sessions" in line and "--functions/--mcp" in line


def marked_server(tmp_path: Path, marker: Path) -> str:
    """The command line of an MCP server that leaves ``marker`` behind when it starts (then serves the example)."""
    script = tmp_path / "marked_server.py"
    script.write_text(
        f"import runpy\nopen({str(marker)!r}, 'w').close()\nrunpy.run_path({str(EXAMPLE)!r}, run_name='__main__')\n"
    )
    return f"{sys.executable} {script}"


def test_an_imported_session_starts_none_of_its_tools_until_they_are_attached_once(tmp_path, store):
    marker = tmp_path / "ran"
    command = marked_server(tmp_path, marker)
    someone = tmp_path / "someone"  # the session file is someone else's, handed over
    someone.mkdir()
    theirs = run_chatbot("--provider", "echo", "--mcp", command, "--session", "gift", "-p", "hi", cwd=someone)
    assert theirs.returncode == 0 and marker.exists(), theirs.stderr
    marker.unlink()
    echo = ["--provider", "echo", *store]
    imported = run_chatbot(*echo, "--import-sessions", str(someone / "sessions"), cwd=tmp_path)
    latest = run_chatbot(*echo, "-c", "-p", "hi", cwd=tmp_path)
    by_id = run_chatbot(*echo, "--session", "gift", "-p", "hi", cwd=tmp_path)
    ran_before_attached = marker.exists()
    attached = run_chatbot(*echo, "--session", "gift", "--mcp", command, "-p", "now", cwd=tmp_path)
    ran_when_attached = marker.exists()
    marker.unlink()
    trusted = run_chatbot(*echo, "-c", "-p", "later", cwd=tmp_path)
    for result in (imported, latest, by_id, attached, trusted):
        assert_clean(result)
        assert result.returncode == 0, result.stderr
    assert not ran_before_attached and ran_when_attached and marker.exists()
    attach = f"--mcp {shlex.quote(command)}"
    assert "session gift: its tools are not trusted" in imported.stdout and attach in imported.stdout
    for result in (latest, by_id):
        (line,) = notices(result)
        # the folder it was given in is someone else's: named too
        assert line.startswith(f"chatbot: warning: tools from the session not attached (mcp {command} (in {someone}))")
        assert "imported session file" in line and line.endswith(f"continue with {attach}")
    assert notices(attached) == [] and notices(trusted) == [f"chatbot: tools from the session: mcp {command}"]


def folder_with_server(root: Path) -> Path:
    """A project folder with its own ``examples/mcp_server.py``: the example server, which first leaves a file
    ``ran`` beside this folder's copy (so a test sees which folder's script a relative command ran)."""
    (root / "examples").mkdir(parents=True)
    (root / "examples" / "mcp_server.py").write_text(
        "import os, runpy\n"
        "open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ran'), 'w').close()\n"
        f"runpy.run_path({str(EXAMPLE)!r}, run_name='__main__')\n"
    )
    return root / "examples" / "ran"


RELATIVE = f"{sys.executable} examples/mcp_server.py"  # as the README has it: a path relative to the folder


def test_a_remembered_mcp_command_runs_in_its_own_folder_not_in_a_cloned_one_it_is_continued_from(tmp_path, store):
    proj, clone = tmp_path / "proj", tmp_path / "clone"
    mine, theirs = folder_with_server(proj), folder_with_server(clone)
    echo = ["--provider", "echo", *store]
    first = run_chatbot(*echo, "--mcp", RELATIVE, "--session", "S", "-p", "hi", cwd=proj)
    assert first.returncode == 0 and mine.exists(), first.stderr
    mine.unlink()
    by_id = run_chatbot(*echo, "--session", "S", "-p", '@tool calculate {"expression": "6*7"}', cwd=clone)
    ran_by_id = mine.exists()
    mine.unlink()
    latest = run_chatbot(*echo, "-c", "-p", "again", cwd=clone)
    for result in (first, by_id, latest):
        assert_clean(result)
        assert result.returncode == 0, result.stderr
    assert ran_by_id and mine.exists()  # the folder's own server ran, each time
    assert not theirs.exists()  # the clone's script never ran
    assert "42" in by_id.stdout  # its tools answered
    for result in (by_id, latest):
        assert notices(result) == [f"chatbot: tools from the session: mcp {RELATIVE} (in {proj})"]


def test_a_remembered_mcp_command_whose_folder_is_gone_is_not_started(tmp_path, store):
    proj, elsewhere = tmp_path / "proj", tmp_path / "elsewhere"
    folder_with_server(proj)
    ran = folder_with_server(elsewhere)
    echo = ["--provider", "echo", *store]
    first = run_chatbot(*echo, "--mcp", RELATIVE, "--session", "S", "-p", "hi", cwd=proj)
    proj.rename(tmp_path / "moved")
    again = run_chatbot(*echo, "--session", "S", "-p", "again", cwd=elsewhere)
    assert first.returncode == 0 and again.returncode == 0, again.stderr
    assert_clean(again)
    assert not ran.exists()
    assert notices(again) == [
        f"chatbot: warning: tools from the session missing here: mcp {RELATIVE} (its folder {proj} is gone); "
        "the chat goes on without them"
    ]


def test_an_mcp_command_stored_without_its_folder_is_not_started_until_given_again(tmp_path):
    proj = tmp_path / "proj"
    mine = folder_with_server(proj)
    store = tmp_path / "mine"
    echo = ["--provider", "echo", "--store", str(store)]
    url_server = "http://127.0.0.1:9/mcp"  # a URL has no folder: it is still tried (and is not reachable here)
    first = run_chatbot(*echo, "--mcp", RELATIVE, "--session", "S", "-p", "hi", cwd=proj)
    assert first.returncode == 0, first.stderr
    mine.unlink()
    document = json.loads((store / "S.json").read_text())
    assert document["tool_sources"]["folder"] == str(proj)
    del document["tool_sources"]["folder"]  # as a chatbot before the folder was kept stored it
    document["tool_sources"]["mcp"].append(url_server)
    (store / "S.json").write_text(json.dumps(document))
    older = run_chatbot(*echo, "--session", "S", "-p", "again", cwd=proj)
    ran_from_older = mine.exists()
    given = run_chatbot(*echo, "--session", "S", "--mcp", RELATIVE, "-p", "given", cwd=proj)
    mine.unlink()
    after = run_chatbot(*echo, "-c", "-p", "after", cwd=tmp_path)
    for result in (older, given, after):
        assert result.returncode == 0, result.stderr
    assert not ran_from_older and mine.exists()  # not started, even from its own folder, until given again
    unplaced, attached = notices(older)
    assert unplaced == (
        f"chatbot: warning: tools from the session not started (mcp {RELATIVE}): stored by an older chatbot without "
        "the folder they were given in, and a relative path in them would run what this folder holds; to use them, "
        f"continue once from their folder with --mcp {shlex.quote(RELATIVE)}"
    )
    assert attached == f"chatbot: tools from the session: mcp {url_server}"
    assert notices(after) == [f"chatbot: tools from the session: mcp {RELATIVE} (in {proj})"]
