"""What a hostile web page cannot do to a URL attachment (fetch.py, page_text.py): pack its body in
layers or as a bomb, pad its tables, or drip its headers to hold the chat past the fetch's deadline."""

from __future__ import annotations

import gzip
import socket
import threading
import time
import tracemalloc
import zlib
from collections.abc import Iterator

import pytest

from chatbot.attachments import fetch as fetch_module
from chatbot.attachments.fetch import MAX_URL_BYTES, fetch
from chatbot.attachments.page_text import html_text
from chatbot.errors import UsageError
from tests.support.pages import Page, PageServer

BOMB = gzip.compress(b"\0" * (64 * 1024 * 1024), 9)  # 64 MiB of zeros in about 64 KiB


def packed(body: bytes, coding: str) -> Page:
    return Page(body, headers={"Content-Type": "text/plain", "Content-Encoding": coding})


def test_a_packed_page_is_unpacked():
    words = b"packed words\n" * 100
    routes = {
        "/gzip": packed(gzip.compress(words), "gzip"),
        "/deflate": packed(zlib.compress(words), "deflate"),
        "/raw-deflate": packed(zlib.compress(words)[2:-4], "deflate"),  # deflate without its zlib header
    }
    with PageServer(routes) as site:
        for path in routes:
            assert fetch(site.url(path), 100_000, allow_private=True)[0] == words.decode()


def test_layers_of_packing_are_refused_before_any_is_unpacked():
    with PageServer({"/two": packed(gzip.compress(BOMB), "gzip, gzip")}) as site, pytest.raises(UsageError) as err:
        fetch(site.url("/two"), 100_000, allow_private=True)
    assert "is sent packed 2 times over (gzip, gzip); chatbot unpacks one layer" in err.value.message


def test_a_bomb_is_stopped_at_the_size_limit_while_it_unpacks():
    with PageServer({"/bomb": packed(BOMB, "gzip")}) as site:
        tracemalloc.start()
        try:
            with pytest.raises(UsageError) as err:
                fetch(site.url("/bomb"), 100_000, allow_private=True)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert f"unpacks to over {MAX_URL_BYTES:,} bytes" in err.value.message
    assert peak < 4 * MAX_URL_BYTES  # never the 64 MiB it would unpack to


def test_a_table_padded_to_its_widest_cell_does_not_outgrow_its_html():
    wide = "<tr><td>" + "x" * 20_000 + "</td></tr>"
    html = f"<table>{wide}{'<tr><td>a</td><td>b</td></tr>' * 2_000}</table>"
    text = html_text(html)
    assert len(text) < 2 * len(html)  # inscriptis's own layout pads 2,000 rows to 20,000 columns: 40 MB
    assert "x" * 20_000 in text and "\n| a | b\n" in text


def test_nested_lists_do_not_indent_every_line():
    html = "<ul><li>" * 100 + "<p>line</p>" * 2_000 + "</li></ul>" * 100 + "<ul><li>item</li></ul>"
    text = html_text(html)
    assert len(text) < 2 * len(html)  # inscriptis indents each of the 2,000 lines by 400 spaces: 800 KB
    assert "\nline\n" in text and "* item" in text


@pytest.fixture
def drip() -> Iterator[int]:
    """A raw server on 127.0.0.1 that answers a status line, then a header byte every 0.3 s, without end."""
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nX-Drip: ")
            while not stop.wait(0.3):
                try:
                    conn.sendall(b"a")
                except OSError:
                    return

    threading.Thread(target=serve, daemon=True).start()
    yield server.getsockname()[1]
    stop.set()
    server.close()


def test_headers_that_drip_are_held_to_the_fetchs_deadline(drip, monkeypatch):
    monkeypatch.setattr(fetch_module, "URL_DEADLINE", 2.0)  # the real 20 s is pinned through the CLI
    started = time.monotonic()
    with pytest.raises(UsageError) as err:
        fetch(f"http://127.0.0.1:{drip}/", 10_000, allow_private=True)
    assert "the page did not arrive within 2 s" in err.value.message
    assert time.monotonic() - started < 6
