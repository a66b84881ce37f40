"""A scripted server that answers chat requests with exactly the bytes a test gives it (stdlib only).

Where :mod:`tests.support.fake_server` behaves like a well-made OpenAI-compatible server, this one misbehaves on
purpose: SSE that ends without ``[DONE]``, chunks that are JSON but not objects, an HTML page with status 200,
a connection dropped mid-stream, a server that never answers, ``Retry-After`` in the far future. Each request takes
the next :class:`Answer` of the script (the last one repeats); ``GET /models`` takes one as well::

    with HostileServer(Answer(events=[chunk("hi"), b"data: [1,2,3]\\n\\n"])) as server:
        ...  # --provider openai --base-url server.base_url
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def chunk(content: str | None = None, finish: str | None = None, **extra: Any) -> bytes:
    """One well-formed SSE data event carrying a content delta (and/or a finish reason)."""
    delta = {} if content is None else {"content": content}
    body = {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return b"data: " + json.dumps({**body, **extra}).encode() + b"\n\n"


DONE = b"data: [DONE]\n\n"


def reply(text: str, *, usage: dict[str, Any] | None = None) -> list[bytes]:
    """The events of a complete, well-formed streamed reply."""
    events = [chunk(text), chunk(None, "stop")]
    if usage is not None:
        events.append(b"data: " + json.dumps({"choices": [], "usage": usage}).encode() + b"\n\n")
    return [*events, DONE]


@dataclass
class Answer:
    """One scripted answer. ``events`` are streamed as SSE (chunked); ``body`` is sent whole instead.

    ``hang`` waits that many seconds before the status line; ``drop`` closes the connection after the events
    without ending the chunked body (a reset mid-stream); ``delay`` waits before each event. ``raw`` is sent as it
    is, in place of any HTTP answer, and the connection closed (another service listening on that port).
    """

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    events: list[bytes] = field(default_factory=list)
    body: bytes | None = None
    content_type: str = "text/event-stream"
    hang: float = 0.0
    drop: bool = False
    delay: float = 0.0
    raw: bytes | None = None


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        self.server.requests.append(json.loads(raw or b"{}"))
        self._answer()

    def do_GET(self) -> None:  # noqa: N802 - ``GET /models`` (--list-models, /models) takes the next answer too
        self._answer()

    def _answer(self) -> None:
        answer = self.server.next_answer()
        if answer.hang:
            time.sleep(answer.hang)
        if answer.raw is not None:
            self.wfile.write(answer.raw)
            self.close_connection = True
            return
        self.send_response(answer.status)
        for key, value in answer.headers.items():
            self.send_header(key, value)
        try:
            if answer.body is not None:
                self.send_header("Content-Type", answer.content_type)
                self.send_header("Content-Length", str(len(answer.body)))
                self.end_headers()
                self.wfile.write(answer.body)
                return
            self.send_header("Content-Type", answer.content_type)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for data in answer.events:
                if answer.delay:
                    time.sleep(answer.delay)
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                self.wfile.flush()
            if answer.drop:
                self.close_connection = True
                self.connection.shutdown(2)
                return
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, answers: list[Answer]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.answers = answers
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def next_answer(self) -> Answer:
        with self._lock:
            return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


class HostileServer:
    """The scripted server in a background thread; a context manager. ``base_url`` ends in ``/v1``."""

    def __init__(self, *answers: Answer) -> None:
        self._server = _Server(list(answers) or [Answer(events=reply("ok"))])
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``."""
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def requests(self) -> list[dict[str, Any]]:
        """The bodies of the chat requests received so far."""
        return self._server.requests

    def __enter__(self) -> HostileServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
