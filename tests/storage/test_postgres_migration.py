"""A database an earlier chatbot made is brought up to this schema in place on first use (chatbot/storage/
pg_migrate.py), and the search index is made where PostgreSQL allows it, with a clear warning where it does not."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from chatbot.engine.turn import Turn
from chatbot.errors import SessionError
from chatbot.storage import pg_wait
from chatbot.storage.pg_migrate import TRIGRAM_INDEX
from chatbot.storage.pg_schema import SCHEMA_KEY, SCHEMA_VERSION
from chatbot.storage.postgres_store import PostgresStore
from tests.support.postgres import schema_of
from tests.support.stores import admin, postgres_base_url

# made by the chatbot of schema version 1 (pg_dump --inserts of its tables): sessions "standup" and "recipes"
VERSION_1 = Path(__file__).parent / "data" / "pg_schema_v1.sql"


def login_role(pg_url: str, name: str, on_schema: str) -> Iterator[str]:
    """Make login role ``name`` with ``on_schema`` privileges on the scratch schema (and nothing else), yield its name,
    then end its connections and drop it with whatever it owns."""
    with admin(pg_url) as conn:
        conn.execute(f"CREATE ROLE {name} LOGIN")
        conn.execute(f"GRANT {on_schema} ON SCHEMA {schema_of(pg_url)} TO {name}")
    yield name
    with admin(pg_url) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", (name,))
        conn.execute(f"DROP OWNED BY {name}")
        conn.execute(f"DROP ROLE {name}")


@pytest.fixture
def role(pg_url: str) -> Iterator[str]:
    """A login role that may create tables in the scratch schema (and nothing else): its name."""
    yield from login_role(pg_url, f"chatbot_m_{secrets.token_hex(4)}", "USAGE, CREATE")


@pytest.fixture
def colleague(pg_url: str, role: str) -> Iterator[str]:
    """A second login role that may use the scratch schema and nothing else (a member of the team): its name."""
    yield from login_role(pg_url, f"{role}_c", "USAGE")


def test_a_version_1_database_is_migrated_in_place_and_its_sessions_belong_to_the_migrating_role(
    pg_url, role, tmp_path
):
    with admin(pg_url) as conn:
        conn.execute(f"SET ROLE {role}")  # the tables are the role's, as when it made them with chatbot 1
        conn.execute(VERSION_1.read_text())
    store = PostgresStore(pg_url.replace("postgres@", f"{role}@", 1), tmp_path)
    assert {(i.id, i.title, i.turns) for i in store.list_sessions()} == {
        ("standup", "Standup notes", 2),
        ("recipes", "a kimchi stew recipe 김치찌개", 2),
    }
    assert [t.user_text for t in store.load("recipes").conversation.turns][0] == "a kimchi stew recipe 김치찌개"
    assert [(h.session_id, h.turn) for h in store.search("DEPLOY")] == [("recipes", 2), ("standup", 1)]
    assert [h.session_id for h in store.search("김치")] == ["recipes"]
    session = store.load("standup")
    session.conversation.add_turn(session.conversation.turns[0])
    with store.acquire("standup"):
        store.save(session)
    assert len(store.load("standup").conversation.turns) == 3
    store.close()
    with admin(pg_url) as conn:
        assert conn.execute("SELECT version FROM chatbot_schema").fetchall() == [(SCHEMA_VERSION,)]
        for table in ("chatbot_sessions", "chatbot_turns"):
            assert conn.execute(f"SELECT DISTINCT owner FROM {table}").fetchall() == [(role,)]
            secured = conn.execute(
                "SELECT relrowsecurity, relforcerowsecurity FROM pg_class WHERE oid = %s::regclass", (table,)
            )
            assert secured.fetchone() == (True, True)
        assert conn.execute("SELECT to_regclass(%s)", (TRIGRAM_INDEX,)).fetchone() != (None,)
    other = PostgresStore(pg_url.replace("postgres@", f"{role}@", 1), tmp_path)  # opened again: nothing to do
    assert len(other.list_sessions()) == 2 and not other.warnings
    other.close()


@pytest.fixture
def database_without_trigrams(tmp_path) -> Iterator[tuple[str, str]]:
    """A new database with no pg_trgm, and a role that may make tables in it but not create an extension:
    (the role's URL, the administrator's)."""
    base = postgres_base_url()
    name = f"chatbot_x_{secrets.token_hex(4)}"
    with admin(base) as conn:
        conn.execute(f"CREATE DATABASE {name}")
        conn.execute(f"CREATE ROLE {name} LOGIN")
    url = base.rsplit("/", 1)[0] + f"/{name}"
    with admin(url) as conn:
        conn.execute(f"GRANT CREATE ON SCHEMA public TO {name}")
    try:
        yield url.replace("postgres@", f"{name}@", 1), url
    finally:
        with admin(base) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")
            conn.execute(f"DROP ROLE {name}")


def test_without_pg_trgm_the_store_warns_and_searches_by_scanning_until_it_is_installed(
    database_without_trigrams, tmp_path
):
    url, admin_url = database_without_trigrams
    store = PostgresStore(url, tmp_path)
    assert len(store.warnings) == 1 and "CREATE EXTENSION pg_trgm" in store.warnings[0]
    session = store.create("s", system="s")
    session.conversation.add_turn(Turn([{"role": "user", "content": "Find ME here"}]))
    with store.acquire("s"):
        store.save(session)
    assert [h.turn for h in store.search("find me")] == [1]
    store.close()
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION pg_trgm")
    again = PostgresStore(url, tmp_path)  # the tables' owner makes the index now
    assert again.warnings == [] and [h.turn for h in again.search("find me")] == [1]
    again.close()


@pytest.mark.parametrize("query", ["김치찌개", "ecipe 김", "DEPLOY"])
def test_the_trigram_index_serves_korean_and_substring_queries(open_pg, pg_url, query):
    """The plan of the search's match finds the turns through the trigram index (the planner told to avoid scans,
    as it would on a large table), for any language and any substring of three characters or more."""
    store = open_pg()
    session = store.create("s", system="s")
    session.conversation.add_turn(Turn([{"role": "user", "content": "a kimchi stew recipe 김치찌개 to deploy"}]))
    with store.acquire("s"):
        store.save(session)
    with admin(pg_url) as conn:
        conn.execute("SET enable_seqscan = off")
        plan = conn.execute(
            "EXPLAIN SELECT n FROM chatbot_turns WHERE body ILIKE '%%' || %s || '%%'", (query,)
        ).fetchall()
        found = conn.execute("SELECT n FROM chatbot_turns WHERE body ILIKE '%%' || %s || '%%'", (query,)).fetchall()
    assert TRIGRAM_INDEX in " ".join(line for (line,) in plan) and found == [(1,)]
    assert [h.turn for h in store.search(query)] == [1]


def test_a_version_2_database_gets_the_text_parts_of_every_roles_turns_with_images_searched(
    pg_url, role, colleague, tmp_path
):
    """Version 2 searched only messages that are plain text: migrated in place by the tables' owner, every role's
    turns with images are found by the text beside the image (row-level security forced again afterwards)."""
    as_role = {name: pg_url.replace("postgres@", f"{name}@", 1) for name in (role, colleague)}
    owner = PostgresStore(as_role[role], tmp_path)  # the role's tables, as a version-2 chatbot made them
    with admin(pg_url) as conn:
        conn.execute(f"GRANT SELECT ON chatbot_schema TO {colleague}")
        conn.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON chatbot_sessions, chatbot_turns TO {colleague}")
        conn.execute(f"GRANT SELECT, INSERT ON chatbot_owners TO {colleague}")
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,aGVsbG8="}}
    for name, store in ((role, owner), (colleague, PostgresStore(as_role[colleague], tmp_path))):
        session = store.create("pic", system="s")
        parts = [{"type": "text", "text": f"the red kite of {name}"}, image]
        session.conversation.add_turn(
            Turn([{"role": "user", "content": parts}, {"role": "assistant", "content": "a bird"}])
        )
        with store.acquire("pic"):
            store.save(session)
        store.close()
    with admin(pg_url) as conn:  # what version 2 wrote: the plain-text messages' text alone
        conn.execute("UPDATE chatbot_turns SET body = 'a bird'")
        conn.execute("UPDATE chatbot_schema SET version = 2")
    for name in (role, colleague):  # the owner first: only the tables' owner can migrate them
        store = PostgresStore(as_role[name], tmp_path)
        assert [(h.session_id, h.snippet) for h in store.search("red kite")] == [("pic", f"the red kite of {name}")]
        store.close()
    with admin(pg_url) as conn:
        assert conn.execute("SELECT version FROM chatbot_schema").fetchall() == [(SCHEMA_VERSION,)] == [(4,)]
        forced = conn.execute("SELECT relforcerowsecurity FROM pg_class WHERE oid = 'chatbot_turns'::regclass")
        assert forced.fetchone() == (True,)


def test_a_version_3_database_gets_lock_secrets_its_members_may_use_and_a_member_cannot_migrate_it(
    pg_url, role, colleague, tmp_path
):
    """Version 4 keeps each role's lock secret in a new table: a team granted the version-3 tables keeps working
    after the tables' owner opens the store once, and a colleague who comes first is told who must."""
    as_role = {name: pg_url.replace("postgres@", f"{name}@", 1) for name in (role, colleague)}
    owner = PostgresStore(as_role[role], tmp_path)
    session = owner.create("plans", system="s")
    session.conversation.add_turn(Turn([{"role": "user", "content": "q3"}, {"role": "assistant", "content": "ok"}]))
    with owner.acquire("plans"):
        owner.save(session)
    owner.close()
    with admin(pg_url) as conn:  # the tables as version 3 left them, granted as its docs said
        conn.execute("DROP TABLE chatbot_owners")
        conn.execute("ALTER TABLE chatbot_sessions DROP COLUMN lock_generation")
        conn.execute("UPDATE chatbot_schema SET version = 3")
        conn.execute(f"GRANT SELECT ON chatbot_schema TO {colleague}")
        conn.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON chatbot_sessions, chatbot_turns TO {colleague}")
    with pytest.raises(SessionError, match=f"version 4 by the role that owns them \\({role}\\)"):
        PostgresStore(as_role[colleague], tmp_path)
    owner = PostgresStore(as_role[role], tmp_path)
    with owner.acquire("plans"):
        assert [t.user_text for t in owner.load("plans").conversation.turns] == ["q3"]
    owner.close()
    theirs = PostgresStore(as_role[colleague], tmp_path)
    saved = theirs.create("plans", system="s")  # the colleague's own session of that id, locked and saved
    with theirs.acquire("plans"):
        theirs.save(saved)
    theirs.close()
    with admin(pg_url) as conn:
        assert conn.execute("SELECT version FROM chatbot_schema").fetchall() == [(SCHEMA_VERSION,)] == [(4,)]
        owners = conn.execute("SELECT owner FROM chatbot_owners ORDER BY owner").fetchall()
        assert owners == [(role,), (colleague,)]
        granted = conn.execute(
            "SELECT DISTINCT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(a.grantee) END "
            "FROM pg_class c, aclexplode(c.relacl) a WHERE c.oid = 'chatbot_owners'::regclass "
            "AND a.privilege_type IN ('SELECT', 'INSERT')"
        ).fetchall()
        assert sorted(g for (g,) in granted) == sorted([role, colleague])  # the colleague by name, never PUBLIC


