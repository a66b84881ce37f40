"""Memory through the real CLI, where it meets the rest: a tool result bigger than the whole budget, and a summary
model that fails while the chat model works."""

from __future__ import annotations

import pytest

from chatbot.engine.tokens import TokenCounter
from tests.support.cli import assert_clean, run_chatbot, session_doc
from tests.support.fake_server import FakeServer

OPENAI = {"OPENAI_API_KEY": "test"}

REPORT = '''
def fetch_report() -> str:
    """The whole quarterly report."""
    return " ".join(f"line {i} of the report says that revenue grew again" for i in range(300))
'''


def test_a_tool_result_bigger_than_the_budget_is_sent_shortened_and_stored_whole(tmp_path):
    (tmp_path / "report.py").write_text(REPORT)
    script = [{"tool_calls": [["call_1", "fetch_report", "{}"]]}, "Revenue grew in every line."]
    with FakeServer(replies=script) as server:
        result = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url, "--session", "r",
            "--functions", "report.py", "--max-input-tokens", "1500", "-p", "What does the report say?",
            cwd=tmp_path, env=OPENAI,
        )  # fmt: skip
        requests = server.record.requests
    assert result.returncode == 0, result.stderr
    assert_clean(result)
    assert result.stdout.strip() == "Revenue grew in every line."
    whole = " ".join(f"line {i} of the report says that revenue grew again" for i in range(300))
    assert TokenCounter().count(whole) > 3000  # twice the budget
    (sent,) = [m for m in requests[1]["messages"] if m["role"] == "tool"]
    start, mark = sent["content"].split("\n[tool result shortened for this request: ")
    assert whole.startswith(start) and len(start) < len(whole) // 2
    assert mark.endswith(f" of about {TokenCounter().count(whole)} tokens shown; the full result is stored]")
    assert TokenCounter().count_request(requests[1]["messages"]) < 1500
    assert "1 tool result(s) of this turn sent shortened to" in result.stderr
    (turn,) = session_doc(tmp_path, "r")["turns"]
    assert [m["content"] for m in turn["messages"] if m["role"] == "tool"] == [whole]
    assert turn["messages"][-1]["content"] == "Revenue grew in every line."


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


def test_a_missing_summary_model_is_named_with_the_flag_that_chose_it(tmp_path):
    with FakeServer(reply="Noted.", missing_models=("gone-summarizer",)) as server:
        result = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url, "--model", "chat-model", "--session", "m",
            "--summary-model", "gone-summarizer", "--summary-trigger", "1", "--keep-turns", "0",
            stdin="one\ntwo\nthree\n", cwd=tmp_path, env=OPENAI,
        )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "has no model 'gone-summarizer'" in result.stderr
    assert "Choose another with --summary-model NAME" in result.stderr and "--model NAME" not in result.stderr


def test_first_last_memory_keeps_the_first_turns_and_context_shows_the_gap(tmp_path):
    script = "I am Ana, a nurse in Lyon.\nTask: plan a trip.\nthird\nfourth\nfifth\nsixth\n/context\n"
    result = run_chatbot(
        "--provider", "echo", "--session", "f", "--memory", "first-last", "--first-turns", "2",
        "--max-input-tokens", "500", "--recall", "0",
        stdin=script, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert_clean(result)
    context = result.stdout[result.stdout.rindex("The model keeps nothing between requests") :]
    assert "  2  user           13  I am Ana, a nurse in Lyon." in context
    assert "  4  user           10  Task: plan a trip." in context
    assert "third" not in context and "fourth" not in context and "sixth" in context
    assert (
        "2 earlier turn(s) are stored but not sent (turns 3-4): a gap between the first, turns 1-2, and the latest "
        "sent, turns 5-6"
    ) in context
    assert "flag: --memory first-last, --first-turns 2, --recall 0, --max-input-tokens 500" in context
    assert session_doc(tmp_path, "f")["rule"]["first_turns"] == 2  # kept with the session


def test_a_session_made_to_fold_after_every_reply_can_be_continued(tmp_path):
    made = run_chatbot("--provider", "echo", "--session", "z", "--summary-trigger", "0", "--keep-turns", "0",
                       stdin="one\n", cwd=tmp_path)  # fmt: skip
    assert made.returncode == 0, made.stderr
    continued = run_chatbot("--provider", "echo", "--session", "z", stdin="two\n", cwd=tmp_path)
    assert continued.returncode == 0, continued.stderr
    assert session_doc(tmp_path, "z")["rule"]["summary_trigger"] == 0


def test_every_count_of_the_memory_strategies_is_a_flag_with_its_default_and_least(tmp_path):
    from chatbot.engine.memory import MemoryConfig
    from chatbot.engine.strategies import COUNTS

    for name, count in COUNTS.items():
        assert getattr(MemoryConfig(), name) == count.default
        below = run_chatbot("--provider", "echo", count.flag, str(count.least - 1), "-p", "hi", cwd=tmp_path)
        assert below.returncode == 2 and f"{count.flag}: {count.least - 1} is less than {count.least}" in below.stderr


@pytest.mark.parametrize("flag", ["--max-input-tokens", "--max-output-tokens", "--window-turns"])
def test_a_count_past_any_models_reach_is_refused_in_one_line(tmp_path, flag):
    """10**24 was taken as a budget, and its figures turned to float noise (a user trial)."""
    result = run_chatbot("--provider", "echo", flag, str(10**24), "-p", "hi", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"{flag}: {10**24} is more than 100,000,000 (no model reads so many tokens)" in result.stderr


def test_a_script_says_earlier_turns_are_not_sent_once_not_after_every_turn(tmp_path):
    flags = ("--provider", "echo", "--session", "w", "--memory", "window", "--window-turns", "2", "--window-step", "1")
    script = run_chatbot(*flags, stdin="".join(f"message {n}\n" for n in range(1, 13)), cwd=tmp_path)
    assert_clean(script)
    told = [line for line in script.stderr.splitlines() if "not sent" in line]
    # from the fourth message on a turn is left out, one more every turn: said when it starts, not nine times
    assert told == ["chatbot: 1 earlier turn(s) not sent (memory window / token budget)"]
    assert [turn["sent"]["dropped"] for turn in session_doc(tmp_path, "w")["turns"]] == [0, 0, 0, *range(1, 10)]
    # a new run of the same session says it again, once, with the count as it stands
    resumed = run_chatbot(*flags, stdin="message 13\nmessage 14\n", cwd=tmp_path)
    told = [line for line in resumed.stderr.splitlines() if "not sent" in line]
    assert told == ["chatbot: 10 earlier turn(s) not sent (memory window / token budget)"]
