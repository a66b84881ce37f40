"""Streamed rendering of an assistant's answer: Markdown in a terminal, plain text everywhere else.

An answer arrives as many small text deltas. Re-rendering the whole answer on every delta would be slow and,
once the answer is taller than the screen, impossible without flicker or duplicated lines: a live region can
only redraw lines that are still on the screen. So :class:`MarkdownStream` splits the text into finished
Markdown blocks (see :mod:`chatbot.terminal.blocks`), prints each finished block exactly once into the normal
scrollback, and keeps only the unfinished tail in a small transient :class:`rich.live.Live` region that is
never taller than the screen and is redrawn at most ~10 times per second.

Typical use (see :meth:`chatbot.terminal.repl.Repl.send`)::

    stream = make_stream(console, plain=plain)
    try:
        for delta in reply:
            stream.feed(delta)
    except KeyboardInterrupt:
        stream.abort()
    else:
        stream.finish()
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable
from typing import IO, Any

from markdown_it.token import Token
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.control import Control
from rich.live import Live
from rich.live_render import LiveRender
from rich.markdown import CodeBlock, Markdown
from rich.segment import ControlType, Segment
from rich.text import Text

from chatbot.terminal.blocks import BlockSplitter
from chatbot.terminal.reflow import rows

__all__ = [
    "MarkdownStream",
    "PlainStream",
    "make_console",
    "make_stream",
]

DEFAULT_CODE_THEME = "monokai"
INTERRUPTED_NOTE = "[interrupted]"
# Markdown costs ~100x plain text: past this many characters a reply goes on plain (bench/bench_render.py)
MARKDOWN_LIMIT = 64_000
PLAIN_NOTE = "[long reply: the rest is shown as plain text]"


def _term_is_dumb() -> bool:
    return os.environ.get("TERM", "").strip().lower() in ("dumb", "unknown")


def make_console(*, plain: bool = False, file: IO[str] | None = None, **kwargs: Any) -> Console:
    """Make the console that replies and notices are printed with.

    ``NO_COLOR`` is honoured by rich itself (colours are dropped, bold/dim stay). ``TERM=dumb`` (or
    ``plain=True``) turns off colour and every cursor movement, so no live redraws happen there. Soft wrapping
    and the automatic highlighting of numbers/strings in plain ``print`` calls are off. Extra keyword
    arguments go to :class:`rich.console.Console` (tests pass ``force_terminal``, ``width``, ``height``).
    """
    options: dict[str, Any] = {"soft_wrap": False, "highlight": False}
    if plain or _term_is_dumb():
        # rich only treats TERM=dumb as dumb when it also thinks it writes to a terminal; be explicit so a
        # forced terminal or a plain run never gets colour or cursor movement.
        options.update(color_system=None, force_interactive=False)
    if plain:
        options.update(emoji=False)
    options.update(kwargs)
    return Console(file=file, **options)


# --------------------------------------------------------------------------------------------------------------
# Streams


class _Lines:
    """Already-rendered lines, so the live region shows exactly what was measured."""

    def __init__(self, lines: list[list[Segment]]) -> None:
        self.lines = lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        new_line = Segment.line()
        for line in self.lines:
            yield from line
            yield new_line


@functools.lru_cache(maxsize=256)
def _lexer_name(name: str) -> str:
    """The fence's language if pygments knows it, else "text".

    Looked up once per name: for a name it does not know, pygments scans (and imports) every installed
    plugin, and rich would ask again on every render of the tail.
    """
    if not name:
        return "text"
    try:
        get_lexer_by_name(name)
    except ClassNotFound:
        return "text"
    return name


class _CodeBlock(CodeBlock):
    @classmethod
    def create(cls, markdown: Markdown, token: Token) -> CodeBlock:
        info = token.info or ""
        return cls(_lexer_name(info.partition(" ")[0]), markdown.code_theme)


class _Markdown(Markdown):
    """rich's Markdown with cached code-block language look-ups."""

    elements = {**Markdown.elements, "fence": _CodeBlock, "code_block": _CodeBlock}


def _is_blank(line: list[Segment]) -> bool:
    """A line with nothing visible: only spaces, and no background (a code block's padding has one)."""
    return all(not segment.text.strip() and not _has_background(segment) for segment in line)


