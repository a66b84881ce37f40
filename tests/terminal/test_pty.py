"""The interactive app in a real pseudo-terminal: answer, cancel a streamed answer with Ctrl-C, ask again, Ctrl-D."""

from __future__ import annotations

import pytest

from tests.support.cli import session_doc

pexpect = pytest.importorskip("pexpect")


def test_answer_cancel_ask_again_and_quit(spawn, tmp_path):
    child = spawn("--provider", "echo", "--session", "pty", env={"CHATBOT_ECHO_DELAY": "0.02"})
    child.expect("session pty")
    child.expect("›")
    child.sendline("hello")
    child.expect("Last user message: hello")
    child.expect("tokens: prompt")
    child.expect("›")

    child.sendline("tell me a long story")
    child.expect("stateless")  # the reply is streaming
    child.sendintr()  # a real Ctrl-C
    child.expect("cancelled")
    child.expect("›")

    child.sendline("again")
    child.expect("Last user message: again")
    child.expect("›")
    child.sendeof()  # Ctrl-D
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    turns = session_doc(tmp_path, "pty")["turns"]
    assert [t["messages"][0]["content"] for t in turns] == ["hello", "tell me a long story", "again"]
    assert [t["interrupted"] for t in turns] == [False, True, False]
    assert turns[1]["messages"][-1]["content"].endswith("[interrupted by the user]")


def test_ctrl_c_at_the_prompt_clears_the_line_and_commands_work(spawn, tmp_path):
    child = spawn("--provider", "echo", "--session", "pty2", env={"CHATBOT_ECHO_DELAY": "0"})
    child.expect("›")
    child.send("half typed")
    child.sendintr()
    child.expect("›")
    child.sendline("/summary")
    child.expect("no summary yet")
    child.sendline("/quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert (
        not (tmp_path / "sessions" / "pty2.json").exists()
        or "half typed" not in (tmp_path / "sessions" / "pty2.json").read_text()
    )


def test_ctrl_d_while_a_reply_streams_ends_the_chat_once_the_reply_is_done(spawn, tmp_path):
    child = spawn("--provider", "echo", "--session", "eof", env={"CHATBOT_ECHO_DELAY": "0.05"})
    child.expect("›")
    child.sendline("hello")
    child.expect("stateless")  # the reply is streaming
    child.sendeof()  # a real Ctrl-D, while nothing reads the keyboard
    child.expect("Last user message: hello")  # the reply goes on to its end
    child.expect("tokens: prompt")
    child.expect("Ctrl-D during the reply: the chat ends here")
    child.expect("session eof saved; bye")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    turns = session_doc(tmp_path, "eof")["turns"]
    assert [(t["messages"][0]["content"], t["interrupted"]) for t in turns] == [("hello", False)]
