"""Files that are not files: a FIFO, a device, a socket, a file larger than its size says. Refused in one line,
never read without end, never blocking."""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

import pytest

from tests.support.cli import one_error_line, run_chatbot

TEXT_LIMIT = 512 * 1024


def feed_fifo(path: Path, size: int) -> threading.Thread:
    """A writer that offers ``size`` bytes to the FIFO ``path`` as soon as a reader opens it."""

    def write() -> None:
        try:
            fd = os.open(path, os.O_WRONLY)
            with os.fdopen(fd, "wb") as pipe:
                pipe.write(b"x" * size)
        except OSError:
            pass  # the reader left (or never read): EPIPE

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    return writer


def release(path: Path, writer: threading.Thread) -> None:
    """Let a writer still waiting for a reader go: open the FIFO for reading once, then close it."""
    os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
    writer.join(5)


def test_a_fifo_given_to_f_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    result = run_chatbot("--provider", "echo", "-f", "pipe", "-p", "hi", cwd=tmp_path, timeout=20)
    assert result.returncode == 2
    assert "pipe is a named pipe (FIFO), not a regular file" in one_error_line(result)


def test_a_fifo_fed_3_mb_sends_nothing(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    writer = feed_fifo(tmp_path / "pipe", 3 * 1024 * 1024)
    result = run_chatbot("--provider", "echo", "--session", "s1", "-f", "pipe", "-p", "hi", cwd=tmp_path, timeout=20)
    release(tmp_path / "pipe", writer)
    assert result.returncode == 2 and "named pipe" in one_error_line(result)
    assert not (tmp_path / "sessions" / "s1.json").exists()


@pytest.mark.parametrize(("target", "kind"), [("/dev/zero", "a device"), ("sock", "a socket")])
def test_a_link_to_a_device_or_a_socket_is_refused(tmp_path, target, kind):
    if target == "sock":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(tmp_path / "sock"))
        server.close()
    (tmp_path / "notes.txt").symlink_to(target)
    result = run_chatbot("--provider", "echo", "-f", "notes.txt", "-p", "hi", cwd=tmp_path, timeout=20)
    assert result.returncode == 2
    assert f"notes.txt is {kind}, not a regular file" in one_error_line(result)


@pytest.mark.skipif(not os.path.exists("/proc/kallsyms"), reason="needs /proc/kallsyms (Linux)")
def test_a_file_larger_than_its_size_says_is_held_to_the_limit(tmp_path):
    # /proc files report a size of 0 whatever they hold (this one: megabytes); a file can also grow while it is read
    assert os.stat("/proc/kallsyms").st_size == 0
    result = run_chatbot("--provider", "echo", "--session", "s1", "-f", "/proc/kallsyms", "-p", "hi", cwd=tmp_path)
    assert result.returncode == 2
    assert f"text files can be at most {TEXT_LIMIT:,}" in one_error_line(result)
    assert not (tmp_path / "sessions" / "s1.json").exists()


def test_a_fifo_as_the_system_file_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    result = run_chatbot("--provider", "echo", "--system-file", "pipe", "-p", "hi", cwd=tmp_path, timeout=20)
    assert result.returncode == 2 and "named pipe" in one_error_line(result)


def test_import_refuses_a_fifo_a_device_and_a_directory_named_like_sessions(tmp_path):
    folder = tmp_path / "old"
    folder.mkdir()
    os.mkfifo(folder / "x.json")
    (folder / "y.json").symlink_to("/dev/zero")
    (folder / "z.json").mkdir()
    result = run_chatbot("--import-sessions", "old", cwd=tmp_path, timeout=20)
    assert "Traceback" not in result.stderr and "MemoryError" not in result.stderr
    assert "refused x.json: it is a named pipe (FIFO), not a regular file" in result.stdout
    assert "refused y.json: it is a device, not a regular file" in result.stdout
    assert "refused z.json: it is a directory, not a regular file" in result.stdout
