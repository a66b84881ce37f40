"""Streamed rendering: the block splitter, MarkdownStream on terminal and non-terminal consoles, PlainStream.

Terminal output is replayed through a tiny terminal emulator (below) that, like a real terminal, cannot move the
cursor above the top of its screen: a live region taller than the screen would leave duplicated lines behind, and
the emulated scrollback would show them.
"""

from __future__ import annotations

import io
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from chatbot.terminal import render
from chatbot.terminal.blocks import BlockSplitter, split_blocks
from chatbot.terminal.render import MarkdownStream, PlainStream, make_console, make_stream

WIDTH, HEIGHT = 80, 24
MARKER = re.compile(r"(?:paragraph|item|code \d+ line) \d+(?:\.\d+)?(?!\d)")
SGR = re.compile(r"\x1b\[([0-9;]*)m")
CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-LN-Za-z]")  # CSI sequences other than SGR (m): cursor moves, erases


class Terminal:
    """Just enough of a VT100 to replay rich's output: text, CR/LF, cursor up, erase line; colours ignored."""

    TOKEN = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|(\r)|(\n)|([^\x1b\r\n]+)")

    def __init__(self, width: int = WIDTH, height: int = HEIGHT) -> None:
        self.width, self.height = width, height
        self.lines: list[list[str]] = [[]]  # scrollback and screen
        self.row = self.col = 0

    def feed(self, data: str) -> Terminal:
        for match in self.TOKEN.finditer(data):
            params, command, cr, lf, text = match.groups()
            if command == "A":  # cursor up, but never above the top of the screen
                top = max(0, len(self.lines) - self.height)
                self.row = max(top, self.row - int(params or 1))
            elif command == "K":
                assert params == "2", params
                self.lines[self.row] = []
            elif command:
                assert command in "mhl", f"unexpected control {match.group()!r}"  # colours, cursor visibility
            elif cr:
                self.col = 0
            elif lf:  # the tty turns \n into CR LF
                self._down()
            elif text:
                for char in text:
                    if self.col >= self.width:
                        self._down()
                    line = self.lines[self.row]
                    line.extend(" " * (self.col + 1 - len(line)))
                    line[self.col] = char
                    self.col += 1
        return self

    def resize(self, width: int) -> Terminal:
        """Made ``width`` wide, re-wrapping each line longer than that onto more rows, cursor kept on its character,
        as most terminals do (VTE, kitty, iTerm2, tmux)."""
        lines: list[list[str]] = []
        for n, line in enumerate(self.lines):
            if n == self.row:
                at = min(self.col, max(len(line), 1) - 1) if self.col >= width else self.col
                self.row, self.col = len(lines) + at // width, at % width
            lines.extend([line[i : i + width] for i in range(0, len(line), width)] or [[]])
        self.lines, self.width = lines, width
        return self

    def _down(self) -> None:
        self.row += 1
        self.col = 0
        if self.row == len(self.lines):
            self.lines.append([])

    def text(self) -> str:
        """Everything visible in the scrollback and on the screen, trailing blanks trimmed."""
        return "\n".join("".join(line).rstrip() for line in self.lines).rstrip("\n")


def terminal_console(**kwargs: object) -> Console:
    return make_console(file=io.StringIO(), force_terminal=True, width=WIDTH, height=HEIGHT, **kwargs)


def file_console() -> Console:
    return make_console(file=io.StringIO(), width=WIDTH)


