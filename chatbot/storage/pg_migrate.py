"""The PostgreSQL store's tables made, or brought up to this version, on first use: one process at a time.

What a database holds after :func:`ensure_schema` (version 4):

- the tables of :data:`~.pg_schema.CREATE`, every row with its ``owner`` (the role that wrote it);
- row-level security on ``chatbot_sessions``, ``chatbot_turns`` and ``chatbot_owners``, forced (the tables' owner
  is bound too), with one policy each: a role reads and writes only the rows whose owner it is. Only superusers and
  BYPASSRLS roles see past it, and the store's own statements still name ``owner = current_user`` for them;
- where ``pg_trgm`` is installed or may be (``CREATE EXTENSION``, a trusted extension: the database's CREATE
  privilege is enough), a trigram GIN index on the turns' text, which serves the search's ILIKE. Where it cannot be
  made, a warning says so and the search scans the rows, with the same results.

A version-1 database (no owners, one session namespace) is migrated in place: every existing session and turn gets
the role that migrates it as its owner, the keys become (owner, id), and the policies and index are added. A
version-2 (or 1) database's turns that hold a message with images get the text of its text parts in their searchable
``body``, which version 2 left out (every role's turns: the policies are lifted for the migrating transaction).
Version 4 adds the lock secrets (``chatbot_owners``, granted to every role that may use ``chatbot_sessions``) and
each session's lock generation (:mod:`~.pg_lock`): a version-3 chatbot would compute other lock keys, so it must not
share the database with this one, and its schema check refuses version 4.
"""

from __future__ import annotations

import json
from typing import Any

import psycopg
from psycopg import sql as q

from chatbot.errors import SessionCorrupt, SessionError
from chatbot.storage import pg_wait
from chatbot.storage.pg_names import identifier, named, qualified
from chatbot.storage.pg_schema import (
    ADDED_COLUMNS,
    CREATE,
    MINE,
    SCHEMA_KEY,
    SCHEMA_VERSION,
    SESSION_COLUMNS,
    SESSIONS,
    TURN_COLUMNS,
    TURNS,
    VERSIONS,
    searchable,
)

TRIGRAM_INDEX = "chatbot_turns_body_trgm"

# (a policy's expression is stored resolved: its operators and functions are the ones the pinned path found)
_POLICIES = [
    "ALTER TABLE {s}.{t} ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE {s}.{t} FORCE ROW LEVEL SECURITY",
    "DROP POLICY IF EXISTS chatbot_own_rows ON {s}.{t}",
    "CREATE POLICY chatbot_own_rows ON {s}.{t} USING ({mine}) WITH CHECK ({mine})",
]
_POLICIES_OF_EACH_TABLE = [
    statement.replace("{t}", table).replace("{mine}", MINE)
    for table in ("chatbot_sessions", "chatbot_turns", "chatbot_owners")
    for statement in _POLICIES
]
_TO_OWNERS = [
    f"ALTER TABLE {SESSIONS} ADD COLUMN owner text NOT NULL DEFAULT {{me}}",  # every row is the migrator's
    f"ALTER TABLE {TURNS} ADD COLUMN owner text NOT NULL DEFAULT {{me}}",
    f"ALTER TABLE {SESSIONS} ALTER COLUMN owner SET DEFAULT current_user",
    f"ALTER TABLE {TURNS} ALTER COLUMN owner SET DEFAULT current_user",
    f"ALTER TABLE {TURNS} DROP CONSTRAINT IF EXISTS chatbot_turns_session_id_fkey",
    f"ALTER TABLE {TURNS} DROP CONSTRAINT IF EXISTS chatbot_turns_pkey",
    f"ALTER TABLE {SESSIONS} DROP CONSTRAINT IF EXISTS chatbot_sessions_pkey",
    f"ALTER TABLE {SESSIONS} ADD PRIMARY KEY (owner, id)",
    f"ALTER TABLE {TURNS} ADD PRIMARY KEY (owner, session_id, n)",
    f"ALTER TABLE {TURNS} ADD FOREIGN KEY (owner, session_id) REFERENCES {SESSIONS} (owner, id) ON DELETE CASCADE",
    "DROP INDEX IF EXISTS {s}.chatbot_sessions_updated",
]
# The statements are module constants named for what they do, and the functions below the steps that run them.
_NO_STATEMENT_LIMIT = "SET LOCAL statement_timeout = 0"
_ONE_CREATOR = f"SELECT pg_catalog.pg_advisory_xact_lock({SCHEMA_KEY})"  # one creator at a time
_ME = "SELECT current_user"
_EXISTS = "SELECT pg_catalog.to_regclass(%s)"  # a relation of the store's schema, by its qualified name
_VERSION = f"SELECT pg_catalog.max(version) FROM {VERSIONS}"
_SET_VERSION = [f"DELETE FROM {VERSIONS}", f"INSERT INTO {VERSIONS} (version) VALUES ({SCHEMA_VERSION})"]
_OPTIONS_TO_JSON = f"ALTER TABLE {SESSIONS} ALTER COLUMN options TYPE json USING options::json"
_ADD_TOOL_SOURCES = f"ALTER TABLE {SESSIONS} ADD COLUMN tool_sources json NOT NULL DEFAULT '{{}}'"
_ADD_RULE = f"ALTER TABLE {SESSIONS} ADD COLUMN rule json NOT NULL DEFAULT '{{}}'"
_ADD_SUMMARIES = f"ALTER TABLE {SESSIONS} ADD COLUMN summaries json NOT NULL DEFAULT '[]'"
# an older row was stored before the mark was kept: where it was served is not known (a new row always names it)
_ADD_ENDPOINT = f"ALTER TABLE {SESSIONS} ADD COLUMN endpoint text NOT NULL DEFAULT 'unknown'"
_ADD_LOCK_GENERATION = f"ALTER TABLE {SESSIONS} ADD COLUMN lock_generation bigint NOT NULL DEFAULT 0"
_TABLES_OWNER = "SELECT tableowner FROM pg_catalog.pg_tables WHERE schemaname = %s AND tablename = 'chatbot_sessions'"
_COLUMNS_OF = (
    "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = %s AND table_name = %s"
)


