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
    """The session's cost as data: per turn, totals, summary calls, cache, and money for the turns whose model has a
    price. Each turn is priced at the model that served it (a turn stored before turns kept their model: the
    session's); a turn of a model without a price counts in tokens only, and ``unpriced`` names those models."""
    rows = costs(session.conversation)
    model = session.model or session.provider
    listed = session.endpoint != "custom"  # served at the user's own base URL: the provider's list price is not it
    price = price_of(model, prices, listed=listed)
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
        "price": _price_dict(price),
        "custom_endpoint": not listed,
    }
    served = [turn.model or model for turn in session.conversation.turns]
    turn_prices = {m: price_of(m, prices, listed=listed) for m in dict.fromkeys(served)}
    report["models"] = {m: {"turns": served.count(m), "price": _price_dict(p)} for m, p in turn_prices.items()}
    report["unpriced"] = [m for m, p in turn_prices.items() if p is None]
    if any(p is not None for p in turn_prices.values()):
        _add_money(report, rows, [turn_prices[m] for m in served], price)
    return report


def _price_dict(price: Price | None) -> dict[str, Any] | None:
    return None if price is None else {"input": price.input, "output": price.output, "cached": price.cached}


def _add_money(report: dict[str, Any], rows: list[TurnCost], prices: list[Price | None], price: Price | None) -> None:
    """Dollars on each priced turn (``usd``) and the totals over them; the summary calls at the session model's
    price, when it has one (they are counted for the session, not per turn)."""
    usd = saved = full = 0.0
    for row, data, turn_price in zip(rows, report["turns"], prices, strict=True):
        if turn_price is None:
            continue
        data["usd"] = round(turn_price.of(row.sent, row.completion, row.cached), 6)
        usd += turn_price.of(row.sent, row.completion, row.cached)
        saved += turn_price.saved(row.cached)
        full += turn_price.of(row.full, row.completion)
    summaries = price.of(report["summary_tokens"], 0) if price is not None else 0.0
    report["usd"] = round(usd + summaries, 6)
    report["usd_summary_calls_priced"] = price is not None
    report["usd_saved_by_cache"] = round(saved, 6)
    report["usd_full_memory"] = round(full, 6)


def plain(report: dict[str, Any]) -> str:
    """The report as a table and a few lines of totals."""
    rows = [TurnCost(**{k: v for k, v in r.items() if k != "usd"}) for r in report["turns"]]
    if not rows:
        return "no turns yet: /cost adds up what each request sends once there are some"
    priced = "usd" in report
    lines = [
        f"Cost of session {report['session']} ({_models(report)}, memory {report['memory']}): the tokens each "
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
            so_far += data.get("usd", 0.0)
            money = f" {so_far:>11.4f}" if "usd" in data else f" {'no price':>11}"
        lines.append(
            f"{row.turn:>4} {sent:>7} {row.cumulative:>8} {row.completion:>6} {row.cached:>6} {row.full:>11} "
            f"{row.full_cumulative:>8}{money}{fold}"
        )
    lines += totals_lines(report)
    return "\n".join(lines)


def _models(report: dict[str, Any]) -> str:
    """``model NAME``, or when turns were served by several: each with its count of turns."""
    models = report.get("models") or {}
    if len(models) < 2:
        return f"model {report['model']}"
    return "models " + ", ".join(
        f"{name} ({data['turns']} turn{'' if data['turns'] == 1 else 's'})" for name, data in models.items()
    )


def totals_lines(report: dict[str, Any]) -> list[str]:
    """The totals: tokens against full memory's, summary calls, cache, money (or why there is none)."""
    n, sent, full = len(report["turns"]), report["sent"], report["full_memory_sent"]
    ratio = f", {full / sent:.1f}x what was sent" if sent else ""
    calls = sum(int(t.get("calls") or 1) for t in report["turns"])  # a turn that called tools asked more than once
    lines = [
        f"sent: {sent:,} prompt tokens in {calls} request(s) over {n} turn(s); replies {report['completion']:,} tokens",
        f"full memory would have sent {full:,}{ratio}, with no budget: request n re-sends all n-1 turns before it, so "
        f"its total grows with the square of the turns (about n²/2 turns' worth: {n * (n - 1) // 2:,} turn re-sends "
        f"over {n})",
        f"summary calls: {report['summary_calls']} ({report['summary_tokens']:,} tokens reported)",
        f"cached: {report['cached']:,} prompt tokens served from the provider's cache",
    ]
    lines.append(_money_line(report))
    return lines


def _money_line(report: dict[str, Any]) -> str:
    """Money: the priced turns' dollars, and the models whose turns count in tokens only (or why there is none)."""
    unpriced = report.get("unpriced", [])
    if "usd" not in report:
        named = unpriced or [report["model"]]
        where = " served at your own base URL" if report.get("custom_endpoint") else ""
        return (
            f"money: no price for model{'s' if len(named) > 1 else ''} {', '.join(named)}{where} (tokens only); "
            f'a [prices."{named[0]}"] table in the config file with '
            "input, output and cached (USD per million tokens) adds one"
        )
    summaries = " (summary calls included)"
    if not report.get("usd_summary_calls_priced", True):
        summaries = (
            f" (no price for model {report['model']}: summary calls not included)" if report["summary_tokens"] else ""
        )
    line = (
        f"money: ${report['usd']:.4f}{summaries}, the cache saved ${report['usd_saved_by_cache']:.4f}; full memory: "
        f"${report['usd_full_memory']:.4f}"
    )
    for model in unpriced:
        line += f"; turns by {model}: no price, tokens only"
    return line


def run_cost(app: App, arg: str, confirm: Confirm | None) -> Effects:
    """``/cost [json]``."""
    if arg not in ("", "json"):
        raise UsageError(USAGE)
    report = cost_report(app.chat.session, app.settings.prices)
    return Show(json.dumps(report, indent=2) if arg == "json" else plain(report))
