"""How the PostgreSQL store's SQL names things, so that no other role's object ever runs in its place.

PostgreSQL finds an unqualified function, operator, type or table through ``search_path``, and a function of the
same name in another schema of the path wins whenever its argument types match better than the built-in's
(``public.quote_ident(name)`` beats ``pg_catalog.quote_ident(text)`` for ``quote_ident(current_user)``). Where a
member may create objects in a schema of the path (``public``, for every role, on PostgreSQL 14 and older), their
function would run as whoever opens the store: the tables' owner included, who can turn row-level security off.

So the store holds two rules, which ``tests/storage/test_pg_names.py`` enforces over all of its SQL:

- every connection's path is pinned to :data:`PINNED_PATH`: the built-ins, then the connection's own temporary
  schema. No schema another role may write to is on it, so an operator (``=``, ``||``) can only be a built-in;
- everything the SQL names is qualified: built-in functions as ``pg_catalog.f(...)``, the store's tables as
  ``{s}.chatbot_sessions``, where :func:`named` puts the store's schema in place of ``{s}``.

The store's schema is the one the user's connection settings put first (``options=-csearch_path=team`` in the URL,
the role's or the database's setting, else ``public``): :func:`pin` reads it from the first connection, and the
store keeps it for every connection after.
"""

from __future__ import annotations

from typing import Any

import psycopg

from chatbot.errors import SessionError

#: the search path of every store connection: built-ins first, the connection's own temporary schema last
PINNED_PATH = "pg_catalog, pg_temp"
_SCHEMA = "SELECT pg_catalog.current_schema()"
_PIN = "SELECT pg_catalog.set_config('search_path', %s, false)"
# a schema of the search path (its entries unquoted) that is there but that this role may not use (no USAGE grant):
# current_schema() skips it
_UNUSABLE = (
    "SELECT n.nspname FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) ANY(SELECT "
    "pg_catalog.btrim(pg_catalog.btrim(e), '\"') FROM pg_catalog.unnest(pg_catalog.string_to_array("
    "pg_catalog.current_setting('search_path'), ',')) AS e) AND NOT pg_catalog.has_schema_privilege(n.oid, 'USAGE') "
    "LIMIT 1"
)


def pin(conn: psycopg.Connection[Any], schema: str, location: str) -> str:
    """Pin the connection's search path; returns the store's schema (``schema``, else, when it is "", the one the
    connection's own settings put first, read before the path is pinned)."""
    if not schema:
        schema = conn.execute(_SCHEMA).fetchone()[0]  # type: ignore[index]  # (one row: a SELECT without FROM)
        if schema is None:
            unusable = conn.execute(_UNUSABLE).fetchone()
            if unusable is not None:
                raise SessionError(
                    f"the session store {location} is in schema {unusable[0]!r}, which this role may not use (no "
                    "USAGE grant): its tables are made once by their owner, who grants the team's roles their use "
                    "(the PostgreSQL store's documentation, 'one role per person', lists the grants)"
                )
            raise SessionError(
                f"the session store {location} has no schema to keep its tables in: no schema of its search_path "
                "exists; create one, or name it in the URL (postgresql://…/DB?options=-csearch_path%3DSCHEMA)"
            )
        if "%" in schema:  # it would read as a query parameter once put in a statement
            raise SessionError(f"the session store {location} is in schema {schema!r}: a name with % is not supported")
    conn.execute(_PIN, (PINNED_PATH,))
    return schema


def identifier(name: str) -> str:
    """``name`` quoted as a PostgreSQL identifier (always quoted: the schema's name is used exactly as it is)."""
    return '"' + name.replace('"', '""') + '"'


def named(statement: str, schema: str) -> str:
    """``statement`` with the store's schema (quoted) in place of each ``{s}``."""
    return statement.replace("{s}", identifier(schema))


def qualified(schema: str, name: str) -> str:
    """A relation of the store's schema as ``to_regclass`` reads it (``"schema".name``)."""
    return f"{identifier(schema)}.{name}"