def output(console: Console) -> str:
    file = console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def long_answer(sections: int = 24) -> str:
    """Paragraphs, lists, code blocks (one with a blank line inside), one paragraph and one block taller than
    the screen; every line that matters carries a unique marker."""
    parts = ["# Answer\n\n"]
    for n in range(1, sections + 1):
        if n % 4 == 1:
            parts.append(f"This is paragraph {n}, with **bold** and `code`. " + "Words go on. " * 8 + "\n\n")
        elif n % 4 == 2:
            parts.append("".join(f"- item {n}.{i}: a point\n" for i in range(1, 4)) + "\n")
        elif n % 4 == 3:
            body = "".join(f"    x = {i}  # code {n} line {i}\n" + ("\n" if i == 2 else "") for i in range(1, 5))
            parts.append(f"```python\ndef f{n}():\n{body}```\n\n")
        else:
            parts.append(f"Text paragraph {n} " + "long " * 60 + "\n\n")
    parts.append("```text\n" + "".join(f"code 99 line {i}\n" for i in range(1, 41)) + "```\n\n")
    parts.append("Closing paragraph 100 " + "tall " * 500 + "end.\n")
    return "".join(parts)


def chunked(text: str, rng: random.Random, largest: int) -> list[str]:
    chunks, pos = [], 0
    while pos < len(text):
        step = rng.randint(1, largest)
        chunks.append(text[pos : pos + step])
        pos += step
    return chunks


def expected_text(text: str) -> str:
    """The answer rendered in one go on a non-terminal console: what the scrollback must end up holding."""
    console = file_console()
    stream = MarkdownStream(console)
    stream.feed(text)
    stream.finish()
    return Terminal().feed(output(console)).text()


def markers(screen: str) -> list[str]:
    return MARKER.findall(screen)


# --- the block splitter -------------------------------------------------------------------------------------


def test_splitter_examples() -> None:
    text = (
        "# Title\nIntro\nline 2\n\n- a\n- b\n\n  more b\n\n```python\ndef f():\n\n    return 1\n```\n"
        "After\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nend"
    )
    blocks, tail = split_blocks(text)
    assert blocks == [
        "# Title\n",
        "Intro\nline 2\n\n",
        "- a\n- b\n\n  more b\n\n",  # an indented continuation after a blank line stays in its list
        "```python\ndef f():\n\n    return 1\n```\n",  # the blank line inside the fence does not split it
        "After\n\n",
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n",
    ]
    assert tail == "end"


def test_splitter_waits_for_an_open_fence_and_for_the_next_block() -> None:
    assert split_blocks("```\na\n\n\nb\n") == ([], "```\na\n\n\nb\n")
    assert split_blocks("para\n\n") == ([], "para\n\n")  # a list item or continuation may still follow
    assert split_blocks("para\n\n  indented") == ([], "para\n\n  indented")
    assert split_blocks("para\n\nn") == (["para\n\n"], "n")  # one character of the next line is enough
    assert split_blocks("~~~~\n```\n~~~\n~~~~\nx") == (["~~~~\n```\n~~~\n~~~~\n"], "x")
    assert split_blocks("para\n#hashtag\n") == ([], "para\n#hashtag\n")