def open_tables(conn: psycopg.Connection[Any], location: str, schema: str) -> list[str]:
    """What a new connection does first: check the tables of ``schema`` (a bounded wait), else make or migrate them
    (a long one: building indexes over a large store takes minutes). Returns the warnings for the user."""
    warnings = pg_wait.answer(conn, lambda c: ready(c, schema))
    if warnings is None:
        try:
            migrate = lambda c: ensure_schema(c, location, schema)  # noqa: E731
            warnings = pg_wait.answer(conn, migrate, pg_wait.MIGRATION_TIMEOUT)
        except psycopg.errors.InsufficientPrivilege:
            owner = pg_wait.answer(conn, lambda c: c.execute(_TABLES_OWNER, (schema,)).fetchone())
            if owner is None:
                raise
            raise SessionError(
                f"the session store {location} needs its tables brought to version {SCHEMA_VERSION} by the role "
                f"that owns them ({owner[0]}): open it once as that role (e.g. `chatbot --store URL "
                "--list-sessions`), then everyone can use it"
            ) from None
    return warnings


def ready(conn: psycopg.Connection[Any], schema: str) -> list[str] | None:
    """The usual case, in a bounded wait: the tables are at this version (reads only: any role may check), and the
    warnings for the user (no trigram index: searches scan); None when :func:`ensure_schema` has work to do."""
    with conn.transaction():
        if _version(conn, schema) != SCHEMA_VERSION or not _current(conn, schema):
            return None
        if not _exists(conn, schema, TRIGRAM_INDEX):
            _trigram_index(conn, schema)  # pg_trgm may have been installed since (only the tables' owner can index)
        return _warnings(conn, schema)


def ensure_schema(conn: psycopg.Connection[Any], location: str, schema: str) -> list[str]:
    """Make sure the tables are at this version (create or migrate them, one process at a time); refuse a newer
    schema or tables chatbot did not make. Returns warnings for the user (no trigram index: searches scan).

    A migration rebuilds keys and indexes over every stored turn: no statement limit applies to it, and the caller
    waits for it longer (:data:`~.pg_wait.MIGRATION_TIMEOUT`)."""
    with conn.transaction():
        conn.execute(_NO_STATEMENT_LIMIT)
        conn.execute(_ONE_CREATOR, {"schema": schema})
        _refuse_foreign(conn, location, schema)
        version = _version(conn, schema)
        if version is not None and version > SCHEMA_VERSION:
            raise SessionCorrupt(
                f"the session store {location} has chatbot schema version {version}, made by a newer "
                f"chatbot; this one knows version {SCHEMA_VERSION}: upgrade chatbot"
            )
        if "owner" not in _columns(conn, schema, "chatbot_sessions") and _columns(conn, schema, "chatbot_sessions"):
            _upgrade_columns(conn, schema)
            me = conn.execute(_ME).fetchone()[0]  # type: ignore[index]
            for statement in _TO_OWNERS:
                conn.execute(q.SQL(named(statement, schema)).format(me=q.Literal(me)))
        for statement in CREATE:
            conn.execute(named(statement, schema))
        _upgrade_columns(conn, schema)
        if version is not None and version < 3:
            _search_text_parts(conn, schema)
        for statement in _POLICIES_OF_EACH_TABLE:
            conn.execute(named(statement, schema))
        _grant_like_sessions(conn, schema, "chatbot_owners")
        for statement in _SET_VERSION:
            conn.execute(named(statement, schema))
        _trigram_index(conn, schema)
        return _warnings(conn, schema)


