"""Tool arguments checked against the tool's JSON Schema, with ``jsonschema`` (any draft a schema names, 2020-12
when it names none), and told back to the model in one line it can act on.

A schema that is itself invalid (a server's mistake) does not stop the call: it is not checked here, and the tool's
own checks (an MCP server validates too) still apply. A schema whose references lead outside it (a URL: nothing is
fetched) or loop is refused with its tool when the tool is registered (:func:`schema_refusal`).
"""

from __future__ import annotations

from typing import Any

from jsonschema import exceptions
from jsonschema.protocols import Validator
from referencing.exceptions import Unresolvable

from chatbot.engine.json_schema_refs import depth_problem, no_fetch, reference_problem
from chatbot.engine.reply_schema import error_path, validator_class

#: at most this many problems are named in one message
MAX_PROBLEMS = 5


def _validator(schema: dict[str, Any]) -> Validator | None:
    cls = validator_class(schema)  # (a server's odd $schema is the schema's problem, not a crash)
    try:
        cls.check_schema(schema)
    except (exceptions.SchemaError, RecursionError):  # (RecursionError: nested too deeply to be checked at all)
        return None
    return cls(schema, registry=no_fetch())  # a reference the check at the door missed is refused, never fetched


def schema_refusal(schema: Any) -> str:
    """Why a tool with this input schema cannot be offered (its references lead outside it, or loop), or ""."""
    if not isinstance(schema, dict) or depth_problem(schema) or not _refers(schema):
        return ""  # (too deep: never checked here, so never followed)
    return reference_problem(schema)


def _refers(schema: dict[str, Any]) -> bool:
    """Whether a reference keyword appears anywhere in ``schema`` (most have none: the full check is skipped)."""
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if any(k in node for k in ("$ref", "$dynamicRef", "$recursiveRef")):
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _named(what: str, names: list[str]) -> str:
    """``what`` (in the plural for more than one) and the names: "missing required arguments 'a', 'b'"."""
    return f"{what}{'s' if len(names) > 1 else ''} {', '.join(repr(n) for n in names)}"


def _describe(error: exceptions.ValidationError, schema: dict[str, Any]) -> str:
    """One problem in words a model reads: the argument's name first."""
    where = error_path(error)
    if error.validator == "required" and not where:
        missing = [n for n in error.validator_value if isinstance(error.instance, dict) and n not in error.instance]
        return _named("missing required argument", missing)
    if error.validator == "additionalProperties" and not where and isinstance(error.instance, dict):
        known = list((schema.get("properties") or {}).keys())
        unknown = [k for k in error.instance if k not in known]
        return f"{_named('unknown argument', unknown)} (known: {', '.join(known) or 'none'})"
    if error.validator == "type" and where:
        kinds = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        value = error.instance
        return f"{where!r} should be {' or '.join(map(str, kinds))}, not {_json_type(value)} {value!r:.40}"
    return f"{where!r}: {error.message}" if where else str(error.message)


def _json_type(value: Any) -> str:
    names = {bool: "bool", int: "int", float: "float", str: "str", list: "list", dict: "dict", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def check_arguments(arguments: Any, schema: dict[str, Any]) -> list[str]:
    """What is wrong with ``arguments`` under ``schema`` (an object schema); empty when they fit."""
    if not isinstance(arguments, dict):
        return [f"the arguments must be a JSON object, not {_json_type(arguments)}"]
    too_deep = depth_problem(arguments)
    if too_deep:
        return [f"the arguments cannot be checked: they are {too_deep}"]
    validator = _validator(schema) if isinstance(schema, dict) and not depth_problem(schema) else None
    if validator is None:
        return []
    try:
        errors = sorted(validator.iter_errors(arguments), key=lambda e: (list(e.absolute_path), str(e.message)))
    except RecursionError:  # (references that recurse as deep as the arguments do)
        return ["the arguments cannot be checked: they are nested too deeply for the schema's references"]
    except Unresolvable as exc:  # (a tool registered without the check at the door: nothing fetched, told)
        return [f"the arguments cannot be checked: the tool's schema refers to {exc.ref!r}, which cannot be resolved"]
    problems = list(dict.fromkeys(_describe(e, schema) for e in errors))  # (two missing names: one line)
    if len(problems) > MAX_PROBLEMS:
        problems[MAX_PROBLEMS:] = [f"and {len(problems) - MAX_PROBLEMS} more"]
    return problems
