"""Writing a message in $EDITOR from a real pseudo-terminal (pexpect): Ctrl-X Ctrl-E at the prompt and /editor send
what the editor saved; a file left empty sends nothing."""

from __future__ import annotations

import pytest

from tests.support.cli import one_error_line, openai_flags, run_chatbot
from tests.support.fake_server import FakeServer

pexpect = pytest.importorskip("pexpect")

CTRL_X_CTRL_E = "\x18\x05"


def editor(tmp_path, name: str, body: str) -> str:
    """A small editor program: a shell script that rewrites the file it is given (``$1``) with ``body``."""
    path = tmp_path / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return str(path)


def user_messages(server: FakeServer) -> list[str]:
    return [r["messages"][-1]["content"] for r in server.record.requests]


def test_ctrl_x_ctrl_e_sends_what_the_editor_saved_with_what_was_typed(spawn, tmp_path):
    # the editor keeps what was typed (it is in the file it opens) and adds a line
    writer = editor(tmp_path, "ed.sh", 'printf "from the editor: %s\\nline two\\n" "$(cat "$1")" > "$1"')
    ignored = editor(tmp_path, "visual.sh", ': > "$1"')  # $EDITOR comes first
    with FakeServer(reply="noted") as server:
        child = spawn(*openai_flags(server.base_url), env={"EDITOR": writer, "VISUAL": ignored})
        child.expect("›")
        child.send("draft")
        child.send(CTRL_X_CTRL_E)
        child.expect("noted")
        child.expect("›")
        child.sendeof()
        child.expect(pexpect.EOF)
        assert user_messages(server) == ["from the editor: draft\nline two"]


def test_an_editor_file_left_empty_sends_nothing(spawn, tmp_path):
    emptier = editor(tmp_path, "empty.sh", ': > "$1"')
    with FakeServer(reply="noted") as server:
        child = spawn(*openai_flags(server.base_url), env={"EDITOR": emptier, "VISUAL": None})
        child.expect("›")
        child.send("draft")
        child.send(CTRL_X_CTRL_E)
        child.expect("left empty: nothing sent")
        child.sendline("/editor")
        child.expect("left empty: nothing sent")
        child.expect("›")
        child.sendeof()
        child.expect(pexpect.EOF)
        assert server.record.requests == []


def test_slash_editor_uses_visual_when_editor_is_unset(spawn, tmp_path):
    writer = editor(tmp_path, "visual.sh", 'printf "written in %s\\n" "$(basename "$0")" > "$1"')
    with FakeServer(reply="noted") as server:
        child = spawn(*openai_flags(server.base_url), env={"EDITOR": None, "VISUAL": writer})
        child.expect("›")
        child.sendline("/editor")
        child.expect("noted")
        child.expect("›")
        child.sendeof()
        child.expect(pexpect.EOF)
        assert user_messages(server) == ["written in visual.sh"]


def test_editor_in_a_script_says_it_needs_a_terminal(tmp_path):
    result = run_chatbot("--provider", "echo", stdin="/editor\n", cwd=tmp_path)
    assert result.returncode == 2 and "/editor needs a terminal" in one_error_line(result)


def test_an_editor_that_deletes_its_file_sends_nothing_and_the_chat_goes_on(spawn, tmp_path):
    remover = editor(tmp_path, "rm.sh", 'rm -f "$1"')
    with FakeServer(reply="noted") as server:
        child = spawn(*openai_flags(server.base_url), env={"EDITOR": remover, "VISUAL": None})
        child.expect("›")
        child.send("draft")
        child.send(CTRL_X_CTRL_E)
        child.expect("nothing sent")
        child.sendline("/editor")
        child.expect("nothing sent")
        child.expect("›")
        child.sendline("still here")
        child.expect("noted")
        child.expect("›")
        child.sendeof()
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        assert user_messages(server) == ["still here"]
