"""Start-up: ``chatbot --version`` and ``--help`` import only what they need, so they stay near a bare interpreter.

Timings are for ``bench/bench_startup.py``; this pins the cause of a slow start instead: a module that ``--version``
or ``--help`` must not import (the memory rule, the token counter, the provider interface, an SDK, the terminal's
libraries, or ``dataclasses``, whose ``inspect`` alone costs a fifth of a bare start).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support.cli import chatbot_env

#: what a start that only prints must not import (each costs milliseconds; the SDKs cost hundreds)
HEAVY = (
    "chatbot.engine.memory",
    "chatbot.engine.tokens",
    "chatbot.engine.calibration",
    "chatbot.providers.base",
    "chatbot.core.app",
    "chatbot.core.chat",
    "chatbot.storage",
    "dataclasses",
    "openai",
    "groq",
    "httpx",
    "rich",
    "prompt_toolkit",
    "mcp",
)

# runs the real entry point as `python -m chatbot` does, then lists every module it imported
PROBE = """
import json, runpy, sys
sys.argv = ["chatbot", *sys.argv[1:]]
try:
    runpy.run_module("chatbot", run_name="__main__")
except SystemExit:
    pass
sys.stderr.write(json.dumps(sorted(sys.modules)))
"""


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_printing_the_version_or_help_imports_nothing_heavy(tmp_path, flag):
    done = subprocess.run(
        [sys.executable, "-c", PROBE, flag],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=chatbot_env({"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config")}),
        check=True,
    )
    assert done.stdout.startswith("chatbot 0." if flag == "--version" else "usage: chatbot")
    loaded = json.loads(done.stderr)
    heavy = [m for m in loaded if m in HEAVY or m.split(".")[0] in HEAVY or m.startswith(HEAVY)]
    assert heavy == []