MARKDOWN_PIECES = st.sampled_from(
    ["\n", "\n\n", " ", "   ", "\t", "a", "word ", "# ", "#", "- ", "1. ", "```", "```py", "~~~", "`", "|", "\r\n"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(MARKDOWN_PIECES, max_size=60), st.lists(st.integers(0, 200), max_size=20))
def test_splitter_is_lossless_and_independent_of_chunking(pieces: list[str], cuts: list[int]) -> None:
    text = "".join(pieces)
    whole_blocks, whole_tail = split_blocks(text)
    assert "".join(whole_blocks) + whole_tail == text

    splitter = BlockSplitter()
    blocks: list[str] = []
    previous = 0
    for cut in sorted({min(c, len(text)) for c in cuts}) + [len(text)]:
        blocks += splitter.feed(text[previous:cut])
        previous = cut
    assert blocks == whole_blocks
    assert splitter.tail == whole_tail
    assert all(block for block in blocks)


# --- MarkdownStream on a terminal ----------------------------------------------------------------------------


@pytest.mark.parametrize("largest_chunk", [1, 7, 40])
def test_terminal_stream_prints_every_block_exactly_once(largest_chunk: int) -> None:
    text = long_answer()
    rng = random.Random(largest_chunk)
    clock = iter(range(1_000_000))
    console = terminal_console()
    # A fake clock that advances 30 ms per call makes the throttle redraw the live tail every few chunks.
    stream = MarkdownStream(console, clock=lambda: next(clock) * 0.03)
    for chunk in chunked(text, rng, largest_chunk):
        stream.feed(chunk)
    stream.finish()
    screen = Terminal().feed(output(console)).text()
    assert screen == expected_text(text)
    assert sorted(markers(screen)) == sorted(set(markers(text)))
    assert CONTROL.search(output(console))  # the live region was really used


def test_tail_taller_than_the_screen_leaves_no_duplicates() -> None:
    text = "Intro paragraph 1\n\n```text\n" + "".join(f"code 5 line {i}\n" for i in range(1, 81)) + "```\n"
    console = terminal_console()
    stream = MarkdownStream(console, refresh_per_second=1e9)  # redraw on every chunk
    for chunk in chunked(text, random.Random(3), 9):
        stream.feed(chunk)
    stream.finish()
    screen = Terminal().feed(output(console)).text()
    assert screen == expected_text(text)
    assert sorted(markers(screen)) == sorted(set(markers(text)))


def test_live_region_never_exceeds_the_screen() -> None:
    console = terminal_console()
    stream = MarkdownStream(console, refresh_per_second=1e9)
    for i in range(200):
        stream.feed(f"line {i} of one long paragraph that keeps going and going\n")
        live = stream._live
        assert live is not None
        assert live._live_render.last_render_height <= HEIGHT - 1
    stream.finish()


def test_a_terminal_made_narrower_while_the_tail_streams_shows_each_line_once() -> None:
    # the user's case: a long paragraph streams in a 120-column terminal, which is made 80 columns wide meanwhile
    words = [f"w{i}" for i in range(150)]
    intro = "Intro paragraph 1 is short.\n\n- item 2.1: a point\n- item 2.2: another\n\n"
    text = intro + "Last paragraph 3: " + " ".join(words)
    console = make_console(file=io.StringIO(), force_terminal=True, width=120, height=HEIGHT)
    terminal = Terminal(width=120)
    stream = MarkdownStream(console, refresh_per_second=1e9)
    written = 0
    for n, chunk in enumerate(chunked(text, random.Random(7), 6)):
        if n == 60:  # the tail is on screen, over more than one line: the terminal is made narrower
            assert stream._live is not None
            terminal.feed(output(console)[written:]).resize(80)
            written = len(output(console))
            console.width = 80
        stream.feed(chunk)
    stream.finish()
    screen = terminal.feed(output(console)[written:]).text()
    assert screen.count("Last paragraph 3:") == 1
    assert sorted(markers(screen)) == ["item 2.1", "item 2.2", "paragraph 1", "paragraph 3"]
    assert " ".join(screen.split()).endswith(" ".join(words))
    # lines printed before the resize are not padded to the old width: no blank row after each once re-wrapped
    assert "is short.\n\n- item 2.1" not in screen.replace("•", "-")
    assert "\n\n\n" not in screen


def test_printed_lines_carry_no_padding_to_the_width() -> None:
    console = terminal_console()
    stream = MarkdownStream(console)
    stream.feed("# Title\n\nA paragraph 1.\n\n- item 2.1\n\n> quoted\n\n```text\ncode 3 line 1\n```\n")
    stream.finish()
    plain = SGR.sub("", output(console))
    lines = plain.splitlines()
    assert not [line for line in lines if line.endswith(" ") and "code 3" not in line and line.strip()]
    assert max(len(line) for line in lines) == WIDTH  # (a code block keeps its background to the edge)


def test_code_fence_spanning_chunks_is_highlighted_once() -> None:
    text = "Here is code:\n\n```python\ndef answer():\n\n    return 42\n```\n\nDone.\n"
    console = terminal_console()
    stream = MarkdownStream(console, refresh_per_second=1e9)
    for chunk in chunked(text, random.Random(1), 3):
        stream.feed(chunk)
    stream.finish()
    raw = output(console)
    screen = Terminal().feed(raw).text()
    assert screen.count("def answer():") == 1
    assert screen.count("return 42") == 1
    assert "```" not in screen
    # pygments colours the keyword: the SGR sequence right before "def" sets a foreground colour
    match = re.search(r"\x1b\[([0-9;]*)m(?=def\b)", raw)
    assert match and {"38", *map(str, range(30, 38)), *map(str, range(90, 98))} & set(match[1].split(";"))


def test_refreshes_are_throttled_and_never_rerender_the_whole_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    rendered: list[int] = []
    original = render._markdown_lines

    def spy(console: Console, markup: str, code_theme: str) -> list:  # type: ignore[type-arg]
        rendered.append(len(markup))
        return original(console, markup, code_theme)

    monkeypatch.setattr(render, "_markdown_lines", spy)
    now = [0.0]
    console = terminal_console()
    stream = MarkdownStream(console, clock=lambda: now[0])
    text = "".join(f"Short paragraph {n} with a few words.\n\n" for n in range(200))
    for chunk in chunked(text, random.Random(5), 4):
        now[0] += 0.01  # 100 chunks per second
        stream.feed(chunk)
    stream.finish()
    blocks = len(split_blocks(text)[0]) + 1
    tail_renders = len(rendered) - blocks
    assert tail_renders <= now[0] * 10 + blocks  # at most 10 a second, plus one per printed block
    assert max(rendered) <= max(len(b) for b in split_blocks(text)[0] + [text[-60:]])


def test_abort_mid_block_keeps_the_partial_text_and_notes_the_interruption() -> None:
    console = terminal_console()
    stream = MarkdownStream(console, refresh_per_second=1e9)
    stream.feed("First paragraph 1.\n\nSecond paragraph 2 is")
    stream.feed(" cut of")
    assert stream._live is not None
    stream.abort("[interrupted]")
    raw = output(console)
    screen = Terminal().feed(raw).text()
    assert screen.splitlines()[-1] == "[interrupted]"
    assert screen.count("Second paragraph 2 is cut of") == 1
    assert screen.count("First paragraph 1.") == 1
    assert raw.endswith("\x1b[2m[interrupted]\x1b[0m\n")  # dim
    assert console._live_stack == []  # the Live display was stopped
    assert raw.rfind("\x1b[?25h") > raw.rfind("\x1b[?25l")  # and the cursor is visible again
    stream.feed("more")  # after abort, further deltas are ignored
    stream.finish()
    assert output(console) == raw


def test_abort_keeps_the_partial_answer_once_and_finish_renders_it() -> None:
    console = terminal_console()
    stream = make_stream(console, plain=False)
    stream.feed("```python\nprint('partial')\n")
    stream.abort()
    screen = Terminal().feed(output(console)).text()
    assert screen.count("print('partial')") == 1
    assert screen.endswith("[interrupted]")

    console = file_console()
    stream = make_stream(console, plain=False)
    stream.feed("all *fine*")
    stream.finish()
    assert Terminal().feed(output(console)).text() == "all fine"


def test_reasoning_is_shown_dim_only_on_request() -> None:
    console = terminal_console()
    stream = MarkdownStream(console, show_reasoning=True)
    stream.feed_reasoning("Let me think")
    stream.feed_reasoning(" about it.")
    stream.feed("The answer.")
    stream.finish()
    raw = output(console)
    assert "\x1b[2mLet me think\x1b[0m" in raw
    assert Terminal().feed(raw).text() == "Let me think about it.\n\nThe answer."

    console = terminal_console()
    stream = MarkdownStream(console)
    stream.feed_reasoning("hidden")
    stream.feed("The answer.")
    stream.finish()
    assert "hidden" not in output(console)


# --- non-terminal and restricted consoles -------------------------------------------------------------------


def test_file_console_prints_blocks_once_without_escape_codes() -> None:
    text = long_answer(8)
    console = file_console()
    stream = make_stream(console, plain=False)
    for chunk in chunked(text, random.Random(2), 5):
        stream.feed(chunk)
    stream.finish()
    out = output(console)
    assert "\x1b" not in out
    assert sorted(markers(out)) == sorted(set(markers(text)))
    assert Terminal().feed(out).text() == expected_text(text)


def test_no_color_gives_no_colour_codes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    console = terminal_console()
    stream = MarkdownStream(console, refresh_per_second=1e9)
    for chunk in chunked(long_answer(8), random.Random(4), 6):
        stream.feed(chunk)
    stream.finish()
    for params in SGR.findall(output(console)):
        for code in filter(None, params.split(";")):
            assert not (30 <= int(code) <= 49 or 90 <= int(code) <= 107), params


def test_term_dumb_gives_no_live_redraws_and_no_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "dumb")
    text = long_answer(8)
    console = terminal_console()
    stream = MarkdownStream(console, refresh_per_second=1e9)
    for chunk in chunked(text, random.Random(6), 6):
        stream.feed(chunk)
    stream.finish()
    out = output(console)
    assert "\x1b" not in out
    assert Terminal().feed(out).text() == expected_text(text)


