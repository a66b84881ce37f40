"""Run the ``chatbot`` command as a user would (a subprocess), for the fault tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def chatbot_env(extra: dict[str, str | None] | None = None) -> dict[str, str]:
    """The environment of a child ``chatbot``: no keys or CHATBOT_* settings from the developer's shell.

    ``extra`` adds variables; a value of None removes one.
    """
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_BASE_URL")) and "CHATBOT_" not in k}
    env.update({"PYTHONPATH": str(ROOT), "NO_COLOR": "1", "OPENAI_API_KEY": "test-key"})
    for key, value in (extra or {}).items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def run_chatbot(
    *args: str, cwd: Path, stdin: str = "", env: dict[str, str | None] | None = None, timeout: float = 60, **kw: Any
) -> subprocess.CompletedProcess[str]:
    """``python -m chatbot ARGS`` with stdin a pipe; text output captured.

    Sessions live in ``cwd/sessions`` (made here unless the test made it: the app uses ./sessions when it exists),
    and the user data folder and config file are private to ``cwd``, so nothing of the developer's leaks in or out.
    """
    (cwd / "sessions").mkdir(mode=0o700, exist_ok=True)
    private = {"XDG_DATA_HOME": str(cwd / ".data"), "CHATBOT_CONFIG": str(cwd / "config.toml")}
    return subprocess.run(
        [sys.executable, "-m", "chatbot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=chatbot_env({**private, **(env or {})}),
        timeout=timeout,
        **kw,
    )


def openai_flags(base_url: str) -> list[str]:
    """The flags that point the openai provider at a local server."""
    return ["--provider", "openai", "--base-url", base_url, "--model", "m"]
