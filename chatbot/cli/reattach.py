"""The tools a continued session remembers: attached again, with one line saying so.

A session keeps where its tools came from (``tool_sources``: the ``--functions`` files and ``--mcp`` servers of the
run that last gave them). Continuing it (``-c``, ``--session ID``) without ``--functions`` or ``--mcp`` attaches
them again; a source missing on this machine (a file that is not there, a stdio command whose program is not
found) is named and the chat goes on without it. Sources given on the command line replace the remembered ones.

Remembered sources run code, so they are attached only from the user's own store: never from this folder's
``./sessions``, which can come with a cloned repository, nor when they came in a file ``--import-sessions`` copied
(``ToolSources.imported``), until the user attaches them on the command line once; the notice names them and the
flags that attach them.

A remembered stdio ``--mcp`` command starts in the folder it was given in (``ToolSources.folder``), so a relative
path in it runs the file it meant then, not one a folder the session is continued from holds; a command whose
folder is gone is not started. One stored before the folder was kept is not started at all (nobody knows which
folder it belonged to): the warning gives the flag that attaches it again, from its folder.
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
    """``functions tools.py, mcp python server.py``: a file inside this folder by its relative path; a stdio command
    remembered in another folder says which (``mcp python server.py (in /home/me/proj)``)."""
    from chatbot.tools.setup import is_stdio

    here = os.getcwd()
    files = [os.path.relpath(f) if f.startswith(here + os.sep) else f for f in sources.functions]
    where = f" (in {sources.folder})" if sources.folder and sources.folder != here else ""
    servers = [f"mcp {s}{where if is_stdio(s) else ''}" for s in sources.mcp]
    return ", ".join([*(f"functions {f}" for f in files), *servers])


def untrusted(remembered: ToolSources, app: App) -> str:
    """Why the tools ``remembered`` may not run at all here ("" when they may): this folder's ./sessions, or an
    imported file."""
    if is_this_folders(app.store.location):
        return (
            f"tools from the session not attached ({describe(remembered)}): the session is in this folder's "
            f"./sessions, which a cloned folder can carry, and tools run code; to use them, continue with "
            f"--functions/--mcp"
        )
    if remembered.imported:
        return (
            f"tools from the session not attached ({describe(remembered)}): they came with an imported session file, "
            f"and tools run code; to trust them, attach them once: continue with {remembered.as_flags()}"
        )
    return ""


def runnable(remembered: ToolSources) -> ToolSources:
    """The remembered sources that may start here; a warning line names the others and why not."""
    from chatbot.tools.setup import is_stdio, why_missing

    folder = remembered.folder
    unplaced = () if folder else tuple(s for s in remembered.mcp if is_stdio(s))
    if unplaced:
        notice(
            f"tools from the session not started ({describe(ToolSources(mcp=unplaced))}): stored by an older chatbot "
            f"without the folder they were given in, and a relative path in them would run what this folder holds; "
            f"to use them, continue once from their folder with {ToolSources(mcp=unplaced).as_flags()}",
            warning=True,
        )
    servers = [s for s in remembered.mcp if s not in unplaced]
    missing = [
        f"{kind} {source} ({why})"
        for kind, sources in (("functions", remembered.functions), ("mcp", servers))
        for source in sources
        if (why := why_missing(kind, source, folder))
    ]
    if missing:
        notice(
            f"tools from the session missing here: {'; '.join(missing)}; the chat goes on without them", warning=True
        )
    return ToolSources(
        tuple(f for f in remembered.functions if not why_missing("functions", f)),
        tuple(s for s in servers if not why_missing("mcp", s, folder)),
        folder,
    )


def reattach(app: App, *, timeout: float) -> Toolbox | None:
    """Attach the tools the session in use remembers (None when it remembers none, or they may not run here)."""
    remembered = app.chat.session.tool_sources
    if not remembered:
        return None
    if why := untrusted(remembered, app):
        notice(why, warning=True)
        return None
    here = runnable(remembered)
    if not here:
        return None
    from chatbot.tools.setup import open_tools  # only for a session with tools: start-up stays light

    notice(f"tools from the session: {describe(here)}")
    toolbox = open_tools(here.mcp, here.functions, timeout=timeout, strict=False, folder=here.folder)
    for warning in toolbox.registry.warnings:
        notice(warning, warning=True)
    app.attach_tools(toolbox.registry, remembered)  # the session keeps all it remembers, missing ones too
    return toolbox