def _exists(conn: psycopg.Connection[Any], schema: str, name: str) -> bool:
    """Whether the store's schema has a relation (table, index) of this name."""
    return conn.execute(_EXISTS, (qualified(schema, name),)).fetchone() != (None,)


def _version(conn: psycopg.Connection[Any], schema: str) -> int | None:
    if not _exists(conn, schema, "chatbot_schema"):
        return None
    return conn.execute(named(_VERSION, schema)).fetchone()[0]  # type: ignore[index]  # (max() of no rows: NULL)


def _columns(conn: psycopg.Connection[Any], schema: str, table: str) -> dict[str, str]:
    return dict(conn.execute(_COLUMNS_OF, (schema, table)).fetchall())


def _current(conn: psycopg.Connection[Any], schema: str) -> bool:
    """Whether the tables are as this version makes them (a column an earlier chatbot lacked may be missing)."""
    sessions = _columns(conn, schema, "chatbot_sessions")
    wanted = {"owner", "lock_generation", *SESSION_COLUMNS}
    # the lock secrets' table by name: its columns are hidden from a role not granted it (which is then told so
    # when it locks, rather than asked to migrate)
    owners = _exists(conn, schema, "chatbot_owners")
    return sessions.get("options") == "json" and wanted <= set(sessions) and owners


def _refuse_foreign(conn: psycopg.Connection[Any], location: str, schema: str) -> None:
    for table, wanted in (("chatbot_sessions", SESSION_COLUMNS), ("chatbot_turns", TURN_COLUMNS)):
        found = set(_columns(conn, schema, table))
        if found and not set(wanted) - ADDED_COLUMNS <= found:
            raise SessionCorrupt(
                f"the table {table} in {location} was not made by chatbot (it has no column "
                f"{', '.join(sorted(set(wanted) - found))}); it was left untouched: point --store at another "
                f"database or schema"
            )


def _upgrade_columns(conn: psycopg.Connection[Any], schema: str) -> None:
    """Columns an earlier chatbot made otherwise, brought up to date with nothing lost.

    ``tool_sources`` (where a session's tools came from), ``rule`` (the memory rule a session keeps; an older
    row's ``{}`` takes today's defaults) and ``summaries`` (every summary a request sent, which a turn's record
    names; an older row's ``[]``: its turns have no record) and ``endpoint`` (a session served by another base URL
    than its provider's own; an older row's ``'unknown'``: stored before the mark was kept) are added. ``options``
    was ``jsonb``, which reorders an object's keys: a JSON schema sent as an option (``response_format``) must reach
    the model as the user wrote it, since models answer in the schema's key order. ``json`` keeps it.
    """
    columns = _columns(conn, schema, "chatbot_sessions")
    if columns.get("options") == "jsonb":
        conn.execute(named(_OPTIONS_TO_JSON, schema))
    if "tool_sources" not in columns:
        conn.execute(named(_ADD_TOOL_SOURCES, schema))
    if "rule" not in columns:
        conn.execute(named(_ADD_RULE, schema))
    if "summaries" not in columns:
        conn.execute(named(_ADD_SUMMARIES, schema))
    if "lock_generation" not in columns:
        conn.execute(named(_ADD_LOCK_GENERATION, schema))
    if "endpoint" not in columns:
        conn.execute(named(_ADD_ENDPOINT, schema))


_GRANT = "GRANT SELECT, INSERT ON {} TO {}"
_PUBLIC = q.SQL("PUBLIC")  # every role: a keyword, not a role's name
_GRANTEES = """SELECT DISTINCT grantee FROM information_schema.role_table_grants WHERE table_schema = %s
    AND table_name = 'chatbot_sessions' AND privilege_type = 'INSERT' AND grantee <> current_user"""


def _grant_like_sessions(conn: psycopg.Connection[Any], schema: str, table: str) -> None:
    """Every role that may write sessions may keep its lock secret in ``table`` (a team's grants, made before this
    version added the table, keep working after the migration)."""
    for (grantee,) in conn.execute(_GRANTEES, (schema,)).fetchall():
        role = _PUBLIC if grantee == "PUBLIC" else q.Identifier(grantee)
        conn.execute(q.SQL(_GRANT).format(q.Identifier(schema, table), role))


