"""/edit, /copy and /file in a real pseudo-terminal (pexpect), as a user types them."""

from __future__ import annotations

import base64

import pytest

from tests.support.cli import session_doc

pexpect = pytest.importorskip("pexpect")


def test_edit_puts_the_last_message_back_and_replaces_its_turn(spawn, tmp_path):
    child = spawn("--provider", "echo", "--session", "ed", env={"CHATBOT_ECHO_DELAY": "0"})
    child.expect("›")
    child.sendline("the frist message")
    child.expect("tokens")
    child.expect("›")
    child.sendline("/edit")
    child.expect("edit›")
    child.expect("the frist message")  # pre-filled, ready to change
    child.send("\x1b[D" * len("frist message"))  # cursor left over "frist message"
    child.send("\x1b[3~" * len("frist"))  # delete "frist"
    child.sendline("first")
    child.expect("Last user message: the first message")
    child.expect("›")
    child.sendeof()
    child.expect(pexpect.EOF)
    turns = session_doc(tmp_path, "ed")["turns"]
    assert [t["messages"][0]["content"] for t in turns] == ["the first message"]


def test_copy_sends_osc52_with_the_reply_or_its_code(spawn, tmp_path):
    child = spawn("--provider", "echo", "--session", "cp", env={"CHATBOT_ECHO_DELAY": "0"})
    child.expect("›")
    child.sendline("hello")
    child.expect("tokens")
    child.expect("›")
    child.sendline("/copy")
    child.expect(r"\x1b\]52;c;([A-Za-z0-9+/=]+)\x07")
    copied = base64.b64decode(child.match.group(1)).decode()
    child.expect("copied")
    child.expect("›")
    child.sendline("/copy code")
    child.expect("no fenced code block")
    child.expect("›")
    child.sendeof()
    child.expect(pexpect.EOF)
    assert copied == session_doc(tmp_path, "cp")["turns"][0]["messages"][-1]["content"]


def test_file_then_message_in_the_terminal(spawn, tmp_path):
    (tmp_path / "todo.txt").write_text("buy milk\n")
    child = spawn("--provider", "echo", "--session", "tf", env={"CHATBOT_ECHO_DELAY": "0"})
    child.expect("›")
    child.sendline("/file todo.txt")
    child.expect("attached todo.txt")
    child.sendline("/file nowhere.txt")
    child.expect("error: cannot read nowhere.txt")
    child.sendline("what is on it?")
    child.expect("what is on it")
    child.expect("tokens")  # the turn's last line: Ctrl-D typed while the reply streams is no end of input
    child.expect("›")
    child.sendeof()
    child.expect(pexpect.EOF)
    content = session_doc(tmp_path, "tf")["turns"][0]["messages"][0]["content"]
    assert content == "```todo.txt\nbuy milk\n```\n\nwhat is on it?"