def _trimmed(line: list[Segment]) -> list[Segment]:
    """``line`` without the spaces rich pads it with to the full width (a background, as a code block's, stays).

    A padded line is as wide as the terminal was: once the terminal is made narrower, a terminal that re-wraps its
    lines (most do: VTE, kitty, iTerm2, Windows Terminal, tmux) shows each such line as two, the second one blank.
    """
    end = len(line)
    while end and not line[end - 1].control and not line[end - 1].text.strip() and not _has_background(line[end - 1]):
        end -= 1
    kept = line[:end]
    if kept and not kept[-1].control and not _has_background(kept[-1]):
        last = kept[-1]
        kept[-1] = Segment(last.text.rstrip(" "), last.style)
    return kept


def _has_background(segment: Segment) -> bool:
    return bool(segment.style and segment.style.bgcolor)


def _markdown_lines(console: Console, markup: str, code_theme: str) -> list[list[Segment]]:
    """Render one block of Markdown to lines, without blank lines around it and without padding at their ends.

    rich's Markdown emits a blank line before a document that starts with a list or table (and tables have
    empty edges); blocks are printed one at a time, so such margins are dropped here and exactly one blank
    line is put between blocks by the caller, as in a document rendered whole.
    """
    rendered = console.render_lines(_Markdown(markup, code_theme=code_theme, hyperlinks=False), pad=False)  # URLs shown
    lines = [_trimmed(line) for line in rendered]
    start, end = 0, len(lines)
    while start < end and _is_blank(lines[start]):
        start += 1
    while end > start and _is_blank(lines[end - 1]):
        end -= 1
    return lines[start:end]


class _Region(LiveRender):
    """The live tail's region, which finds its top again after the terminal was resized.

    rich goes back up as many rows as it drew lines; a terminal made narrower re-wraps the longer ones onto more rows
    (:mod:`chatbot.terminal.reflow`), and the region's first lines stayed above the redrawn tail: a partial line shown
    twice. Here the rows are counted at the width the terminal has now, from the width of each line drawn.
    """

    def __init__(self, console: Console) -> None:
        super().__init__(Text(), vertical_overflow="crop")  # a safety net only: _tail_view already fits the screen
        self._console = console
        self._widths: list[int] = []  # the cells of each line last drawn

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        segments = [s for s in super().__rich_console__(console, options) if isinstance(s, Segment)]  # (all are)
        height = self._shape[1] if self._shape else 0
        widths = [Segment.get_line_length(line) for line in Segment.split_lines(segments)]
        self._widths = (widths + [0] * height)[:height]
        yield from segments

    def _rows(self) -> int:
        """How many rows the lines last drawn take now."""
        width = self._console.size.width
        return sum(rows(cells, width) for cells in self._widths)

    def position_cursor(self) -> Control:
        """Back to the region's first row, erasing every row it takes on the way."""
        if self._shape is None:
            return Control()
        up = ((ControlType.CURSOR_UP, 1), (ControlType.ERASE_IN_LINE, 2)) * (self._rows() - 1)
        return Control(ControlType.CARRIAGE_RETURN, (ControlType.ERASE_IN_LINE, 2), *up)

    def restore_cursor(self) -> Control:
        """Erase the region (the cursor is on the line after it) and stand where it began."""
        if self._shape is None:
            return Control()
        up = ((ControlType.CURSOR_UP, 1), (ControlType.ERASE_IN_LINE, 2)) * self._rows()
        return Control(ControlType.CARRIAGE_RETURN, *up)


def _stands_on(live: Live) -> bool:
    """Whether this release of rich has what :class:`_Region` stands on (the live region attribute, its shape). One
    that differs keeps rich's own region, which misses only the resize case, rather than failing mid-reply."""
    return isinstance(getattr(live, "_live_render", None), LiveRender) and hasattr(live._live_render, "_shape")


