"""PDFs, folders and web pages attached through the real CLI (``-f`` and ``/file``): the request carries their text,
a folder names what it skipped, and every refusal is one line naming the file or URL and why, with nothing sent."""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import pytest

from tests.support.cli import one_error_line, openai_flags, run_chatbot
from tests.support.fake_server import FakeServer
from tests.support.images import png
from tests.support.pdfs import text_pdf
from tests.support.words import REPORT_TEXT, report

PAGE = """<!doctype html>
<html><head><title>Release notes</title><style>body { color: red }</style>
<script>var tracking = "SCRIPT-TEXT";</script></head>
<body><h1>Version 2.0</h1><p>The <b>fast</b> path is now the default.</p>
<ul><li>first change</li><li>second change</li></ul></body></html>"""


class Site(BaseHTTPRequestHandler):
    """A small real web site: ``routes`` maps a path to (status, content type, body)."""

    routes: dict[str, tuple[int, str, bytes]] = {
        "/notes.html": (200, "text/html; charset=utf-8", PAGE.encode()),
        "/plain.txt": (200, "text/plain; charset=utf-8", b"plain words\n"),
        "/logo.png": (200, "image/png", png(4, 4)),
        "/huge.txt": (200, "text/plain", b"a" * (5 * 1024 * 1024 + 1)),
        "/noise.html": (200, "text/html", bytes(range(256)) * 64),  # binary, called a web page
    }

    #: every request's target as it arrived (as an HTTP proxy, the site sees absolute URLs, and serves its own pages)
    seen: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self.seen.append(self.path)
        if self.path == "/trickle.txt":  # a byte now and then, never silent long enough for a read timeout
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            try:
                for _ in range(600):
                    self.wfile.write(b"a")
                    self.wfile.flush()
                    time.sleep(0.5)
            except OSError:  # the client gave up: that is the point
                pass
            return
        path = urlsplit(self.path).path + ("?unsized" if self.path.endswith("?unsized") else "")
        status, kind, body = self.routes.get(path.removesuffix("?unsized"), (404, "text/html", b"<h1>Not Found</h1>"))
        self.send_response(status)
        self.send_header("Content-Type", kind)
        if not self.path.endswith("?unsized"):  # else the body ends when the connection closes (HTTP/1.0)
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet
        pass


@pytest.fixture
def site() -> Iterator[str]:
    """The root URL of :class:`Site`, served on 127.0.0.1 for the test."""
    Site.seen.clear()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def sent_message(server: FakeServer) -> str:
    """The user message of the one request the server got."""
    (request,) = server.record.requests
    content = request["messages"][-1]["content"]
    assert isinstance(content, str)
    return content


def refused(tmp_path, *args: str) -> str:
    """The one error line of ``-f ... -p hi`` that must send nothing (exit status 2)."""
    with FakeServer() as server:
        result = run_chatbot(*openai_flags(server.base_url), *args, "-p", "hi", cwd=tmp_path)
        assert server.record.requests == []
    assert result.returncode == 2, result.stderr
    return one_error_line(result)


