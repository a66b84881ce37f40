"""The timeline as one self-contained HTML page, checked in a real browser (headless Chromium): a bar per request
split into its parts, the budget as a line, folds and recalls marked, hover text with the numbers, nothing loaded
from the network. With ``CHATBOT_DOCS_PICTURE=1`` the browser's screenshot becomes docs/teaching-timeline.png."""

from __future__ import annotations

import os
import re
import shutil
import struct
from pathlib import Path

import pytest

from chatbot import commands
from chatbot.commands.effects import Note
from chatbot.commands.timeline import Row, Timeline
from chatbot.commands.timeline_html import page
from chatbot.errors import UsageError
from tests.support.browser import dom, screenshot
from tests.support.cli import run_chatbot
from tests.support.hard_links import STORES, link_to_a_session, victim_loads

DOCS_PICTURE = Path(__file__).resolve().parents[2] / "docs" / "teaching-timeline.png"
#: the session of docs/teaching.md's step 7: thirty notes under summary memory, with recall
NOTES = [f"Note {i}: the parcel for room {i} leaves on day {i % 7 + 1}." for i in range(1, 31)]


def test_the_page_holds_a_bar_per_request_with_its_parts_budget_marks_and_hover_text(make_app, tmp_path):
    app = make_app(strategy="summary", summary_trigger=3, keep_turns=1, max_input_tokens=1500, recall=1)
    chat = app.open("long")
    for text in NOTES:
        list(chat.send(text))
    page = tmp_path / "timeline.html"
    result = commands.run(app, f"/timeline html {page}")
    assert result == Note(f"wrote the timeline of session long (30 requests) to {page}")

    html = page.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=|url\(|@import|https?://""", html)  # self-contained: nothing to fetch
    parsed = dom(page)  # as the browser built it
    requests = re.findall(r'<g class="request" data-turn="(\d+)" data-tokens="(\d+)">', parsed)
    assert [int(turn) for turn, _ in requests] == list(range(1, 31))
    for part in ("system", "summary", "recalled", "earlier", "new"):
        assert f'class="part {part}"' in parsed
    assert parsed.count('class="budget"') >= 1 and "budget 1,500" in parsed
    folds = parsed.count('<text class="fold"')
    assert folds == sum("summary made" in mark for t in chat.conversation.turns for mark in _marks(t)) > 0
    assert parsed.count('<text class="recall"') >= 1
    first = re.search(r'<g class="request" data-turn="1"[^>]*>\s*<title>([^<]*)</title>', parsed)
    assert first and first.group(1).startswith(f"turn 1: {requests[0][1]} tokens sent (system message ")

    png = screenshot(page, tmp_path / "timeline.png", 1100, 600)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (1100, 600)
    assert len(png) > 10_000  # bars, not a blank page
    if os.environ.get("CHATBOT_DOCS_PICTURE"):
        shutil.copyfile(tmp_path / "timeline.png", DOCS_PICTURE)


def _marks(turn) -> list[str]:  # type: ignore[no-untyped-def]
    sent = turn.sent or {}
    return ["summary made"] if sent.get("summarized") else []


def test_a_learned_window_is_a_line_of_its_own_with_its_numbers_in_the_hover_text():
    rows = (Row(1, 500, False, (("system", 100), ("new", 400)), 1000, so_far=500),)
    html = page(Timeline("w", rows, 1000), window=800)
    assert '<line class="window"' in html and "learned window: requests are kept under 800 tokens" in html
    assert "<title>turn 1: 500 tokens sent (system message 100, new message 400); 500 so far\nbudget 1,000" in html


def test_the_page_never_goes_over_the_session_in_use_nor_through_a_symlink(make_app, tmp_path):
    """/timeline html FILE writes as /export does: never into the sessions folder (the open session stays whole), never
    through a symbolic link, an existing file replaced on a yes or with --force (a script has nobody to ask)."""
    app = make_app()
    chat = app.open("cur")
    list(chat.send("hi"))
    stored = Path(app.store.location) / "cur.json"
    before = stored.read_bytes()
    with pytest.raises(UsageError, match="inside the session store"):
        commands.run(app, f"/timeline html {stored} --force", confirm=lambda question: True)
    assert stored.read_bytes() == before and app.store.load("cur").conversation.turns
    precious = tmp_path / "precious.txt"
    precious.write_text("keep")
    (tmp_path / "link.html").symlink_to(precious)
    with pytest.raises(UsageError, match="symbolic link"):
        commands.run(app, f"/timeline html {tmp_path / 'link.html'}", confirm=lambda question: True)
    assert precious.read_text() == "keep"
    (tmp_path / "old.html").write_text("old")
    with pytest.raises(UsageError, match="already exists.*--force"):
        commands.run(app, f"/timeline html {tmp_path / 'old.html'}")  # script mode: no question
    asked: list[str] = []
    commands.run(app, f"/timeline html {tmp_path / 'old.html'}", confirm=lambda q: asked.append(q) or True)
    assert asked == [f"{tmp_path / 'old.html'} exists. Overwrite it?"]
    assert (tmp_path / "old.html").read_text().startswith("<!DOCTYPE html>")
    (tmp_path / "old.html").write_text("old")
    with pytest.raises(UsageError, match="usage: /timeline"):
        commands.run(app, "/timeline html --force")  # no file named --force
    commands.run(app, f"/timeline html {tmp_path / 'old.html'} --force")
    assert (tmp_path / "old.html").read_text().startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("kind", STORES)
def test_the_page_never_goes_through_a_hard_link_to_the_stores_file(tmp_path, kind):
    """``/timeline html notes.html --force`` in a chat, notes.html another name for a session file (or for the SQLite
    file): refused with one line, and the session still loads."""
    link = link_to_a_session(tmp_path, kind, "notes.html")
    script = "hi\n/timeline html notes.html --force\n"
    result = run_chatbot(*STORES[kind], "--provider", "echo", "--session", "s1", stdin=script, cwd=tmp_path)
    assert "notes.html is another name (a hard link) for a file of the session store" in result.stderr
    assert "wrote the timeline" not in result.stderr and "Traceback" not in result.stderr
    assert victim_loads(tmp_path, kind) and not link.read_bytes().startswith(b"<!DOCTYPE")
