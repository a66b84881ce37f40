"""``--functions FILE.py``: the plain functions of a Python file become tools.

Every public function defined in the file (not imported into it) is one tool: its name, its docstring as the
description, and a parameter schema read from its signature and type hints (``str``, ``int``, ``float``, ``bool``,
``list``, ``dict``, ``Optional``/``X | None``, ``Literal``). Defaults make a parameter optional. The result is the
returned string as it is, anything else as JSON (see :func:`as_text`).

The file is imported and its functions run in a child process (:mod:`chatbot.tools.function_process`), so a call
that never returns can be stopped: the chatbot process itself never imports the file.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import sys
import threading
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chatbot.errors import ToolFailed, ToolSourceError
from chatbot.tools.base import Tool, ToolSpec

_SIMPLE: dict[Any, str] = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    list: "array",
    dict: "object",
}


def json_type(hint: Any) -> dict[str, Any]:
    """The JSON Schema of a type hint; an unknown hint is left open (any JSON value)."""
    if hint in _SIMPLE:
        return {"type": _SIMPLE[hint]}
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Literal:
        return {"enum": list(args)}
    if origin in (typing.Union, types.UnionType):
        kinds = [json_type(a) for a in args if a is not type(None)]
        if len(kinds) == 1:
            return kinds[0]
        return {"anyOf": kinds}
    if origin in _SIMPLE:
        schema: dict[str, Any] = {"type": _SIMPLE[origin]}
        if origin is list and args:
            schema["items"] = json_type(args[0])
        return schema
    return {}


def function_spec(fn: Callable[..., Any], source: str) -> ToolSpec:
    """The tool spec of one function (name, docstring, schema from its signature)."""
    try:
        hints = typing.get_type_hints(fn)
    except Exception:  # an unresolvable annotation leaves that parameter untyped rather than the file unusable
        hints = {}
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, param in inspect.signature(fn).parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        properties[name] = json_type(hints.get(name, Any))
        if param.default is param.empty:
            required.append(name)
        elif param.default is None or isinstance(param.default, (str, int, float, bool)):
            properties[name]["default"] = param.default
    schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    description = inspect.cleandoc(fn.__doc__ or "").split("\n\n")[0].replace("\n", " ")
    return ToolSpec(fn.__name__, description or f"the function {fn.__name__}", schema, source)


def as_text(value: Any) -> str:
    """A function's return value as the tool result: a string as it is, anything else as JSON (else ``str``)."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)


class FunctionTool(Tool):
    """A Python function of this process as a tool (the library's way; ``--functions`` runs its file in a child
    process instead, see :mod:`chatbot.tools.function_process`). A call that outlives the timeout is abandoned: its
    thread is left to finish, and a function that holds the GIL (a runaway regex) cannot be stopped at all."""

    def __init__(self, fn: Callable[..., Any], source: str) -> None:
        self.fn = fn
        self.spec = function_spec(fn, source)

    def run(self, arguments: dict[str, Any], timeout: float) -> str:
        """Call the function in a worker thread; raise what it raised, or ToolFailed after ``timeout`` seconds."""
        outcome: dict[str, Any] = {}

        def work() -> None:
            try:
                outcome["value"] = self.fn(**arguments)
            except BaseException as exc:  # handed to the caller's thread, which turns it into a tool message
                outcome["error"] = exc

        worker = threading.Thread(target=work, name=f"tool-{self.spec.name}", daemon=True)
        worker.start()
        worker.join(timeout)
        if worker.is_alive():
            raise ToolFailed(f"{self.spec.name} did not finish within {timeout:g} seconds")
        if "error" in outcome:
            raise outcome["error"]
        return as_text(outcome.get("value"))


def import_functions(path: str) -> dict[str, Callable[..., Any]]:
    """Import the file at ``path`` (in the calling process) and return its public functions by name.

    Raises ToolSourceError when it cannot be loaded or defines none. :mod:`chatbot.tools.function_worker` calls this
    in the child process that runs the tools; the chatbot process itself never imports the file.
    """
    file = Path(path)
    if not file.is_file():
        raise ToolSourceError(f"--functions {path}: no such file")
    module_name = f"chatbot_functions_{abs(hash(str(file.resolve())))}"
    spec = importlib.util.spec_from_file_location(module_name, file)
    if spec is None or spec.loader is None:
        raise ToolSourceError(f"--functions {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses and typing look the module up while it loads
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:  # the user's file (it may even exit): say what went wrong, no traceback
        sys.modules.pop(module_name, None)
        raise ToolSourceError(f"--functions {path} failed to load: {type(exc).__name__}: {exc}") from None
    functions: dict[str, Callable[..., Any]] = {
        name: fn
        for name, fn in vars(module).items()
        if inspect.isfunction(fn) and not name.startswith("_") and fn.__module__ == module_name
    }
    if not functions:
        raise ToolSourceError(f"--functions {path} defines no public functions")
    return functions


def load_functions(path: str) -> list[Tool]:
    """The tools of the file at ``path``, run in one child process of their own (started here, once).

    Raises ToolSourceError when the file cannot be loaded or defines none (the child reports its import error).
    """
    from chatbot.tools.function_process import FunctionProcess, ProcessTool

    if not Path(path).is_file():
        raise ToolSourceError(f"--functions {path}: no such file")
    process = FunctionProcess(path)
    return [ProcessTool(process, spec) for spec in process.start()]
