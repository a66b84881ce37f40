"""The tools a continued session remembers: attached again, with one line saying so.

A session keeps where its tools came from (``tool_sources``: the ``--functions`` files and ``--mcp`` servers of the
run that last gave them). Continuing it (``-c``, ``--session ID``) without ``--functions`` or ``--mcp`` attaches
them again; a source missing on this machine (a file that is not there, a stdio command whose program is not
found) is named and the chat goes on without it. Sources given on the command line replace the remembered ones.

Remembered sources run code, so they are attached only from the user's own store: never from this folder's
``./sessions``, which can come with a cloned repository, nor when they came in a file ``--import-sessions`` copied
(``ToolSources.imported``), until the user attaches them on the command line once; the notice names them and the
flags that attach them.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from chatbot.cli.modes import notice
from chatbot.storage import is_this_folders
from chatbot.storage.session import ToolSources

if TYPE_CHECKING:
    from chatbot.core.app import App
    from chatbot.tools.setup import Toolbox


def describe(sources: ToolSources) -> str:
    """``functions tools.py, mcp python server.py``: a file inside this folder by its relative path."""
    here = os.getcwd()
    files = [os.path.relpath(f) if f.startswith(here + os.sep) else f for f in sources.functions]
    return ", ".join([*(f"functions {f}" for f in files), *(f"mcp {s}" for s in sources.mcp)])


def reattach(app: App, *, timeout: float) -> Toolbox | None:
    """Attach the tools the session in use remembers (None when it remembers none, or they may not run here)."""
    remembered = app.chat.session.tool_sources
    if not remembered:
        return None
    from chatbot.tools.setup import open_tools, why_missing  # only for a session with tools: start-up stays light

    if is_this_folders(app.store.location):
        notice(
            f"tools from the session not attached ({describe(remembered)}): the session is in this folder's "
            f"./sessions, which a cloned folder can carry, and tools run code; to use them, continue with "
            f"--functions/--mcp",
            warning=True,
        )
        return None
    if remembered.imported:
        notice(
            f"tools from the session not attached ({describe(remembered)}): they came with an imported session file, "
            f"and tools run code; to trust them, attach them once: continue with {remembered.as_flags()}",
            warning=True,
        )
        return None
    missing = [
        f"{kind} {source} ({why})"
        for kind, sources in (("functions", remembered.functions), ("mcp", remembered.mcp))
        for source in sources
        if (why := why_missing(kind, source))
    ]
    here = ToolSources(
        tuple(f for f in remembered.functions if not why_missing("functions", f)),
        tuple(s for s in remembered.mcp if not why_missing("mcp", s)),
    )
    if missing:
        notice(
            f"tools from the session missing here: {'; '.join(missing)}; the chat goes on without them", warning=True
        )
    if not here:
        return None
    notice(f"tools from the session: {describe(here)}")
    toolbox = open_tools(here.mcp, here.functions, timeout=timeout, strict=False)
    for warning in toolbox.registry.warnings:
        notice(warning, warning=True)
    app.attach_tools(toolbox.registry, remembered)  # the session keeps all it remembers, missing ones too
    return toolbox
