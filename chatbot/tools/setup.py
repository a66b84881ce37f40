"""Open the tools named on the command line: ``--functions`` files, then ``--mcp`` servers.

A file that does not load is an error (the user typed its path); a server that cannot be reached is a warning:
its tools are missing, the chat goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from chatbot.errors import ToolSourceError
from chatbot.tools.functions import load_functions
from chatbot.tools.registry import Registry

if TYPE_CHECKING:
    from chatbot.tools.mcp_client import McpHub


class Toolbox:
    """The registry of this run and the MCP connections behind it; :meth:`close` ends them."""

    def __init__(self, registry: Registry, hub: McpHub | None) -> None:
        self.registry = registry
        self.hub = hub

    def close(self) -> None:
        """Stop the functions' worker processes and close every MCP session (stdio servers exit)."""
        self.registry.close()
        if self.hub is not None:
            self.hub.close()
            self.hub = None


def open_tools(servers: Sequence[str], files: Sequence[str], *, timeout: float) -> Toolbox:
    """Load ``files`` and connect to ``servers``; problems with servers land in ``registry.warnings``.

    A server gets ``timeout`` seconds (at most ``CONNECT_TIMEOUT``) to start and list its tools. Whatever stops
    this half-way (a file that does not load, Ctrl-C, SIGTERM) stops what was already started.
    """
    toolbox = Toolbox(Registry(timeout=timeout), None)
    try:
        for path in files:
            toolbox.registry.add(load_functions(path))
        if servers:
            from chatbot.tools.mcp_client import CONNECT_TIMEOUT, McpHub  # the SDK loads only when a server is named

            toolbox.hub = McpHub(connect_timeout=min(timeout, CONNECT_TIMEOUT))
            for server in servers:
                try:
                    toolbox.registry.add(toolbox.hub.connect(server))
                except ToolSourceError as exc:
                    toolbox.registry.warnings.append(f"{exc.message}; its tools are not available")
    except BaseException:
        toolbox.close()
        raise
    return toolbox