def test_a_version_3_database_granted_to_public_gets_lock_secrets_every_role_may_use_and_keeps_its_turns(
    pg_url, role, colleague, tmp_path
):
    """A team that granted the version-3 tables to PUBLIC keeps working after the migration, and the turns of a
    version-3 store are not read again (their text is searchable already: a large store migrates at once)."""
    as_role = {name: pg_url.replace("postgres@", f"{name}@", 1) for name in (role, colleague)}
    owner = PostgresStore(as_role[role], tmp_path)
    session = owner.create("pic", system="s")
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,aGVsbG8="}}
    parts = [{"type": "text", "text": "the red kite"}, image]
    reply = {"role": "assistant", "content": "ok"}
    session.conversation.add_turn(Turn([{"role": "user", "content": parts}, reply]))
    with owner.acquire("pic"):
        owner.save(session)
    owner.close()
    with admin(pg_url) as conn:  # version 3, granted to everyone
        conn.execute("DROP TABLE chatbot_owners")
        conn.execute("ALTER TABLE chatbot_sessions DROP COLUMN lock_generation")
        conn.execute("UPDATE chatbot_schema SET version = 3")
        conn.execute("UPDATE chatbot_turns SET body = 'as version 3 wrote it'")
        conn.execute("GRANT SELECT ON chatbot_schema TO PUBLIC")
        conn.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON chatbot_sessions, chatbot_turns TO PUBLIC")
    PostgresStore(as_role[role], tmp_path).close()  # the tables' owner migrates them
    theirs = PostgresStore(as_role[colleague], tmp_path)  # granted nothing by name
    saved = theirs.create("notes", system="s")
    with theirs.acquire("notes"):
        theirs.save(saved)
    theirs.close()
    with admin(pg_url) as conn:
        assert conn.execute("SELECT body FROM chatbot_turns").fetchall() == [("as version 3 wrote it",)]
        granted = conn.execute(
            "SELECT DISTINCT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(a.grantee) END "
            "FROM pg_class c, aclexplode(c.relacl) a WHERE c.oid = 'chatbot_owners'::regclass "
            "AND a.privilege_type IN ('SELECT', 'INSERT')"
        ).fetchall()
        assert sorted(g for (g,) in granted) == sorted(["PUBLIC", role])


