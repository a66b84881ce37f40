"""Open the tools named on the command line: ``--functions`` files, then ``--mcp`` servers.

A file that does not load is an error (the user typed its path); a server that cannot be reached is a warning:
its tools are missing, the chat goes on.
"""

from __future__ import annotations

import os
import shlex
import shutil
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


def absolute_files(files: Sequence[str]) -> tuple[str, ...]:
    """``--functions`` paths made absolute (``~`` expanded), as a session remembers them: valid from any folder."""
    return tuple(os.path.abspath(os.path.expanduser(path)) for path in files)


def is_stdio(server: str) -> bool:
    """Whether an ``--mcp`` spec is a stdio command line (started here, in a folder) rather than an HTTP URL."""
    from chatbot.tools.mcp_client import is_http  # (the client's module: the MCP SDK loads only when one starts)

    return not is_http(server)


def why_missing(kind: str, source: str, folder: str = "") -> str:
    """Why a ``kind`` ("functions" or "mcp") source cannot be on this machine, or "" when it may be: a functions file
    that is not there, a stdio MCP command whose ``folder`` (where it starts, when remembered) is gone or whose
    program is not found there (an HTTP server is tried: connecting tells)."""
    if kind == "functions":
        return "" if os.path.isfile(source) else "no such file"
    if not is_stdio(source):
        return ""
    try:
        program = shlex.split(source)[0]
    except (ValueError, IndexError):
        return "not a command line"
    if folder and not os.path.isdir(folder):
        return f"its folder {folder} is gone"
    if os.sep in program and folder:  # a relative program path is found from the folder the server starts in
        program = os.path.join(folder, program)
    return "" if shutil.which(program) else f"no program {program} here"


def open_tools(
    servers: Sequence[str], files: Sequence[str], *, timeout: float, strict: bool = True, folder: str = ""
) -> Toolbox:
    """Load ``files`` and connect to ``servers``; problems with servers land in ``registry.warnings``.

    A stdio server starts in ``folder`` (a remembered command, in the folder it was given in), else in this one.

    A file that does not load is an error when the user named it now (``strict``), a warning when it was remembered
    (the chat goes on without it). A server gets ``timeout`` seconds (at most ``CONNECT_TIMEOUT``) to start and list
    its tools. Whatever stops this half-way (a file that does not load, Ctrl-C, SIGTERM) stops what was already
    started.
    """
    toolbox = Toolbox(Registry(timeout=timeout), None)
    try:
        for path in files:
            try:
                toolbox.registry.add(load_functions(path))
            except ToolSourceError as exc:
                if strict:
                    raise
                toolbox.registry.warnings.append(f"{exc.message}; its tools are not available")
        if servers:
            from chatbot.tools.mcp_client import CONNECT_TIMEOUT, McpHub  # the SDK loads only when a server is named

            toolbox.hub = McpHub(connect_timeout=min(timeout, CONNECT_TIMEOUT))
            for server in servers:
                try:
                    toolbox.registry.add(toolbox.hub.connect(server, folder))
                except ToolSourceError as exc:
                    toolbox.registry.warnings.append(f"{exc.message}; its tools are not available")
    except BaseException:
        toolbox.close()
        raise
    return toolbox
