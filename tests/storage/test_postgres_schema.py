"""The PostgreSQL store's schema and rows (chatbot/storage/pg_schema.py), seen through the store: which databases it
accepts, how it reads rows someone else damaged, what text PostgreSQL cannot hold becomes, what its errors say."""

from __future__ import annotations

import json
import re
import threading

import pytest

from chatbot.engine.turn import Turn
from chatbot.errors import SessionCorrupt, StoreUnavailable
from chatbot.storage.json_store import JsonStore
from chatbot.storage.pg_schema import SCHEMA_VERSION, first_line, like_escape, searchable
from tests.support.postgres import dead_url
from tests.support.stores import admin, postgres_base_url, scratch_schema


def turn(text: str) -> Turn:
    return Turn([{"role": "user", "content": text}, {"role": "assistant", "content": "ok"}])


def stored(store, sid: str, *texts: str, title: str = ""):  # type: ignore[no-untyped-def]
    session = store.create(sid, system="s", title=title)
    for text in texts:
        session.conversation.add_turn(turn(text))
    with store.acquire(sid):
        store.save(session)
    return session


def test_a_database_of_the_next_schema_version_is_refused(open_pg, pg_url):
    open_pg()
    with admin(pg_url) as conn:
        conn.execute("UPDATE chatbot_schema SET version = version + 1")
    with pytest.raises(SessionCorrupt, match=f"schema version {SCHEMA_VERSION + 1}, made by a newer chatbot"):
        open_pg()


def test_opening_a_database_again_keeps_its_one_version_row(open_pg, pg_url):
    for _ in range(3):
        open_pg().list_sessions()
    with admin(pg_url) as conn:
        assert conn.execute("SELECT version FROM chatbot_schema").fetchall() == [(SCHEMA_VERSION,)]


def open_at_once(url: str, n: int) -> list[BaseException]:
    """Open ``n`` stores on ``url`` from ``n`` threads released together; what each one raised."""
    from chatbot.storage.postgres_store import PostgresStore

    start, errors, stores = threading.Barrier(n), [], []

    def open_one() -> None:
        start.wait()
        try:
            stores.append(PostgresStore(url))
        except Exception as exc:  # any failure is what the test reports
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for store in stores:
        store.close()
    return errors


def test_stores_opened_at_once_on_an_empty_database_all_work():
    """Creating the tables is one process at a time: the others wait and find them made."""
    for _ in range(4):
        with scratch_schema(postgres_base_url()) as url:
            assert open_at_once(url, 4) == []


@pytest.mark.parametrize(
    ("damage", "rows"),
    [
        ("UPDATE chatbot_turns SET n = 4 WHERE n = 3", "[1, 2, 4], expected 1 to 3"),
        ("UPDATE chatbot_sessions SET turn_count = 2", "[1, 2, 3], expected 1 to 2"),
        ("DELETE FROM chatbot_turns WHERE n = 1", "[2, 3], expected 1 to 3"),
    ],
)
def test_turn_rows_that_do_not_number_one_to_the_count_refuse_the_session(open_pg, pg_url, damage, rows):
    store = open_pg()
    stored(store, "s", "one", "two", "three")
    with admin(pg_url) as conn:
        conn.execute(damage)
    with pytest.raises(SessionCorrupt, match=rf"session s .* cannot be loaded: its turn rows are {re.escape(rows)}"):
        store.load("s")


@pytest.mark.parametrize(
    "first",
    [
        {},
        {"messages": []},
        {"messages": "hello"},
        {"messages": ["hello", {"role": "user", "content": "hello"}]},
        [1, 2],
    ],
)
def test_an_untitled_session_whose_first_turn_is_damaged_is_still_listed_and_searched(open_pg, pg_url, first):
    """The listing shows no title rather than crash; the search skips the damaged turn and finds the others."""
    store = open_pg()
    stored(store, "s", "hello there", "and hello again")
    with admin(pg_url) as conn:
        conn.execute("UPDATE chatbot_turns SET data = %s WHERE n = 1", (json.dumps(first),))
    [info] = store.list_sessions()
    assert (info.id, info.title, info.turns) == ("s", "", 2)
    assert [(hit.session_id, hit.title, hit.turn) for hit in store.search("hello")] == [("s", "", 2)]


