"""The renderer's cost is bounded: a huge reply goes on as plain text, the live tail renders only what fits."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from chatbot.terminal import render
from chatbot.terminal.render import PLAIN_NOTE, MarkdownStream


def console(width: int = 80, height: int = 24) -> Console:
    return Console(file=io.StringIO(), force_terminal=True, force_interactive=True, width=width, height=height)


@pytest.fixture
def rendered(monkeypatch):
    """The sizes of the Markdown texts the renderer rendered."""
    sizes: list[int] = []
    real = render._markdown_lines

    def spy(con, markup, theme):
        sizes.append(len(markup))
        return real(con, markup, theme)

    monkeypatch.setattr(render, "_markdown_lines", spy)
    return sizes


def test_a_reply_past_the_limit_goes_on_as_plain_text(rendered):
    con = console()
    stream = MarkdownStream(con, markdown_limit=1000)
    stream.feed("A **bold** start.\n\n")
    stream.feed("B **not bold** " * 200)
    stream.finish()
    out = con.file.getvalue()
    assert PLAIN_NOTE in out and "B **not bold** B" in out and out.endswith("\n")
    assert "**bold**" not in out.split(PLAIN_NOTE)[0]  # the start was rendered as Markdown
    assert max(rendered) <= 1000


def test_one_huge_chunk_is_never_rendered_as_markdown(rendered):
    con = console()
    stream = MarkdownStream(con)
    stream.feed("# title\n\n" + "z" * 1_000_000)
    stream.finish()
    assert rendered == []
    assert con.file.getvalue().count("z") == 1_000_000


def test_the_live_tail_of_a_long_paragraph_renders_only_about_a_screenful(rendered):
    con = console()
    stream = MarkdownStream(con, refresh_per_second=1e9)  # redraw on every chunk
    for _ in range(60):
        stream.feed("word " * 200)  # one paragraph of 60,000 characters, no blank line
    assert rendered and max(rendered) <= 2 * 80 * 24 + 1
    stream.finish()
    assert con.file.getvalue().count("word") >= 12_000


def test_a_long_code_block_tail_stays_a_code_block(rendered):
    con = console()
    stream = MarkdownStream(con, refresh_per_second=1e9)
    stream.feed("```python\n")
    for i in range(300):
        stream.feed(f"x{i} = {i}\n")
    assert max(rendered) < 2 * 80 * 24 + 20  # the live view: the fence line and the last two screenfuls
    lines = render._markdown_lines(con, stream._visible_part(stream._splitter.tail), "monokai")
    stream.abort()
    assert any(seg.style and seg.style.bgcolor for line in lines for seg in line)  # still a highlighted code block
