"""What a hostile team member can plant for the PostgreSQL store to find: functions, aggregates and operators of the
names the store's SQL uses, in a schema every role may write to, each one logging that it ran.

The names come from the store's own SQL (every module-level statement of chatbot/storage/pg_*.py), so a statement
that starts using a new function or operator gets its shadows planted too.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

from chatbot.storage import pg_lock, pg_migrate, pg_names, pg_schema, pg_wait

MODULES = (pg_schema, pg_lock, pg_migrate, pg_wait, pg_names)
_STATEMENT = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|GRANT|SET)\b")
# words followed by "(" that are SQL syntax, not functions looked up by name
SYNTAX = {"IN", "ANY", "VALUES", "EXISTS", "KEY", "REFERENCES", "CHECK", "USING", "FROM", "AND", "OR", "ON", "AS"}
SYNTAX |= {
    "WHERE",
    "NOT",
    "WITH",
    "CONFLICT",
    "OPERATOR",
    "coalesce",
    "gin",
}  # coalesce is syntax too: no function of that name is looked up; OPERATOR(schema.op) names an operator, qualified
_CALL = re.compile(r"(?<![\w.\"])([A-Za-z_]\w*)\s*\(")
_QUALIFIED_CALL = re.compile(r"\bpg_catalog\.(\w+)\s*\(")
_STRING = re.compile(r"'(?:[^']|'')*'")
_PLACEHOLDER = re.compile(r"%(\([a-z_]+\))?s|%%")
_OPERATOR = re.compile(r"[+\-*/<>=~!@#^&|`?]+")
_WORD_OPERATORS = {"ILIKE": "~~*", "LIKE": "~~"}


def statements() -> list[str]:
    """Every SQL statement the store's modules hold as constants (a list's items each count)."""
    found = []
    for module in MODULES:
        for value in vars(module).values():
            items = value if isinstance(value, list) else [value]
            found += [s for s in items if isinstance(s, str) and _STATEMENT.match(s)]
    return found


def unqualified_calls(sql: str) -> set[str]:
    """Functions a statement calls by a bare name (looked up through the search path)."""
    return {name for name in _CALL.findall(_STRING.sub("''", sql)) if name not in SYNTAX}


def functions() -> set[str]:
    """Every function name the store's SQL calls, qualified or not."""
    names: set[str] = set()
    for sql in statements():
        names |= unqualified_calls(sql) | set(_QUALIFIED_CALL.findall(sql))
    return names


def operators() -> set[str]:
    """Every operator the store's SQL uses (``LIKE``, ``ILIKE`` as the operators they stand for)."""
    found: set[str] = set()
    for sql in statements():
        text = _PLACEHOLDER.sub(" ", _STRING.sub("''", sql)).replace("::", " ").replace("(*)", "()")
        found |= set(_OPERATOR.findall(text))
        found |= {op for word, op in _WORD_OPERATORS.items() if re.search(rf"\b{word}\b", text)}
    return found


# each argument type of a built-in, and the types a shadow takes in its place: one that matches a call better than
# the built-in (name for text, varchar for a domain over it, an exact type for a polymorphic argument) wins over it
_POLYMORPHIC = ["text", "name", "integer", "bigint", "json"]
_VARIANTS = {
    "text": ["text", "name", "character varying"],
    "name": ["name", "text"],
    "character varying": ["character varying", "text"],
    "smallint": ["smallint", "integer", "bigint"],
    "integer": ["smallint", "integer", "bigint"],
    "bigint": ["smallint", "integer", "bigint"],
    "json": ["json", "jsonb"],
    "jsonb": ["json", "jsonb"],
    "boolean": ["boolean"],
    "regclass": ["regclass", "text"],
    "oid": ["oid", "integer"],
    **{p: _POLYMORPHIC for p in ("anyelement", "anynonarray", "anyarray", "anycompatible", "anycompatiblenonarray")},
}
_OPERAND_TYPES = ["text", "name", "character varying", "smallint", "integer", "bigint", "json", "boolean"]
_RESULT = {"||": "text", "->": "json", "+": "bigint", "-": "bigint", "/": "bigint", "*": "bigint", "<<": "bigint"}
_RESULT |= {"|": "bigint"}
_OVERLOADS = """SELECT p.prokind, pg_catalog.format_type(p.prorettype, NULL),
        ARRAY(SELECT pg_catalog.format_type(t, NULL) FROM pg_catalog.unnest(p.proargtypes) t)
    FROM pg_catalog.pg_proc p WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname = %s
    AND p.provariadic = 0 AND p.pronargs <= 3"""
LOG = "public.shadow_log"


def _logging(function: str, result: str, args: list[str], what: str, returns: str = "NULL") -> str:
    """A function that records that it ran (who ran it, and what it stood for), then returns ``returns``."""
    params = ", ".join(f"a{i} {t}" for i, t in enumerate(args))
    quoted, back = what.replace("'", "''"), "" if result == "void" else returns
    return (
        f"CREATE FUNCTION {function}({params}) RETURNS {result} LANGUAGE plpgsql AS $$ BEGIN "
        f"INSERT INTO {LOG} VALUES (current_user, '{quoted}'); RETURN {back}; END $$"
    )


def _function_shadows(name: str, overloads: list[tuple[str, str, list[str]]]) -> Iterator[tuple[list[str], str]]:
    """(the statements making one shadow, its signature) for each variant of each built-in overload of ``name``;
    ``{n}`` in them stands for a number that tells the shadow's helpers apart."""
    for kind, returned, args in overloads:
        result = "text" if returned.startswith("any") else returned
        if not all(a in _VARIANTS for a in args) or kind not in ("f", "a"):
            continue  # an internal or pseudo type (or a window function): no call of the store's can reach it
        for types in itertools.product(*(_VARIANTS[a] for a in args)):
            signature = ", ".join(types)
            if kind == "f":
                yield [_logging(f"public.{name}", result, list(types), name)], signature
            else:
                state = _logging("public.shadow_{n}", result, [result, *types], name, returns="a0")
                aggregate = f"CREATE AGGREGATE public.{name}({signature or '*'}) (SFUNC = public.shadow_{{n}}, "
                yield [state, aggregate + f"STYPE = {result})"], signature


def plant(conn: Any) -> int:
    """As the member on ``conn``: shadows in ``public`` of every function and operator the store's SQL uses; how many
    were planted. The log they write to must exist and be writable by every role."""
    seen: set[tuple[str, str]] = set()
    for name in sorted(functions()):
        overloads = [(k, r, list(a)) for k, r, a in conn.execute(_OVERLOADS, (name,)).fetchall()]
        for made, signature in _function_shadows(name, overloads):
            if (name, signature) not in seen:
                seen.add((name, signature))
                for statement in made:
                    conn.execute(statement.replace("{n}", str(len(seen))))
    for op in sorted(operators()):
        for left, right in itertools.product(_OPERAND_TYPES, repeat=2):
            seen.add((op, f"{left}, {right}"))
            helper = f"public.shadow_{len(seen)}"
            conn.execute(_logging(helper, _RESULT.get(op, "boolean"), [left, right], op))
            conn.execute(f"CREATE OPERATOR public.{op} (LEFTARG = {left}, RIGHTARG = {right}, FUNCTION = {helper})")
    return len(seen)
