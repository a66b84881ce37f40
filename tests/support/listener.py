"""A loopback HTTP server that answers every GET with a small JSON schema and records each hit: a test that names
its URL in a hostile schema proves, by its empty record, that nothing was fetched."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class _Recorder(http.server.BaseHTTPRequestHandler):
    hits: list[str]

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        self.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"type": "string"}')

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def listening() -> Iterator[tuple[str, list[str]]]:
    """(the URL of a schema on a loopback server, the paths it was asked for so far)."""
    hits: list[str] = []
    handler = type("Handler", (_Recorder,), {"hits": hits})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/dog.schema.json", hits
    finally:
        server.shutdown()
        server.server_close()
