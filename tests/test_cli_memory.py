"""Memory through the real CLI, where it meets the rest: a summary model that fails while the chat model works."""

from __future__ import annotations

from tests.support.cli import assert_clean, run_chatbot, session_doc
from tests.support.fake_server import FakeServer

OPENAI = {"OPENAI_API_KEY": "test"}


def test_a_failing_summary_model_still_sends_every_turn_the_budget_has_room_for(tmp_path):
    lines = [f"message {n}" for n in range(1, 11)]
    with FakeServer(reply="Noted.", missing_models=("gone-summarizer",)) as server:
        result = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url, "--session", "m",
            "--summary-model", "gone-summarizer", "--summary-trigger", "4", "--keep-turns", "2",
            stdin="\n".join(lines) + "\n", cwd=tmp_path, env=OPENAI,
        )  # fmt: skip
        requests = server.record.requests
    assert result.returncode == 0, result.stderr
    assert_clean(result)
    summaries = [r for r in requests if r["model"] == "gone-summarizer"]
    chats = [r for r in requests if r["model"] != "gone-summarizer"]
    assert summaries and len(chats) == 10
    # the budget (6,000 tokens) has room for every turn: none is dropped for want of a summary
    assert [m["content"] for m in chats[-1]["messages"] if m["role"] == "user"] == lines
    assert "summarizing failed (" in result.stderr
    assert "this request sends all 9 unsummarized turn(s) instead" in result.stderr
    assert "earlier turn(s) not sent" not in result.stderr
    assert len(session_doc(tmp_path, "m")["turns"]) == 10