def test_an_untitled_session_is_listed_by_its_first_message_as_the_json_store_lists_it(open_pg, tmp_path):
    """Whichever --store is used, the listing and the search show the same title: the first message, cut."""
    text = "  Plan a  trip\nto the mountains of northern Italy in late September, with trains only  "
    files, pg = JsonStore(tmp_path / "sessions"), open_pg()
    image = [{"type": "text", "text": "What is in this picture?"}, {"type": "image_url", "image_url": {"url": "x"}}]
    for store in (files, pg):
        stored(store, "long", text, "more")
        stored(store, "short", "Hi there", title="")
        stored(store, "titled", "Anything", title="My title")
        session = store.create("image", system="s")
        session.conversation.add_turn(Turn([{"role": "user", "content": image}, {"role": "assistant", "content": "A"}]))
        with store.acquire("image"):
            store.save(session)
    titles = {info.id: info.title for info in files.list_sessions()}
    assert {info.id: info.title for info in pg.list_sessions()} == titles
    assert titles["long"].startswith("Plan a trip to the mountains") and titles["short"] == "Hi there"
    assert titles["image"] == "What is in this picture?"
    assert [hit.title for hit in pg.search("mountains")] == [hit.title for hit in files.search("mountains")]


def test_text_postgresql_cannot_hold_is_stored_as_replacement_characters(open_pg):
    """NUL and lone surrogates (from a JSON escape or an undecodable byte) become U+FFFD in the session's own
    columns; turns keep them exactly (their JSON escapes them) and stay searchable."""
    odd = "nul\x00 low\ud800 high\udfff mid\udcff end"
    shown = "nul\ufffd low\ufffd high\ufffd mid\ufffd end"
    store = open_pg()
    session = store.create("s", system=odd, title=odd, model=odd, provider=odd)
    session.conversation.add_turn(turn(odd))
    session.conversation.set_summary(odd, 1)
    with store.acquire("s"):
        store.save(session)
    again = store.load("s")
    assert (again.title, again.conversation.system, again.conversation.summary, again.model, again.provider) == (
        shown,
        shown,
        shown,
        shown,
        shown,
    )
    assert again.conversation.turns[0].user_text == odd
    assert [hit.turn for hit in store.search("high")] == [1]


def test_an_unreachable_server_is_named_with_the_first_line_of_the_reason():
    from chatbot.storage.postgres_store import PostgresStore

    with pytest.raises(StoreUnavailable) as err:
        PostgresStore(dead_url())
    assert "cannot reach the session store postgresql://postgres@127.0.0.1:" in err.value.message
    assert err.value.message.endswith("Connection refused") and "\n" not in err.value.message


def test_an_error_is_named_by_its_first_line_or_by_its_kind_when_it_says_nothing():
    import psycopg

    assert first_line(psycopg.OperationalError("  server closed the connection\nunexpectedly\n")) == (
        "server closed the connection"
    )
    assert first_line(psycopg.OperationalError("")) == "OperationalError"  # an error may carry no text


def test_a_listing_read_in_chunks_lists_every_session_and_marks_only_the_damaged_one(open_pg, pg_url, monkeypatch):
    from chatbot.storage import pg_schema

    monkeypatch.setattr(pg_schema, "LIST_CHUNK", 2)
    store = open_pg()
    for k in range(5):
        stored(store, f"s{k}", "one", "two")
    with admin(pg_url) as conn:
        conn.execute("UPDATE chatbot_turns SET n = 7 WHERE session_id = 's2' AND n = 2")
    infos = store.list_sessions()
    assert sorted(info.id for info in infos) == [f"s{k}" for k in range(5)]
    assert [info.id for info in infos if info.broken] == ["s2"]
    loaded = {sid: store.load(sid) for sid in ("s0", "s1", "s3", "s4")}
    assert {(i.id, i.title, i.turns, i.updated_at) for i in infos if not i.broken} == {
        (sid, "one", 2, session.updated_at) for sid, session in loaded.items()
    }
    calls = []

    def run(work):  # type: ignore[no-untyped-def]
        calls.append(work)
        return store._run(work)

    assert pg_schema.listing(run, store.schema) == infos  # every session when no limit is given
    # the rows, then the turns two sessions a call, then the damaged one alone: never a call for each session
    assert len(calls) == 1 + 3 + 1


def test_a_session_saved_while_a_listing_reads_it_is_not_shown_as_damaged(open_pg, pg_url):
    """The listing's calls are separate snapshots: a turn saved between the rows and the turns is no damage."""
    from chatbot.storage import pg_schema

    store, writer = open_pg(), open_pg()
    session = stored(writer, "busy", "one")
    calls = []

    def run(work):  # type: ignore[no-untyped-def]
        if len(calls) == 1:  # after the session rows were read, before their turns
            session.conversation.add_turn(turn("two"))
            with writer.acquire("busy"):
                writer.save(session)
        calls.append(work)
        return store._run(work)

    [info] = pg_schema.listing(run, store.schema)
    assert (info.id, info.turns, info.broken) == ("busy", 2, "")


