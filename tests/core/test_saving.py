"""A save that fails rescues what the store does not hold, and says where."""

from __future__ import annotations

import pytest

from chatbot.core import saving
from chatbot.core.chat import Chat
from chatbot.engine.turn import Turn
from chatbot.errors import Interrupted, SaveFailed, SessionError
from chatbot.storage.rescue import import_hint


def turn(text: str) -> Turn:
    return Turn([{"role": "user", "content": text}, {"role": "assistant", "content": "ok"}])


@pytest.fixture
def opened(tmp_path, make_app, monkeypatch):
    """The chat of an open session "s1" with two stored turns; rescue files go to tmp_path/r."""
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(tmp_path / "r"))
    app = make_app()
    chat = app.open("s1")
    for text in ("one", "two"):
        chat.conversation.add_turn(turn(text))
        chat.save()
    return chat


def failing(chat, monkeypatch, error: BaseException) -> None:
    def fail(session):  # type: ignore[no-untyped-def]
        raise error

    monkeypatch.setattr(chat.store, "save", fail)


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (SessionError("the store said no"), "the store said no"),
        (OSError(28, "No space left on device"), "No space left on device"),
        (OSError("a plain OS error"), "a plain OS error"),
        (ValueError("bad value"), "ValueError: bad value"),
    ],
)
def test_a_failed_save_rescues_the_unsaved_turns_alone_and_says_where(tmp_path, opened, monkeypatch, error, reason):
    opened.conversation.add_turn(turn("three"))
    failing(opened, monkeypatch, error)
    with pytest.raises(SaveFailed) as caught:
        opened.save()
    [kept] = (tmp_path / "r").glob("chatbot-rescue-s1-*-turns-3-3.json")  # only the turn the store lacks
    assert caught.value.message == f"cannot save session s1: {reason}; it was kept in {kept} ({import_hint(kept)})"
    assert caught.value.rescued == str(kept)
    assert "three" in kept.read_text() and "two" not in kept.read_text()


def test_the_first_save_after_a_session_is_opened_rescues_only_the_turns_added_since(tmp_path, opened, monkeypatch):
    reopened = Chat(opened.store.load("s1"), opened.provider, opened.store)
    reopened.conversation.add_turn(turn("three"))
    failing(reopened, monkeypatch, SessionError("no"))
    with pytest.raises(SaveFailed):
        reopened.save()
    [kept] = (tmp_path / "r").glob("chatbot-rescue-s1-*-turns-3-3.json")  # the two it was opened with are stored
    assert "three" in kept.read_text()


def test_a_turn_replaced_since_the_last_save_is_rescued_with_the_turns_after_it(tmp_path, opened, monkeypatch):
    opened.conversation.undo()
    opened.conversation.add_turn(turn("two again"))
    failing(opened, monkeypatch, SessionError("no"))
    with pytest.raises(SaveFailed):
        opened.save()
    [kept] = (tmp_path / "r").glob("chatbot-rescue-s1-*-turns-2-2.json")
    assert "two again" in kept.read_text()


def test_a_failed_save_that_nowhere_takes_says_so_and_names_no_file(opened, monkeypatch):
    def broken(session, stored=0):  # type: ignore[no-untyped-def]
        raise RuntimeError("no way")

    monkeypatch.setattr(saving, "rescue", broken)
    failing(opened, monkeypatch, SessionError("the store said no"))
    with pytest.raises(SaveFailed) as caught:
        opened.save()
    assert caught.value.message == (
        "cannot save session s1: the store said no; it could not be kept anywhere either (RuntimeError: no way)"
    )
    assert caught.value.rescued is None


def test_a_signal_that_stopped_a_save_is_raised_again_once_the_session_is_rescued(tmp_path, opened, monkeypatch):
    opened.conversation.add_turn(turn("three"))
    failing(opened, monkeypatch, Interrupted("SIGTERM", 143, unsaved=True))
    with pytest.raises(Interrupted) as caught:
        opened.save()
    [kept] = (tmp_path / "r").glob("chatbot-rescue-s1-*-turns-3-3.json")
    assert (caught.value.reason, caught.value.exit_code) == ("SIGTERM", 143)
    assert caught.value.note == f"cannot save session s1: SIGTERM; it was kept in {kept} ({import_hint(kept)})"


def test_a_signal_after_the_save_reached_its_store_is_raised_as_it_is(tmp_path, opened, monkeypatch):
    signal = Interrupted("SIGTERM", 143)
    failing(opened, monkeypatch, signal)
    with pytest.raises(Interrupted) as caught:
        opened.save()
    assert caught.value is signal and caught.value.note == ""
    assert not (tmp_path / "r").exists()


def test_a_chat_is_unsaved_from_a_failed_save_until_a_save_goes_through(opened):
    assert not opened.unsaved()
    path = opened.store.path("s1")
    written = path.read_bytes()
    path.write_bytes(written + b"\n")  # changed from outside: this process's saves are refused
    opened.conversation.add_turn(turn("three"))
    with pytest.raises(SaveFailed):
        opened.save()
    assert opened.unsaved()
    path.unlink()  # gone: the next save writes it again
    opened.save()
    assert not opened.unsaved()
