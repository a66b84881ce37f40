"""A file the user names for chatbot to write (/export, /timeline html, --html, --log-requests): never into the
session store, never through a symbolic link, an existing one replaced only with consent, always 0600."""

from __future__ import annotations

import locale
import os
import stat
from pathlib import Path

import pytest

from chatbot.errors import ChatbotError, UsageError
from chatbot.storage.json_store import JsonStore
from chatbot.storage.output_files import open_appending, split_force, write_file, write_private
from chatbot.storage.sqlite_store import SqliteStore

# --- where it may go ----------------------------------------------------------------------------------------------


def test_a_session_file_is_refused_whatever_the_consent_and_stays_whole(tmp_path):
    store = JsonStore(tmp_path / "s")
    session = store.create("victim", system="sys")
    with store.acquire("victim"):
        store.save(session)
    before = (tmp_path / "s" / "victim.json").read_bytes()
    with pytest.raises(UsageError, match="inside the session store"):
        write_file(str(tmp_path / "s" / "victim.json"), "junk", store.paths, force=True, ask=lambda q: True)
    assert (tmp_path / "s" / "victim.json").read_bytes() == before


def test_a_new_file_inside_the_sessions_folder_is_refused_too(tmp_path):
    store = JsonStore(tmp_path / "s")
    (tmp_path / "s").mkdir()
    with pytest.raises(UsageError, match="inside the session store"):
        write_file(str(tmp_path / "s" / "page.html"), "x", store.paths)
    assert not (tmp_path / "s" / "page.html").exists()


@pytest.mark.parametrize(("text", "example"), [("# a transcript\n", "chat.md"), ("<!DOCTYPE html>\n<p>", "chat.html")])
def test_a_folder_given_for_a_file_is_named_as_one_with_a_file_in_it_to_name(tmp_path, text, example):
    for given in (str(tmp_path), f"{tmp_path}/"):
        for force in (False, True):
            with pytest.raises(UsageError) as caught:
                write_file(given, text, (), force=force, ask=lambda q: True)
            assert caught.value.message == f"{tmp_path} is a folder; name a file in it, e.g. {tmp_path / example}"
    with pytest.raises(UsageError, match=f"^{tmp_path} is a folder; name a file in it, e.g. {tmp_path}/requests.jsonl"):
        open_appending(str(tmp_path), ())
    assert list(tmp_path.iterdir()) == []


def test_a_path_through_a_linked_folder_into_the_store_is_refused(tmp_path):
    store = JsonStore(tmp_path / "s")
    (tmp_path / "s").mkdir()
    (tmp_path / "door").symlink_to(tmp_path / "s")
    with pytest.raises(UsageError, match="inside the session store"):
        write_file(str(tmp_path / "door" / "new.json"), "x", store.paths)


@pytest.mark.parametrize("name", ["chat.db", "chat.db-wal", "chat.db-journal", "chat.db-locks/x.lock"])
def test_the_sqlite_file_its_journals_and_its_locks_are_refused(tmp_path, name):
    store = SqliteStore(tmp_path / "chat.db")
    try:
        with pytest.raises(UsageError, match="inside the session store"):
            write_file(str(tmp_path / name), "x", store.paths, force=True)
        write_file(str(tmp_path / "chat.db.md"), "beside it is fine", store.paths)
    finally:
        store.close()
    assert (tmp_path / "chat.db.md").read_text() == "beside it is fine"


def test_a_symlink_at_the_path_is_refused_by_name_and_its_target_kept(tmp_path):
    precious = tmp_path / "precious.txt"
    precious.write_text("keep")
    (tmp_path / "link.html").symlink_to(precious)
    with pytest.raises(UsageError, match="symbolic link"):
        write_file(str(tmp_path / "link.html"), "over", (), force=True, ask=lambda q: True)
    assert precious.read_text() == "keep"


