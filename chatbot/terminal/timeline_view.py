"""``/timeline`` in the terminal: the same rows as the plain text (:mod:`chatbot.commands.timeline`), each part of a
bar a block of its own colour, so a session's requests read at a glance as they grew, slid and shrank."""

from __future__ import annotations

from rich.text import Text

from chatbot.commands.timeline import COLUMNS, LETTERS, WIDTH, Timeline, cells, header, row_head, row_marks

BLOCK = "█"
ROOM_SHOWN = "·"  # the room left in a bar (plain text has "." for it)
#: a colour per segment of a bar (the legend shows each with its name)
COLOURS = {
    "system": "blue",
    "summary": "magenta",
    "recalled": "cyan",
    "earlier": "green",
    "tool_results": "yellow",
    "new": "bright_white",
    "tools": "bright_black",
    "unknown": "white",
}


def timeline_text(timeline: Timeline) -> Text:
    """The timeline as coloured rich text: a legend, then one row per turn."""
    text = Text()
    text.append(header(timeline) + "\n", style="dim")
    for name in timeline.used:
        text.append(BLOCK * 2, style=COLOURS[name])
        text.append(f" {LETTERS[name][1]}  ")
    text.append(ROOM_SHOWN * 2, style="dim")
    text.append(" room left\n")
    text.append(COLUMNS + "\n", style="dim")
    for row in timeline.rows:
        text.append(row_head(row) + "▕")
        drawn = 0
        for name, n in cells(row, timeline.scale):
            text.append(BLOCK * n, style=COLOURS[name])
            drawn += n
        text.append(ROOM_SHOWN * (WIDTH - drawn), style="dim")
        text.append("▏")
        marks = row_marks(row, timeline.scale)
        text.append(marks, style="bold yellow" if row.tokens > timeline.scale else "yellow")
        text.append("\n")
    text.rstrip()
    return text