class MarkdownStream:
    """Renders an answer that arrives as text deltas as Markdown, without flicker or duplicated lines.

    Finished blocks are printed once with ``console.print(Markdown(block))``; the unfinished tail is shown in
    a transient ``Live`` region, re-rendered at most ``refresh_per_second`` times a second and cut to its last
    screenful, because ``Live`` cannot erase lines that have scrolled off the screen. On a console that is not
    interactive (a file, a pipe, ``TERM=dumb``) there is no live region: blocks appear as they finish.

    Reasoning deltas (e.g. gpt-oss) go to :meth:`feed_reasoning`; they are shown dim, before the answer, only
    when ``show_reasoning`` is true.
    """

    def __init__(
        self,
        console: Console,
        *,
        code_theme: str = DEFAULT_CODE_THEME,
        refresh_per_second: float = 10.0,
        show_reasoning: bool = False,
        clock: Callable[[], float] = time.monotonic,
        markdown_limit: int = MARKDOWN_LIMIT,
    ) -> None:
        self.console = console
        self._clock = clock
        self._limit = markdown_limit
        self._size = 0  # characters of the answer rendered as Markdown so far
        self._plain = False  # past the limit: the rest is written as plain text
        self._last = "\n"  # the last plain character written (a newline is owed at the end when it is not one)
        self.code_theme = code_theme
        self.show_reasoning = show_reasoning
        self._interval = 1.0 / refresh_per_second
        self._splitter = BlockSplitter()
        self._live: Live | None = None
        self._last_refresh = 0.0
        self._printed = False  # a block has been printed: the next one is separated by a blank line
        self._reasoning_open = False  # dim reasoning text is on the screen without its final newline
        self._answer_started = False
        self._done = False

    # -- public API ----------------------------------------------------------------------------------------

    def feed(self, text: str) -> None:
        """Add a delta of the answer. Finished blocks are printed at once; the tail is redrawn when due."""
        if self._done or not text:
            return
        if not self._answer_started:
            self._answer_started = True
            self._end_reasoning()
        if self._plain or self._size + len(text) > self._limit:
            self._write_plain(text)
            return
        self._size += len(text)
        blocks = self._splitter.feed(text)
        if blocks:
            self._print_blocks(blocks)
        elif self.console.is_interactive and self._clock() - self._last_refresh >= self._interval:
            self._refresh()

    def feed_reasoning(self, text: str) -> None:
        """Show a reasoning delta dim (only with ``show_reasoning``, and only before the answer starts)."""
        if self._done or not text or not self.show_reasoning or self._answer_started:
            return
        self.console.print(Text(text, style="dim"), end="")
        self._reasoning_open = True

    def settle(self) -> None:
        """Print the unfinished tail as it stands and take the live region down, so that what the terminal prints
        next (a notice, a tool line) comes after the text already shown rather than above its last lines; the
        answer may go on afterwards (a new block)."""
        if self._done or self._splitter.in_fence:  # (inside a code block the tail stays: cut, the rest would misparse)
            return
        self._end_reasoning()
        if self._plain:
            if self._last != "\n":
                self.console.file.write("\n")
                self._last = "\n"
            return
        self._close([self._splitter.flush()])

    def finish(self) -> None:
        """The answer is complete: print the rest and remove the live region."""
        if self._done:
            return
        self._done = True
        self._end_reasoning()
        self._close([self._splitter.flush()])
        self._end_plain()

    def abort(self, note: str = INTERRUPTED_NOTE) -> None:
        """Stop early (e.g. on Ctrl-C): print what was received, then ``note`` dim on its own line."""
        if self._done:
            return
        self._done = True
        self._end_reasoning()
        self._close([self._splitter.flush()])
        self._end_plain()
        if note:
            self.console.print(Text(note, style="dim"))

    # -- internals -----------------------------------------------------------------------------------------

    def _write_plain(self, text: str) -> None:
        """Past the Markdown limit: the unfinished tail and everything after it go out as they are."""
        if not self._plain:
            self._plain = True
            tail = self._splitter.flush()
            self._close([])
            self.console.print(Text(PLAIN_NOTE, style="dim"))
            text = tail + text
        self.console.file.write(text)
        self.console.file.flush()
        self._last = text[-1]

    def _end_plain(self) -> None:
        if self._plain and self._last != "\n":
            self.console.file.write("\n")
            self.console.file.flush()

    def _end_reasoning(self) -> None:
        if self._reasoning_open:
            self._reasoning_open = False
            self.console.print()
            self._printed = True  # the answer starts after a blank line

    def _renderables(self, blocks: list[str]) -> list[RenderableType]:
        out: list[RenderableType] = []
        for block in blocks:
            lines = _markdown_lines(self.console, block, self.code_theme) if block.strip() else []
            if not lines:
                continue
            if self._printed:
                # Markdown puts a blank line between elements of one document; blocks printed one by one
                # need it from us.
                lines.insert(0, [])
            out.append(_Lines(lines))
            self._printed = True
        return out

    def _print_blocks(self, blocks: list[str]) -> None:
        renderables = self._renderables(blocks)
        if self._live is not None:
            # Update the live tail before printing: the print redraws the live region below the new blocks,
            # and the old tail still contains their text.
            self._live.update(self._tail_view())
            self._last_refresh = self._clock()
        if renderables:
            self.console.print(*renderables)

    def _tail_view(self) -> RenderableType:
        """The tail rendered to less than one screenful, keeping its last lines."""
        tail = self._splitter.tail
        partial = tail[tail.rfind("\n") + 1 :]
        if partial.lstrip(" ").startswith(("```", "~~~")):
            # Its language name is still arriving ("py", "pyt"...): wait for the whole line.
            tail = tail[: len(tail) - len(partial)]
        if not tail.strip():
            return Text()
        tail = self._visible_part(tail)
        lines = _markdown_lines(self.console, tail, self.code_theme)
        if self._printed and lines:
            lines.insert(0, [])
        # The cursor rests on an extra empty last line: the terminal's echo of a typed ^C (or any key) lands
        # there instead of wrapping a full-width line, which would shift the region by a line so that the next
        # redraw leaves its top line behind.
        room = max(1, self.console.size.height - 2)
        return _Lines([*lines[-room:], []])

    def _visible_part(self, tail: str) -> str:
        """About two screenfuls of the tail's end: a long paragraph is not re-rendered whole on every refresh."""
        room, rows = 2 * self.console.size.width * self.console.size.height, 2 * self.console.size.height
        cut = tail[-room:]
        if len(tail) > room and "\n" in cut:
            cut = cut[cut.find("\n") + 1 :]  # whole lines only
        cut = "\n".join(cut.split("\n")[-rows:])
        if self._splitter.in_fence and cut != tail:  # keep it a code block: its opening line goes first
            cut = tail[: tail.find("\n") + 1] + cut
        return cut

    def _refresh(self) -> None:
        if self._live is None:
            if not self._splitter.tail.strip():
                return
            self._live = Live(
                console=self.console,
                transient=True,
                auto_refresh=False,
                vertical_overflow="crop",
                redirect_stdout=False,
                redirect_stderr=False,
            )
            if _stands_on(self._live):  # (rich has no parameter for it)
                self._live._live_render = _Region(self.console)
            self._live.start()
        self._live.update(self._tail_view(), refresh=True)
        self._last_refresh = self._clock()

    def _close(self, blocks: list[str]) -> None:
        live, self._live = self._live, None
        if live is not None:
            # Empty the region first so that stopping (which redraws once more) leaves nothing behind.
            live.update(Text())
            live.stop()
        renderables = self._renderables(blocks)
        if renderables:
            self.console.print(*renderables)


