"""No object another role planted ever runs in the store's SQL (chatbot/storage/pg_names.py): a member who may create
objects in ``public`` (every role may, on PostgreSQL 14 and older) plants functions, aggregates and operators of
every name the store's SQL uses; a colleague and the tables' owner then use the store, through the API and the real
command, and none of them runs, and row-level security still holds."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass

import psycopg
import pytest

from chatbot.engine.turn import Turn
from chatbot.storage.pg_names import PINNED_PATH
from chatbot.storage.postgres_store import PostgresStore
from tests.support import pg_shadows
from tests.support.cli import run_chatbot
from tests.support.stores import postgres_base_url

SECRET = "the launch codes are tangerine"
TABLES = ("chatbot_sessions", "chatbot_turns", "chatbot_owners")
PINNED = f"-csearch_path={PINNED_PATH.replace(' ', '')}"  # the test's own connections: the shadows are everywhere


def test_every_function_the_stores_sql_calls_is_named_with_its_schema():
    """A bare name is looked up through the search path, where a better-matching function of another schema wins."""
    found = {name: sql for sql in pg_shadows.statements() for name in pg_shadows.unqualified_calls(sql)}
    assert found == {}


def test_every_table_the_stores_sql_names_is_named_with_its_schema():
    """The store's own tables in ``{s}`` (its schema, put in by pg_names.named), the catalogs in theirs."""
    relation = re.compile(r"\b(?:FROM|JOIN|INTO|UPDATE|TABLE(?: IF (?:NOT )?EXISTS)?|REFERENCES|ON)\s+([\w.{}\"]+)")
    bare = {
        (name, sql)
        for sql in pg_shadows.statements()
        for name in relation.findall(sql)
        if "." not in name and name.startswith(("chatbot_", "pg_"))
    }
    assert bare == set()
    assert len(pg_shadows.statements()) > 40  # the statements were found (a constant renamed would hide them)


