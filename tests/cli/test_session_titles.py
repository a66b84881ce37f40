"""A session is titled by what its user typed: a file attached to the first message (``/file``, ``-f``, piped text)
comes first in the message, and never becomes the title; with nothing typed, the files' names do."""

from __future__ import annotations

from pathlib import Path

from chatbot.attachments.attach import Attachment
from tests.support.cli import run_chatbot

SECRET = "QUARTERLY FIGURES, do not share\nline two"


def listed_titles(tmp_path: Path) -> list[str]:
    listing = run_chatbot("--list-sessions", cwd=tmp_path)
    assert listing.returncode == 0, listing.stderr
    return [line.split(None, 4)[4] for line in listing.stdout.splitlines()[1:]]


def test_a_first_message_with_a_file_is_titled_by_the_words_typed_not_the_files_contents(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text(SECRET)
    chat = run_chatbot("--provider", "echo", stdin="/file notes.txt\nsummarize this please\n", cwd=tmp_path)
    assert chat.returncode == 0, chat.stderr
    one_shot = run_chatbot("--provider", "echo", "-f", "notes.txt", "-p", "what is it", cwd=tmp_path)
    assert one_shot.returncode == 0, one_shot.stderr
    piped = run_chatbot("--provider", "echo", "-p", "about the pipe", stdin=SECRET, cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert sorted(listed_titles(tmp_path)) == ["about the pipe", "summarize this please", "what is it"]
    assert "QUARTERLY" not in run_chatbot("--search", "summarize", cwd=tmp_path).stdout.splitlines()[1]


def test_a_first_message_without_files_and_a_later_file_keep_the_first_words_as_the_title(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text(SECRET)
    chat = run_chatbot("--provider", "echo", stdin="plain first\n/file notes.txt\nsecond\n", cwd=tmp_path)
    assert chat.returncode == 0, chat.stderr
    assert listed_titles(tmp_path) == ["plain first"]


def test_a_first_message_of_files_alone_is_titled_by_their_names(make_app) -> None:
    chat = make_app().open("bare")
    chat.outbox.add(Attachment("notes.txt", text=SECRET))
    chat.outbox.add(Attachment("plan.md", text="# plan"))
    list(chat.send(""))
    assert chat.session.title == "notes.txt, plan.md"
    assert SECRET.splitlines()[0] in chat.conversation.turns[0].messages[0]["content"]  # the files were sent
