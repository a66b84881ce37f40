"""In CI the PostgreSQL half of the store tests must run: without a server they fail, they are never skipped."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_suite(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/storage/test_store_behaviour.py",
            "-k",
            "test_round_trip_keeps_every_field and postgres",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def test_the_postgres_tests_fail_in_ci_without_a_server_and_skip_elsewhere():
    env = {k: v for k, v in os.environ.items() if k not in ("CHATBOT_TEST_POSTGRES", "CI")}
    in_ci = run_suite({**env, "CI": "true"})
    assert in_ci.returncode == 1 and "CI must run the PostgreSQL store tests" in in_ci.stdout
    local = run_suite(env)
    assert local.returncode == 0 and "1 skipped" in local.stdout
