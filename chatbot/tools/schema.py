"""A small JSON Schema check for tool arguments: enough to tell a model what it got wrong.

It checks the object shape, required properties, unknown properties (when the schema forbids them) and the
``type``/``enum`` of each property. It is not a full validator; a tool's own checks (an MCP server validates too)
still apply.
"""

from __future__ import annotations

from typing import Any

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def _fits(value: Any, kind: str) -> bool:
    if kind in ("integer", "number") and isinstance(value, bool):
        return False  # JSON true is not a number, though Python's bool is an int
    return isinstance(value, _TYPES.get(kind, (object,)))


def _type_problem(name: str, value: Any, schema: dict[str, Any]) -> str | None:
    kinds = schema.get("type")
    if kinds is None and "anyOf" in schema:
        kinds = [s.get("type") for s in schema["anyOf"] if isinstance(s, dict) and s.get("type")]
    if isinstance(kinds, str):
        kinds = [kinds]
    if kinds and not any(_fits(value, k) for k in kinds):
        return f"{name!r} should be {' or '.join(kinds)}, not {type(value).__name__} {value!r:.40}"
    enum = schema.get("enum")
    if isinstance(enum, list) and value not in enum:
        return f"{name!r} must be one of {enum}"
    return None


def check_arguments(arguments: Any, schema: dict[str, Any]) -> list[str]:
    """What is wrong with ``arguments`` under ``schema`` (an object schema); empty when they fit."""
    if not isinstance(arguments, dict):
        return [f"the arguments must be a JSON object, not {type(arguments).__name__}"]
    properties = schema.get("properties") or {}
    problems = [f"missing required argument {name!r}" for name in schema.get("required") or [] if name not in arguments]
    for name, value in arguments.items():
        if name not in properties:
            if schema.get("additionalProperties") is False or properties:
                problems.append(f"unknown argument {name!r} (known: {', '.join(properties) or 'none'})")
            continue
        if isinstance(properties[name], dict):
            problem = _type_problem(name, value, properties[name])
            if problem:
                problems.append(problem)
    return problems
