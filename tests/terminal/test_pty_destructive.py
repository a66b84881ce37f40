"""/reset and /delete in a real pseudo-terminal (pexpect): each asks first, and a no (or just Enter) keeps it all."""

from __future__ import annotations

import pytest

from tests.support.cli import session_doc

pexpect = pytest.importorskip("pexpect")

FAST = {"CHATBOT_ECHO_DELAY": "0"}


def said(child, text: str) -> None:
    child.sendline(text)
    child.expect("tokens")
    child.expect("›")


def test_reset_asks_with_the_turn_count_and_enter_erases_nothing(spawn, tmp_path):
    child = spawn("--provider", "echo", "--session", "rs", env=FAST)
    child.expect("›")
    said(child, "one")
    said(child, "two")
    child.sendline("/reset")
    child.expect(r"Erase the 2 stored turn\(s\) of session rs and its summary for good\? \(/new starts afresh")
    child.expect(r"\[y/N\]")
    child.sendline("")
    child.expect("not reset; nothing erased")
    child.expect("›")
    assert len(session_doc(tmp_path, "rs")["turns"]) == 2
    child.sendline("/reset")
    child.expect(r"\[y/N\]")
    child.sendline("y")
    child.expect(r"erased 2 turn\(s\) and the summary of session rs")
    child.expect("›")
    child.sendeof()
    child.expect(pexpect.EOF)
    assert session_doc(tmp_path, "rs")["turns"] == []


def test_delete_asks_in_the_terminal_and_no_keeps_the_session(spawn, tmp_path):
    other = spawn("--provider", "echo", "--session", "other", env=FAST)
    other.expect("›")
    said(other, "keep me")
    other.sendeof()
    other.expect(pexpect.EOF)
    child = spawn("--provider", "echo", "--session", "here", env=FAST)
    child.expect("›")
    child.sendline("/delete other")
    child.expect(r"Delete session other for good\? \[y/N\]")
    child.sendline("no")
    child.expect("not deleted")
    child.expect("›")
    child.sendeof()
    child.expect(pexpect.EOF)
    assert len(session_doc(tmp_path, "other")["turns"]) == 1


def test_sigterm_at_the_question_ends_the_process_and_is_not_taken_for_a_no(spawn, tmp_path):
    import signal

    child = spawn("--provider", "echo", "--session", "rs", env=FAST)
    child.expect("›")
    said(child, "one")
    child.sendline("/reset")
    child.expect(r"\[y/N\]")
    child.kill(signal.SIGTERM)
    child.expect(pexpect.EOF, timeout=15)
    child.close()
    assert "not reset" not in child.before  # it did not go on as if the answer were no
    assert child.exitstatus == 143
    assert len(session_doc(tmp_path, "rs")["turns"]) == 1
