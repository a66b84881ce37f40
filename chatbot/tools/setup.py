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
    """Load ``files`` and connect to ``servers``; problems with servers land in ``registry.warnings``."""
    registry = Registry(timeout=timeout)
    for path in files:
        registry.add(load_functions(path))
    hub = None
    if servers:
        from chatbot.tools.mcp_client import McpHub  # the mcp SDK loads only when a server is named

        hub = McpHub()
        for server in servers:
            try:
                registry.add(hub.connect(server))
            except ToolSourceError as exc:
                registry.warnings.append(f"{exc.message}; its tools are not available")
    return Toolbox(registry, hub)
