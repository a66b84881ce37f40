"""The timeline as one self-contained HTML page: a stacked bar per request (system message, summary, recalled turns,
earlier turns, their tool results, new message, tool definitions), the budget and the learned window as lines,
folds and recalls marked, the numbers in each bar's hover text (SVG ``<title>``). Inline CSS and SVG only: the page
loads nothing from the network, so it can go on a slide, in a page, or in a mail as it is.

``chatbot --timeline ID --html FILE`` and ``/timeline html FILE`` write it; :func:`page` makes it from the rows
``/timeline`` shows (:mod:`chatbot.commands.timeline`).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path

from chatbot.commands.timeline import LETTERS, Row, Timeline
from chatbot.storage.output_files import Ask, write_file

#: each segment's colour (the terminal's palette, readable on white)
COLOURS = {
    "system": "#6b7280",
    "summary": "#d97706",
    "recalled": "#db2777",
    "earlier": "#2563eb",
    "tool_results": "#0891b2",
    "new": "#16a34a",
    "tools": "#7c3aed",
    "unknown": "#9ca3af",
}
#: the plot's size in pixels (bars get narrower as the session grows)
PLOT_WIDTH, PLOT_HEIGHT, LEFT, TOP, BOTTOM = 960, 360, 64, 24, 40

_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #111827; background: #ffffff; }
h1 { font-size: 20px; margin: 0 0 4px; }
p.note { color: #4b5563; margin: 0 0 12px; max-width: 60em; }
ul.legend { list-style: none; padding: 0; margin: 0 0 8px; display: flex; flex-wrap: wrap; gap: 14px; }
ul.legend li span { display: inline-block; width: 12px; height: 12px; margin-right: 5px; vertical-align: -1px; }
svg text { font: 11px system-ui, sans-serif; fill: #374151; }
line.budget { stroke: #dc2626; stroke-width: 2; stroke-dasharray: 6 4; }
line.window { stroke: #111827; stroke-width: 1.5; stroke-dasharray: 2 3; }
line.axis { stroke: #9ca3af; }
text.fold { fill: #d97706; font-weight: bold; }
text.recall { fill: #db2777; font-weight: bold; }
"""


def page(timeline: Timeline, window: int | None = None) -> str:
    """The HTML page of ``timeline``; ``window``: the input budget a server's context window sets, drawn as its own
    line when known."""
    rows = timeline.rows
    top = max([timeline.scale, window or 0, *(r.tokens for r in rows), *(r.budget or 0 for r in rows)], default=1)
    legend = "".join(
        f'<li><span style="background:{COLOURS[s]}"></span>{escape(LETTERS[s][1])}</li>' for s in timeline.used
    )
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>Timeline of session {escape(timeline.session)}</title>",
            f"<style>{_STYLE}</style></head><body>",
            f"<h1>Timeline of session {escape(timeline.session)}</h1>",
            '<p class="note">Each bar is one request: everything the stateless model received for that turn, in '
            "tokens, split into its parts. The dashed red line is the budget a request must fit in; ▼ marks a fold "
            "into the summary, R a request that recalled earlier turns. Hover over a bar for its numbers.</p>",
            f'<ul class="legend">{legend}</ul>',
            _svg(rows, top, timeline.scale, window),
            "</body></html>",
            "",
        ]
    )


def write_html(
    timeline: Timeline,
    path: str,
    store_paths: Sequence[Path],
    window: int | None = None,
    *,
    force: bool = False,
    ask: Ask | None = None,
) -> str:
    """Write :func:`page` to ``path`` as every file the user names is written (never into the store's
    ``store_paths``, never through a symbolic link, an existing file replaced with ``force`` or a yes to ``ask``:
    :func:`~chatbot.storage.output_files.write_file`); what was written, for the user."""
    target = write_file(path, page(timeline, window), store_paths, force=force, ask=ask).absolute()
    return f"wrote the timeline of session {timeline.session} ({len(timeline.rows)} requests) to {target}"


def _y(tokens: float, top: int) -> float:
    return TOP + PLOT_HEIGHT - tokens * PLOT_HEIGHT / max(1, top)