def test_opening_waits_for_another_process_making_the_tables_longer_than_for_any_other_call(
    pg_url, tmp_path, monkeypatch
):
    """Making or migrating the tables holds the schema lock for as long as it takes (indexes over every turn): a
    second chatbot opening the store then waits for it up to MIGRATION_TIMEOUT, not an ordinary call's few seconds."""
    monkeypatch.setattr(pg_wait, "ANSWER_TIMEOUT", 2.0)
    held, done = threading.Event(), threading.Event()

    def migrating() -> None:
        with admin(pg_url) as conn:
            conn.execute(f"SELECT pg_advisory_lock({SCHEMA_KEY})", {"schema": schema_of(pg_url)})
            held.set()
            done.wait(3)  # longer than an ordinary call may wait

    other = threading.Thread(target=migrating)
    other.start()
    try:
        assert held.wait(10)
        started = time.monotonic()
        store = PostgresStore(pg_url, tmp_path)
        assert time.monotonic() - started > 2.5  # it waited, and then made the tables
        assert store.list_sessions() == []
        store.close()
    finally:
        done.set()
        other.join()


def test_a_table_of_an_earlier_chatbot_gets_the_endpoint_column_keeping_its_sessions(open_pg, pg_url):
    first = open_pg()
    session = first.create("old", system="s", provider="openai", model="m")
    session.conversation.add_turn(Turn([{"role": "user", "content": "kept"}, {"role": "assistant", "content": "ok"}]))
    with first.acquire("old"):
        first.save(session)
    first.close()
    with admin(pg_url) as conn:  # the sessions table as it was before the mark was kept
        conn.execute("ALTER TABLE chatbot_sessions DROP COLUMN endpoint")
    store = open_pg()
    old = store.load("old")
    assert ([t.user_text for t in old.conversation.turns], old.endpoint) == (["kept"], "unknown")
    old.endpoint = "custom"
    with store.acquire("old"):
        store.save(old)
    assert open_pg().load("old").endpoint == "custom"
