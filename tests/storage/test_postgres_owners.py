"""Sessions belong to the database role that made them: with one role per person, a colleague's sessions cannot be
listed, read, continued, locked, renamed, deleted or searched, through the app or through plain SQL; a role shared
by a service's workers keeps working as one user (chatbot/storage/pg_migrate.py, pg_schema.py)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from unittest.mock import ANY

import psycopg
import pytest

from chatbot.engine.turn import Turn
from chatbot.errors import SessionError, SessionLocked, SessionNotFound
from chatbot.storage.pg_lock import session_key
from chatbot.storage.postgres_store import PostgresStore
from tests.support.cli import run_chatbot
from tests.support.postgres import schema_of
from tests.support.stores import admin

SECRET = "the launch codes are tangerine"


@dataclass
class Team:
    """A store's schema as docs/stores.md sets it up for a team: a group role granted the tables, a login per person."""

    url: str  # the administrator's (who made the tables)
    group: str

    def as_role(self, role: str) -> str:
        return self.url.replace("postgres@", f"{role}@", 1)

    def member(self, name: str) -> str:
        """A new login role in the group; its store URL."""
        role = f"{self.group}_{name}"
        with admin(self.url) as conn:
            conn.execute(f"CREATE ROLE {role} LOGIN IN ROLE {self.group}")
        return self.as_role(role)


@pytest.fixture
def team(pg_url: str, tmp_path) -> Iterator[Team]:
    group = f"chatbot_t_{secrets.token_hex(4)}"
    PostgresStore(pg_url, tmp_path).close()  # the administrator's first use makes the tables
    with admin(pg_url) as conn:
        for statement in (
            "CREATE ROLE {g} NOLOGIN",
            "GRANT USAGE ON SCHEMA {s} TO {g}",
            "GRANT SELECT ON chatbot_schema TO {g}",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON chatbot_sessions, chatbot_turns TO {g}",
            "GRANT SELECT, INSERT ON chatbot_owners TO {g}",
        ):
            conn.execute(statement.format(g=group, s=schema_of(pg_url)))
    yield Team(pg_url, group)
    with admin(pg_url) as conn:
        roles = [r for (r,) in conn.execute("SELECT rolname FROM pg_roles WHERE rolname LIKE %s", (f"{group}%",))]
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = ANY(%s)",
            (roles,),
        )
        for role in sorted(roles, key=len, reverse=True):  # the members, then the group
            conn.execute(f"DROP OWNED BY {role}")
            conn.execute(f"DROP ROLE {role}")


def alices(team: Team, sid: str) -> object:
    """Everything stored for Alice's session ``sid`` (read by the administrator, whom the policies do not bind)."""
    alice = f"{team.group}_alice"
    with admin(team.url) as conn:
        row = conn.execute("SELECT * FROM chatbot_sessions WHERE owner = %s AND id = %s", (alice, sid)).fetchall()
        turns = conn.execute(
            "SELECT n, data::text FROM chatbot_turns WHERE owner = %s AND session_id = %s ORDER BY n", (alice, sid)
        )
        return row, turns.fetchall()


def saved(store: PostgresStore, sid: str, *texts: str, title: str = "") -> None:
    session = store.create(sid, system="s", title=title)
    for text in texts:
        session.conversation.add_turn(Turn([{"role": "user", "content": text}, {"role": "assistant", "content": "ok"}]))
    with store.acquire(sid):
        store.save(session)


def test_another_role_cannot_list_read_continue_rename_delete_or_search_a_session(team, tmp_path):
    alice, bob = PostgresStore(team.member("alice"), tmp_path), PostgresStore(team.member("bob"), tmp_path)
    saved(alice, "plans", SECRET, title="Q3 plans")
    before = alices(team, "plans")
    assert bob.list_sessions() == [] and bob.search("tangerine") == [] and bob.choose_latest() == (None, [])
    assert not bob.exists("plans")
    with pytest.raises(SessionNotFound):
        bob.load("plans")
    with pytest.raises(SessionNotFound):
        bob.rename("plans", "mine now")
    with pytest.raises(SessionNotFound):
        bob.delete("plans")
    assert alices(team, "plans") == before
    assert [hit.title for hit in alice.search("tangerine")] == ["Q3 plans"]
    alice.close()
    bob.close()


def test_a_session_id_is_each_roles_own_and_so_is_its_lock(team, tmp_path):
    """Bob's "plans" is another session than Alice's: making it, holding its lock or deleting it leaves hers alone,
    and while she has hers open his is not refused as "in use" (which would tell him she has one)."""
    alice, bob = PostgresStore(team.member("alice"), tmp_path), PostgresStore(team.member("bob"), tmp_path)
    saved(alice, "plans", SECRET)
    with alice.acquire("plans"):
        saved(bob, "plans", "my own plans")
        second = PostgresStore(team.as_role(f"{team.group}_alice"), tmp_path)
        with bob.acquire("plans"), pytest.raises(SessionLocked):  # Alice's own second process is still refused
            second.acquire("plans")
        second.close()
    with bob.acquire("plans"), alice.acquire("plans"):  # Bob holding his lock does not keep Alice from hers
        assert alice.holds("plans")
    bob.delete("plans")
    assert [t.user_text for t in alice.load("plans").conversation.turns] == [SECRET]
    assert [info.id for info in alice.list_sessions()] == ["plans"]
    alice.close()
    bob.close()


