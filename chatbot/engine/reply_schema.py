"""Structured replies: a JSON schema asked for (``--schema``, or ``-o response_format ...``) and the reply checked.

A schema is given as a JSON schema or in llm's concise form (``'name, age int, bio: a short bio'``: fields separated
by commas, or by newlines when descriptions need commas; an optional type after the name, ``int``, ``float``,
``bool`` or ``str``, the default; an optional description after a colon). It is sent as the model option
``response_format`` = ``{"type": "json_schema", "json_schema": {"name": ..., "schema": ...}}``, so it is kept with
the session like any option; the reply is then parsed and checked against it with ``jsonschema``.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chatbot.errors import UsageError

#: the concise form's type words and the JSON schema type each stands for (llm's table)
CONCISE_TYPES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}
#: the name a schema is sent under (``json_schema.name``: letters, digits, '_' and '-' are allowed by OpenAI)
SCHEMA_NAME = "reply"
_FIELD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_FENCED = re.compile(r"\A\s*```[A-Za-z]*\n(?P<body>.*)\n```\s*\Z", re.DOTALL)


def concise_schema(text: str) -> dict[str, Any]:
    """The JSON schema of llm's concise form: an object whose fields are all required, in the order given."""
    separator = "\n" if "\n" in text.strip() else ","
    properties: dict[str, Any] = {}
    for field in (f.strip() for f in text.split(separator)):
        if not field:
            continue
        head, _, description = field.partition(":")
        words = head.split()
        if not words or len(words) > 2 or not _FIELD_NAME.fullmatch(words[0]):
            raise UsageError(f"--schema: {field!r} is not a field (NAME, NAME TYPE, or NAME [TYPE]: description)")
        kind = words[1] if len(words) == 2 else "str"
        if kind not in CONCISE_TYPES:
            raise UsageError(f"--schema: field {words[0]}: type {kind!r} is not one of {', '.join(CONCISE_TYPES)}")
        prop: dict[str, Any] = {"type": CONCISE_TYPES[kind]}
        if description.strip():
            prop["description"] = description.strip()
        properties[words[0]] = prop
    if not properties:
        raise UsageError("--schema needs at least one field, e.g. 'name, age int, bio: a short bio'")
    return {"type": "object", "properties": properties, "required": list(properties)}


def parse_schema(text: str) -> dict[str, Any]:
    """A schema from ``--schema``'s text: inline JSON (it starts with ``{``), else the concise form; checked."""
    if text.lstrip().startswith("{"):
        try:
            schema = json.loads(text)
        except ValueError as exc:
            raise UsageError(f"--schema: not valid JSON ({exc})") from None
        except RecursionError:  # (a schema nested thousands deep: the parser's own limit)
            raise UsageError("--schema: not a usable JSON schema: it is nested too deeply to be read") from None
    else:
        schema = concise_schema(text)
    check_schema(schema)
    return dict(schema)


def check_schema(schema: object) -> None:
    """A UsageError when ``schema`` is not a JSON schema an object reply can be checked against."""
    if not isinstance(schema, dict):
        raise UsageError("--schema: a JSON schema is an object ({...})")
    problem = schema_problem(schema)
    if problem:
        raise UsageError(f"--schema: {problem}")


def schema_problem(schema: Mapping[str, Any]) -> str:
    """What makes ``schema`` no valid JSON schema (of the draft its ``$schema`` names, else 2020-12), or no schema a
    reply can be checked against safely (nested too deeply, a reference outside it or in a loop: see
    :mod:`chatbot.engine.json_schema_refs`), or ""."""
    from jsonschema import exceptions

    from chatbot.engine.json_schema_refs import depth_problem, reference_problem

    too_deep = depth_problem(schema)
    if too_deep:
        return f"not a usable JSON schema: it is {too_deep}"
    try:
        validator_class(schema).check_schema(dict(schema))
    except exceptions.SchemaError as exc:
        return f"not a valid JSON schema: {exc.message}"
    problem = reference_problem(schema)
    return f"not a usable JSON schema: {problem}" if problem else ""


