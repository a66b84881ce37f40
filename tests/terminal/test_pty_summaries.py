"""Summaries written ahead in the real interactive app (a pseudo-terminal): a turn that comes before the summary is
done waits with a notice, Ctrl-C stops the wait (not the session) and the turn is answered without the summary (with
every turn the budget has room for); a summary finished in the background is used without waiting."""

from __future__ import annotations

import pytest

from tests.support.cli import session_doc
from tests.support.fake_server import FakeServer, is_summary

pexpect = pytest.importorskip("pexpect")

REPLY = "Sure " + " ".join(f"w{i}" for i in range(40))


def start(spawn, base_url: str):
    """The app on the scripted server, a summary due after two turns (one kept whole)."""
    args = ["--provider", "openai", "--base-url", base_url, "--session", "p", "--plain"]
    return spawn(*args, "--summary-trigger", "2", "--keep-turns", "1", env={"OPENAI_API_KEY": "test"})


def ask(child, text: str) -> None:
    child.expect("›")
    child.sendline(text)
    child.expect("tokens: prompt")


def waiting_for_the_summary(child) -> None:
    """Three turns, then a fourth that waits for the summary of turns 1-2 (still being written: 30 s)."""
    for text in ("one", "two", "three"):
        ask(child, text)
    child.expect("›")
    child.sendline("four")
    child.expect("waiting for the summary")
    # the notice is printed just before the wait begins: a Ctrl-C in those few milliseconds stops the turn instead
    # (it can be sent again with /retry); these tests are about the wait, so they act once it is waiting
    child.expect([pexpect.TIMEOUT], timeout=0.3)


def test_ctrl_c_stops_waiting_for_the_summary_and_the_session_goes_on(spawn, tmp_path):
    with FakeServer(reply=REPLY, whole_reply="- short summary", whole_delay=30) as server:
        child = start(spawn, server.base_url)
        try:
            waiting_for_the_summary(child)
            child.sendintr()
            child.expect("you stopped waiting for the summary")
            child.expect("tokens: prompt")  # answered anyway, without the summary
            child.expect("›")
            child.sendline("/summary")
            child.expect("no summary yet")
            child.expect("›")
            child.sendline("/quit")
            child.expect(pexpect.EOF)
        finally:
            child.close(force=True)
        chats = [body for body in server.record.requests if not is_summary(body)]
    assert child.exitstatus == 0
    data = session_doc(tmp_path, "p")
    assert [t["messages"][0]["content"] for t in data["turns"]] == ["one", "two", "three", "four"]
    assert data["summary"] == {"text": "", "covers": 0}
    # turn 4 went out as a failed summary leaves it: system, every unsummarized turn (they fit), the new message
    assert [m["content"] for m in chats[3]["messages"] if m["role"] == "user"] == ["one", "two", "three", "four"]


@pytest.mark.parametrize(("sig", "status"), [("SIGTERM", 143), ("SIGHUP", 129)])
def test_a_signal_while_waiting_for_the_summary_ends_the_process_it_is_not_a_ctrl_c(spawn, tmp_path, sig, status):
    import signal

    with FakeServer(reply=REPLY, whole_reply="- short summary", whole_delay=30) as server:
        child = start(spawn, server.base_url)
        try:
            waiting_for_the_summary(child)
            child.kill(getattr(signal, sig))
            child.expect(pexpect.EOF, timeout=15)
            said = child.before
        finally:
            child.close(force=True)
    assert "you stopped waiting" not in said
    assert child.exitstatus == status
    data = session_doc(tmp_path, "p")
    assert [t["messages"][0]["content"] for t in data["turns"]] == ["one", "two", "three"]  # turn 4 never went


def test_a_summary_finished_in_the_background_is_used_without_waiting(spawn, tmp_path):
    with FakeServer(reply=REPLY, whole_reply="- short summary", whole_delay=0.3) as server:
        child = start(spawn, server.base_url)
        try:
            for text in ("one", "two", "three"):
                ask(child, text)
            child.expect("›")
            while not any(is_summary(body) for body in server.record.requests):
                child.expect([pexpect.TIMEOUT], timeout=0.05)  # the summary request is sent once the reply ends
            child.expect([pexpect.TIMEOUT], timeout=0.6)  # the user types while it is written (0.3 s)
            child.sendline("four")
            index = child.expect(["waiting for the summary", "summarized 2 earlier turn"])
            assert index == 1
            child.expect("tokens: prompt")
            child.expect("›")
            child.sendline("/quit")
            child.expect(pexpect.EOF)
        finally:
            child.close(force=True)
    data = session_doc(tmp_path, "p")
    assert data["summary"] == {"text": "- short summary", "covers": 2}
