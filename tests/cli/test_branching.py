"""Branching from an earlier turn through the real CLI: ``/fork N`` keeps turns 1..N in a new session, ``/edit N TEXT``
resends an edited message N in a branch holding turns 1..N-1; the original session stays exactly as it was, in
either store."""

from __future__ import annotations

import re
import time

from chatbot.storage import open_store
from tests.support.cli import one_error_line, openai_flags, run_chatbot
from tests.support.fake_server import FakeServer

SUMMARY = "SUMMARY-OF-EARLIER-TURNS"


def chat_messages(body: dict) -> list[tuple[str, str]]:
    """A recorded request's messages as (role, text) pairs, the system message left out."""
    return [(m["role"], m["content"]) for m in body["messages"] if m["role"] != "system"]


def stored(store_url: str, session_id: str) -> bytes:
    """The session document as the store holds it."""
    opened = open_store(store_url)
    try:
        return opened.load(session_id).to_json()
    finally:
        opened.close()


def user_texts(store_url: str, session_id: str) -> list[str]:
    opened = open_store(store_url)
    try:
        return [t.user_text for t in opened.load(session_id).conversation.turns]
    finally:
        opened.close()


def three_turns(tmp_path, server: FakeServer, store_url: str) -> bytes:
    """Session ``main`` with turns one, two, three (each answered ``ok``); returns its stored document."""
    made = run_chatbot(
        *openai_flags(server.base_url),
        "--store",
        store_url,
        "--session",
        "main",
        stdin="one\ntwo\nthree\n",
        cwd=tmp_path,
    )
    assert made.returncode == 0, made.stderr
    return stored(store_url, "main")