def test_another_role_cannot_read_or_write_a_session_through_sql(team, tmp_path):
    alice_url, bob_url = team.member("alice"), team.member("bob")
    alice = PostgresStore(alice_url, tmp_path)
    saved(alice, "plans", SECRET)
    before = alices(team, "plans")
    alice.close()
    with psycopg.connect(bob_url, autocommit=True) as bob:
        assert bob.execute("SELECT count(*) FROM chatbot_sessions").fetchone() == (0,)
        assert bob.execute("SELECT count(*) FROM chatbot_turns WHERE body ILIKE '%tangerine%'").fetchone() == (0,)
        assert bob.execute("UPDATE chatbot_sessions SET title = 'mine' WHERE id = 'plans'").rowcount == 0
        assert bob.execute("UPDATE chatbot_turns SET body = 'x'").rowcount == 0
        assert bob.execute("DELETE FROM chatbot_turns").rowcount == 0
        assert bob.execute("DELETE FROM chatbot_sessions").rowcount == 0
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            bob.execute(
                "INSERT INTO chatbot_turns (owner, session_id, n, created_at, body, data) "
                "VALUES (%s, 'plans', 2, '', 'planted', '{}')",
                (f"{team.group}_alice",),
            )
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # nor disable the policies: he does not own them
            bob.execute("ALTER TABLE chatbot_sessions DISABLE ROW LEVEL SECURITY")
    assert alices(team, "plans") == before


def test_a_lock_key_is_the_roles_own_so_sql_cannot_take_a_colleagues(team, tmp_path):
    """A session's lock key hashes a secret only its role can read: the SQL the app runs gives Bob his own key,
    never Alice's, so it neither blocks her nor tells him whether she has a session of that id open."""
    alice_url, bob_url = team.member("alice"), team.member("bob")
    alice = PostgresStore(alice_url, tmp_path)
    saved(alice, "plans", SECRET)
    with psycopg.connect(bob_url, autocommit=True) as bob:
        bobs_key, _ = session_key(bob, "plans", schema_of(team.url))
        assert bob.execute("SELECT pg_try_advisory_lock(%s)", (bobs_key,)).fetchone() == (True,)
        assert bob.execute("SELECT owner, lock_secret FROM chatbot_owners").fetchall() == [(f"{team.group}_bob", ANY)]
        with alice.acquire("plans") as lock:
            assert lock.key != bobs_key
    alice.close()


