"""Memory on a real model's small window, end to end: a long conversation through the real CLI (script mode, piped
lines, the default memory settings) against llama.cpp's server with a 2,048-token window, with and without tools.

What is checked is what must hold whatever the tiny model says, by the server's own counts (``--log-requests``:
``request_tokens.provider`` and ``max_tokens`` of every call, chat and summary): the conversation meets the window or
summaries keep every request under it; once the server has refused a request for its length, every later request
with its reply limit fits the window, and none is refused again; every turn is stored; a turn left out of a request
is either in the summary or a warning said why (a summary that failed or was not kept); the summary kept repeats no
part of its request; no traceback, exit 0.

Gemma 3 270M here is the pretrained model: the summary request reaches it whole (one user message: llama-cpp-python's
``gemma`` format drops system messages), but it continues its prompt rather than follow it, and runs on until the
window cuts it. A cut summary is kept up to its last full sentence or line, one that repeats its request is not.
Measured (40 turns, without tools and with: the same counts): 10 summaries asked, 8 cut, 5 kept and 5 refused as
repeats of their request; no request refused for length (the kept summaries keep every request under the window), no
turn dropped; the summary at the end covers 29 turns, and its text is the model's invention, not a summary. Runs
while this was built kept 6 (no check for a repeat yet) and 1 (the calibration below not fixed yet); before cut
summaries were kept, none was (every summary came back cut). The test asserts that one is kept; what it says is the
model's doing. The summary rides in the system message, which the ``gemma`` format drops: the calibration learns
from the rest of such a request (chatbot.core.budget.left_out_system), or a kept summary of ~1,000 tokens taught a
ratio of 0.46 and 21 requests were refused after the window was learned.

Slow: 11 to 25 minutes a test on two shared cores (one server each), most of it in summaries that run on until the
window cuts them (~85 s each). Since the summary rides in the first user message, the server counts it (and the
model reads it): chat requests of ~1,900 tokens where they were ~1,300, and the two tests side by side on a loaded
machine reached turn 30 of 40 in 30 minutes, the limit then: now an hour.

The ``gemma`` format drops the system message: once the server's count shows it (the first request that carries a
kept summary), the system prompt and the summary ride at the head of the first user message of every later chat
request (``--show-requests`` shows the bodies; the test checks them). Measured, the two tests side by side (stopped
at turn 30 by the 30-minute limit): the drop was seen at turn 14 (725 tokens counted for 1,615 estimated), from
turn 15 on the server counted the summary (1,808 for 1,774); 10 summaries asked in each, 3 and 4 kept (covering 19
and 22 turns), one request refused for length before the window was learned and none after it (2,035 at most with
the reply).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chatbot.core.budget import DROPS_SYSTEM_NOTICE
from chatbot.engine.summary_prompt import SUMMARY_HEADING, echoes_request
from tests.support.cli import run_chatbot
from tests.support.llama_server import llama_server

pytestmark = pytest.mark.e2e

WINDOW = 2048
TURNS = 40
#: a reply of at most this many tokens (Gemma 270M always writes that much when asked for detail): with the notes of
#: each message, eight turns overflow the window; Gemma writes 5-15 tokens a second on two shared cores
REPLY = 64
NOTES = (
    "My notes so far: rent is 900 a month, food about 300, transport {t}, savings 150, and the car insurance is due "
    "in March. I want every rule written out so that I can follow it without thinking, including what to do when a "
    "month runs over."
)


@pytest.fixture
def small_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own for each test (the two can run side by side: ``-n 2`` or two runs)."""
    with llama_server(tmp_path_factory.mktemp("llama-small"), WINDOW) as base_url:
        yield base_url


def ask(k: int) -> str:
    return f"Step {k} of my household budget. " + NOTES.format(t=40 + k) + f" Explain part {k} in great detail."


def converse(base_url: str, cwd: Path, *more: str) -> tuple[Any, list[dict[str, Any]], dict[str, Any]]:
    """TURNS turns, /summary and /tools through the CLI; (the finished process, its stderr without the request bodies
    --show-requests wrote there, which are kept in ``done.bodies``; the request log, the session file)."""
    log = cwd / "requests.jsonl"
    script = "".join(f"{ask(k)}\n" for k in range(1, TURNS + 1)) + "/summary\n/tools\n"
    started = time.monotonic()
    done = run_chatbot(
        "--provider", "openai", "--base-url", base_url, "--model", "gemma-3-270m", "--no-stream",
        "--max-output-tokens", str(REPLY), "--log-requests", str(log), "--timeout", "300", "--show-requests", *more,
        cwd=cwd, stdin=script, timeout=3600,
    )  # fmt: skip
    print(f"{TURNS} turns in {time.monotonic() - started:.0f}s")
    (cwd / "stderr.txt").write_text(done.stderr)  # beside the request log, for a reader of a failed run
    done.stderr, done.bodies = split_bodies(done.stderr)
    (session,) = (cwd / "sessions").glob("*.json")
    records = [json.loads(line) for line in log.read_text().splitlines()]
    print(tally(done.stderr, records), summary_rides(done.bodies))
    return done, records, json.loads(session.read_text())


