"""A PostgreSQL store's address as a user writes it (chatbot/storage/pg_address.py): a password never shows, whole or
in part, and a libpq ``key=value`` connection string is a PostgreSQL store, never a folder."""

from __future__ import annotations

import os
import socket
from urllib.parse import urlsplit

import pytest

from chatbot.errors import ConfigError, StoreUnavailable
from chatbot.storage import open_store
from chatbot.storage.pg_address import hide_password
from chatbot.storage.postgres_store import PostgresStore
from tests.support.cli import run_chatbot
from tests.support.postgres import schema_of
from tests.support.stores import admin

PASSWORD = "Xq7@Zk9v"  # an unencoded @: libpq reads Xq7 as the password and Zk9v@HOST as the host
PIECES = ("Xq7", "Zk9v")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def shows_none_of_the_password(text: str) -> bool:
    return not any(piece in text for piece in PIECES)


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://alice:{PASSWORD}@127.0.0.1:5432/chat",
        "postgresql://alice:Xq7/Zk9v@127.0.0.1:5432/chat",  # an unencoded /
        "postgresql://alice:Xq7#Zk9v@127.0.0.1:5432/chat",  # an unencoded #
        "postgresql://alice:Xq7?Zk9v@127.0.0.1:5432/chat",  # an unencoded ?: Xq7 would be read as the port
    ],
)
def test_a_url_libpq_would_misread_is_refused_before_connecting_naming_the_fix_not_the_password(url):
    with pytest.raises(ConfigError) as refused:
        open_store(url)
    assert "percent-encode it (@ as %40" in refused.value.message
    assert shows_none_of_the_password(refused.value.message)


def test_what_libpq_says_about_a_misread_url_shows_no_piece_of_the_password(tmp_path):
    """A library caller that opens the store itself gets libpq's own message: the host it tried holds the end of the
    password, which is masked."""
    with pytest.raises(StoreUnavailable) as failed:
        PostgresStore(f"postgresql://alice:{PASSWORD}@127.0.0.1:{free_port()}/chat?connect_timeout=2", tmp_path)
    assert "failed to resolve host '***@127.0.0.1'" in failed.value.message
    assert shows_none_of_the_password(failed.value.message)


def test_a_password_is_masked_in_a_message_whichever_way_the_address_holds_it():
    assert hide_password("auth for secret failed", "host=db password=secret") == "auth for *** failed"
    assert hide_password("no 'a b'", "host=db password='a b'") == "no '***'"
    assert hide_password("no s3cret@", "postgresql://db/chat?password=s3cret%40") == "no ***"
    assert hide_password("host Zk9v@db", f"postgresql://u:{PASSWORD}@db/c") == "host ***@db"


def test_the_command_refuses_an_unencoded_at_in_one_line_with_no_piece_of_the_password(tmp_path):
    done = run_chatbot(
        "--store", f"postgresql://alice:{PASSWORD}@127.0.0.1:{free_port()}/chat", "-p", "hi", "--provider", "echo",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode != 0
    assert "percent-encode it (@ as %40" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert shows_none_of_the_password(done.stdout + done.stderr)


def test_a_connection_string_is_a_postgresql_store_never_a_folder_and_its_password_is_not_shown(tmp_path):
    conninfo = f"host=127.0.0.1 port={free_port()} user=alice password=Sekr3tPw dbname=chat connect_timeout=2"
    (tmp_path / "sessions").mkdir()  # as the runner makes it
    before = sorted(os.listdir(tmp_path))
    done = run_chatbot("--store", conninfo, "-p", "hi", "--provider", "echo", cwd=tmp_path)
    assert done.returncode != 0
    assert "cannot reach the session store host=127.0.0.1" in done.stderr and "password=***" in done.stderr
    assert "Sekr3tPw" not in done.stdout + done.stderr
    assert sorted(os.listdir(tmp_path)) == before  # no folder named after it
    assert not any("host=" in str(p) for p in tmp_path.rglob("*"))


def test_a_connection_string_to_the_real_server_keeps_and_lists_sessions(pg_url, tmp_path):
    url = urlsplit(pg_url)
    conninfo = (
        f"host={url.hostname} port={url.port} user={url.username} dbname={url.path[1:]} password=Sekr3tPw "
        f"options='-csearch_path={schema_of(pg_url)}'"
    )
    chat = run_chatbot("--store", conninfo, "--session", "kv", "-p", "hi", "--provider", "echo", cwd=tmp_path)
    assert chat.returncode == 0, chat.stderr
    listed = run_chatbot("--store", conninfo, "--list-sessions", cwd=tmp_path)
    assert listed.returncode == 0 and "kv" in listed.stdout
    assert "Sekr3tPw" not in chat.stdout + chat.stderr + listed.stdout + listed.stderr
    assert not any("host=" in str(p) for p in tmp_path.rglob("*"))
    with admin(pg_url) as conn:
        assert conn.execute("SELECT id FROM chatbot_sessions").fetchall() == [("kv",)]


def test_a_short_password_is_masked_where_it_stands_alone_and_the_words_around_it_stay_whole():
    said = 'connection failed: connection to server at "127.0.0.1", port 5 failed: Connection refused'
    assert hide_password(said, "postgresql://alice:on@127.0.0.1:5/db") == said  # "on" of "connection" is not it
    assert hide_password('user "on" failed', "postgresql://alice:on@h/db") == 'user "***" failed'
    # the piece after an encoded @ ("t") is masked as a host libpq misread, not in every "t" of the message
    misread = 'could not translate host name "t@127.0.0.1" to address'
    masked = hide_password(misread, "postgresql://a:s3cr%40t@h/db")
    assert masked == 'could not translate host name "***@127.0.0.1" to address'
