"""/edit N in a real pseudo-terminal (pexpect): message N comes back in the prompt, and what is sent goes to a new
branch holding the turns before it; the original session keeps every turn."""

from __future__ import annotations

import re

import pytest

from tests.support.cli import session_doc

pexpect = pytest.importorskip("pexpect")


def test_edit_n_puts_message_n_in_the_prompt_and_resends_it_in_a_branch(spawn, tmp_path):
    child = spawn("--provider", "echo", "--session", "main", env={"CHATBOT_ECHO_DELAY": "0"})
    for message in ("one", "two", "three"):
        child.expect("›")
        child.sendline(message)
        child.expect("tokens")
    child.expect("›")
    child.sendline("/edit 2")
    child.expect("edit›")
    child.expect("two")  # message 2, pre-filled
    child.sendline(" edited")
    child.expect(r"branched main before turn 2 into (\S+),")
    branch = re.sub(r"\x1b\[[0-9;]*m", "", child.match.group(1))
    child.expect("Last user message: two edited")
    child.expect("›")
    child.sendeof()
    child.expect(pexpect.EOF)
    texts = [t["messages"][0]["content"] for t in session_doc(tmp_path, branch)["turns"]]
    assert texts == ["one", "two edited"]
    assert [t["messages"][0]["content"] for t in session_doc(tmp_path, "main")["turns"]] == ["one", "two", "three"]