def test_a_hard_link_to_a_session_file_is_refused_as_the_stores_whatever_the_consent(tmp_path):
    """``ln sessions/victim.json notes.md`` makes notes.md the session file itself: it is named as the store's."""
    store = JsonStore(tmp_path / "s")
    session = store.create("victim", system="sys")
    with store.acquire("victim"):
        store.save(session)
    before = (tmp_path / "s" / "victim.json").read_bytes()
    os.link(tmp_path / "s" / "victim.json", tmp_path / "notes.md")
    asked: list[str] = []
    with pytest.raises(UsageError, match="notes.md is another name \\(a hard link\\) for a file of the session store"):
        write_file(str(tmp_path / "notes.md"), "junk", store.paths, force=True, ask=lambda q: asked.append(q) or True)
    assert (tmp_path / "s" / "victim.json").read_bytes() == before and asked == []
    assert store.load("victim").id == "victim"


def test_a_hard_link_to_the_sqlite_file_is_refused_and_the_database_still_opens(tmp_path):
    store = SqliteStore(tmp_path / "chat.db")
    try:
        session = store.create("victim", system="sys")
        with store.acquire("victim"):
            store.save(session)
        os.link(tmp_path / "chat.db", tmp_path / "db.md")
        with pytest.raises(UsageError, match="a file of the session store"):
            write_file(str(tmp_path / "db.md"), "junk", store.paths, force=True)
        assert store.load("victim").id == "victim"
    finally:
        store.close()
    assert (tmp_path / "chat.db").read_bytes().startswith(b"SQLite format 3\0")


def test_a_file_with_other_names_outside_the_store_is_refused_before_any_question(tmp_path):
    """A hard link to a file the store does not know (another store's session, say) is refused all the same."""
    (tmp_path / "elsewhere.json").write_text("keep")
    os.link(tmp_path / "elsewhere.json", tmp_path / "out.md")
    asked: list[str] = []
    with pytest.raises(UsageError, match="out.md has other names \\(a hard link, possibly to a session\\)"):
        write_file(str(tmp_path / "out.md"), "junk", (), ask=lambda q: asked.append(q) or True)
    assert (tmp_path / "elsewhere.json").read_text() == "keep" and asked == []


# --- consent ---------------------------------------------------------------------------------------------------------


def test_an_existing_file_is_replaced_on_a_yes_and_kept_on_a_no(tmp_path):
    target = tmp_path / "out.md"
    target.write_text("old")
    asked = []
    with pytest.raises(UsageError, match="already exists.*--force"):
        write_file(str(target), "new", (), ask=lambda q: asked.append(q) or False)
    assert target.read_text() == "old" and asked == [f"{target} exists. Overwrite it?"]
    write_file(str(target), "new", (), ask=lambda q: True)
    assert target.read_text() == "new"


def test_where_nobody_can_be_asked_an_existing_file_needs_force(tmp_path):
    target = tmp_path / "out.md"
    target.write_text("old")
    with pytest.raises(UsageError, match="--force"):
        write_file(str(target), "new", ())
    assert write_file(str(target), "new", (), force=True) == target
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o600


def test_a_file_the_system_refuses_is_one_error_naming_it(tmp_path):
    with pytest.raises(ChatbotError, match=f"cannot write {tmp_path / 'none' / 'x.md'}"):
        write_file(str(tmp_path / "none" / "x.md"), "x", ())


# --- a log: appended to -----------------------------------------------------------------------------------------


def test_a_log_appends_to_an_existing_file_and_creates_a_new_one_private(tmp_path):
    old = tmp_path / "old.jsonl"
    old.write_text("one\n")
    for path in (old, tmp_path / "new.jsonl"):
        fd = open_appending(str(path), ())
        os.write(fd, b"two\n")
        os.close(fd)
    assert old.read_text() == "one\ntwo\n"
    assert stat.S_IMODE((tmp_path / "new.jsonl").stat().st_mode) == 0o600