def test_a_session_deleted_while_a_listing_reads_it_is_left_out_and_the_rest_still_listed(open_pg, pg_url):
    from chatbot.storage import pg_schema

    store, writer = open_pg(), open_pg()
    for sid in ("old1", "old2"):
        stored(writer, sid, "one")
    session = stored(writer, "busy", "one")  # the newest (or as new, and first by id): the first of its chunk
    calls = []

    def run(work):  # type: ignore[no-untyped-def]
        if len(calls) == 1:  # its turns change after its row was read: it looks damaged, so it is read again...
            session.conversation.add_turn(turn("two"))
            with writer.acquire("busy"):
                writer.save(session)
        if len(calls) == 2:  # ...and is gone by then
            writer.delete("busy")
        calls.append(work)
        return store._run(work)

    assert sorted((info.id, info.broken) for info in pg_schema.listing(run, store.schema)) == [
        ("old1", ""),
        ("old2", ""),
    ]


def test_dash_c_finds_the_newest_session_past_one_deleted_before_it_was_read(open_pg, pg_url, monkeypatch):
    from chatbot.storage import pg_schema

    store, writer = open_pg(), open_pg()
    stored(writer, "old", "one")
    stored(writer, "busy", "one")  # the newest (or as new, and first by id)
    read = pg_schema.read_session

    def deleted_first(conn, sid, schema):  # type: ignore[no-untyped-def]
        if sid == "busy":
            writer.delete("busy")
        return read(conn, sid, schema)

    monkeypatch.setattr(pg_schema, "read_session", deleted_first)
    assert store.latest() == "old"


def test_the_newest_sessions_and_their_count_are_read_from_indexes(open_pg, pg_url):
    """A listing's two statements walk an index (the planner told to avoid scans, as it would on a large table):
    the newest N stop after N rows, whatever the store holds, and the count reads no table row it can skip."""
    from chatbot.storage.pg_names import named
    from chatbot.storage.pg_schema import COUNT, LIST

    store = open_pg()
    for sid in ("a", "b", "c"):
        stored(store, sid, "hello")
    with admin(pg_url) as conn:
        conn.execute("SET enable_seqscan = off")
        newest = " ".join(line for (line,) in conn.execute(f"EXPLAIN {named(LIST, store.schema)}", (2,)).fetchall())
        count = " ".join(line for (line,) in conn.execute(f"EXPLAIN {named(COUNT, store.schema)}").fetchall())
    assert "Limit" in newest and "chatbot_sessions_owner_updated" in newest and "Seq Scan" not in newest
    assert "Index Only Scan" in count and "Seq Scan" not in count
    assert len(store.list_sessions(2)) == 2 and store.count_sessions() == 3


def test_a_search_texts_pattern_characters_are_escaped_to_stand_for_themselves():
    assert like_escape("50%_off\\now") == "50\\%\\_off\\\\now"
    assert like_escape("plain") == "plain"


def test_a_turns_search_text_is_its_chat_messages_text_one_line_each_and_junk_gives_none():
    messages = [
        "junk",  # a damaged row: what text it has is still searched
        {"role": "user", "content": "where   is\tit"},
        {"role": "system", "content": "never searched"},
        {"role": "assistant", "content": [{"type": "text", "text": "here"}, {"type": "image_url"}]},
        {"role": "tool", "content": "found"},
    ]
    assert searchable(messages) == "where is it\nhere\nfound"
    assert searchable({"role": "user", "content": "not a list"}) == ""
    assert searchable("text") == ""


@pytest.mark.parametrize(
    ("turns", "shown"),
    [
        (10, "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], expected 1 to 9"),
        (11, "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]…, expected 1 to 10"),
    ],
)
def test_a_long_list_of_turn_rows_is_named_by_its_first_ten(open_pg, pg_url, turns, shown):
    store = open_pg()
    stored(store, "s", *(f"q{i}" for i in range(turns)))
    with admin(pg_url) as conn:
        conn.execute("UPDATE chatbot_sessions SET turn_count = turn_count - 1")
    with pytest.raises(SessionCorrupt, match=rf"cannot be loaded: its turn rows are {re.escape(shown)}\. "):
        store.load("s")
