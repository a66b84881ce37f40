"""Real MCP servers for tests, built with the same SDK: the example server over HTTP, and one that dies.

``python tests/support/mcp_servers.py dying`` serves over stdio a tool ``die`` that ends the process mid-call,
and ``slow`` that sleeps, so tests can see a server die mid-session and a call time out.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "mcp_server.py"


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def http_example_server():
    """The example server over streamable HTTP on loopback; yields its URL."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(EXAMPLE), "--http", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("the example MCP server did not start")
        yield f"http://127.0.0.1:{port}/mcp", process
    finally:
        process.kill()
        process.wait()


def stdio_command(*extra: str) -> str:
    """The command line that starts the example server over stdio."""
    return " ".join([sys.executable, str(EXAMPLE), *extra])


def dying_command() -> str:
    """The command line of the server whose ``die`` tool ends it."""
    return f"{sys.executable} {Path(__file__).resolve()} dying"


def _dying_server() -> None:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("dying", log_level="WARNING")

    @server.tool()
    def die() -> str:
        """End the server process in the middle of the call."""
        os._exit(3)

    @server.tool()
    def slow(seconds: float) -> str:
        """Sleep, then answer."""
        time.sleep(seconds)
        return "done"

    server.run("stdio")


if __name__ == "__main__" and sys.argv[1:] == ["dying"]:
    _dying_server()