def held_keys(conn: psycopg.Connection) -> set[int]:
    """Every advisory lock key held in the database, as any role can read them from pg_locks."""
    rows = conn.execute(
        "SELECT (classid::bigint << 32) | objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 "
        "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    ).fetchall()
    return {key for (key,) in rows}


def test_a_key_copied_from_pg_locks_and_held_does_not_keep_the_owner_out(team, tmp_path):
    """Bob copies the keys Alice holds from pg_locks and takes them when she lets go: her next lock moves the session
    to a new key and takes it, through the store and through the CLI, and one process at a time still holds it."""
    alice_url, bob_url = team.member("alice"), team.member("bob")
    alice = PostgresStore(alice_url, tmp_path)
    saved(alice, "plans", SECRET)
    with psycopg.connect(bob_url, autocommit=True, application_name="squatter") as bob:
        with alice.acquire("plans") as lock:
            copied = held_keys(bob)
            assert lock.key in copied
        for key in copied:
            assert bob.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone() == (True,)
        with alice.acquire("plans") as lock:
            assert lock.key not in copied
            copied_again = held_keys(bob)
            other = PostgresStore(alice_url, tmp_path)
            with pytest.raises(SessionLocked, match=rf"in use by another chatbot process \(pid {os.getpid()} on "):
                other.acquire("plans")
            other.close()
        alice.close()
        for key in copied_again - copied:  # her new key, copied in turn while she held it: he takes it too
            assert bob.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone() == (True,)
        env = {"CHATBOT_ECHO_DELAY": "0"}
        again = run_chatbot(
            "--provider", "echo", "--store", alice_url, "-c", "-p", "what did I say?", cwd=tmp_path, env=env
        )
        assert again.returncode == 0, again.stderr
        assert "session plans (1 turn(s) stored)" in again.stderr
    assert len(alices(team, "plans")[1]) == 2  # the turn she added after both squats is stored


def test_through_the_cli_another_role_finds_nothing_and_its_session_of_the_same_id_is_its_own(team, tmp_path):
    alice_url, bob_url = team.member("alice"), team.member("bob")
    env = {"CHATBOT_ECHO_DELAY": "0"}
    made = run_chatbot(
        "--provider", "echo", "--store", alice_url, "--session", "plans", "-p", SECRET, cwd=tmp_path, env=env
    )
    assert made.returncode == 0, made.stderr
    before = alices(team, "plans")
    listed = run_chatbot("--store", bob_url, "--list-sessions", cwd=tmp_path)
    assert listed.returncode == 0 and "plans" not in listed.stdout
    found = run_chatbot("--store", bob_url, "--search", "tangerine", cwd=tmp_path)
    assert found.returncode == 0 and "no turn in" in found.stdout and "plans" not in found.stdout
    chat = ("--provider", "echo", "--store", bob_url)
    again = run_chatbot(*chat, "-c", "-p", "what did I say?", cwd=tmp_path, env=env)
    assert SECRET not in again.stdout + again.stderr
    commands = "/load plans\n/delete plans --force\n/search tangerine\n"
    other = run_chatbot(*chat, "--session", "notes", stdin=commands, cwd=tmp_path, env=env)
    assert SECRET not in other.stdout + other.stderr and "matching turn" not in other.stdout
    assert "no session plans" in other.stdout + other.stderr and "no turn in" in other.stdout
    own = run_chatbot(*chat, "--session", "plans", stdin="/rename taken\nhello\n", cwd=tmp_path, env=env)
    assert own.returncode == 0 and SECRET not in own.stdout + own.stderr
    assert alices(team, "plans") == before
    mine = run_chatbot("--store", alice_url, "--search", "tangerine", cwd=tmp_path)
    assert "plans" in mine.stdout


def test_workers_sharing_one_role_share_its_sessions_and_locks(team, tmp_path):
    """A service with one role for all its workers works as before owners: one set of sessions, one lock each."""
    url = team.member("service")
    first, second = PostgresStore(url, tmp_path), PostgresStore(url, tmp_path)
    saved(first, "ticket-1", "the printer is on fire")
    assert [info.id for info in second.list_sessions()] == ["ticket-1"]
    assert [hit.session_id for hit in second.search("on fire")] == ["ticket-1"]
    with first.acquire("ticket-1"), pytest.raises(SessionLocked):
        second.acquire("ticket-1")
    second.rename("ticket-1", "Printer")
    assert first.load("ticket-1").title == "Printer"
    second.delete("ticket-1")
    assert first.list_sessions() == []
    first.close()
    second.close()


def test_a_role_not_granted_the_lock_secrets_is_told_so_when_it_opens_a_session(team, tmp_path):
    """A team set up without the grant on chatbot_owners: a member can list, and opening a session names the table."""
    role = f"{team.group}_newcomer"
    with admin(team.url) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f"GRANT USAGE ON SCHEMA {schema_of(team.url)} TO {role}")
        conn.execute(f"GRANT SELECT ON chatbot_schema TO {role}")
        conn.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON chatbot_sessions, chatbot_turns TO {role}")
    store = PostgresStore(team.as_role(role), tmp_path)
    assert store.list_sessions() == []
    with pytest.raises(SessionError, match="permission denied for table chatbot_owners"):
        store.acquire("plans")
    store.close()


def test_a_role_granted_nothing_is_told_what_the_store_lacks_and_how_a_team_sets_it_up(team, tmp_path):
    role = f"{team.group}_stranger"
    with admin(team.url) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")  # no grant at all: not even the schema's use
    with pytest.raises(SessionError) as refused:
        PostgresStore(team.as_role(role), tmp_path).list_sessions()
    said = refused.value.message
    assert "which this role may not use (no USAGE grant)" in said and "'one role per person'" in said


def test_a_role_granted_the_schema_but_not_the_tables_is_told_what_the_store_lacks(team, tmp_path):
    role = f"{team.group}_half"
    with admin(team.url) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f"GRANT USAGE ON SCHEMA {schema_of(team.url)} TO {role}")  # the schema, but no table
    with pytest.raises(SessionError) as refused:
        PostgresStore(team.as_role(role), tmp_path).list_sessions()
    said = refused.value.message
    assert "permission denied" in said and "this role lacks a grant the store needs" in said


def test_a_quoted_schema_name_the_role_may_not_use_is_named_too(team, tmp_path):
    from urllib.parse import quote

    role, schema = f"{team.group}_quoted", f"TeamChat{team.group[-4:]}"  # upper case: a name only quotes keep
    with admin(team.url) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f'CREATE SCHEMA "{schema}"')  # there, but not granted to the role
    base = team.as_role(role).split("?", 1)[0]
    path = '-csearch_path="' + schema + '"'
    url = f"{base}?options={quote(path)}"
    try:
        with pytest.raises(SessionError, match=f"is in schema '{schema}', which this role may not use"):
            PostgresStore(url, tmp_path).list_sessions()
    finally:
        with admin(team.url) as conn:
            conn.execute(f'DROP SCHEMA "{schema}"')