def error_path(error: Any) -> str:
    """Where in the value a jsonschema error is: ``dog.tags[0]`` (one dot off the front, not every dot: a property
    may be named ".env")."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).removeprefix(".")


def validator_class(schema: Mapping[str, Any]) -> Any:
    """The jsonschema validator of the draft ``schema``'s ``$schema`` names; draft 2020-12's when it names none, or
    names it with no string or with one jsonschema cannot read as a URI (``"http://["``): that validator's own check
    then says what is wrong, where jsonschema's lookup would crash."""
    from jsonschema import validators

    if not isinstance(schema.get("$schema"), str):
        return validators.Draft202012Validator
    try:
        # an unknown $schema gets draft 2020-12 too; the default given keeps jsonschema from warning about it
        return validators.validator_for(dict(schema), default=validators.Draft202012Validator)
    except ValueError:  # its lookup splits the $schema as a URI
        return validators.Draft202012Validator


def response_format(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The ``response_format`` option that asks for replies matching ``schema``."""
    return {"type": "json_schema", "json_schema": {"name": SCHEMA_NAME, "schema": dict(schema)}}


def asked_format(options: Mapping[str, Any]) -> tuple[str, dict[str, Any] | None]:
    """What the session's ``response_format`` asks for: ("json_schema", its schema), ("json_object", None), or
    ("", None) when it asks for no JSON."""
    fmt = options.get("response_format")
    if not isinstance(fmt, Mapping):
        return "", None
    kind = fmt.get("type")
    if kind == "json_schema":
        inner = fmt.get("json_schema")
        schema = inner.get("schema") if isinstance(inner, Mapping) else None
        return "json_schema", dict(schema) if isinstance(schema, Mapping) else None
    return ("json_object", None) if kind == "json_object" else ("", None)


@dataclass(frozen=True)
class JsonReply:
    """A reply that was asked to be JSON, checked: its parsed value, or (``problem``) what is wrong with it."""

    value: Any = None
    problem: str = ""  # "" when the reply is the JSON asked for


def check_reply(options: Mapping[str, Any], text: str) -> JsonReply | None:
    """``text`` checked against what the session's options ask for, or None when they ask for no JSON."""
    kind, schema = asked_format(options)
    if not kind:
        return None
    value, problem = reply_problem(text, schema)
    return JsonReply(value, f"{problem} (the turn is stored as the model wrote it)" if problem else "")


def reply_problem(text: str, schema: Mapping[str, Any] | None) -> tuple[Any, str]:
    """(the reply's JSON value, "") or (None, what is wrong, in one line): not JSON, or not matching ``schema``.

    A reply wrapped in one Markdown code fence (some models fence JSON even in JSON mode) is read inside it.
    """
    fenced = _FENCED.match(text)
    value, problem = read_json(fenced.group("body") if fenced else text, "the reply")
    if problem or schema is None:
        return value, problem
    from jsonschema import exceptions
    from referencing.exceptions import Unresolvable

    from chatbot.engine.json_schema_refs import no_fetch

    # a schema sent with ``-o response_format`` was never checked: one that cannot be used is told, not a crash
    problem = schema_problem(schema)
    if problem:
        return None, f"the reply cannot be checked: the schema is {problem}"
    validator = validator_class(schema)(dict(schema), registry=no_fetch())
    try:
        error = exceptions.best_match(validator.iter_errors(value))
    except Unresolvable as exc:  # (one the check above missed: never fetched, told)
        return None, (
            f"the reply cannot be checked: the schema refers to {exc.ref!r}, which cannot be resolved (a reference "
            "can only lead within the schema)"
        )
    except RecursionError:  # (the schema's references recurse as deep as the value does: no check ends in time)
        return None, "the reply cannot be checked: it is nested too deeply for the schema's references"
    if error is None:
        return value, ""
    where = error_path(error)
    message = " ".join(error.message.split())
    message = message if len(message) <= 200 else message[:199] + "…"
    return None, f"the reply does not match the schema: {f'{where}: ' if where else ''}{message}"


def read_json(text: str, what: str) -> tuple[Any, str]:
    """(the JSON value of ``text``, "") or (None, what keeps it from being read, in one line, ``what`` naming it): not
    JSON, a number too long for Python to read, or lists and objects nested past what can be checked."""
    from chatbot.engine.json_schema_refs import depth_problem

    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, f"{what} is not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
    except ValueError:  # an integer of more digits than Python converts: 5,000 nines are valid JSON
        return None, f"{what} cannot be read: it holds a number of more than {sys.get_int_max_str_digits():,} digits"
    except RecursionError:
        return None, f"{what} cannot be read: it is nested too deeply"
    too_deep = depth_problem(value)
    return (None, f"{what} cannot be checked: it is {too_deep}") if too_deep else (value, "")
