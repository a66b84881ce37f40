"""``/cost``: what the stateless model cost this session, request by request: the tokens each request sent and their
running total, what full memory would have sent for the same turns, the summary calls, what the provider's cache
saved, and money where the model has a price (:mod:`chatbot.engine.cost`; the config file's ``[prices]`` adds
prices). :func:`cost_report` is also what ``chatbot --timeline ID --json`` carries.
"""

from __future__ import annotations

import json
from typing import Any

from chatbot.commands.base import Confirm
from chatbot.commands.effects import Effects, Show
from chatbot.core.app import App
from chatbot.engine.cost import Price, TurnCost, costs, price_of
from chatbot.engine.usage import Totals
from chatbot.errors import UsageError
from chatbot.storage.session import Session

USAGE = "usage: /cost (what each request sent, in tokens and money) or /cost json"


def cost_report(session: Session, prices: dict[str, Price] | None = None) -> dict[str, Any]:
    """The session's cost as data: per turn, totals, summary calls, cache, and money when the model has a price."""
    rows = costs(session.conversation)
    model = session.model or session.provider
    price = price_of(model, prices)
    totals: Totals = session.totals
    sent = rows[-1].cumulative if rows else 0
    full = rows[-1].full_cumulative if rows else 0
    cached = sum(r.cached for r in rows)
    report: dict[str, Any] = {
        "session": session.id,
        "model": model,
        "memory": session.conversation.memory.strategy,
        "turns": [r.to_dict() for r in rows],
        "sent": sent,
        "full_memory_sent": full,
        "completion": sum(r.completion for r in rows),
        "summary_calls": totals.summary_requests,
        "summary_tokens": totals.summary_tokens,
        "cached": cached,
        "price": None if price is None else {"input": price.input, "output": price.output, "cached": price.cached},
    }
    if price is not None:
        money = [price.of(r.sent, r.completion, r.cached) for r in rows]
        for row, dollars in zip(report["turns"], money, strict=True):
            row["usd"] = round(dollars, 6)
        report["usd"] = round(sum(money) + price.of(totals.summary_tokens, 0), 6)
        report["usd_saved_by_cache"] = round(price.saved(cached), 6)
        report["usd_full_memory"] = round(price.of(full, report["completion"]), 6)
    return report


def plain(report: dict[str, Any]) -> str:
    """The report as a table and a few lines of totals."""
    rows = [TurnCost(**{k: v for k, v in r.items() if k != "usd"}) for r in report["turns"]]
    if not rows:
        return "no turns yet: /cost adds up what each request sends once there are some"
    priced = report["price"] is not None
    lines = [
        f"Cost of session {report['session']} (model {report['model']}, memory {report['memory']}): the tokens each "
        "request sent (~ an estimate: no provider count), and what full memory would have sent for the same turns",
        f"turn {'sent':>7} {'so far':>8} {'reply':>6} {'cached':>6} {'full memory':>11} {'so far':>8}"
        + ("    $ so far" if priced else ""),
    ]
    so_far = 0.0
    for row, data in zip(rows, report["turns"], strict=True):
        sent = f"{'~' if row.estimated else ''}{row.sent}"
        fold = "  summary made" if row.summarized else ""
        money = ""
        if priced:
            so_far += data["usd"]
            money = f" {so_far:>11.4f}"
        lines.append(
            f"{row.turn:>4} {sent:>7} {row.cumulative:>8} {row.completion:>6} {row.cached:>6} {row.full:>11} "
            f"{row.full_cumulative:>8}{money}{fold}"
        )
    lines += totals_lines(report)
    return "\n".join(lines)


def totals_lines(report: dict[str, Any]) -> list[str]:
    """The totals: tokens against full memory's, summary calls, cache, money (or why there is none)."""
    n, sent, full = len(report["turns"]), report["sent"], report["full_memory_sent"]
    ratio = f", {full / sent:.1f}x what was sent" if sent else ""
    lines = [
        f"sent: {sent:,} prompt tokens in {n} request(s); replies {report['completion']:,} tokens",
        f"full memory would have sent {full:,}{ratio}, with no budget: request n re-sends all n-1 turns before it, so "
        f"its total grows with the square of the turns (about n²/2 turns' worth: {n * (n - 1) // 2:,} turn re-sends "
        f"over {n})",
        f"summary calls: {report['summary_calls']} ({report['summary_tokens']:,} tokens reported)",
        f"cached: {report['cached']:,} prompt tokens served from the provider's cache",
    ]
    if report["price"] is None:
        lines.append(
            f'money: no price for model {report["model"]} (tokens only); a [prices."{report["model"]}"] table in the '
            "config file with input, output and cached (USD per million tokens) adds one"
        )
    else:
        lines.append(
            f"money: ${report['usd']:.4f} (summary calls included), the cache saved "
            f"${report['usd_saved_by_cache']:.4f}; full memory: ${report['usd_full_memory']:.4f}"
        )
    return lines


def run_cost(app: App, arg: str, confirm: Confirm | None) -> Effects:
    """``/cost [json]``."""
    if arg not in ("", "json"):
        raise UsageError(USAGE)
    report = cost_report(app.chat.session, app.settings.prices)
    return Show(json.dumps(report, indent=2) if arg == "json" else plain(report))