# the turns with a message whose content is a list of parts (text and images): version 2 searched none of their text.
# The LIKE is a cheap first sieve (every part has a "type"; most turns have no part at all)
_WITH_PARTS = f"""SELECT owner, session_id, n, data::text FROM {TURNS} WHERE data::text LIKE '%"type"%'
    AND EXISTS (SELECT 1 FROM pg_catalog.json_array_elements(CASE WHEN pg_catalog.json_typeof(data -> 'messages')
                = 'array' THEN data -> 'messages' END) m WHERE pg_catalog.json_typeof(m -> 'content') = 'array')"""
_UNFORCED = f"ALTER TABLE {TURNS} NO FORCE ROW LEVEL SECURITY"
_NEW_BODY = f"UPDATE {TURNS} SET body = %s WHERE owner = %s AND session_id = %s AND n = %s"


def _search_text_parts(conn: psycopg.Connection[Any], schema: str) -> None:
    """Version 3: the searchable text of a turn holds the text parts of a message with images (see
    :func:`~.pg_schema.searchable`), for every role's turns. Forced row-level security binds the tables' owner too,
    so it is lifted inside this transaction (the policies are forced again before it commits)."""
    conn.execute(named(_UNFORCED, schema))
    # read through a server-side cursor, a batch at a time: a turn with an image can be megabytes of base64
    with conn.cursor("chatbot_parts") as rows, conn.cursor() as write:
        rows.execute(named(_WITH_PARTS, schema))
        while batch := rows.fetchmany(200):
            bodies = []
            for owner, sid, n, text in batch:
                # (an object: the query chose turns whose "messages" is an array)
                bodies.append((searchable(json.loads(text)["messages"]), owner, sid, n))
            write.executemany(named(_NEW_BODY, schema), bodies)


# into the store's schema, as before the path was pinned (the path's first schema is pg_catalog now)
_WITH_TRIGRAMS = "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA {s}"
_TRIGRAMS_SCHEMA = "SELECT extnamespace::regnamespace::text FROM pg_catalog.pg_extension WHERE extname = 'pg_trgm'"
# the operator class named with its schema: the extension may live in any schema
_CREATE_INDEX = f"CREATE INDEX IF NOT EXISTS {TRIGRAM_INDEX} ON {TURNS} USING gin (body {{trgm}}.gin_trgm_ops)"


def _trigram_index(conn: psycopg.Connection[Any], schema: str) -> None:
    """The trigram index on the turns' text, with ``pg_trgm`` created if it is not installed (where allowed)."""
    try:
        with conn.transaction():  # a savepoint: a refusal leaves the rest of the migration standing
            conn.execute(named(_WITH_TRIGRAMS, schema))
            trgm = conn.execute(_TRIGRAMS_SCHEMA).fetchone()[0]  # type: ignore[index]  # (regnamespace: quoted)
            conn.execute(named(_CREATE_INDEX, schema).replace("{trgm}", trgm))
    except (psycopg.errors.InsufficientPrivilege, psycopg.errors.UndefinedFile, psycopg.errors.QueryCanceled):
        return  # not allowed, not installed on the server (the contrib package), or too long to build now


# a schema every role may create objects in: the store's SQL is immune (pg_names), but a member may still squat a
# name, and any other tool's unqualified SQL in this database is open to the shadowing the store guards against
_OPEN_TO_ALL = "SELECT pg_catalog.has_schema_privilege('public', %s, 'CREATE')"


def _warnings(conn: psycopg.Connection[Any], schema: str) -> list[str]:
    """What the user is told about the store: searches scan (no trigram index), the schema is open to every role."""
    warnings = []
    if not _exists(conn, schema, TRIGRAM_INDEX):
        warnings.append(
            "searches in this session store scan every turn: the trigram index could not be made (the PostgreSQL "
            "extension pg_trgm is missing, or this role may not create or use it). A database owner can run "
            "`CREATE EXTENSION pg_trgm SCHEMA public;` and open the store once with the role that owns the tables"
        )
    if conn.execute(_OPEN_TO_ALL, (schema,)).fetchone() == (True,):
        warnings.append(
            f"every database role may create objects in the session store's schema {schema} (PostgreSQL 14 and "
            f"older allow it in public): chatbot's own SQL is safe from them, but a database owner should run "
            f"`REVOKE CREATE ON SCHEMA {identifier(schema)} FROM PUBLIC;`"
        )
    return warnings
