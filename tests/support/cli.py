"""Running the real ``chatbot`` command in a subprocess, with a private config file and no keys from the shell."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def run_chatbot(
    *args: str,
    cwd: Path,
    stdin: str | bytes = "",
    env: dict[str, str] | None = None,
    timeout: float = 30,
) -> subprocess.CompletedProcess[str]:
    """``python -m chatbot ARGS`` in ``cwd`` (stdin a pipe; stdout and stderr captured as text).

    The config file is ``cwd/config.toml`` unless ``env`` names another, so a developer's own never leaks in.
    Sessions live in ``cwd/sessions`` (made here: the app uses ./sessions when it exists) and the user data folder
    is private to ``cwd``, so no test writes into the developer's home.
    """
    (cwd / "sessions").mkdir(mode=0o700, exist_ok=True)
    full = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and not k.startswith("CHATBOT_")}
    full.update({"PYTHONPATH": str(ROOT), "NO_COLOR": "1", "CHATBOT_CONFIG": str(cwd / "config.toml")})
    full["XDG_DATA_HOME"] = str(cwd / ".data")
    full.update(env or {})
    data = stdin.encode() if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [sys.executable, "-m", "chatbot", *args], input=data, capture_output=True, cwd=cwd, env=full, timeout=timeout
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")
    )


def session_doc(cwd: Path, session_id: str) -> dict[str, Any]:
    """The stored session document ``cwd/sessions/<id>.json``."""
    return json.loads((cwd / "sessions" / f"{session_id}.json").read_text())


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    """The single ``chatbot: ...`` error line of a failed run (asserts there is exactly one and no traceback)."""
    assert "Traceback" not in result.stderr, result.stderr
    notices = ("chatbot: session ", "chatbot: warning: ", "chatbot: sending your ")  # context, retries: not errors
    lines = [s for s in result.stderr.splitlines() if s.startswith("chatbot: ") and not s.startswith(notices)]
    assert len(lines) == 1, result.stderr
    return lines[0]