def test_a_log_is_never_a_session_file_nor_a_symlink(tmp_path):
    store = JsonStore(tmp_path / "s")
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "other.json").write_text("{}")
    (tmp_path / "link.jsonl").symlink_to(tmp_path / "elsewhere.jsonl")
    with pytest.raises(UsageError, match="inside the session store"):
        open_appending(str(tmp_path / "s" / "other.json"), store.paths)
    with pytest.raises(UsageError, match="symbolic link"):
        open_appending(str(tmp_path / "link.jsonl"), store.paths)
    assert (tmp_path / "s" / "other.json").read_text() == "{}" and not (tmp_path / "elsewhere.jsonl").exists()


def test_a_log_is_never_a_hard_link_to_a_session_nor_to_any_file_with_other_names(tmp_path):
    store = JsonStore(tmp_path / "s")
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "other.json").write_text("{}")
    os.link(tmp_path / "s" / "other.json", tmp_path / "hard.log")
    (tmp_path / "mine.txt").write_text("keep")
    os.link(tmp_path / "mine.txt", tmp_path / "also.log")
    with pytest.raises(UsageError, match="a file of the session store"):
        open_appending(str(tmp_path / "hard.log"), store.paths)
    with pytest.raises(UsageError, match="has other names"):
        open_appending(str(tmp_path / "also.log"), store.paths)
    assert (tmp_path / "s" / "other.json").read_text() == "{}" and (tmp_path / "mine.txt").read_text() == "keep"


# --- the file itself --------------------------------------------------------------------------------------------


def test_a_new_file_is_private_and_an_existing_one_is_kept_unless_overwriting(tmp_path):
    """0600 from the start; never replacing a file unasked; replacing one makes it 0600 too."""
    target = tmp_path / "out.md"
    write_private(target, "first")
    assert target.read_text() == "first" and stat.S_IMODE(target.stat().st_mode) == 0o600
    with pytest.raises(FileExistsError):
        write_private(target, "second")
    assert target.read_text() == "first"
    target.chmod(0o644)
    write_private(target, "third", overwrite=True)
    assert target.read_text() == "third" and stat.S_IMODE(target.stat().st_mode) == 0o600


def test_a_device_written_over_keeps_its_mode():
    """``--html /dev/null --force`` as root once left /dev/null 0600 (initdb, run as postgres, then failed): a
    device's mode is the system's. A terminal of the test's own (a pty) stands for /dev/null here."""
    main, follower = os.openpty()
    try:
        device = os.ttyname(follower)
        os.chmod(device, 0o620)  # the terminal's usual mode; a new pty may start at 0600 in a container
        write_private(Path(device), "text", overwrite=True)
        assert os.read(main, 100).replace(b"\r", b"") == b"text"
        assert stat.S_IMODE(os.stat(device).st_mode) == 0o620
    finally:
        os.close(main)
        os.close(follower)