@dataclass
class Hostile:
    """A database as PostgreSQL 14 makes it (every role may create in ``public``), the store's tables in ``public``
    made by their owner and granted to a team as docs/stores.md says, and a member's shadows planted there."""

    admin: str  # the administrator's URL of the database
    owner: str  # the store URLs of the tables' owner, a colleague and the member who planted the shadows
    alice: str
    mallory: str
    planted: int

    def sql(self, query: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        """Rows of ``query`` run by the administrator (whose path is pinned too: the shadows are everywhere)."""
        with psycopg.connect(self.admin, autocommit=True, options=PINNED) as c:
            cur = c.execute(query, params)
            return cur.fetchall() if cur.description else []

    def ran(self) -> list[tuple[object, ...]]:
        """Who ran which shadow."""
        return self.sql(f"SELECT * FROM {pg_shadows.LOG}")


def _url(base: str, role: str, database: str) -> str:
    head, _, _ = base.rpartition("/")
    return head.replace("postgres@", f"{role}@", 1) + f"/{database}"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Iterator[Hostile]:
    base, name = postgres_base_url(), f"chatbot_h_{secrets.token_hex(4)}"
    owner, group = f"{name}_owner", f"{name}_users"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
        for statement in (f"CREATE ROLE {owner} LOGIN", f"CREATE ROLE {group} NOLOGIN"):
            conn.execute(statement)
        for member in ("alice", "mallory"):
            conn.execute(f"CREATE ROLE {name}_{member} LOGIN IN ROLE {group}")
    world = Hostile(*(_url(base, r, name) for r in ("postgres", owner, f"{name}_alice", f"{name}_mallory")), 0)
    try:
        world.sql("GRANT CREATE ON SCHEMA public TO PUBLIC")  # as PostgreSQL 12 to 14 make every database
        world.sql("CREATE EXTENSION pg_trgm SCHEMA public")
        world.sql(f"CREATE TABLE {pg_shadows.LOG} (who text, what text)")
        world.sql(f"GRANT SELECT, INSERT ON {pg_shadows.LOG} TO PUBLIC")
        PostgresStore(world.owner, tmp_path_factory.mktemp("owner")).close()  # the owner makes the tables
        for statement in (
            "GRANT USAGE ON SCHEMA public TO {g}",
            "GRANT SELECT ON chatbot_schema TO {g}",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON chatbot_sessions, chatbot_turns TO {g}",
            "GRANT SELECT, INSERT ON chatbot_owners TO {g}",
        ):
            with psycopg.connect(world.owner, autocommit=True) as conn:
                conn.execute("SET search_path = pg_catalog, public")
                conn.execute(statement.format(g=group))
        with psycopg.connect(world.mallory, autocommit=True, options=PINNED) as conn:  # her shadows are not for her
            world.planted = pg_shadows.plant(conn)
        yield world
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")
            for role in (f"{name}_alice", f"{name}_mallory", group, owner):
                conn.execute(f"DROP ROLE {role}")


def saved(store: PostgresStore, sid: str, text: str) -> None:
    session = store.create(sid, system="s")
    session.conversation.add_turn(Turn([{"role": "user", "content": text}, {"role": "assistant", "content": "ok"}]))
    with store.acquire(sid):
        store.save(session)


def test_a_members_shadows_never_run_for_a_colleague_nor_the_owner_and_each_keeps_their_rows(hostile, tmp_path):
    assert hostile.planted > 500  # every function and operator, in every variant that could beat the built-in
    assert {"quote_ident", "hashtextextended", "set_config", "length"} <= pg_shadows.functions()
    alice = PostgresStore(hostile.alice, tmp_path)
    saved(alice, "plans", SECRET)
    assert [i.id for i in alice.list_sessions()] == ["plans"] and alice.count_sessions() == 1
    assert [h.session_id for h in alice.search("TANGERINE")] == ["plans"]
    assert alice.latest() == "plans"
    alice.rename("plans", "launch")
    alice.close()
    # the owner's next open migrates (the version said to be older): every statement of the migration runs as it
    hostile.sql("UPDATE public.chatbot_schema SET version = 3")
    owner = PostgresStore(hostile.owner, tmp_path)
    saved(owner, "mine", "the owner's own")
    assert [i.id for i in owner.list_sessions()] == ["mine"]
    owner.close()
    mallory = PostgresStore(hostile.mallory, tmp_path)
    assert mallory.list_sessions() == [] and mallory.search("tangerine") == []
    mallory.close()

    assert hostile.ran() == []
    secured = hostile.sql(
        "SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class WHERE relname = ANY(%s) ORDER BY 1",
        (list(TABLES),),
    )
    assert secured == [(t, True, True) for t in sorted(TABLES)]
    with psycopg.connect(hostile.mallory, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM public.chatbot_turns").fetchone() == (0,)
    assert hostile.sql("SELECT version FROM public.chatbot_schema") == [(4,)]


def test_through_the_command_a_colleagues_chat_and_listing_run_none_of_the_members_shadows(hostile, tmp_path):
    env = {"PGCONNECT_TIMEOUT": "10"}
    chat = run_chatbot(
        "--store", hostile.alice, "--session", "cli", "-p", SECRET, "--provider", "echo", cwd=tmp_path, env=env
    )
    assert chat.returncode == 0, chat.stderr
    listed = run_chatbot("--store", hostile.alice, "--list-sessions", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "cli" in listed.stdout
    theirs = run_chatbot("--store", hostile.mallory, "--list-sessions", cwd=tmp_path)
    assert theirs.returncode == 0 and "cli" not in theirs.stdout
    assert hostile.ran() == []
    rows = hostile.sql("SELECT DISTINCT owner FROM public.chatbot_turns WHERE session_id = 'cli'")
    assert rows == [(hostile.alice.split("://")[1].split("@")[0],)]


def test_a_schema_every_role_may_create_in_is_named_in_a_warning_with_the_fix(hostile, tmp_path):
    store = PostgresStore(hostile.alice, tmp_path)
    [warning] = store.warnings
    assert 'REVOKE CREATE ON SCHEMA "public" FROM PUBLIC' in warning
    store.close()
