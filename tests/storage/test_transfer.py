"""--import-sessions at its edges (what counts as a continuation, what is refused and why, the counts) and the rescue
folder a store that lost its database writes: where it is, that it is private, that it imports as it is."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from chatbot.engine.turn import Turn
from chatbot.errors import UsageError
from chatbot.storage.json_store import JsonStore
from chatbot.storage.session import Session, ToolSources
from chatbot.storage.transfer import default_rescue_dir, import_sessions, write_rescue
from tests.support.store_child import hold_lock_in_child

STAMP = "2026-11-30T08:00:00+00:00"


def exchange(text: str) -> Turn:
    return Turn([{"role": "user", "content": text}, {"role": "assistant", "content": "ok"}], created_at=STAMP)


def document(sid: str, *texts: str, created: str = STAMP, updated: str = STAMP) -> Session:
    session = Session.new(sid, system="sys", model="m")
    for text in texts:
        session.conversation.add_turn(exchange(text))
    session.created_at, session.updated_at = created, updated
    return session


def put(directory: Path, *sessions: Session) -> None:
    """Write session files as a folder to import (the file name is the id)."""
    directory.mkdir(exist_ok=True)
    for session in sessions:
        (directory / f"{session.id}.json").write_bytes(session.to_json())


def counts(report) -> tuple[int, int, int, int]:
    return report.imported, report.updated, report.unchanged, len(report.refused)


def test_a_first_import_keeps_each_session_as_it_was_saved(tmp_path):
    put(tmp_path / "src", document("a", "one"), document("b", "two", updated="2026-11-30T08:30:00+00:00"))
    store = JsonStore(tmp_path / "store")
    report = import_sessions(tmp_path / "src", store)
    assert counts(report) == (2, 0, 0, 0)
    assert store.load("b").updated_at == "2026-11-30T08:30:00+00:00"  # an import is not a new use
    assert store.load("a").to_dict() == document("a", "one").to_dict()
    assert (
        report.summary("src", "store") == "imported 2, updated 0, unchanged 0, refused 0 session(s) from src into store"
    )


def test_a_continuation_is_an_update_even_when_stamped_the_same_second(tmp_path):
    store = JsonStore(tmp_path / "store")
    put(tmp_path / "v1", document("a", "one"), document("b", "one"))
    import_sessions(tmp_path / "v1", store)
    later = document("b", "one", "two", updated="2026-11-30T09:00:00+00:00")
    put(tmp_path / "v2", document("a", "one", "two"), later)
    report = import_sessions(tmp_path / "v2", store)
    assert counts(report) == (0, 2, 0, 0)
    assert [t.user_text for t in store.load("a").conversation.turns] == ["one", "two"]
    assert store.load("b").updated_at == "2026-11-30T09:00:00+00:00"
    again = import_sessions(tmp_path / "v2", store)
    assert counts(again) == (0, 0, 2, 0)


@pytest.mark.parametrize(
    "other",
    [
        document("a", "one", "two", created="2026-11-30T07:00:00+00:00"),  # another session under the same id
        document("a", "changed", "two"),  # a stored turn is not in it
        document("a", "one", "two", updated="2026-11-30T07:59:59+00:00"),  # older than what the store holds
    ],
    ids=["other start", "other turns", "older"],
)
def test_a_file_that_does_not_continue_the_stored_session_is_refused_and_changes_nothing(tmp_path, other):
    store = JsonStore(tmp_path / "store")
    put(tmp_path / "v1", document("a", "one"))
    import_sessions(tmp_path / "v1", store)
    put(tmp_path / "v2", other)
    report = import_sessions(tmp_path / "v2", store)
    assert counts(report) == (0, 0, 0, 1)
    assert report.refused == ["a.json: the store holds a different session a; it was left as it is"]
    assert store.load("a").to_dict() == document("a", "one").to_dict()


def test_refused_files_are_named_with_their_reason_and_the_rest_still_imported(tmp_path):
    src = tmp_path / "src"
    put(src, document("fine", "one"), document("busy", "two"))
    (src / "-bad.json").write_bytes(document("x").to_json())
    (src / "broken.json").write_text("{")
    store = JsonStore(tmp_path / "store")
    with hold_lock_in_child(store.directory, "busy"):
        report = import_sessions(src, store)
    assert counts(report) == (1, 0, 0, 3)
    assert report.refused[0] == "-bad.json: the file name is not a session id"
    assert report.refused[1].startswith("broken.json: it is not valid JSON")
    assert report.refused[2].startswith("busy.json: session busy is in use")
    assert store.exists("fine") and not store.exists("busy") and not store.exists("x")
    assert report.summary("src", "db").splitlines()[1:] == [f"  refused {why}" for why in report.refused]


def test_a_named_pipe_among_the_files_is_refused_unread(tmp_path):
    src = tmp_path / "src"
    put(src, document("fine", "one"))
    os.mkfifo(src / "pipe.json")  # opening it to read would wait for a writer forever
    report = import_sessions(src, JsonStore(tmp_path / "store"))
    assert counts(report) == (1, 0, 0, 1)
    assert report.refused == ["pipe.json: it is a named pipe (FIFO), not a regular file"]


# --- the rescue folder ------------------------------------------------------------------------------------------


def test_the_default_rescue_folder_is_in_the_user_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_rescue_dir() == tmp_path / "data" / "chatbot" / "rescue"


def test_a_rescue_goes_into_a_new_private_folder_and_imports_as_it_is(tmp_path):
    old = os.umask(0o022)
    try:
        path = write_rescue(document("lost", "one", "two"), tmp_path / "rescue")
    finally:
        os.umask(old)
    assert path.name == "lost.json" and path.parent.parent == tmp_path / "rescue"
    assert re.fullmatch(r"\d{8}T\d{6}", path.parent.name)  # the folder is named by the time, to the second
    for folder in (tmp_path / "rescue", path.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    store = JsonStore(tmp_path / "store")
    assert counts(import_sessions(path.parent, store)) == (1, 0, 0, 0)
    assert store.load("lost").to_dict() == document("lost", "one", "two").to_dict()


# --- small rescues: the turns after the ones the store held ---------------------------------------------------


def small_rescue(directory: Path, session: Session, after: int, name: str) -> Path:
    directory.mkdir(exist_ok=True)
    path = directory / f"chatbot-rescue-{session.id}-{name}.json"
    path.write_bytes(session.rescue_json(after))
    return path


def test_a_small_rescue_appends_its_turns_once_and_is_refused_when_the_store_went_another_way(tmp_path):
    store = JsonStore(tmp_path / "store")
    with store.acquire("s1"):
        store.save(document("s1", "one"), touch=False)
    full = document("s1", "one", "two", "three")
    first = small_rescue(tmp_path / "src", full, 1, "a")
    assert counts(import_sessions(first, store)) == (0, 1, 0, 0)
    assert [t.messages[0]["content"] for t in store.load("s1").conversation.turns] == ["one", "two", "three"]
    assert store.load("s1").updated_at > STAMP  # the appended session is saved now
    assert counts(import_sessions(first, store)) == (0, 0, 1, 0)  # the store holds them all already
    part = small_rescue(tmp_path / "src", document("s1", "one", "two"), 1, "b")
    assert counts(import_sessions(part, store)) == (0, 0, 1, 0)
    other = small_rescue(tmp_path / "other", document("s1", "one", "else"), 1, "c")
    report = import_sessions(other, store)
    assert counts(report) == (0, 0, 0, 1)
    assert report.refused == [
        f"{other.name}: session s1 in the store no longer ends with the turns these follow; it was left as it is"
    ]
    short = small_rescue(tmp_path / "short", document("s1", "one", "two", "three", "four", "five", "six"), 5, "d")
    report = import_sessions(short, store)  # it follows five turns; the store holds three
    assert report.refused == [
        f"{short.name}: session s1 in the store no longer ends with the turns these follow; it was left as it is"
    ]
    assert len(store.load("s1").conversation.turns) == 3


def test_a_small_rescue_whose_session_is_gone_makes_the_session(tmp_path):
    store = JsonStore(tmp_path / "store")
    path = small_rescue(tmp_path / "src", document("s3", "one", "two"), 1, "a")
    assert counts(import_sessions(tmp_path / "src", store)) == (1, 0, 0, 0)
    assert [t.messages[0]["content"] for t in store.load("s3").conversation.turns] == ["two"]
    assert store.load("s3").updated_at == STAMP  # kept as it was saved
    assert path.exists()


def test_a_rescue_file_that_makes_a_session_brings_its_tools_untrusted(tmp_path):
    store = JsonStore(tmp_path / "store")
    rescued = document("s4", "one", "two")
    rescued.tool_sources = ToolSources(mcp=("python server.py",))
    small_rescue(tmp_path / "src", rescued, 1, "a")
    report = import_sessions(tmp_path / "src", store)
    assert counts(report) == (1, 0, 0, 0) and store.load("s4").tool_sources.imported
    assert report.untrusted == [
        "session s4: its tools are not trusted, so they are not started until you attach them once "
        "(--session s4 --mcp 'python server.py')"
    ]


def test_a_session_made_from_a_rescue_takes_the_same_rescue_again_unchanged_and_a_later_one_appended(tmp_path):
    store = JsonStore(tmp_path / "store")
    path = small_rescue(tmp_path / "src", document("s3", "one", "two"), 1, "a")
    assert counts(import_sessions(path, store)) == (1, 0, 0, 0)
    assert counts(import_sessions(path, store)) == (0, 0, 1, 0)  # its turns are there: not appended twice
    later = small_rescue(tmp_path / "later", document("s3", "one", "two", "three"), 1, "b")
    assert counts(import_sessions(later, store)) == (0, 1, 0, 0)
    assert [t.messages[0]["content"] for t in store.load("s3").conversation.turns] == ["two", "three"]
    other = small_rescue(tmp_path / "other", document("s3", "one", "deux"), 1, "c")
    assert import_sessions(other, store).refused == [
        f"{other.name}: session s3 in the store no longer ends with the turns these follow; it was left as it is"
    ]


def test_a_path_that_is_neither_a_folder_nor_a_file_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match=r"^--import-sessions: .*nothing is not a directory or a session file$"):
        import_sessions(tmp_path / "nothing", JsonStore(tmp_path / "store"))


def test_a_sqlite_file_that_is_not_there_is_a_usage_error_and_is_not_made(tmp_path):
    for source in (f"sqlite:{tmp_path}/gone.db", str(tmp_path / "gone.sqlite")):
        with pytest.raises(UsageError, match=r"does not exist: there is no SQLite file to read"):
            import_sessions(source, JsonStore(tmp_path / "store"))
    assert list(tmp_path.iterdir()) == []


def test_a_rescue_file_whose_session_id_is_not_valid_is_refused(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "chatbot-rescue-x.json").write_bytes(document("ok").to_json().replace(b'"ok"', b'"-bad"', 1))
    report = import_sessions(src, JsonStore(tmp_path / "store"))
    assert report.refused == ["chatbot-rescue-x.json: the session id '-bad' inside it is not a valid id"]


def test_a_plain_session_file_is_imported_under_its_file_name(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "named.json").write_bytes(document("inside", "one").to_json())
    store = JsonStore(tmp_path / "store")
    assert counts(import_sessions(src, store)) == (1, 0, 0, 0)
    assert store.exists("named") and not store.exists("inside")


def test_a_folder_of_small_rescues_counts_each_one(tmp_path):
    store = JsonStore(tmp_path / "store")
    with store.acquire("s1"):
        store.save(document("s1", "one"), touch=False)
    src = tmp_path / "src"
    small_rescue(src, document("s1", "one", "two"), 1, "a")
    small_rescue(src, document("s1", "one", "two", "three"), 2, "b")
    small_rescue(src, document("s4", "x", "y"), 1, "c")
    small_rescue(src, document("s5", "x", "y"), 1, "d")
    assert counts(import_sessions(src, store)) == (2, 2, 0, 0)
    again = tmp_path / "again"
    small_rescue(again, document("s1", "one", "two"), 1, "a")
    small_rescue(again, document("s1", "one", "two", "three"), 2, "b")
    assert counts(import_sessions(again, store)) == (0, 0, 2, 0)


def test_a_small_rescue_with_no_turns_of_its_own_is_unchanged_while_the_store_holds_what_it_follows(tmp_path):
    store = JsonStore(tmp_path / "store")
    with store.acquire("s1"):
        store.save(document("s1", "one", "two", "three"), touch=False)
    nothing_new = small_rescue(tmp_path / "src", document("s1", "one"), 1, "a")
    assert counts(import_sessions(nothing_new, store)) == (0, 0, 1, 0)
    past_the_end = small_rescue(tmp_path / "past", document("s1", "one", "two", "three", "four"), 4, "b")
    assert counts(import_sessions(past_the_end, store)) == (0, 0, 0, 1)  # it follows four turns; the store has three
    assert len(store.load("s1").conversation.turns) == 3


def whole_rescue(directory: Path, session: Session, name: str) -> Path:
    directory.mkdir(exist_ok=True)
    path = directory / f"chatbot-rescue-{session.id}-{name}.json"
    path.write_bytes(session.to_json())
    return path


def test_a_whole_rescue_whose_session_went_another_way_is_imported_under_an_id_of_its_own(tmp_path):
    store = JsonStore(tmp_path / "store")
    with store.acquire("k9"):
        store.save(document("k9", "one", "theirs"), touch=False)  # another process went on from turn 1
    mine = document("k9", "one", "mine")
    first = whole_rescue(tmp_path / "src", mine, "a")
    report = import_sessions(first, store)
    assert counts(report) == (1, 0, 0, 0)
    assert report.moved == [
        f"{first.name}: session k9 in the store went on without these turns since; they are in session k9-rescued"
    ]
    assert "they are in session k9-rescued" in report.summary("src", "store")
    assert [t.messages[0]["content"] for t in store.load("k9-rescued").conversation.turns] == ["one", "mine"]
    assert [t.messages[0]["content"] for t in store.load("k9").conversation.turns] == ["one", "theirs"]  # untouched
    assert counts(import_sessions(first, store)) == (0, 0, 1, 0) and not import_sessions(first, store).moved
    later = document("k9", "one", "mine", "and more", updated="2026-11-30T09:00:00+00:00")
    assert counts(import_sessions(whole_rescue(tmp_path / "src2", later, "b"), store)) == (0, 1, 0, 0)  # continued
    assert len(store.load("k9-rescued").conversation.turns) == 3
    other = document("k9", "one", "a third way")
    assert counts(import_sessions(whole_rescue(tmp_path / "src3", other, "c"), store)) == (1, 0, 0, 0)
    assert store.exists("k9-rescued-2")


def test_a_plain_session_file_that_does_not_continue_the_stored_one_is_still_refused(tmp_path):
    store = JsonStore(tmp_path / "store")
    with store.acquire("k9"):
        store.save(document("k9", "one", "theirs"), touch=False)
    put(tmp_path / "src", document("k9", "one", "mine"))
    report = import_sessions(tmp_path / "src", store)
    assert counts(report) == (0, 0, 0, 1) and not store.exists("k9-rescued")  # only a rescue file is moved


def test_a_rescued_id_stays_a_valid_id_however_long_the_session_id():
    from chatbot.storage.session import ID_PATTERN
    from chatbot.storage.transfer import rescued_id

    assert rescued_id("k9", 1) == "k9-rescued" and rescued_id("k9", 2) == "k9-rescued-2"
    long = "a" * 64
    assert ID_PATTERN.fullmatch(rescued_id(long, 12)) and rescued_id(long, 12).endswith("-rescued-12")


def test_a_whole_rescue_the_stored_session_went_on_from_is_unchanged_not_moved(tmp_path):
    """A first save failed (the rescue holds turn 1), a later one stored turns 1-2: the store holds it all."""
    store = JsonStore(tmp_path / "store")
    rescued = whole_rescue(tmp_path / "src", document("k9", "one"), "a")
    with store.acquire("k9"):
        store.save(document("k9", "one", "two", updated="2026-11-30T09:00:00+00:00"), touch=False)
    report = import_sessions(rescued, store)
    assert counts(report) == (0, 0, 1, 0) and report.moved == [] and not store.exists("k9-rescued")


def test_a_rescue_imported_again_after_the_user_went_on_in_its_own_session_is_unchanged(tmp_path):
    store = JsonStore(tmp_path / "store")
    with store.acquire("k9"):
        store.save(document("k9", "one", "theirs"), touch=False)
    rescued = whole_rescue(tmp_path / "src", document("k9", "one", "mine"), "a")
    assert counts(import_sessions(rescued, store)) == (1, 0, 0, 0)
    with store.acquire("k9-rescued"):  # the user carries on in the rescued session
        store.save(document("k9-rescued", "one", "mine", "more", updated="2026-11-30T09:00:00+00:00"), touch=False)
    report = import_sessions(rescued, store)  # safe to run again
    assert counts(report) == (0, 0, 1, 0) and not store.exists("k9-rescued-2")