def test_edit_n_sends_turns_before_n_and_the_edited_message_in_a_branch(tmp_path, store_url):
    with FakeServer(reply="ok") as server:
        before = three_turns(tmp_path, server, store_url)
        flags = [*openai_flags(server.base_url), "--store", store_url, "--session", "main"]
        result = run_chatbot(*flags, stdin="/edit 2 TWO, edited\n", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        sent = server.record.requests[-1]
    assert chat_messages(sent) == [("user", "one"), ("assistant", "ok"), ("user", "TWO, edited")]
    branch = re.search(r"branched main before turn 2 into (\S+),", result.stderr)
    assert branch, result.stderr
    assert user_texts(store_url, branch[1]) == ["one", "TWO, edited"]
    assert stored(store_url, "main") == before  # the original: every turn, field and timestamp as it was


def test_fork_n_keeps_turns_1_to_n_and_the_next_message_follows_them(tmp_path, store_url):
    with FakeServer(reply="ok") as server:
        before = three_turns(tmp_path, server, store_url)
        flags = [*openai_flags(server.base_url), "--store", store_url, "--session", "main"]
        result = run_chatbot(*flags, stdin="/fork 1 early\nnext\n", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        sent = server.record.requests[-1]
    assert "forked main at turn 1 into early (1 turn(s)); now in early" in result.stderr
    assert chat_messages(sent) == [("user", "one"), ("assistant", "ok"), ("user", "next")]
    assert user_texts(store_url, "early") == ["one", "next"]
    assert stored(store_url, "main") == before


def test_a_branch_before_the_turns_the_summary_covers_leaves_the_summary_out(tmp_path):
    """The summary was written from turns the branch does not have: sent there, it would tell the model about them
    (the message an /edit replaced, say). A branch that keeps every turn it covers keeps it."""
    memory = ["--memory", "summary", "--summary-trigger", "2", "--keep-turns", "1"]
    with FakeServer(reply="ok", whole_reply=SUMMARY) as server:
        flags = [*openai_flags(server.base_url), *memory]
        made = run_chatbot(*flags, "--session", "main", stdin="u1\nu2\nu3\nu4\n", cwd=tmp_path)
        assert made.returncode == 0, made.stderr
        assert SUMMARY.encode() in stored(str(tmp_path / "sessions"), "main")
        script = "/fork 2 kept\n/load main\n/fork 1 early\nnext\n/load main\n/edit 2 U2\n"
        result = run_chatbot(*flags, "--session", "main", stdin=script, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        branched, edited = server.record.requests[-2:]
    sessions = tmp_path / "sessions"
    kept = open_store(str(sessions)).load("kept").conversation
    assert (kept.summary, kept.summary_covers) == (SUMMARY, 2)
    early = open_store(str(sessions)).load("early").conversation
    assert (early.summary, early.summary_covers, early.summaries) == ("", 0, [])  # nor kept as an earlier one
    assert SUMMARY not in str(branched["messages"]) and SUMMARY not in str(edited["messages"])
    assert chat_messages(edited) == [("user", "u1"), ("assistant", "ok"), ("user", "U2")]


def test_edit_n_keeps_the_images_of_message_n(tmp_path):
    from tests.support.images import png

    (tmp_path / "p.png").write_bytes(png(10, 10))
    with FakeServer(reply="ok") as server:
        script = "first\n/file p.png\nwhat colour?\nlast\n/edit 2 what shape?\n"
        result = run_chatbot(*openai_flags(server.base_url), "--session", "i", stdin=script, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        text, image = server.record.requests[-1]["messages"][-1]["content"]
    assert text == {"type": "text", "text": "what shape?"} and image["type"] == "image_url"


def test_files_attached_before_a_branch_go_with_its_message(tmp_path):
    (tmp_path / "note.txt").write_text("the note\n")
    with FakeServer(reply="ok") as server:
        script = "one\ntwo\n/file note.txt\n/edit 2 TWO with the note\n"
        result = run_chatbot(*openai_flags(server.base_url), "--session", "f", stdin=script, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        sent = server.record.requests[-1]
    assert chat_messages(sent)[-1] == ("user", "```note.txt\nthe note\n```\n\nTWO with the note")


def test_a_turn_that_is_not_there_and_a_bare_edit_n_in_a_script_are_one_clear_line(tmp_path):
    made = run_chatbot("--provider", "echo", "--session", "s", stdin="one\ntwo\n", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    for line, words in [
        ("/fork 3", "this session has 2 turn(s); no turn 3 to fork at"),
        ("/fork 0", "/fork 0 would keep no turn: /new starts an empty session"),
        ("/edit 3 text", "no turn 3: this session has 2 turn(s)"),
        ("/edit 0 text", "no turn 0"),
        ("/edit 1", "in a script, /edit takes the new text: /edit 1 NEW MESSAGE"),
        ("/fork 1 a b", "usage: /fork [N] [ID]"),
    ]:
        result = run_chatbot("--provider", "echo", "--session", "s", stdin=line + "\n", cwd=tmp_path)
        assert result.returncode == 2 and words in one_error_line(result), (line, result.stderr)
    assert sorted(p.stem for p in (tmp_path / "sessions").glob("*.json")) == ["s"]  # no branch made by a refusal


def test_continue_after_a_fork_in_the_same_second_resumes_the_fork_in_either_store(tmp_path, store_url):
    first = run_chatbot("--provider", "echo", "--store", store_url, "--session", "a-original", stdin="hello\n",
                        cwd=tmp_path)  # fmt: skip
    assert first.returncode == 0, first.stderr
    time.sleep(1.1)  # the original was made a second earlier; its next turn and the fork share a second
    forked = run_chatbot("--provider", "echo", "--store", store_url, "--session", "a-original",
                         stdin="again\n/fork z-branch\n", cwd=tmp_path)  # fmt: skip
    assert "now in z-branch" in forked.stderr, forked.stderr
    resumed = run_chatbot("--provider", "echo", "--store", store_url, "-c", stdin="", cwd=tmp_path)
    assert "chatbot: session z-branch (2 turn(s) stored)" in resumed.stderr, resumed.stderr
    listed = run_chatbot("--store", store_url, "--list-sessions", cwd=tmp_path)
    assert [line.split()[0] for line in listed.stdout.splitlines()[1:3]] == ["z-branch", "a-original"]
