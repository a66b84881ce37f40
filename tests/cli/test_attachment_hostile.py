"""Hostile attachments through the real CLI (``-f`` and ``/file``): a clone whose index leads outside the folder, a
folder too deep, a page on this machine or a redirect to one, a malformed URL, headers that drip. Each is one line
naming what and why; ``/file`` refusals leave the chat going."""

from __future__ import annotations

import hashlib
import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator

import pytest

from tests.support.cli import ROOT, assert_clean, one_error_line, openai_flags, run_chatbot
from tests.support.fake_server import FakeServer
from tests.support.pages import Page, PageServer
from tests.support.pdfs import WITHOUT_AES_READERS, aes_pdf
from tests.support.trees import nested, remove_nested

PROXIES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy", "NO_PROXY", "no_proxy")
SECRET = {"/latest/meta-data": Page(b"INSTANCE-CREDENTIALS\n")}


def refused(tmp_path, *args: str, env: dict[str, str | None] | None = None) -> str:
    """The one error line of ``ARGS -p hi`` that must send nothing (exit status 2)."""
    with FakeServer() as server:
        result = run_chatbot(*openai_flags(server.base_url), *args, "-p", "hi", cwd=tmp_path, env=env)
        assert server.record.requests == []
    assert result.returncode == 2, result.stderr
    return one_error_line(result)


