"""The child process that runs the functions of one ``--functions`` file (its parent side is
:mod:`chatbot.tools.function_process`).

It imports the file, answers with the tools' specs, then runs one call per line it reads. The protocol is one JSON
object per line on the descriptors that were stdin and stdout; the file's own ``print`` and ``input`` are moved
away from them (to stderr, and to an empty input) so a tool cannot break the protocol. Everything sent back is
plain JSON data: results as text (at most :data:`~chatbot.tools.base.MAX_RESULT_CHARS` characters, and the length
they had), errors as ``"ValueError: ..."``.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from typing import IO, Any

from chatbot.errors import ToolSourceError
from chatbot.tools.base import MAX_RESULT_CHARS
from chatbot.tools.functions import as_text, function_spec, import_functions


def _die_with_parent() -> None:
    """On Linux, be killed when the chatbot process dies, even while stuck in a call; and be the subreaper of what
    the functions start, so that a process they leave behind, even in a session of its own whose parent has ended
    (a daemon), stays below this one, where the parent finds it and ends it with this one (``kill``)."""
    with contextlib.suppress(Exception):
        import ctypes

        pr_set_pdeathsig, pr_set_child_subreaper = 1, 36
        libc = ctypes.CDLL(None)
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
        libc.prctl(pr_set_child_subreaper, 1)


def _protocol_streams() -> tuple[IO[str], IO[str]]:
    """The request and answer streams, taken off descriptors 0 and 1 (which then hold /dev/null and stderr)."""
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8", errors="replace")
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")  # _send writes ASCII: nothing to replace
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)  # print() in a tool goes where the server log goes, never into the answers
    return requests, answers


def _send(answers: IO[str], message: dict[str, Any]) -> None:
    answers.write(json.dumps(message) + "\n")  # ASCII: a lone surrogate travels escaped
    answers.flush()


def _call(functions: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
    fn = functions.get(str(request.get("name")))
    if fn is None:
        return {"error": f"no function {request.get('name')!r} in this file"}
    try:
        text = as_text(fn(**request.get("arguments", {})))
    except (Exception, SystemExit, KeyboardInterrupt) as exc:  # a user's function may raise (or exit) anything
        return {"error": f"{type(exc).__name__}: {exc}"[:MAX_RESULT_CHARS]}
    # only what a result can hold crosses, and how long it was: 100 MB are not sent to be cut on the other side
    return {"result": text[:MAX_RESULT_CHARS], "length": len(text)}


def main(path: str) -> None:
    """Serve the functions of ``path`` until the parent closes the request stream (or kills this process)."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops this process itself
    requests, answers = _protocol_streams()
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))  # the file imports its neighbours, as a script would
    try:
        functions = import_functions(path)
    except ToolSourceError as exc:
        _send(answers, {"load_error": exc.message})
        return
    specs = [function_spec(fn, path) for fn in functions.values()]
    tools = [{"name": s.name, "description": s.description, "parameters": s.parameters} for s in specs]
    _send(answers, {"tools": tools})
    for line in requests:
        try:
            request = json.loads(line)
        except ValueError:
            continue
        _send(answers, _call(functions, request))


if __name__ == "__main__":
    main(sys.argv[1])