def split_bodies(stderr: str) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
    """``stderr`` without the request bodies --show-requests wrote there, and those bodies in order, each with its
    kind ("chat" or "summary")."""
    decoder, marker = json.JSONDecoder(), ", JSON body:\n"
    rest, bodies, at = [], [], 0
    while (found := stderr.find(marker, at)) != -1:
        line = stderr.rfind("\n", 0, found) + 1
        body, end = decoder.raw_decode(stderr, found + len(marker))
        bodies.append(("chat" if stderr.startswith("chatbot: chat request", line) else "summary", body))
        rest.append(stderr[at:line])
        at = end + 1
    return "".join([*rest, stderr[at:]]), bodies


def summary_rides(bodies: list[tuple[str, dict[str, Any]]]) -> dict[str, int]:
    """Where the chat requests carried the rolling summary: in the system message (which the ``gemma`` format
    drops), or at the head of the first user message (once the drop was seen)."""
    chats = [body["messages"] for kind, body in bodies if kind == "chat"]
    return {
        "chat requests": len(chats),
        "summary in the system message": sum(
            SUMMARY_HEADING in str(m[0]["content"]) and m[0]["role"] == "system" for m in chats
        ),  # fmt: skip
        "summary in the first user message": sum(
            SUMMARY_HEADING in str(m[0]["content"]) and m[0]["role"] == "user" for m in chats
        ),  # fmt: skip
    }


def tally(stderr: str, records: list[dict[str, Any]]) -> dict[str, int]:
    """What the folds came to, for the record (``-s`` shows it): summaries asked, cut at their cap, kept (those cut
    kept up to their last full sentence or line among them), failed, and requests refused for their length."""
    summaries = [r for r in records if r["kind"] == "summary"]
    return {
        "summaries asked": len(summaries),
        "cut at the cap": sum(r["finish_reason"] == "length" for r in summaries),
        "folds kept": stderr.count("into the rolling summary"),
        "kept cut": stderr.count("kept up to its last full"),
        "failed": stderr.count("summarizing failed ("),
        "repeats its request": stderr.count("repeats its request"),
        "not shorter": stderr.count("was not shorter"),
        "refused for length": sum(r["error"] == "ContextLengthError" for r in records),
    }


def check(done: Any, records: list[dict[str, Any]], session: dict[str, Any]) -> None:
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert len(session["turns"]) == TURNS
    covers = session["summary"]["covers"]
    errors = [n for n, r in enumerate(records) if r["error"] == "ContextLengthError"]
    # the conversation met the window, or summaries kept every request under it
    assert errors or covers, "the conversation never met the window and kept no summary: nothing was tested"
    after = records[errors[0] + 1 :] if errors else []
    assert [r for r in after if r["error"] == "ContextLengthError"] == []  # refused once, then kept under it
    summaries = [r for r in records if r["kind"] == "summary"]
    assert len(summaries) >= 3  # folded again and again
    # a turn left out of a request is in the summary, or the warning of a summary that failed said why
    chats = [r for r in records if r["kind"] in ("chat", "tool_call") and r["ok"]]
    told = done.stderr.count("summarizing failed") + done.stderr.count("so it was not kept")
    assert sum(r["dropped"] > 0 for r in chats) <= told, done.stderr[-3000:]
    if covers:
        assert f"Summary of turns 1-{covers} of {TURNS}" in done.stdout
    # a summary kept holds no repeat of its request (the pretrained model continues its prompt: such text is refused)
    assert not echoes_request(session["summary"]["text"])
    assert covers > 0  # a summary was kept: cut summaries are kept up to their last full sentence or line
    # by the server's own count, the prompt and the reply it may write fit the window (llama.cpp does not refuse
    # them, it cuts the reply at the window: vLLM refuses): a request under the learned window keeps a hundredth of
    # it to spare for a count that runs under the server's
    over = [r for r in after if r["ok"] and r["request_tokens"]["provider"] + r["max_tokens"] > WINDOW]
    assert over == []
    # the gemma format drops the system message: once the server's count shows it, the system prompt and the summary
    # ride at the head of the first user message of every later chat request, said once
    assert done.stderr.count(DROPS_SYSTEM_NOTICE) == 1
    chats = [body["messages"] for kind, body in done.bodies if kind == "chat"]
    first = next(n for n, messages in enumerate(chats) if messages[0]["role"] == "user")
    assert all(messages[0]["role"] == "user" for messages in chats[first:])
    assert all(m["role"] != "system" for messages in chats[first:] for m in messages)
    assert summary_rides(done.bodies)["summary in the first user message"] > 0


def test_a_long_conversation_stays_within_a_small_window(small_window: str, tmp_path: Path) -> None:
    check(*converse(small_window, tmp_path))


def test_a_long_conversation_with_tools_stays_within_a_small_window(small_window: str, tmp_path: Path) -> None:
    server = Path(__file__).resolve().parents[2] / "examples" / "mcp_server.py"
    done, records, session = converse(small_window, tmp_path, "--mcp", f"python {server}")
    assert "search_conversation" in done.stdout  # /tools: the built-in tool beside the MCP server's took room too
    check(done, records, session)