def git(cwd, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


# --- folders ------------------------------------------------------------------------------------------------------


def test_a_clones_index_entry_outside_the_folder_is_named_and_not_sent(tmp_path):
    (tmp_path / "secret.txt").write_text("OUTSIDE-SECRET\n")
    repo = tmp_path / "clone"
    repo.mkdir()
    (repo / "readme.txt").write_text("inside\n")
    target = str(tmp_path / "secret.txt")
    placeholder = "p" * len(target)
    (repo / placeholder).write_text("x\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    index = repo / ".git" / "index"
    body = index.read_bytes()[:-20].replace(placeholder.encode(), target.encode())  # as a hostile clone ships it
    index.write_bytes(body + hashlib.sha1(body).digest())
    (repo / placeholder).unlink()
    with FakeServer(reply="ok") as server:
        result = run_chatbot(*openai_flags(server.base_url), "-f", "clone", "-p", "read", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        (request,) = server.record.requests
    assert request["messages"][-1]["content"] == "```clone/readme.txt\ninside\n```\n\nread"
    assert f"chatbot: skipped clone/{target} (outside the folder: not read)" in result.stderr.splitlines()


def test_a_folder_1500_levels_deep_is_attached_and_its_depth_named(tmp_path):
    top = tmp_path / "deep"
    top.mkdir()
    (top / "a.txt").write_text("top\n")
    nested(top, 1_500)
    try:
        with FakeServer(reply="ok") as server:
            result = run_chatbot(*openai_flags(server.base_url), "-f", "deep", "-p", "read", cwd=tmp_path)
    finally:
        remove_nested(top)
    assert result.returncode == 0, result.stderr
    assert_clean(result)
    assert "folders deep: not read)" in result.stderr


# --- PDFs -------------------------------------------------------------------------------------------------------


def test_an_aes_pdf_on_a_machine_without_cryptography_is_one_line(tmp_path):
    hide = tmp_path / "site"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text(WITHOUT_AES_READERS)
    (tmp_path / "locked.pdf").write_bytes(aes_pdf(["secret words"]))
    line = refused(tmp_path, "-f", "locked.pdf", env={"PYTHONPATH": f"{hide}{os.pathsep}{ROOT}"})
    assert line.startswith("chatbot: locked.pdf is a PDF that cannot be read here (") and "cryptography" in line


# --- web pages ----------------------------------------------------------------------------------------------------


def test_a_page_on_this_machine_is_refused_unless_private_urls_are_allowed(tmp_path):
    with PageServer(SECRET) as inside:
        url = inside.url("/latest/meta-data")
        line = refused(tmp_path, "-f", url)
        assert line == (
            f"chatbot: {url}: 127.0.0.1, a loopback address (this machine); only public addresses are fetched "
            "unless --allow-private-urls is given"
        )
        assert "localhost is 127.0.0.1" in refused(tmp_path, "-f", inside.url("/latest/meta-data", host="localhost"))
        assert inside.seen == []
        with FakeServer(reply="ok") as server:
            flag = run_chatbot(*openai_flags(server.base_url), "--allow-private-urls", "-f", url, "-p", "hi",
                               cwd=tmp_path)  # fmt: skip
            (tmp_path / "config.toml").write_text("allow_private_urls = true\n")
            key = run_chatbot(*openai_flags(server.base_url), "-f", url, "-p", "hi", cwd=tmp_path)
            assert [r["messages"][-1]["content"] for r in server.record.requests] == [
                f"```{url}\nINSTANCE-CREDENTIALS\n```\n\nhi"
            ] * 2
    assert flag.returncode == 0 and key.returncode == 0, flag.stderr + key.stderr


def test_the_opt_in_is_in_the_help(tmp_path):
    result = run_chatbot("--help", cwd=tmp_path)
    assert result.returncode == 0
    assert "--allow-private-urls" in result.stdout and "only public addresses" in " ".join(result.stdout.split())


def test_a_redirect_to_this_machine_is_refused_at_its_hop(tmp_path):
    with PageServer(SECRET) as inside:
        secret = inside.url("/latest/meta-data")
        hop = {"/hop": Page(status=302, headers={"Location": secret})}
        with PageServer(hop) as proxy:  # a page of the outside world, reached through the environment's proxy
            env = {**dict.fromkeys(PROXIES), "http_proxy": proxy.url("")}
            line = refused(tmp_path, "-f", "http://pages.example/hop", env=env)
            assert proxy.seen == ["http://pages.example/hop"]
        assert inside.seen == []
    assert "127.0.0.1, a loopback address (this machine) (where it redirected)" in line


@pytest.mark.parametrize("url", ["http://[::1/ok", "http://xn--/"])
def test_a_malformed_url_in_file_is_one_line_and_the_chat_goes_on(tmp_path, url):
    with FakeServer(reply="still here") as server:
        result = run_chatbot(*openai_flags(server.base_url), stdin=f"/file {url}\nhello\n", cwd=tmp_path)
        assert len(server.record.requests) == 1  # the next message was sent
    assert_clean(result)
    assert f"{url} is not a URL that can be fetched" in result.stderr
    assert "still here" in result.stdout and "internal error" not in result.stderr


def test_a_refused_address_in_file_leaves_the_chat_going(tmp_path):
    with PageServer(SECRET) as inside, FakeServer(reply="still here") as server:
        result = run_chatbot(*openai_flags(server.base_url), stdin=f"/file {inside.url('/latest/meta-data')}\nhi\n",
                             cwd=tmp_path)  # fmt: skip
        assert inside.seen == [] and len(server.record.requests) == 1
    assert "a loopback address (this machine)" in result.stderr and "still here" in result.stdout
    assert "INSTANCE-CREDENTIALS" not in server.record.requests[0]["messages"][-1]["content"]


@pytest.fixture
def header_drip() -> Iterator[str]:
    """A raw server on 127.0.0.1 that answers a status line, then a header byte every second, for 5 minutes."""
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nX-Drip: ")
            for _ in range(300):
                if stop.wait(1.0):
                    return
                try:
                    conn.sendall(b"a")
                except OSError:
                    return

    threading.Thread(target=serve, daemon=True).start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}/"
    stop.set()
    server.close()


def test_headers_that_drip_are_given_up_after_the_whole_fetch_deadline(tmp_path, header_drip):
    started = time.monotonic()
    line = refused(tmp_path, "--allow-private-urls", "-f", header_drip)
    assert f"{header_drip}: the page did not arrive within 20 s" in line
    assert time.monotonic() - started < 40  # not the 300 s of the drip


def test_attached_names_with_an_escape_or_a_newline_are_listed_as_codes_on_one_line(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    for name in ("a\x1b[2Jb.txt", "n\nl.txt"):
        (folder / name).write_text("text\n")
    (tmp_path / "x\u202etxt.exe").write_text("more\n")
    names = "d/a\\u001b[2Jb.txt (1 lines), d/n\\u000al.txt (1 lines)"
    one_shot = run_chatbot("--provider", "echo", "-f", "d", "-p", "hi", cwd=tmp_path)
    assert_clean(one_shot)
    assert f"chatbot: attached 2 file(s) from d: {names}\n" in one_shot.stderr
    script = run_chatbot("--provider", "echo", stdin="/file d\n/file x\u202etxt.exe\n/file\n", cwd=tmp_path)
    assert_clean(script)
    assert "\x1b" not in script.stderr and "\u202e" not in script.stdout + script.stderr
    assert f"attached to your next message: {names}, x\\u202etxt.exe (1 lines)\n" in script.stdout
    missing = run_chatbot("--provider", "echo", "-f", "no\ne\x1b[2Jx.txt", "-p", "hi", cwd=tmp_path)
    assert one_error_line(missing) == "chatbot: cannot read no\\u000ae\\u001b[2Jx.txt: No such file or directory"


def test_one_file_given_with_f_is_named_as_attached_as_a_folder_and_file_are(tmp_path):
    (tmp_path / "notes.txt").write_text("the lighthouse keeper logs the tides\n")
    result = run_chatbot("--provider", "echo", "-f", "notes.txt", "-p", "what does it say?", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "chatbot: attached notes.txt (1 lines)" in result.stderr
    assert "attached" not in result.stdout  # the reply alone goes to stdout
