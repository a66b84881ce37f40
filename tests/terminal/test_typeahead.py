"""Ctrl-D typed while the app is busy, read from a real pseudo-terminal in its line mode."""

from __future__ import annotations

import io
import os
import select
from collections.abc import Iterator

import pytest

from chatbot.terminal.typeahead import ctrl_d_typed


@pytest.fixture
def tty() -> Iterator[tuple[int, int]]:
    keyboard, terminal = os.openpty()  # (the side keys are typed into, the side the app reads)
    yield keyboard, terminal
    os.close(keyboard)
    os.close(terminal)


def readable(fd: int) -> bool:
    return bool(select.select([fd], [], [], 0.5)[0])


def test_each_ctrl_d_pressed_is_seen_and_taken(tty):
    keyboard, terminal = tty
    assert not ctrl_d_typed(terminal)
    os.write(keyboard, b"\x04\x04")
    assert readable(terminal)
    assert ctrl_d_typed(terminal)
    assert not select.select([terminal], [], [], 0.1)[0]  # both were taken: nothing waits for the prompt
    assert not ctrl_d_typed(terminal)


def test_text_typed_ahead_is_left_for_the_prompt(tty):
    keyboard, terminal = tty
    os.write(keyboard, b"next question\n")
    assert readable(terminal)
    assert not ctrl_d_typed(terminal)
    assert os.read(terminal, 100) == b"next question\n"


def test_not_a_terminal_is_never_asked():
    read, write = os.pipe()
    os.close(write)  # a pipe at its end is readable: still no Ctrl-D of a user
    assert not ctrl_d_typed(read)
    os.close(read)


def test_a_stream_that_is_no_file_is_never_asked():
    assert not ctrl_d_typed(io.StringIO())
