"""A hand-written stdio MCP server (newline-delimited JSON-RPC, as the spec has it) that misbehaves on request.

The SDK's own server cannot be made to break the protocol, so this one speaks it by hand: ``initialize``,
``tools/list`` and ``tools/call`` (the ``echo`` tool answers with its arguments). Its behaviour is the first
argument, a JSON object::

    python tests/support/hostile_mcp.py '{"silent": true, "pid_file": "/tmp/p"}'

- ``silent``: read requests but never answer (SIGTERM and SIGHUP are ignored, as a wedged server may);
- ``mute``: read requests but never answer, and end when stdin ends (a server stuck before ``initialize``);
- ``stderr``: lines written to stderr first (a lone surrogate ``\\udcff`` is written as the byte 0xff);
- ``result``: the ``tools/call`` result to answer with (the raw JSON-RPC ``result``), instead of the echo;
  ``refuse``: answer ``tools/call`` with this JSON-RPC error message instead (code -32602);
- ``title``: each tool's title;
- ``stubborn``: answer, but ignore SIGTERM and SIGHUP and go on after stdin ends (only SIGKILL ends it);
- ``pid_file``: write the process id there first;
- ``junk``: lines written to stdout before every answer (not JSON-RPC at all; may hold a lone surrogate);
- ``tools``: how many tools to list (``echo``, ``echo_1``, ...), ``description``: each one's description,
  ``schema``: each one's ``inputSchema``; ``huge_first``: the first one's description is this many characters
  (``x x x ...``).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
OPEN_SCHEMA = {"type": "object", "properties": {"text": {"type": "string"}}}


def command(**behaviour: Any) -> str:
    """The ``--mcp`` command line of a server behaving as ``behaviour`` says."""
    import shlex

    return shlex.join([sys.executable, str(HERE), json.dumps(behaviour)])


def _send(message: dict[str, Any], junk: list[str]) -> None:
    out = sys.stdout.buffer
    for line in junk:
        out.write(line.encode("utf-8", "surrogatepass") + b"\n")
    out.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
    out.flush()


def _tools(behaviour: dict[str, Any]) -> list[dict[str, Any]]:
    names = ["echo"] + [f"echo_{n}" for n in range(1, int(behaviour.get("tools", 1)))]
    description = behaviour.get("description", "Answer with the arguments.")
    schema = behaviour.get("schema", OPEN_SCHEMA)
    tools = [{"name": n, "description": description, "inputSchema": schema} for n in names]
    for tool in tools if "title" in behaviour else []:
        tool["title"] = behaviour["title"]
    if behaviour.get("huge_first"):
        tools[0]["description"] = ("x " * behaviour["huge_first"])[: behaviour["huge_first"]]
    return tools


def _answer(request: dict[str, Any], behaviour: dict[str, Any]) -> dict[str, Any] | None:
    method, params = request.get("method"), request.get("params") or {}
    if "id" not in request:
        return None  # a notification (initialized)
    if method == "initialize":
        result: dict[str, Any] = {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "hostile", "version": "1"},
        }
    elif method == "tools/list":
        result = {"tools": _tools(behaviour)}
    elif method == "tools/call" and "refuse" in behaviour:
        return {"id": request["id"], "error": {"code": -32602, "message": behaviour["refuse"]}}
    elif method == "tools/call":
        echo = {"content": [{"type": "text", "text": json.dumps(params.get("arguments"))}], "isError": False}
        result = behaviour.get("result", echo)
    else:
        return {"id": request["id"], "error": {"code": -32601, "message": f"no method {method}"}}
    return {"id": request["id"], "result": result}


def main(behaviour: dict[str, Any]) -> None:
    """Serve stdin/stdout as ``behaviour`` says."""
    if behaviour.get("pid_file"):
        Path(behaviour["pid_file"]).write_text(str(os.getpid()))
    for line in behaviour.get("stderr", []):
        sys.stderr.buffer.write(line.encode("utf-8", "surrogateescape") + b"\n")
    sys.stderr.flush()
    if behaviour.get("mute"):
        while sys.stdin.buffer.read(1 << 16):
            pass
        return
    if behaviour.get("silent"):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        while True:  # not even the end of stdin stops it
            sys.stdin.buffer.read(1 << 16) or time.sleep(1)
    if behaviour.get("stubborn"):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    for line in sys.stdin:
        if not line.strip():
            continue
        answer = _answer(json.loads(line), behaviour)
        if answer is not None:
            _send(answer, list(behaviour.get("junk", [])))
    while behaviour.get("stubborn"):
        time.sleep(1)


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