def _svg(rows: tuple[Row, ...], top: int, scale: int, window: int | None) -> str:
    n = max(1, len(rows))
    step = PLOT_WIDTH / n
    bar = max(1.0, min(28.0, step * 0.8))
    width, height = LEFT + PLOT_WIDTH + 16, TOP + PLOT_HEIGHT + BOTTOM
    out = [
        f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
        'aria-label="tokens per request">',
        f'<line class="axis" x1="{LEFT}" y1="{TOP + PLOT_HEIGHT}" x2="{LEFT + PLOT_WIDTH}" y2="{TOP + PLOT_HEIGHT}"/>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + PLOT_HEIGHT}"/>',
    ]
    for tick in _ticks(top):
        y = _y(tick, top)
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{tick:,}</text>')
    labels = max(1, n // 20)  # a turn number under every bar, or every few when there are many
    for i, row in enumerate(rows):
        x = LEFT + i * step + (step - bar) / 2
        out.append(f'<g class="request" data-turn="{row.turn}" data-tokens="{row.tokens}">')
        out.append(f"<title>{escape(_hover(row))}</title>")
        base = 0.0
        whole = sum(n for _, n in row.segments) or 1
        for name, tokens in row.segments:  # the parts, scaled to the request's total (the provider's count)
            if tokens <= 0:
                continue
            height_of = tokens * row.tokens / whole
            y0, y1 = _y(base + height_of, top), _y(base, top)
            out.append(
                f'<rect class="part {name}" x="{x:.1f}" y="{y0:.1f}" width="{bar:.1f}" height="{y1 - y0:.2f}" '
                f'fill="{COLOURS[name]}"><title>turn {row.turn}: {escape(LETTERS[name][1])} {tokens:,} tokens'
                "</title></rect>"
            )
            base += height_of
        marks = [(cls, glyph) for cls, glyph, word in (("fold", "▼", "summary made"), ("recall", "R", "recalled"))
                 if any(m.startswith(word) for m in row.marks)]  # fmt: skip
        for k, (cls, glyph) in enumerate(marks):
            y = _y(row.tokens, top) - 4 - 12 * k
            out.append(f'<text class="{cls}" x="{x + bar / 2:.1f}" y="{y:.1f}" text-anchor="middle">{glyph}</text>')
        out.append("</g>")
        if i % labels == 0:
            out.append(
                f'<text x="{x + bar / 2:.1f}" y="{TOP + PLOT_HEIGHT + 14}" text-anchor="middle">{row.turn}</text>'
            )
    out += _budget_line(rows, scale, top, step)
    if window:
        y = _y(window, top)
        out.append(f'<line class="window" x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + PLOT_WIDTH}" y2="{y:.1f}">'
                   f"<title>learned window: requests are kept under {window:,} tokens</title></line>")  # fmt: skip
        out.append(f'<text x="{LEFT + PLOT_WIDTH}" y="{y - 4:.1f}" text-anchor="end">learned window {window:,}</text>')
    out.append(f'<text x="{LEFT + PLOT_WIDTH / 2}" y="{height - 6}" text-anchor="middle">turn</text>')
    out.append("</svg>")
    return "\n".join(out)


def _budget_line(rows: tuple[Row, ...], scale: int, top: int, step: float) -> list[str]:
    """The budget as a line: one segment per run of requests that had the same budget (the session's now where a
    request kept none)."""
    out, start = [], 0
    budgets = [row.budget or scale for row in rows] or [scale]
    for i in range(1, len(budgets) + 1):
        if i == len(budgets) or budgets[i] != budgets[start]:
            y = _y(budgets[start], top)
            x1, x2 = LEFT + start * step, LEFT + i * step
            out.append(f'<line class="budget" x1="{x1:.1f}" y1="{y:.1f}" x2="{x2:.1f}" y2="{y:.1f}">'
                       f"<title>budget: {budgets[start]:,} tokens</title></line>")  # fmt: skip
            start = i
    y = _y(budgets[-1], top)
    out.append(f'<text x="{LEFT + PLOT_WIDTH}" y="{y - 4:.1f}" text-anchor="end">budget {budgets[-1]:,}</text>')
    return out


def _hover(row: Row) -> str:
    parts = ", ".join(f"{LETTERS[name][1]} {n:,}" for name, n in row.segments if n > 0)
    lines = [f"turn {row.turn}: {row.tokens:,} tokens sent ({parts}); {row.so_far:,} so far"]
    if row.budget:
        lines.append(f"budget {row.budget:,}")
    return "\n".join([*lines, *row.marks])


def _ticks(top: int) -> list[int]:
    """Round numbers from 0 to ``top``, five at most: steps of 1, 2 or 5 times a power of ten."""
    power = 1
    while True:
        for step in (power, 2 * power, 5 * power):
            if top // step <= 5:
                return list(range(0, top + 1, step))
        power *= 10
