"""What the PostgreSQL store's own tests do to the server around it: cut this process's store connections as a
network cut or a server restart would, count them, point a store at a port where nothing listens."""

from __future__ import annotations

import os
import socket
import time
from urllib.parse import parse_qs, urlsplit

from tests.support.stores import admin, postgres_base_url


def app_name() -> str:
    """The application_name every store connection of this process shows (the server keeps 63 characters)."""
    return f"chatbot pid {os.getpid()} on {socket.gethostname()}"[:63]


def cut_connections() -> int:
    """The server ends this process's store connections (and waits until they are gone); how many it ended."""
    with admin(postgres_base_url()) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE application_name = %s", (app_name(),)
        ).fetchall()
    return len(rows)


def backends() -> int:
    """How many store connections of this process the server has open."""
    with admin(postgres_base_url()) as conn:
        row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (app_name(),))
        return int(row.fetchone()[0])  # type: ignore[index]


def wait_for_backends(n: int, seconds: float = 5.0) -> int:
    """Wait until the server has ``n`` store connections of this process (a closed socket ends its backend a moment
    later); the count at the end."""
    deadline = time.monotonic() + seconds
    while (count := backends()) != n and time.monotonic() < deadline:
        time.sleep(0.05)
    return count


def dead_url() -> str:
    """A PostgreSQL URL on a loopback port where nothing listens."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"postgresql://postgres@127.0.0.1:{port}/postgres?connect_timeout=2"


def schema_of(url: str) -> str:
    """The scratch schema a URL of ``scratch_schema`` puts its tables in."""
    options = parse_qs(urlsplit(url).query)["options"][0]
    return options.removeprefix("-csearch_path=")