def test_plain_mode_console_has_no_colour() -> None:
    console = make_console(plain=True, file=io.StringIO(), force_terminal=True)
    console.print("[bold red]x[/] 123")
    assert output(console) == "x 123\n"


# --- PlainStream ---------------------------------------------------------------------------------------------


class FlushCountingIO(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.flushes = 0

    def flush(self) -> None:
        self.flushes += 1


@pytest.mark.parametrize("text", [long_answer(6), "no newline at the end", "", "ends with one\n"])
def test_plain_stream_writes_exactly_the_text(text: str) -> None:
    file = FlushCountingIO()
    stream = PlainStream(file)
    chunks = chunked(text, random.Random(0), 5)
    for chunk in chunks:
        stream.feed(chunk)
    assert file.getvalue() == text
    assert file.flushes == len(chunks)
    stream.finish()
    assert file.getvalue() == (text if not text or text.endswith("\n") else text + "\n")


def test_make_stream_plain_writes_to_the_console_file_and_aborts_with_a_note() -> None:
    console = make_console(plain=True, file=io.StringIO())
    stream = make_stream(console, plain=True, show_reasoning=True)
    assert isinstance(stream, PlainStream)
    stream.feed_reasoning("thinking")
    stream.feed("**partial")
    stream.abort()
    assert output(console) == "thinking\n\n**partial\n[interrupted]\n"
    assert isinstance(make_stream(console, plain=False), MarkdownStream)


def test_settling_inside_an_open_code_block_leaves_it_whole_for_the_rest_of_the_reply() -> None:
    console = file_console()
    stream = make_stream(console, plain=False)
    stream.feed("Run:\n\n```python\nprint(1)\n")
    stream.settle()  # a notice comes while the block is open: nothing is cut out of it
    stream.feed("print(2)\n```\n\nDone.\n")
    stream.finish()
    shown = output(console)
    assert shown.count("print(1)") == 1 and shown.count("print(2)") == 1 and "```" not in shown
    # print(2) stays in the code block (drawn indented, as print(1)), and the text after it is text, not code
    assert "\n print(2) " in shown and "\nDone.\n" in shown


def test_settling_prints_the_tail_so_a_line_after_it_comes_below_the_text() -> None:
    console = file_console()
    stream = make_stream(console, plain=False)
    stream.feed("The first paragraph.\n\nThe last one, unfinished")
    stream.settle()
    console.print("a notice")
    stream.finish()
    shown = output(console)
    assert shown.index("unfinished") < shown.index("a notice")
