"""Rescue files: a turn that was shown survives a store that cannot take it (a frozen network, a read-only folder,
a file size limit), and what was rescued goes back in with ``--import-sessions``."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.cli import chatbot_env, run_chatbot
from tests.support.pg_proxy import CommitLosingProxy

ECHO = ["--provider", "echo"]
FAST = {"CHATBOT_ECHO_DELAY": "0"}


@pytest.fixture
def frozen_store(pg_url: str) -> Iterator[CommitLosingProxy]:
    """A PostgreSQL store behind a proxy that freezes (a network partition) when a turn is being saved."""
    proxy = CommitLosingProxy(pg_url)
    proxy.freeze_on(b"INSERT INTO chatbot_turns")
    try:
        yield proxy
    finally:
        proxy.close()


def rescued(folder: Path) -> list[dict]:
    return [json.loads(p.read_bytes()) for p in sorted(folder.rglob("*.json"))]


def test_a_frozen_network_costs_a_save_a_bounded_wait_and_the_turn_goes_to_a_rescue_file(tmp_path, frozen_store):
    started = time.monotonic()
    result = run_chatbot(
        *ECHO, "--store", frozen_store.url, "--session", "s1", stdin="keep me\n", cwd=tmp_path,
        env={**FAST, "CHATBOT_RESCUE_DIR": str(tmp_path / "r")}, timeout=120,
    )  # fmt: skip
    took = time.monotonic() - started
    assert frozen_store.frozen.is_set()
    assert took < 45, took  # a save waits at most 15 s, quitting at most 5 s more (docs/stores.md)
    assert result.returncode == 3, result.stderr
    assert "Traceback" not in result.stderr
    docs = rescued(tmp_path / ".data") + rescued(tmp_path / "r")
    assert any("keep me" in json.dumps(doc) for doc in docs), result.stderr


def test_a_signal_during_a_frozen_save_still_writes_the_rescue_file(tmp_path, frozen_store):
    (tmp_path / "sessions").mkdir(mode=0o700)
    proc = subprocess.Popen(
        [sys.executable, "-m", "chatbot", *ECHO, "--store", frozen_store.url, "--session", "s1", "-p", "keep me"],
        cwd=tmp_path,
        env=chatbot_env({**FAST, "XDG_DATA_HOME": str(tmp_path / ".data"), "CHATBOT_RESCUE_DIR": str(tmp_path / "r")}),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert frozen_store.frozen.wait(30)
        time.sleep(0.5)  # well inside the database wait
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
    finally:
        proc.kill()
    assert proc.returncode == 143, err
    assert "Traceback" not in err
    files = sorted((tmp_path / "r").glob("*.json"))
    assert len(files) == 1 and str(files[0]) in err
    assert "keep me" in files[0].read_text()
