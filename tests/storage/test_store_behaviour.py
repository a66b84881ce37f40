"""One behaviour suite, run against every store (JSON files, SQLite and PostgreSQL): what callers may rely on whichever
store ``--store`` picked. The ``store``/``store_url`` fixtures (tests/conftest.py) give a fresh store of each kind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import Turn
from chatbot.engine.usage import Totals
from chatbot.errors import InvalidSessionId, SessionCorrupt, SessionError, SessionLocked, SessionNotFound
from chatbot.storage.export import export_markdown
from chatbot.storage.json_store import JsonStore
from chatbot.storage.session import Session, ToolSources
from chatbot.storage.transfer import import_sessions
from tests.support.stores import break_turn, set_version, snapshot

ROOT = Path(__file__).resolve().parents[2]


def turn(text: str, answer: str = "ok", **kw) -> Turn:
    return Turn([{"role": "user", "content": text}, {"role": "assistant", "content": answer}], **kw)


def rich(store, sid: str = "rich") -> Session:
    """A session with every kind of field: tools, unicode, an interrupted turn, a summary, totals, calibration."""
    session = store.create(sid, system="Be brief. 간단히.", provider="groq", model="openai/gpt-oss-20b", title="Rich")
    call = {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": '{"q": "x"}'}}
    conv = session.conversation
    conv.add_turn(turn("안녕하세요 — hello", "Hi! 👋", usage={"prompt_tokens": 12, "source": "provider"}, latency=0.4))
    conv.add_turn(
        Turn(
            [
                {"role": "user", "content": "look it up"},
                {"role": "assistant", "content": None, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": "c1", "name": "lookup", "content": "found: 42"},
                {"role": "assistant", "content": "It is 42."},
            ]
        )
    )
    conv.add_turn(turn("tell a long story", "Once upon\n\n[interrupted by the user]", interrupted=True))
    conv.set_summary("The user greeted; the answer was 42.", 2)
    session.totals = Totals(requests=3, reported_requests=1, prompt_tokens=12, completion_tokens=5)
    session.calibration_for("openai/gpt-oss-20b").learn(1000, 1070)
    session.set_option("temperature", 0.2)
    return session


def saved(store, session: Session) -> Session:
    with store.acquire(session.id):
        store.save(session)
    return session


def start_child(mode: str, url: str, sid: str, *extra: str) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.support.store_process", mode, url, sid, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert child.stdout is not None
    line = child.stdout.readline().strip()
    assert line == "ready", f"child failed: {line!r} {child.stderr.read() if child.stderr else ''}"
    return child


def kill9(child: subprocess.Popen[str]) -> None:
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    for stream in (child.stdout, child.stderr):
        if stream:
            stream.close()


# --- round trip and every turn kept -------------------------------------------------------------------------------


def test_round_trip_keeps_every_field(store, open_test_store):
    session = saved(store, rich(store))
    again = open_test_store().load("rich")
    assert again.to_dict() == session.to_dict()
    assert again.conversation.turns[2].interrupted and again.conversation.summary_covers == 2


def test_every_turn_is_kept_through_saves_undo_reset_and_summaries(store, open_test_store):
    reader = open_test_store()
    with store.acquire("s"):
        session = store.create("s", system="sys")
        conv = session.conversation
        for i in range(1, 31):
            conv.add_turn(turn(f"question {i}", f"answer {i}"))
            store.save(session)
            if i % 10 == 0:
                conv.set_summary(f"summary up to {i - 2}", i - 2)
                store.save(session)
        assert reader.load("s").to_dict() == session.to_dict()
        conv.undo()
        conv.undo()
        store.save(session)
        conv.add_turn(turn("after undo"))
        store.save(session)
        assert [t.user_text for t in reader.load("s").conversation.turns][-3:] == [
            "question 27",
            "question 28",
            "after undo",
        ]
        conv.turns[-1].latency = 9.5  # a field of a stored turn changed: the store sees it
        store.save(session)
        assert reader.load("s").to_dict() == session.to_dict()
        conv.reset()
        store.save(session)
        assert reader.load("s").conversation.turns == [] and reader.load("s").conversation.summary == ""
        conv.add_turn(turn("fresh start"))
        store.save(session)
    assert reader.load("s").to_dict() == session.to_dict()


def test_save_sets_updated_at_and_keeps_created_at(store):
    session = store.create("s", system="s")
    session.created_at = session.updated_at = "2020-01-01T00:00:00+00:00"
    saved(store, session)
    loaded = store.load("s")
    assert loaded.created_at == "2020-01-01T00:00:00+00:00" and loaded.updated_at > loaded.created_at


# --- ids ------------------------------------------------------------------------------------------------------


def test_a_new_session_has_no_provider_or_model_unless_given_and_the_memory_and_counter_it_is_given(store):
    plain = store.create("plain", system="s")
    assert (plain.provider, plain.model, plain.title) == ("", "", "")
    given = store.create("given", system="s", provider="groq", model="openai/gpt-oss-20b", title="T")
    assert (given.provider, given.model, given.title) == ("groq", "openai/gpt-oss-20b", "T")
    memory = MemoryConfig(strategy="window", window_turns=3)
    counter = TokenCounter()
    windowed = store.create("windowed", system="s", memory=memory, counter=counter)
    assert windowed.conversation.memory == memory and windowed.conversation.counter is counter


def test_a_session_is_loaded_under_the_memory_and_counter_the_caller_gives(store):
    saved(store, store.create("counted", system="s", counter=TokenCounter()))
    memory = MemoryConfig(strategy="window", window_turns=2)
    counter = TokenCounter()
    loaded = store.load("counted", memory=memory, counter=counter)
    assert loaded.conversation.memory == memory and loaded.conversation.counter is counter


@pytest.mark.parametrize("bad", ["", "../x", "a/b", ".hidden", "x" * 65, "a b", "é", "a\x00b"])
def test_bad_ids_are_refused_by_every_operation(store, bad):
    for call in (store.exists, store.load, store.acquire, store.delete, lambda i: store.create(i, system="s")):
        with pytest.raises(InvalidSessionId, match="invalid session id"):
            call(bad)


def test_create_refuses_an_id_in_use_and_load_a_missing_one(store):
    saved(store, store.create("taken", system="s"))
    with pytest.raises(SessionError, match="already exists"):
        store.create("taken", system="s")
    with pytest.raises(SessionNotFound, match="no session nope"):
        store.load("nope")
    assert store.new_id() != store.new_id()


# --- locks and writers ------------------------------------------------------------------------------------------


def test_a_second_store_is_refused_with_a_message_naming_the_holder(store, open_test_store):
    other = open_test_store()
    lock = store.acquire("s")
    with pytest.raises(SessionLocked) as err:
        other.acquire("s")
    assert err.value.message.startswith(f"session s is in use by another chatbot process (pid {os.getpid()}")
    assert err.value.message.endswith("; close it or use --session with another id")
    assert store.acquire("s") is lock and store.holds("s") and not other.holds("s")
    lock.release()
    assert not lock.held
    other.acquire("s").release()


def test_save_requires_the_lock(store):
    session = store.create("s", system="s")
    with pytest.raises(SessionLocked, match="not locked by this process"):
        store.save(session)
    assert not store.exists("s")


def test_acquire_can_wait_for_the_other_holder(store, open_test_store):
    other = open_test_store()
    lock = store.acquire("s")
    started = time.monotonic()
    with pytest.raises(SessionLocked):
        other.acquire("s", timeout=0.3)
    assert time.monotonic() - started >= 0.3
    lock.release()
    other.acquire("s", timeout=1).release()


def test_a_killed_process_lock_goes_with_it(store, store_url):
    child = start_child("hold", store_url, "s")
    try:
        with pytest.raises(SessionLocked, match=f"pid {child.pid}"):
            store.acquire("s")
    finally:
        kill9(child)
    deadline = time.monotonic() + 5  # the server notices the closed socket at once; allow for a slow machine
    while True:
        try:
            store.acquire("s").release()
            break
        except SessionLocked:
            assert time.monotonic() < deadline, "the killed process's lock outlived it"
            time.sleep(0.05)


def test_two_writers_never_lose_each_others_turns(store, open_test_store):
    a, b = store, open_test_store()
    with a.acquire("s"):
        first = a.create("s", system="s")
        first.conversation.add_turn(turn("from a"))
        a.save(first)
    with b.acquire("s"):  # a released: b takes over and adds a turn
        second = b.load("s")
        second.conversation.add_turn(turn("from b"))
        b.save(second)
    with a.acquire("s"), pytest.raises(SessionError, match="not loaded by this process"):
        a.save(first)  # a's copy is stale: saving it would drop b's turn
    with a.acquire("s"):
        fresh = a.load("s")
        assert [t.user_text for t in fresh.conversation.turns] == ["from a", "from b"]
        fresh.conversation.add_turn(turn("from a again"))
        a.save(fresh)
    assert len(b.load("s").conversation.turns) == 3


def test_writer_processes_in_turn_keep_all_their_turns(store, store_url):
    children = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.support.store_process", "writer", store_url, "shared", str(first)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for first in (100, 200, 300)
    ]
    for child in children:
        out, _ = child.communicate(timeout=120)
        assert out.strip() == "done"
    numbers = sorted(int(t.user_text.split()[0]) for t in store.load("shared").conversation.turns)
    assert numbers == [*range(100, 120), *range(200, 220), *range(300, 320)]


def test_writer_processes_on_different_sessions_at_once_lose_nothing(store, store_url):
    children = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.support.store_process", "writer", store_url, f"w{k}", str(k * 100)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for k in range(1, 5)
    ]
    for child in children:
        out, err = child.communicate(timeout=120)
        assert out.strip() == "done" and "Traceback" not in err, err
    for k in range(1, 5):
        numbers = [int(t.user_text.split()[0]) for t in store.load(f"w{k}").conversation.turns]
        assert numbers == list(range(k * 100, k * 100 + 20))


def test_kill_9_during_a_save_loop_always_leaves_a_loadable_session(store, store_url):
    counts = []
    for pause in (0.0, 0.05, 0.1, 0.15):
        child = start_child("save-loop", store_url, "crash")
        time.sleep(pause)
        kill9(child)
        session = store.load("crash")
        n = len(session.conversation.turns)
        assert n >= 1 and session.totals.requests == n
        assert [t.user_text.split()[0] for t in session.conversation.turns] == [str(i) for i in range(1, n + 1)]
        counts.append(n)
        deadline = time.monotonic() + 5
        while True:  # and the lock did not outlive the process
            try:
                store.acquire("crash").release()
                break
            except SessionLocked:
                assert time.monotonic() < deadline
                time.sleep(0.05)
    assert counts == sorted(counts) and counts[-1] > counts[0]


# --- corrupt or foreign data --------------------------------------------------------------------------------------


def test_a_session_from_a_newer_chatbot_is_refused_listed_and_never_overwritten(store, store_url):
    saved(store, rich(store))
    set_version(store_url, "rich", 99)
    before = snapshot(store_url, "rich")
    with pytest.raises(SessionCorrupt, match="rich.*newer chatbot") as err:
        store.load("rich")
    assert "will not be overwritten" in err.value.message
    info = store.list_sessions()[0]
    assert info.id == "rich" and "newer chatbot" in info.broken
    assert store.latest() is None
    impostor = Session(id="rich", conversation=Conversation("a new session that reuses the id"))
    with store.acquire("rich"), pytest.raises(SessionError, match="not loaded by this process"):
        store.save(impostor)
    assert snapshot(store_url, "rich") == before


def test_a_damaged_turn_is_refused_by_name(store, store_url):
    saved(store, rich(store))
    break_turn(store_url, "rich", 2)
    for _ in range(2):  # and again: refusing it once does not change how it is refused
        with pytest.raises(SessionCorrupt, match=r"rich.*turns\[1\]\.messages\[0\]\.role must be one of"):
            store.load("rich")
    assert [hit.session_id for hit in store.search("hello")] in ([], ["rich"])  # never a crash


# --- list, rename, delete, export -------------------------------------------------------------------------------


def test_listing_is_newest_first_with_titles_and_counts(store):
    for sid, n in (("old", 1), ("mid", 2), ("new", 3)):
        session = store.create(sid, system="s", model="m")
        for i in range(n):
            session.conversation.add_turn(turn(f"{sid} question {i}"))
        saved(store, session)
        time.sleep(1.05)  # updated_at has whole seconds
    infos = store.list_sessions()
    assert [(i.id, i.turns, i.title, i.model) for i in infos] == [
        ("new", 3, "new question 0", "m"),
        ("mid", 2, "mid question 0", "m"),
        ("old", 1, "old question 0", "m"),
    ]
    assert store.latest() == "new"


def test_a_limited_listing_is_the_newest_sessions_and_the_count_is_of_them_all(store):
    for i in range(5):
        session = store.create(f"s{i}", system="s")
        session.conversation.add_turn(turn(f"question {i}"))
        session.updated_at = f"2026-01-01T00:00:0{i}+00:00"
        with store.acquire(session.id):
            store.save(session, touch=False)
    assert [i.id for i in store.list_sessions(2)] == ["s4", "s3"]
    assert (
        [i.id for i in store.list_sessions(0)]
        == ["s4", "s3", "s2", "s1", "s0"]
        == [i.id for i in store.list_sessions()]
    )
    assert store.count_sessions() == 5
    store.delete("s4")
    assert store.count_sessions() == 4 and [i.id for i in store.list_sessions(1)] == ["s3"]


def test_rename_gives_a_title(store):
    saved(store, rich(store))
    store.rename("rich", "Renamed ✓")
    assert store.load("rich").title == "Renamed ✓" and store.list_sessions()[0].title == "Renamed ✓"


def test_renaming_a_session_this_store_holds_keeps_it_held(store, open_test_store):
    saved(store, rich(store))
    with store.acquire("rich"):
        store.rename("rich", "Mine")
        assert store.holds("rich")
        with pytest.raises(SessionLocked):
            open_test_store().acquire("rich")
    assert store.load("rich").title == "Mine"


def test_delete_removes_a_session_and_refuses_one_in_use(store, open_test_store):
    saved(store, rich(store))
    saved(store, store.create("keep", system="s"))
    other = open_test_store()
    with other.acquire("rich"), pytest.raises(SessionLocked):
        store.delete("rich")
    store.delete("rich")
    assert not store.exists("rich") and [i.id for i in store.list_sessions()] == ["keep"]
    with pytest.raises(SessionNotFound) as missing:
        store.delete("rich")
    assert missing.value.message == f"no session rich in {store.location}"
    saved(store, store.create("rich", system="again"))  # the id is free again
    assert store.load("rich").conversation.turns == []


def test_export_is_the_markdown_transcript_of_the_stored_session(store):
    session = saved(store, rich(store))
    text = store.export("rich")
    assert text == export_markdown(session)
    assert "## Summary of turns 1-2" in text and "*Tool call* `lookup`" in text and "(interrupted)" in text


# --- search -----------------------------------------------------------------------------------------------------


def test_search_finds_turns_across_sessions_newest_first(store):
    a = store.create("a", system="s", title="Trip")
    a.conversation.add_turn(turn("Where is the Eiffel tower?", "In Paris."))
    a.conversation.add_turn(turn("and the louvre?", "Also in PARIS, near the Seine."))
    saved(store, a)
    time.sleep(1.05)
    b = store.create("b", system="s")
    b.conversation.add_turn(turn("weather", "sunny"))
    b.conversation.add_turn(turn("Paris weather in May?", "Mild, 100% nice_ish."))
    saved(store, b)
    hits = store.search("paris")
    assert [(h.session_id, h.turn) for h in hits] == [("b", 2), ("a", 1), ("a", 2)]
    assert hits[0].title == "weather" and hits[1].title == "Trip"
    assert "Paris" in hits[1].snippet and hits[1].created_at
    assert [h.turn for h in store.search("100% nice_")] == [2]  # % and _ are plain characters
    assert store.search("100%_nice") == []
    assert store.search("nowhere to be found") == [] and len(store.search("paris", limit=1)) == 1


def test_search_ranks_turns_by_how_often_the_whole_query_occurs_then_newest_first(store):
    """Every store gives the same hits in the same order: a case-insensitive substring match of the whole query, the
    turns where it occurs most first, ties newest first."""

    def at(when: str, user: str, reply: str) -> Turn:
        return Turn([{"role": "user", "content": user}, {"role": "assistant", "content": reply}], created_at=when)

    a = store.create("a", system="s")
    a.conversation.add_turn(at("2026-01-01T10:00:00+00:00", "Paris in May?", "mild"))
    a.conversation.add_turn(at("2026-01-01T10:01:00+00:00", "Paris, PARIS", "I said: paris"))
    saved(store, a)
    b = store.create("b", system="s")
    b.conversation.add_turn(at("2026-02-01T10:00:00+00:00", "parisparis", "no"))
    b.conversation.add_turn(at("2026-02-01T10:01:00+00:00", "paris   in may", "yes"))
    saved(store, b)
    assert [(h.session_id, h.turn, h.matches) for h in store.search("paris")] == [
        ("a", 2, 3),
        ("b", 1, 2),
        ("b", 2, 1),
        ("a", 1, 1),
    ]
    assert [(h.session_id, h.turn) for h in store.search("ARIS  IN")] == [("b", 2), ("a", 1)]
    assert [(h.session_id, h.turn) for h in store.search("may paris")] == []


def test_search_finds_the_text_parts_of_a_message_with_an_image(store):
    """A message with images carries its text as parts of a list: every store searches that text as any other."""
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,aGVsbG8="}}
    s = store.create("pic", system="s")
    s.conversation.add_turn(
        Turn(
            [
                {
                    "role": "user",
                    "content": [{"type": "text", "text": "What   is the Red Kite\non this photo?"}, image],
                },
                {"role": "assistant", "content": "A bird of prey."},
            ]
        )
    )
    saved(store, s)
    assert [(h.session_id, h.turn, h.matches) for h in store.search("red kite")] == [("pic", 1, 1)]
    assert [h.turn for h in store.search("is the red")] == [1]  # runs of whitespace count as one space
    assert "Red Kite" in store.search("kite")[0].snippet
    assert store.search("image_url") == [] and store.search("aGVsbG8") == []  # the parts' text only


def test_a_query_found_in_more_turns_than_the_window_ranks_only_the_newest_of_them(store, monkeypatch):
    """A common word in a large store costs the newest SEARCH_WINDOW matches, not every one: every store alike."""
    from chatbot.storage import postgres_store, session, sqlite_store

    for module in (session, postgres_store, sqlite_store):
        monkeypatch.setattr(module, "SEARCH_WINDOW", 2)
    s = store.create("w", system="s")
    for minute, text in enumerate(("tea tea tea", "tea", "coffee", "tea and tea")):
        when = f"2026-03-01T10:0{minute}:00+00:00"
        s.conversation.add_turn(Turn([{"role": "user", "content": text}], created_at=when))
    saved(store, s)
    assert [(h.turn, h.matches) for h in store.search("tea")] == [(4, 2), (2, 1)]


# --- import -----------------------------------------------------------------------------------------------------


def test_import_copies_json_sessions_once_and_takes_rescued_continuations(store, tmp_path):
    source = JsonStore(tmp_path / "old")
    one, two = saved(source, rich(source, "one")), saved(source, rich(source, "two"))
    (source.directory / "broken.json").write_text("{not json")
    report = import_sessions(source.directory, store)
    assert (report.imported, report.updated, report.unchanged) == (2, 0, 0)
    assert len(report.refused) == 1 and report.refused[0].startswith("broken.json: it is not valid JSON")
    assert store.load("one").to_dict() == one.to_dict()  # updated_at too: an import is not a new use
    again = import_sessions(source.directory, store)
    assert (again.imported, again.updated, again.unchanged) == (0, 0, 2)
    with source.acquire("two"):
        two.conversation.add_turn(turn("one more, rescued"))
        source.save(two)
    with source.acquire("one"):
        one.conversation.reset()  # not a continuation of what the store holds: refused, kept as it is
        source.save(one)
    third = import_sessions(source.directory, store)
    assert (third.imported, third.updated, third.unchanged) == (0, 1, 0)
    assert any(r.startswith("one.json: the store holds a different session one") for r in third.refused)
    assert store.load("two").conversation.turns[-1].user_text == "one more, rescued"
    assert len(store.load("one").conversation.turns) == 3
    assert "imported 0, updated 1, unchanged 0, refused 2" in third.summary("old", "store")


def test_nul_and_undecodable_text_in_a_turn_round_trips_lists_and_searches(store, open_test_store):
    session = store.create("odd", system="s")
    session.conversation.add_turn(turn("nul\x00 and \udcff bytes here", "fine"))
    saved(store, session)
    assert open_test_store().load("odd").conversation.turns[0].user_text == "nul\x00 and \udcff bytes here"
    assert store.list_sessions()[0].title.startswith("nul")
    assert [h.turn for h in store.search("bytes here")] == [1]


def test_imported_tools_stay_untrusted_until_the_user_attaches_them_and_a_continuation_keeps_that_trust(
    store, tmp_path
):
    source = JsonStore(tmp_path / "theirs")
    theirs = rich(source, "gift")
    theirs.tool_sources = ToolSources(("/tmp/tools.py",), ("python server.py",))  # trusted where it was written
    saved(source, theirs)
    report = import_sessions(source.directory, store)
    assert store.load("gift").tool_sources == replace(theirs.tool_sources, imported=True)
    assert report.untrusted == [
        "session gift: its tools are not trusted, so they are not started until you attach them once "
        "(--session gift --functions /tmp/tools.py --mcp 'python server.py')"
    ]
    assert "  session gift: its tools are not trusted" in report.summary("theirs", "store")
    again = import_sessions(source.directory, store)
    assert (again.imported, again.updated, again.unchanged) == (0, 0, 1) and again.untrusted == report.untrusted
    mine = store.load("gift")
    mine.tool_sources = theirs.tool_sources  # the user attached them on the command line
    saved(store, mine)
    with source.acquire("gift"):
        theirs.conversation.add_turn(turn("one more, rescued"))
        source.save(theirs)
    same = import_sessions(source.directory, store)  # the very tools the store trusts: still trusted
    assert (same.updated, same.untrusted) == (1, []) and not store.load("gift").tool_sources.imported
    with source.acquire("gift"):
        theirs.conversation.add_turn(turn("and one with other tools"))
        theirs.tool_sources = ToolSources((), ("sh -c 'rm -rf ~'",))
        source.save(theirs)
    other = import_sessions(source.directory, store)
    assert other.updated == 1 and store.load("gift").tool_sources == replace(theirs.tool_sources, imported=True)


def test_the_custom_endpoint_mark_is_kept_by_every_store_and_a_new_session_has_none(store, open_test_store):
    marked = store.create("local", system="s", provider="openai", model="m")
    marked.endpoint = "custom"
    saved(store, marked)
    saved(store, store.create("own", system="s", provider="openai", model="m"))
    reader = open_test_store()
    assert (reader.load("local").endpoint, reader.load("own").endpoint) == ("custom", "")
    again = reader.load("local")
    again.endpoint = ""  # served by the provider's own service since: the mark goes
    saved(reader, again)
    assert open_test_store().load("local").endpoint == ""


def test_a_save_the_store_refuses_because_another_process_wrote_the_session_keeps_it_whole_and_it_comes_back(
    store, open_test_store, tmp_path, monkeypatch
):
    """The store's copy went another way: the first turns it held are not "held" any more, so the rescue is the
    whole session (a rescue of the new turns alone could never be imported), and importing it makes a session of
    its own beside the other process's."""
    from chatbot.core import saving
    from chatbot.errors import SaveFailed

    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path / "rescue"))
    a, b = store, open_test_store()
    with a.acquire("s"):
        mine = a.create("s", system="s")
        mine.conversation.add_turn(turn("from a"))
        a.save(mine)
        held = saving.held(mine)
    with b.acquire("s"):
        theirs = b.load("s")
        theirs.conversation.add_turn(turn("from b"))
        b.save(theirs)
    with a.acquire("s"):
        mine.conversation.add_turn(turn("a's second"))
        with pytest.raises(SaveFailed) as failed:
            saving.save(mine, a, held)
    rescued = Path(failed.value.rescued or "")
    assert "-turns-" not in rescued.name and "not loaded by this process" in failed.value.message
    report = import_sessions(rescued, a)
    assert (report.imported, report.refused) == (1, [])
    assert [t.user_text for t in a.load("s-rescued").conversation.turns] == ["from a", "a's second"]
    assert [t.user_text for t in a.load("s").conversation.turns] == ["from a", "from b"]