def test_a_named_pipe_nobody_reads_is_refused_at_once_and_one_being_read_gets_the_text(tmp_path):
    """Opened to write, a pipe waits for a reader: /export, /timeline html and --log-requests hung with no word."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(UsageError, match="named pipe that no program is reading"):
        write_file(str(pipe), "text", [], force=True)
    with pytest.raises(UsageError, match="named pipe that no program is reading"):
        open_appending(str(pipe), [])
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_file(str(pipe), "text", [], force=True)
        assert os.read(reader, 100) == b"text"
    finally:
        os.close(reader)


def test_a_new_file_is_private_whatever_the_umask(tmp_path):
    old = os.umask(0)
    try:
        write_private(tmp_path / "loose.md", "text")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "loose.md").stat().st_mode) == 0o600


def test_text_utf8_cannot_hold_is_written_as_a_question_mark(tmp_path):
    target = tmp_path / "odd.md"
    write_private(target, "caf\u00e9 \ud800!")
    assert target.read_bytes() == "caf\u00e9 ?!".encode()


def test_an_export_is_utf8_whatever_the_locale_says(tmp_path):
    target = tmp_path / "here.md"
    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")  # a locale whose text encoding is ASCII
    try:
        write_private(target, "caf\u00e9 \uae40\uce58")
    finally:
        locale.setlocale(locale.LC_CTYPE, before)
    assert target.read_bytes() == "caf\u00e9 \uae40\uce58".encode()


def test_a_symlink_at_the_path_is_never_followed(tmp_path):
    aim = tmp_path / "aim.txt"
    aim.write_text("keep")
    link = tmp_path / "out.md"
    link.symlink_to(aim)
    with pytest.raises(OSError):
        write_private(link, "over", overwrite=True)
    assert aim.read_text() == "keep"


def test_the_file_as_opened_is_checked_before_it_is_cut(tmp_path):
    """The check on the path could be passed by a swap before the open: the opened file is checked again (its links,
    its identity with the store's files), and only then truncated."""
    store = JsonStore(tmp_path / "s")
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "victim.json").write_text('{"keep": 1}')
    os.link(tmp_path / "s" / "victim.json", tmp_path / "out.md")
    with pytest.raises(UsageError, match="a file of the session store"):
        write_private(tmp_path / "out.md", "junk", overwrite=True, store_paths=store.paths)
    with pytest.raises(UsageError, match="has other names"):
        write_private(tmp_path / "out.md", "junk", overwrite=True)
    assert (tmp_path / "s" / "victim.json").read_text() == '{"keep": 1}'


def test_a_hard_link_planted_while_the_question_waits_is_refused_when_the_file_is_opened(tmp_path):
    """The path passes its check, then, while the user reads "Overwrite it?", the file is swapped for a hard link to
    the session: the opened file is checked again and the session keeps its text."""
    store = JsonStore(tmp_path / "s")
    (tmp_path / "s").mkdir()
    victim = tmp_path / "s" / "victim.json"
    victim.write_text('{"keep": 1}')
    target = tmp_path / "page.html"
    target.write_text("an old page")

    def swap_then_say_yes(question: str) -> bool:
        os.link(victim, tmp_path / "planted")
        os.replace(tmp_path / "planted", target)
        return True

    with pytest.raises(UsageError, match="a file of the session store"):
        write_file(str(target), "junk", store.paths, ask=swap_then_say_yes)
    assert victim.read_text() == '{"keep": 1}'


def test_a_name_the_system_refuses_is_one_error_naming_it_not_the_end_of_the_chat(tmp_path):
    # a name too long (ENAMETOOLONG) escaped the check as a bare OSError and ended the whole session
    with pytest.raises(ChatbotError, match="cannot write .*File name too long"):
        write_file(str(tmp_path / ("a" * 300 + ".md")), "text", [])
    with pytest.raises(ChatbotError, match="cannot write"):
        write_file(str(tmp_path / "a\0b.md"), "text", [])


def test_force_is_a_word_of_its_own_not_the_end_of_a_name():
    assert split_force("notes.md --force") == ("notes.md", True)
    assert split_force("--force") == ("", True)
    assert split_force("notes--force") == ("notes--force", False)
    assert split_force(" notes.md ") == ("notes.md", False)


def test_a_log_may_go_to_a_link_to_a_pipe_but_not_to_a_file(tmp_path):
    read, write = os.pipe()
    try:
        (tmp_path / "to-pipe").symlink_to(f"/proc/self/fd/{write}")
        fd = open_appending(str(tmp_path / "to-pipe"), [])  # as /dev/stderr is, when stderr is a pipe
        os.write(fd, b"line\n")
        os.close(fd)
        assert os.read(read, 100) == b"line\n"
    finally:
        os.close(read)
        os.close(write)
    (tmp_path / "bashrc").write_text("keep")
    (tmp_path / "log.jsonl").symlink_to(tmp_path / "bashrc")
    with pytest.raises(UsageError, match="symbolic link"):
        open_appending(str(tmp_path / "log.jsonl"), [])
