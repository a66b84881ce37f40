"""A TCP proxy in front of the test PostgreSQL that can lose the answer to a COMMIT, or freeze like a partition.

The worst moment for a network cut: the server has committed a save, the client never hears so. ``lose_next_commit``
arms the proxy: it forwards the next ``COMMIT`` to the server, waits for the server's answer (the commit is done),
then closes both sides without passing the answer on, and waits until the server's backend of that connection is gone
(so its advisory locks are free again, as after any cut). Everything else is passed on byte for byte.

``freeze_on(marker)`` is a network partition: once the client sends bytes holding ``marker`` (a statement's text),
nothing more passes, either way, on any connection, old or new; every socket stays open and silent, as behind a dead
router. On loopback the proxy's own kernel acknowledges every packet, so TCP keepalives cannot tell: only a deadline
of the client's own ends the wait. ``frozen`` is set at the moment it happens.
"""

from __future__ import annotations

import select
import socket
import threading
import time
from urllib.parse import urlsplit, urlunsplit

import psycopg

# psycopg ends a transaction block with a simple query: 'Q', its length (4 + 7), "COMMIT\0"
COMMIT = b"Q\x00\x00\x00\x0bCOMMIT\x00"


class CommitLosingProxy:
    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.server = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self.admin_url = url
        self._listener = socket.create_server(("127.0.0.1", 0))
        port = self._listener.getsockname()[1]
        netloc = f"{parts.username}@127.0.0.1:{port}" if parts.username else f"127.0.0.1:{port}"
        query = f"{parts.query}&sslmode=disable" if parts.query else "sslmode=disable"
        self.url = urlunsplit(parts._replace(netloc=netloc, query=query))  # no TLS: the proxy reads the queries
        self.armed = False
        self.commits_lost = 0
        self._freeze_marker: bytes | None = None
        self.frozen = threading.Event()
        self._held: list[socket.socket] = []  # the sockets of a frozen network, kept open and silent
        self._closing = False
        threading.Thread(target=self._accept, daemon=True).start()

    def lose_next_commit(self) -> None:
        self.armed = True

    def freeze_on(self, marker: bytes) -> None:
        self._freeze_marker = marker

    def close(self) -> None:
        self._closing = True
        self._listener.close()
        for sock in self._held:
            sock.close()

    def _accept(self) -> None:
        while not self._closing:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self.frozen.is_set():
                self._held.append(client)  # the handshake never gets an answer
                continue
            upstream = socket.create_connection(self.server)
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()

    def _pipe(self, client: socket.socket, upstream: socket.socket) -> None:
        with client, upstream:
            while True:
                ready, _, _ = select.select([client, upstream], [], [], 1.0)
                if self._closing:
                    return
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    if self.frozen.is_set() or (
                        sock is client and self._freeze_marker is not None and self._freeze_marker in data
                    ):
                        self.frozen.set()
                        self._held += [client.dup(), upstream.dup()]  # open and silent until close()
                        return
                    if sock is client and self.armed and COMMIT in data:
                        self.armed = False
                        upstream.sendall(data)
                        upstream.recv(65536)  # the server's answer: the commit is done; the client never sees it
                        self._cut(upstream)
                        self.commits_lost += 1
                        return
                    (upstream if sock is client else client).sendall(data)

    def _cut(self, upstream: socket.socket) -> None:
        """Close the server side and wait until its backend (and the advisory locks it held) is gone."""
        port = upstream.getsockname()[1]
        upstream.close()
        deadline = time.monotonic() + 10
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            while conn.execute("SELECT 1 FROM pg_stat_activity WHERE client_port = %s", (port,)).fetchone():
                if time.monotonic() > deadline:
                    raise AssertionError("the server kept the cut connection's backend")
                time.sleep(0.02)
