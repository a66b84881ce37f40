"""Asked-for output (/sessions, /search, /context, ...) as the terminal shows it: the rows of a table fit its width.

Commands give their output as text, aligned in columns for a script to read as it is. At the terminal a row wider
than the screen would wrap, and its end would land under the next row's first column; so the rows of a table are
cut at the terminal's right edge instead, the cut marked ``…``, and the listing is read row by row at any width.
Anything else (prose, a summary, JSON) wraps as usual: nothing of it may go missing.
"""

from __future__ import annotations

import re

from rich.console import Group
from rich.text import Text

#: two columns of a row: text, at least two spaces, text
_GAP = re.compile(r"\S {2,}\S")


def is_table(lines: list[str]) -> bool:
    """Whether ``lines`` are a table: a header line that names three columns or more, then rows."""
    return len(lines) > 1 and len(_GAP.findall(lines[0])) >= 2


def fitted(text: str) -> Group:
    """``text`` to print: when it is a table, each row with columns is cut to the terminal's width (``…`` marks the
    cut); every other line wraps."""
    lines = text.split("\n")
    table = is_table(lines)
    return Group(*(_line(line, table and bool(_GAP.search(line))) for line in lines))


def _line(line: str, row: bool) -> Text:
    return Text(line, no_wrap=True, overflow="ellipsis") if row else Text(line)
