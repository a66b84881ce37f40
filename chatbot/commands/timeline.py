"""``/timeline``: one row per turn of the session, the tokens its request sent as a bar split into its parts, against
the budget, marked where a summary was made or turns were dropped. It shows how the requests of a stateless model
grow, slide and shrink.

The rows come from what each stored turn keeps of its request (its ``sent`` record, :mod:`chatbot.engine.parts`); a
turn stored before that was kept shows its total only. :func:`timeline_of` builds them, :func:`cells` says how many
characters each part of a bar takes, and :func:`plain` writes them as text (script mode, and the ``output`` of the
command's result); the terminal draws the same cells in colour.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from chatbot.engine.parts import PART_NAMES, Parts
from chatbot.engine.request_record import request_tokens
from chatbot.engine.turn import Turn

#: characters a bar takes for the whole budget
WIDTH = 40
#: the segments a bar may hold, in order: the parts, the tool definitions beside them, and the total of a turn
#: whose parts were not kept
SEGMENTS = (*PART_NAMES, "tools", "unknown")
#: each segment's letter in plain text, and its name in the legend
LETTERS = {
    "system": ("s", "system message"),
    "summary": ("S", "summary"),
    "recalled": ("R", "recalled turns"),
    "earlier": ("e", "earlier turns"),
    "tool_results": ("t", "their tool results"),
    "new": ("n", "new message"),
    "tools": ("d", "tool definitions"),
    "unknown": ("#", "parts not kept (older session)"),
}
ROOM = "."
#: the heading of the rows' columns
COLUMNS = "turn  tokens  so far  request"


@dataclass(frozen=True)
class Row:
    """One turn's request: its total (``estimated``: no provider count), its parts, its budget, what it did."""

    turn: int
    tokens: int
    estimated: bool
    segments: tuple[tuple[str, int], ...]  # (segment name, tokens): the estimate's parts, in order
    budget: int | None  # what the whole request could hold (messages and tool definitions); None: not kept
    marks: tuple[str, ...] = ()
    so_far: int = 0  # the tokens every request up to this one sent: what statelessness costs, growing


@dataclass(frozen=True)
class Timeline:
    """The rows of a session and the budget their bars are drawn against."""

    session: str
    rows: tuple[Row, ...]
    scale: int

    @property
    def used(self) -> tuple[str, ...]:
        """The segments any row holds (the legend names these only)."""
        return tuple(s for s in SEGMENTS if any(name == s and n for row in self.rows for name, n in row.segments))


def timeline_of(session_id: str, turns: list[Turn], budget: int, *, learned: bool = False) -> Timeline:
    """The timeline of ``turns``; ``budget`` (the session's budget now) scales the bars when no turn kept its own, and
    always once a server named its context window (``learned``): the requests before it had a larger budget than any
    request may have now, and the rows say so."""
    rows, so_far = [], 0
    for n, turn in enumerate(turns, start=1):
        row = _row(n, turn)
        so_far += row.tokens
        rows.append(replace(row, so_far=so_far))
    budgets = [row.budget for row in rows if row.budget]
    return Timeline(session_id, tuple(rows), budget if learned else max(budgets, default=budget))


def _row(number: int, turn: Turn) -> Row:
    sent = turn.sent
    counted = request_tokens(turn)  # the one figure /diff and /context at N show for this request too
    if not sent:  # stored before requests were recorded: the total alone, as the turn's usage has it
        tokens = counted.total
        return Row(number, tokens, counted.estimated, (("unknown", tokens),), None, ("total only: parts not kept",))
    parts = Parts.from_dict(sent.get("parts") or {})
    tools = int(sent.get("tools") or 0)
    segments = (*((name, getattr(parts, name)) for name in PART_NAMES), ("tools", tools))
    marks = []
    if sent.get("summarized"):
        covers = int(sent.get("summary_covers") or 0)
        marks.append(f"summary made: turns {covers - sent['summarized'] + 1}-{covers} folded")
    if sent.get("dropped"):
        marks.append(f"{sent['dropped']} earlier turn(s) dropped")
    recalled = (sent.get("refs") or {}).get("recalled") or []
    if recalled:
        marks.append(f"recalled turn{'s' if len(recalled) > 1 else ''} {', '.join(map(str, recalled))}")
    budget = int(sent.get("budget") or 0) + tools
    return Row(number, counted.total, counted.estimated, segments, budget, tuple(marks))


def cells(row: Row, scale: int, width: int = WIDTH) -> list[tuple[str, int]]:
    """How many of ``width`` characters (the whole of ``scale`` tokens) each segment of ``row`` takes.

    The bar is as long as the row's total; it is split in proportion to the parts, and every part that holds tokens
    gets at least one character, so a small new message still shows. A request over the scale fills the bar.
    """
    held = [(name, n) for name, n in row.segments if n > 0]
    length = min(width, max(len(held), round(row.tokens * width / max(1, scale))))
    whole = sum(n for _, n in held)
    if not held or not whole:
        return []
    shares = [(name, n * length / whole) for name, n in held]
    out = {name: max(1, int(share)) for name, share in shares}
    by_remainder = sorted(shares, key=lambda s: s[1] - int(s[1]), reverse=True)
    while sum(out.values()) < length:  # the characters rounding left over go to the largest remainders
        for name, _ in by_remainder:
            if sum(out.values()) < length:
                out[name] += 1
    while sum(out.values()) > length:  # a part raised to one character is paid for by the largest
        largest = max(out, key=lambda name: out[name])
        out[largest] -= 1
    return [(name, out[name]) for name, _ in held if out[name]]


def header(timeline: Timeline) -> str:
    """The first lines: what a row shows."""
    per = timeline.scale / WIDTH
    return (
        f"Timeline of session {timeline.session}: the prompt tokens of each turn's request, against the budget of "
        f"{timeline.scale}\n(one character is about {per:.0f} tokens; ~ marks an estimate: the provider sent no count; "
        "so far: the tokens of every request up to it, /cost prices them)"
    )


def row_head(row: Row) -> str:
    """A row's number, total and the running total of the session's requests, aligned."""
    tokens = f"{'~' if row.estimated else ''}{row.tokens}"
    return f"{row.turn:>4} {tokens:>7} {row.so_far:>7} "


def row_marks(row: Row, scale: int) -> str:
    """What follows a row's bar: over the budget, and what the request did."""
    marks = list(row.marks)
    if row.tokens > scale:
        marks.insert(0, f"over the budget of {scale}")
    if row.budget and row.budget != scale:
        marks.append(f"budget {row.budget}")
    return f"  {'; '.join(marks)}" if marks else ""


def plain(timeline: Timeline) -> str:
    """The timeline as plain text: a letter per part (the legend says which), ``.`` for the room left."""
    if not timeline.rows:
        return "no turns yet: /timeline shows one row per turn of this session once there are some"
    legend = "  ".join(f"{LETTERS[s][0]} {LETTERS[s][1]}" for s in timeline.used)
    lines = [header(timeline), f"{legend}  {ROOM} room left", COLUMNS]
    for row in timeline.rows:
        bar = "".join(LETTERS[name][0] * n for name, n in cells(row, timeline.scale))
        bar = bar.ljust(WIDTH, ROOM)
        lines.append(f"{row_head(row)}|{bar}|{row_marks(row, timeline.scale)}")
    return "\n".join(lines)