def git(cwd, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


# --- the same file named twice --------------------------------------------------------------------------------------


def test_the_same_file_attached_three_ways_and_through_a_link_goes_once_with_one_line_saying_so(tmp_path):
    (tmp_path / "notes.txt").write_text("the notes\n")
    (tmp_path / "link.txt").symlink_to("notes.txt")
    named = ["notes.txt", "./notes.txt", str(tmp_path / "notes.txt"), "link.txt"]
    with FakeServer(reply="ok") as server:
        flags = [arg for name in named for arg in ("-f", name)]
        result = run_chatbot(*openai_flags(server.base_url), *flags, "-p", "sum up", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert sent_message(server) == "```notes.txt\nthe notes\n```\n\nsum up"
    told = [line for line in result.stderr.splitlines() if "left out" in line]
    assert told == [
        f"chatbot: left out ./notes.txt (the same file as notes.txt), {tmp_path}/notes.txt (the same file as "
        "notes.txt), link.txt (the same file as notes.txt): attached already, and a file goes once with a message"
    ]


def test_a_file_and_the_folder_holding_it_send_the_file_once(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.txt").write_text("inner\n")
    (tmp_path / "d" / "b.txt").write_text("other\n")
    with FakeServer(reply="ok") as server:
        result = run_chatbot(*openai_flags(server.base_url), "-f", "d/a.txt", "-f", "d", "-p", "go", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert sent_message(server) == "```d/a.txt\ninner\n```\n\n```d/b.txt\nother\n```\n\ngo"
    assert "attached 1 file(s) from d: d/b.txt (1 lines)" in result.stderr
    assert "left out d/a.txt: attached already, and a file goes once with a message" in result.stderr
    # /file in a chat: the same, and a file attached again by itself is said in one line, not attached twice
    stdin = "/file d\n/file ./d/a.txt\n/file d/b.txt\ngo\n"
    with FakeServer(reply="ok") as server:
        chat = run_chatbot(*openai_flags(server.base_url), stdin=stdin, cwd=tmp_path)
        assert chat.returncode == 0, chat.stderr
        assert sent_message(server) == "```d/a.txt\ninner\n```\n\n```d/b.txt\nother\n```\n\ngo"
    assert "left out ./d/a.txt (the same file as d/a.txt): attached already" in chat.stderr
    assert "left out d/b.txt: attached already" in chat.stderr


# --- PDF ----------------------------------------------------------------------------------------------------------


def test_a_pdf_is_sent_as_the_text_of_its_pages(tmp_path):
    (tmp_path / "report.pdf").write_bytes(text_pdf([["Quarterly report", "revenue rose (a little)"], ["page two"]]))
    with FakeServer(reply="ok") as server:
        result = run_chatbot(*openai_flags(server.base_url), "-f", "report.pdf", "-p", "sum up", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        message = sent_message(server)
    assert message == "```report.pdf\nQuarterly report\nrevenue rose (a little)\n\npage two\n```\n\nsum up"


def test_an_encrypted_pdf_and_one_without_text_are_refused_in_one_line(tmp_path):
    (tmp_path / "locked.pdf").write_bytes(text_pdf([["secret"]], password="pw"))
    (tmp_path / "scan.pdf").write_bytes(text_pdf([[], []]))
    assert "locked.pdf is an encrypted PDF that needs a password" in refused(tmp_path, "-f", "locked.pdf")
    assert "scan.pdf is a PDF with no text to extract (2 page(s)" in refused(tmp_path, "-f", "scan.pdf")


def test_a_word_document_is_sent_as_its_text_and_a_damaged_one_is_refused_in_one_line(tmp_path):
    (tmp_path / "trip.docx").write_bytes(report())
    (tmp_path / "torn.docx").write_bytes(report()[:3000])
    with FakeServer(reply="ok") as server:
        result = run_chatbot(*openai_flags(server.base_url), "-f", "trip.docx", "-p", "sum up", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert sent_message(server) == f"```trip.docx\n{REPORT_TEXT}\n```\n\nsum up"
    assert refused(tmp_path, "-f", "torn.docx").startswith(
        "chatbot: torn.docx is not a readable Word document (a damaged archive"
    )


# --- folders ------------------------------------------------------------------------------------------------------


def test_a_folder_in_a_git_repo_sends_its_text_files_and_names_what_it_skipped(tmp_path):
    proj = tmp_path / "proj"
    (proj / "docs").mkdir(parents=True)
    (proj / ".gitignore").write_text("secret.env\nbuild/\n")
    (proj / "main.py").write_text("print('hi')\n")
    (proj / "docs" / "guide.md").write_text("# Guide\n")
    (proj / "logo.png").write_bytes(png(4, 4))
    (proj / "secret.env").write_text("TOKEN=SECRET-VALUE\n")
    (proj / "build").mkdir()
    (proj / "build" / "out.txt").write_text("BUILD-OUTPUT\n")
    git(proj, "init", "-q")
    git(proj, "add", "main.py")  # one tracked, the rest untracked: git lists both, less what it ignores
    with FakeServer(reply="ok") as server:
        script = "/file proj\nwhat is here?\n"
        result = run_chatbot(*openai_flags(server.base_url), stdin=script, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        message = sent_message(server)
    assert "```proj/main.py\nprint('hi')\n```" in message and "```proj/docs/guide.md\n# Guide\n```" in message
    assert "SECRET-VALUE" not in message and "BUILD-OUTPUT" not in message and "PNG" not in message
    lines = result.stderr.splitlines()
    assert any(s.startswith("chatbot: attached 3 file(s) from proj: proj/.gitignore (2 lines)") for s in lines)
    for skipped in ["proj/build/ (ignored by git)", "proj/secret.env (ignored by git)", "proj/logo.png (binary)"]:
        assert f"chatbot: skipped {skipped}" in lines, result.stderr


def test_a_folder_outside_git_skips_hidden_files_and_what_passes_its_total(tmp_path):
    notes = tmp_path / "notes"
    (notes / ".cache").mkdir(parents=True)
    (notes / ".cache" / "x.txt").write_text("CACHED\n")
    (notes / ".env").write_text("KEY=HIDDEN\n")
    (notes / "a.txt").write_text("alpha\n")
    (notes / "b.txt").write_text("b" * (512 * 1024) + "\n")
    with FakeServer(reply="ok") as server:
        result = run_chatbot(*openai_flags(server.base_url), "-f", "notes", "-p", "read", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        message = sent_message(server)
    assert message == "```notes/a.txt\nalpha\n```\n\nread"
    # a hidden file that holds secrets by its name says so, as inside a git repository (the reason a user needs)
    skips = ["notes/.cache/ (hidden)", "notes/.env (holds secrets)", "notes/b.txt (524,289 bytes: over the folder's"]
    for skipped in skips:
        assert f"chatbot: skipped {skipped}" in result.stderr, result.stderr


def test_a_long_list_of_skipped_files_is_cut_and_counted(tmp_path):
    blobs = tmp_path / "blobs"
    blobs.mkdir()
    (blobs / "readme.txt").write_text("the one text file\n")
    for i in range(45):
        (blobs / f"b{i:02}.bin").write_bytes(b"\x00" * 10)
    with FakeServer(reply="ok") as server:
        result = run_chatbot(*openai_flags(server.base_url), "-f", "blobs", "-p", "read", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
    skipped = [s for s in result.stderr.splitlines() if s.startswith("chatbot: skipped ")]
    assert len(skipped) == 40 and skipped[0] == "chatbot: skipped blobs/b00.bin (binary)"
    assert skipped[-1] == "chatbot: skipped 6 more (of 45 skipped in all)"


def test_a_folder_with_no_text_file_is_refused_in_one_line(tmp_path):
    (tmp_path / "pics").mkdir()
    (tmp_path / "pics" / "a.png").write_bytes(png(4, 4))
    assert "pics has no text file to attach (skipped: pics/a.png (binary))" in refused(tmp_path, "-f", "pics")


# --- web pages ----------------------------------------------------------------------------------------------------

LOCAL = ("--allow-private-urls",)  # the site is on loopback, which a page is not fetched from by default


def test_a_web_page_is_sent_as_readable_text(tmp_path, site):
    url = f"{site}/notes.html"
    with FakeServer(reply="ok") as server:
        result = run_chatbot(
            *openai_flags(server.base_url), *LOCAL, stdin=f"/file {url}\nwhat changed?\n", cwd=tmp_path
        )
        assert result.returncode == 0, result.stderr
        message = sent_message(server)
    assert message.startswith(f"```{url}\n") and message.endswith("```\n\nwhat changed?")
    assert "Version 2.0" in message and "The fast path is now the default." in message
    assert "* first change" in message and "* second change" in message
    assert "<" not in message and "SCRIPT-TEXT" not in message and "color: red" not in message
    assert f"chatbot: attached {url} (web page, " in result.stderr


def test_plain_text_from_a_url_is_sent_as_it_is(tmp_path, site):
    with FakeServer(reply="ok") as server:
        result = run_chatbot(
            *openai_flags(server.base_url), *LOCAL, "-f", f"{site}/plain.txt", "-p", "hi", cwd=tmp_path
        )
        assert result.returncode == 0, result.stderr
        assert sent_message(server) == f"```{site}/plain.txt\nplain words\n```\n\nhi"


def test_a_password_in_a_pages_url_reaches_neither_the_model_nor_the_screen(tmp_path, site):
    with_password = site.replace("http://", "http://reader:s3cret@") + "/plain.txt"
    masked = site.replace("http://", "http://reader:***@") + "/plain.txt"
    with FakeServer(reply="ok") as server:
        result = run_chatbot(*openai_flags(server.base_url), *LOCAL, "-f", with_password, "-p", "hi", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert sent_message(server) == f"```{masked}\nplain words\n```\n\nhi"
    assert "s3cret" not in result.stderr and "s3cret" not in result.stdout
    gone = site.replace("http://", "http://reader:s3cret@") + "/gone"
    line = refused(tmp_path, *LOCAL, "-f", gone)
    assert "s3cret" not in line and "reader:***@" in line


def test_a_missing_page_an_image_and_a_page_too_large_are_refused_in_one_line(tmp_path, site):
    assert f"{site}/gone: the server answered 404 Not Found" in refused(tmp_path, *LOCAL, "-f", f"{site}/gone")
    assert f"{site}/logo.png is image/png, not a web page, text, PDF or Word document" in refused(
        tmp_path, *LOCAL, "-f", f"{site}/logo.png"
    )
    assert f"{site}/huge.txt is 5,242,881 bytes; a page can be at most" in refused(
        tmp_path, *LOCAL, "-f", f"{site}/huge.txt"
    )
    unsized = f"{site}/huge.txt?unsized"  # no length said: the download stops at the limit
    assert f"{unsized} is over 5,242,880 bytes" in refused(tmp_path, *LOCAL, "-f", unsized)


# every proxy variable, in both cases urllib and httpx read: the developer's own are left out of the child
PROXIES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy", "NO_PROXY", "no_proxy")


def test_a_page_goes_through_the_proxy_of_the_environment_and_the_attached_line_says_so(tmp_path, site):
    url = "http://pages.example/plain.txt"  # a name only the proxy resolves
    env = {**dict.fromkeys(PROXIES), "http_proxy": site, "no_proxy": "127.0.0.1"}  # the chat goes straight
    with FakeServer(reply="ok") as server:
        result = run_chatbot(*openai_flags(server.base_url), "-f", url, "-p", "hi", cwd=tmp_path, env=env)
        assert result.returncode == 0, result.stderr
        assert sent_message(server) == f"```{url}\nplain words\n```\n\nhi"
    assert Site.seen == [url]  # the proxy got the absolute URL
    assert f"attached {url} (text/plain, 1 lines), fetched through the proxy {site} ($http_proxy)" in result.stderr


def test_a_dotenv_proxy_does_not_reach_a_fetched_page(tmp_path, site):
    with FakeServer(reply="from the proxy") as proxy, FakeServer(reply="ok") as server:
        lines = [f"{name}={proxy.root_url}" for name in ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "http_proxy")]
        (tmp_path / ".env").write_text("\n".join(lines) + "\n")
        args = [*openai_flags(server.base_url), *LOCAL, "-f", f"{site}/plain.txt", "-p", "hi"]
        result = run_chatbot(*args, cwd=tmp_path, env=dict.fromkeys(PROXIES))
        assert result.returncode == 0, result.stderr
        assert sent_message(server) == f"```{site}/plain.txt\nplain words\n```\n\nhi"
        assert proxy.record.targets == []  # neither the page nor the chat went through the clone's proxy
    assert Site.seen == ["/plain.txt"]  # straight to the site
    assert "through the proxy" not in result.stderr and ".env: ignored HTTPS_PROXY" in result.stderr


def test_a_proxy_url_that_carries_a_key_is_refused_before_a_page_is_fetched(tmp_path, site):
    env = {**dict.fromkeys(PROXIES), "http_proxy": f"http://gsk_{'k3y' * 8}@127.0.0.1:9"}
    result = run_chatbot("--provider", "echo", "-f", f"{site}/plain.txt", "-p", "hi", cwd=tmp_path, env=env)
    assert result.returncode == 2
    assert "proxy URL of $http_proxy holds a string that looks like an API key" in one_error_line(result)
    assert Site.seen == []


def test_binary_bytes_called_a_web_page_are_refused_in_one_line(tmp_path, site):
    line = refused(tmp_path, *LOCAL, "-f", f"{site}/noise.html")
    assert f"{site}/noise.html is binary, though the server calls it text/html" in line


def test_a_page_that_trickles_in_is_given_up_after_the_whole_fetch_deadline(tmp_path, site):
    started = time.monotonic()
    line = refused(tmp_path, *LOCAL, "-f", f"{site}/trickle.txt")
    assert f"{site}/trickle.txt: the page did not arrive within 20 s" in line
    assert time.monotonic() - started < 40  # not the 300 s the trickle would take
