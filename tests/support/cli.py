"""Running the real ``chatbot`` command as a user would: a subprocess, with nothing of the developer's leaking in.

One runner for every test that starts the command (the CLI tests, the fault tests): no keys, base URLs or
``CHATBOT_*`` settings from the shell, a private config file, sessions and user data folder under ``cwd``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def chatbot_env(extra: dict[str, str | None] | None = None) -> dict[str, str]:
    """The environment of a child ``chatbot``: no keys, base URLs or CHATBOT_* settings from the developer's shell.

    ``extra`` adds variables; a value of None removes one.
    """
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_BASE_URL")) and "CHATBOT_" not in k}
    env.update({"PYTHONPATH": str(ROOT), "NO_COLOR": "1"})
    for key, value in (extra or {}).items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def private_config(cwd: Path) -> dict[str, str | None]:
    """The environment that gives a child ``chatbot`` the config file ``cwd/config.toml`` when the test wrote one, and
    else none at all: the default location moved under ``cwd``, where nothing is (a file that ``CHATBOT_CONFIG``
    names must exist), never the developer's own."""
    path = cwd / "config.toml"
    if path.exists():
        return {"CHATBOT_CONFIG": str(path)}
    return {"CHATBOT_CONFIG": None, "XDG_CONFIG_HOME": str(cwd / ".config")}


def run_chatbot(
    *args: str,
    cwd: Path,
    stdin: str | bytes = "",
    env: dict[str, str | None] | None = None,
    timeout: float = 60,
    **kw: Any,
) -> subprocess.CompletedProcess[str]:
    """``python -m chatbot ARGS`` in ``cwd`` (stdin a pipe; stdout and stderr captured as text, bad bytes replaced).

    The config file is ``cwd/config.toml`` unless ``env`` names another. Sessions live in ``cwd/sessions`` (made
    here unless the test made it: the app uses ./sessions when it exists) and the user data folder is private to
    ``cwd``, so no test reads or writes the developer's own.
    """
    (cwd / "sessions").mkdir(mode=0o700, exist_ok=True)
    private: dict[str, str | None] = {"XDG_DATA_HOME": str(cwd / ".data"), **private_config(cwd)}
    data = stdin.encode() if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [sys.executable, "-m", "chatbot", *args],
        input=data,
        capture_output=True,
        cwd=cwd,
        env=chatbot_env({**private, **(env or {})}),
        timeout=timeout,
        **kw,
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")
    )


def spawn_chatbot(*args: str, cwd: Path, env: dict[str, str | None] | None = None, timeout: float = 20) -> Any:
    """``python -m chatbot ARGS`` in a 100x30 pseudo-terminal (a pexpect child), kept private like :func:`run_chatbot`.

    Its input history goes to ``cwd/history``; prompt_toolkit is told not to wait for cursor-position replies.
    """
    import pexpect

    (cwd / "sessions").mkdir(mode=0o700, exist_ok=True)
    private: dict[str, str | None] = {
        "XDG_DATA_HOME": str(cwd / ".data"),
        **private_config(cwd),
        "CHATBOT_HISTORY_FILE": str(cwd / "history"),
        "PROMPT_TOOLKIT_NO_CPR": "1",
        "TERM": "xterm-256color",
        "COLUMNS": "100",
        "LINES": "30",
    }
    return pexpect.spawn(
        sys.executable,
        ["-m", "chatbot", *args],
        cwd=str(cwd),
        env=chatbot_env({**private, **(env or {})}),
        encoding="utf-8",
        dimensions=(30, 100),
        timeout=timeout,
    )


def openai_flags(base_url: str) -> list[str]:
    """The flags that point the openai provider at a local server (no key needed with a base URL)."""
    return ["--provider", "openai", "--base-url", base_url, "--model", "m"]


def session_doc(cwd: Path, session_id: str) -> dict[str, Any]:
    """The stored session document ``cwd/sessions/<id>.json``."""
    return json.loads((cwd / "sessions" / f"{session_id}.json").read_text())


def assert_clean(result: subprocess.CompletedProcess[str]) -> None:
    """No traceback anywhere and no terminal escapes on stdout (piped output is plain text)."""
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    assert "\x1b[" not in result.stdout


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    """The single ``chatbot: ...`` error line of a failed run (asserts there is exactly one and no traceback)."""
    assert "Traceback" not in result.stderr, result.stderr
    notices = ("chatbot: session ", "chatbot: warning: ", "chatbot: sending ", "chatbot: using ")  # not errors
    lines = [s for s in result.stderr.splitlines() if s.startswith("chatbot: ") and not s.startswith(notices)]
    assert len(lines) == 1, result.stderr
    return lines[0]