class PlainStream:
    """Writes the answer's deltas straight through, unchanged and flushed, with no ANSI codes.

    For ``--plain`` and for output that is not a terminal (script mode: stdout is exactly the reply). The
    only thing added is a final newline when the answer does not end with one.
    """

    def __init__(self, file: IO[str], *, show_reasoning: bool = False) -> None:
        self.file = file
        self.show_reasoning = show_reasoning
        self._last = "\n"  # last character written: decides whether a newline is needed before a note
        self._wrote_answer = False
        self._reasoning_open = False
        self._done = False

    def _write(self, text: str) -> None:
        self.file.write(text)
        self.file.flush()
        self._last = text[-1]

    def feed(self, text: str) -> None:
        """Write a delta of the answer."""
        if self._done or not text:
            return
        if self._reasoning_open:
            self._reasoning_open = False
            self._write("\n" if self._last == "\n" else "\n\n")
        self._wrote_answer = True
        self._write(text)

    def feed_reasoning(self, text: str) -> None:
        """Write a reasoning delta (only with ``show_reasoning``, before the answer); a blank line follows it."""
        if self._done or not text or not self.show_reasoning or self._wrote_answer:
            return
        self._reasoning_open = True
        self._write(text)

    def settle(self) -> None:
        """End the line the answer is on, so that a line printed now (a notice, a tool line) starts its own; the
        answer may go on afterwards."""
        if not self._done and self._last != "\n":
            self._write("\n")

    def finish(self) -> None:
        """End the answer with a newline if it lacks one."""
        if self._done:
            return
        self._done = True
        if self._last != "\n":
            self._write("\n")

    def abort(self, note: str = INTERRUPTED_NOTE) -> None:
        """Stop early: end the partial line, then write ``note`` on its own line."""
        if self._done:
            return
        self.finish()
        if note:
            self._write(note + "\n")


def make_stream(
    console: Console,
    *,
    plain: bool,
    show_reasoning: bool = False,
    code_theme: str = DEFAULT_CODE_THEME,
) -> MarkdownStream | PlainStream:
    """Pick the renderer: :class:`PlainStream` on ``console.file`` when ``plain``, else :class:`MarkdownStream`."""
    if plain:
        return PlainStream(console.file, show_reasoning=show_reasoning)
    return MarkdownStream(console, code_theme=code_theme, show_reasoning=show_reasoning)
