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
    """What makes ``schema`` no valid JSON schema (of the draft its ``$schema`` names, else 2020-12), or ""."""
    from jsonschema import exceptions

    try:
        _validator_class(schema).check_schema(dict(schema))
    except exceptions.SchemaError as exc:
        return f"not a valid JSON schema: {exc.message}"
    nowhere = _unresolved_reference(schema)
    if nowhere:
        return (
            f"not a usable JSON schema: it refers to {nowhere!r}, which cannot be resolved (a reference can only "
            "lead within the schema)"
        )
    return ""


def _unresolved_reference(schema: Mapping[str, Any]) -> str:
    """The first ``$ref`` of ``schema`` that leads nowhere in it, or "" (jsonschema would find one only when a
    reply reaches it). Skipped for a schema with a nested ``$id``, where a reference resolves against another base."""
    from jsonschema_specifications import REGISTRY  # the drafts' own schemas, which jsonschema resolves too
    from referencing.exceptions import Unresolvable
    from referencing.jsonschema import DRAFT202012, specification_with

    refs: list[str] = []
    nested_id = _collect_refs(schema, refs)
    dialect = schema.get("$schema")
    spec = specification_with(dialect, default=DRAFT202012) if isinstance(dialect, str) else DRAFT202012
    resolver = REGISTRY.resolver_with_root(spec.create_resource(dict(schema)))
    for ref in [] if nested_id else refs:
        try:
            resolver.lookup(ref)
        except Unresolvable:
            return ref
    return ""


_VALUES = ("enum", "const", "default", "examples")  # keywords whose contents are data, not schemas


def _collect_refs(node: Any, refs: list[str], root: bool = True) -> bool:
    """Add every ``$ref`` string under ``node`` to ``refs``; whether a schema below the root has its own ``$id``."""
    nested_id = False
    if isinstance(node, Mapping):
        if isinstance(node.get("$ref"), str):
            refs.append(node["$ref"])
        nested_id = not root and "$id" in node
        for key, value in node.items():
            if key not in _VALUES:
                nested_id = _collect_refs(value, refs, root=False) or nested_id
    elif isinstance(node, list):
        for item in node:
            nested_id = _collect_refs(item, refs, root=False) or nested_id
    return nested_id


def error_path(error: Any) -> str:
    """Where in the value a jsonschema error is: ``dog.tags[0]`` (one dot off the front, not every dot: a property
    may be named ".env")."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).removeprefix(".")


def _validator_class(schema: Mapping[str, Any]) -> Any:
    """The jsonschema validator of the draft ``schema``'s ``$schema`` names; draft 2020-12's when it names none, or
    names it with no string (that validator's own check then says so, where jsonschema's lookup would crash)."""
    from jsonschema import validators

    if not isinstance(schema.get("$schema"), str):
        return validators.Draft202012Validator
    # an unknown $schema gets draft 2020-12 too; the default given keeps jsonschema from warning about it
    return validators.validator_for(dict(schema), default=validators.Draft202012Validator)


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
    body = fenced.group("body") if fenced else text
    try:
        value = json.loads(body)
    except json.JSONDecodeError as exc:
        return None, f"the reply is not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
    if schema is None:
        return value, ""
    from jsonschema import exceptions
    from referencing.exceptions import Unresolvable

    # a schema sent with ``-o response_format`` was never checked: one that cannot be used is told, not a crash
    problem = schema_problem(schema)
    if problem:
        return None, f"the reply cannot be checked: the schema is {problem}"
    try:
        error = exceptions.best_match(_validator_class(schema)(dict(schema)).iter_errors(value))
    except Unresolvable as exc:  # a $ref to a place the schema does not hold, or to another document
        return None, (
            f"the reply cannot be checked: the schema refers to {exc.ref!r}, which cannot be resolved (a reference "
            "can only lead within the schema)"
        )
    if error is None:
        return value, ""
    where = error_path(error)
    message = " ".join(error.message.split())
    message = message if len(message) <= 200 else message[:199] + "…"
    return None, f"the reply does not match the schema: {f'{where}: ' if where else ''}{message}"
