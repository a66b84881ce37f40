"""A continued session attaches its tools again: the --functions files and --mcp servers it remembers, through the
real CLI, on the JSON store and on PostgreSQL; a source missing here is named and the chat goes on without it;
flags replace what is remembered; a session in this folder's own ./sessions never runs what it remembers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import assert_clean, run_chatbot
from tests.support.fake_server import FakeServer
from tests.support.mcp_servers import stdio_command

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
