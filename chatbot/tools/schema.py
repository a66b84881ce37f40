"""Tool arguments checked against the tool's JSON Schema, with ``jsonschema`` (any draft a schema names, 2020-12
when it names none), and told back to the model in one line it can act on.

A schema that is itself invalid (a server's mistake) does not stop the call: it is not checked here, and the tool's
own checks (an MCP server validates too) still apply.
"""

from __future__ import annotations

from typing import Any

from jsonschema import exceptions, validators
from jsonschema.protocols import Validator

from chatbot.engine.structured import error_path

#: at most this many problems are named in one message
MAX_PROBLEMS = 5


def _validator(schema: dict[str, Any]) -> Validator | None:
    cls = validators.validator_for(schema, default=validators.Draft202012Validator)
    try:
        cls.check_schema(schema)
    except exceptions.SchemaError:
        return None
    return cls(schema)


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
    validator = _validator(schema) if isinstance(schema, dict) else None
    if validator is None:
        return []
    errors = sorted(validator.iter_errors(arguments), key=lambda e: (list(e.absolute_path), str(e.message)))
    problems = list(dict.fromkeys(_describe(e, schema) for e in errors))  # (two missing names: one line)
    if len(problems) > MAX_PROBLEMS:
        problems[MAX_PROBLEMS:] = [f"and {len(problems) - MAX_PROBLEMS} more"]
    return problems
