"""A small real web server on a loopback address, for the tests of attached web pages (stdlib only).

Each path answers with a :class:`Page` (status, headers, body) or runs a function given the request handler, for
what a page cannot say in one go: a drip of headers, a redirect built from the request. Every request target is
recorded in ``seen``, so a test can tell that nothing reached the server at all::

    with PageServer({"/a.txt": Page(body=b"hi")}) as site:
        ...  # site.url("/a.txt"); site.seen
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Page:
    """One answer: its status, headers (Content-Length added unless given) and body."""

    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": "text/plain"})


Route = Page | Callable[[BaseHTTPRequestHandler], None]


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self.server.seen.append(self.path)
        route = self.server.routes.get(urlsplit(self.path).path, Page(b"not found", 404))
        if callable(route):
            route(self)
            return
        self.send_response(route.status)
        for name, value in route.headers.items():
            self.send_header(name, value)
        if "Content-Length" not in route.headers:
            self.send_header("Content-Length", str(len(route.body)))
        self.end_headers()
        self.wfile.write(route.body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, host: str, routes: dict[str, Route]) -> None:
        super().__init__((host, 0), _Handler)
        self.routes = routes
        self.seen: list[str] = []


class PageServer:
    """``routes`` served on ``host`` (a loopback address) and a free port, while the ``with`` block runs."""

    def __init__(self, routes: dict[str, Route], host: str = "127.0.0.1") -> None:
        self._server = _Server(host, routes)
        self.host = host
        self.port = self._server.server_address[1]

    @property
    def seen(self) -> list[str]:
        """Every request target received, in order."""
        return self._server.seen

    def url(self, path: str, host: str | None = None) -> str:
        """The URL of ``path`` here (under another name for this server's address, when ``host`` is given)."""
        return f"http://{host or self.host}:{self.port}{path}"

    def __enter__(self) -> PageServer:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
