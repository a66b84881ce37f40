"""Rows counted at the terminal's width now: what a narrower terminal makes of lines drawn wider (tmux runs of the
whole app are in test_pty_resize.py)."""

from __future__ import annotations

from prompt_toolkit.data_structures import Point
from prompt_toolkit.layout.screen import Char, Screen

from chatbot.terminal.reflow import _cursor_now, rows


def test_a_line_takes_the_rows_a_narrower_terminal_wraps_it_onto():
    assert [rows(cells, 80) for cells in (0, 1, 80, 81, 119, 160, 161)] == [1, 1, 1, 2, 2, 2, 3]
    assert rows(119, 120) == 1  # as drawn
    assert rows(10, 0) == 10  # (a terminal reported 0 wide counts as 1)


def drawn(*lines: str) -> Screen:
    screen = Screen()
    for y, line in enumerate(lines):
        for x, char in enumerate(line):
            screen.data_buffer[y][x] = Char(char, "")
    return screen


def test_the_prompts_cursor_is_found_where_the_rewrapped_rows_put_it():
    # "› w0 ... w31" (119 cells) and "w32 ... w49" typed at 120 columns, the cursor after w49; then 80 columns
    first, second = "› " + " ".join(f"w{i}" for i in range(32)), " ".join(f"w{i}" for i in range(32, 50))
    screen = drawn(first, second + "    ")  # (spaces at a row's end are not written: they do not count)
    assert _cursor_now(screen, Point(x=len(second), y=1), 120) == Point(x=len(second), y=1)  # no resize: as drawn
    assert _cursor_now(screen, Point(x=len(second), y=1), 80) == Point(x=len(second), y=2)  # the first row is two
    assert _cursor_now(screen, Point(x=len(second), y=1), 40) == Point(x=len(second) % 40, y=3 + len(second) // 40)
