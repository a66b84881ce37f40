"""What a resize does to lines already on the screen, for the two things the app redraws in place: the live tail of a
streamed reply (:mod:`chatbot.terminal.render`) and the prompt.

Both go back up to where they began and draw again, by as many rows as they drew. But a terminal made narrower
re-wraps each line longer than its new width onto more rows (most do: VTE, kitty, iTerm2, Windows Terminal, tmux), so
going up by the rows drawn stopped short, and what was above the stop stayed on the screen over the new drawing: a
line shown twice. The rows are counted here at the width the terminal has now. (A terminal that does not re-wrap, such
as xterm, cuts such lines instead: there the count is too high just after the resize, and a row above is cleared.)
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Point
from prompt_toolkit.layout.screen import Screen


def rows(cells: int, width: int) -> int:
    """The rows a line ``cells`` wide takes on a terminal ``width`` wide (a line exactly as wide takes one)."""
    return max(1, -(-cells // max(1, width)))


def keep_prompt_whole_on_resize(app: Application[Any]) -> None:
    """Make the prompt ``app`` erase all it drew when the terminal is resized (prompt_toolkit goes up by the rows it
    drew, so the start of a long line typed, re-wrapped by a narrower terminal, stayed above the prompt drawn again)."""
    # (what both the resize signal and prompt_toolkit's polling of the size call); a release of prompt_toolkit without
    # these internals keeps its own resize, which misses only this case, rather than failing at the prompt
    on_resize = getattr(app, "_on_resize", None)
    if on_resize is None or not all(hasattr(app.renderer, name) for name in ("_last_screen", "_cursor_pos")):
        return

    def _on_resize() -> None:
        renderer = app.renderer
        screen = renderer._last_screen  # what the prompt drew; its cursor stands at renderer._cursor_pos in it
        if screen is not None:
            renderer._cursor_pos = _cursor_now(screen, renderer._cursor_pos, app.output.get_size().columns)
        on_resize()

    app._on_resize = _on_resize  # type: ignore[method-assign]


def _cursor_now(screen: Screen, cursor: Point, width: int) -> Point:
    """Where the cursor stands in the prompt's drawing once its rows are re-wrapped at ``width``."""
    width = max(1, width)
    above = sum(rows(_cells(screen, y), width) for y in range(cursor.y))
    return Point(x=cursor.x % width, y=above + cursor.x // width)


def _cells(screen: Screen, y: int) -> int:
    """How wide row ``y`` was written: to its last character that is not a space (prompt_toolkit does not write the
    spaces at the end of a row)."""
    if y not in screen.data_buffer:  # (a defaultdict: looking a row up would add it)
        return 0
    return max((x + cell.width for x, cell in screen.data_buffer[y].items() if cell.char != " "), default=0)
