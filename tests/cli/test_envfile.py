"""A folder's ``.env`` at its edges: a line no environment variable can hold (a NUL byte in the key's value, or in
its name) is ignored with one warning, and every run in the folder goes on, ``--version`` too."""

from __future__ import annotations

import subprocess
import sys

from chatbot.cli import envfile
from tests.support.cli import chatbot_env, run_chatbot

WARNING = ".env: ignored GROQ_API_KEY: the value holds a NUL byte, which no environment variable can"


def test_a_key_whose_value_holds_a_nul_byte_is_ignored_with_one_warning(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_bytes(b"GROQ_API_KEY=gsk-abc\x00def\nOPENAI_API_KEY=sk-fine\n")
    environ: dict[str, str] = {}
    found = envfile.load(str(dotenv), environ)
    assert environ == {"OPENAI_API_KEY": "sk-fine"} and found.unusable == ("GROQ_API_KEY",)
    assert found.notices() == [
        ("using OPENAI_API_KEY from .env", False),
        (WARNING, True),
    ]


def test_a_nul_byte_in_a_name_is_shown_as_it_is_not_as_the_key_it_imitates(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_bytes(b"GROQ\x00_API_KEY=gsk-abc\n")
    environ: dict[str, str] = {}
    ((line, warning),) = envfile.load(str(dotenv), environ).notices()
    assert environ == {} and warning
    assert line.startswith(".env: ignored 'GROQ\\x00_API_KEY': a .env file supplies provider keys only")


def test_every_run_in_a_folder_whose_env_holds_a_nul_byte_goes_on(tmp_path):
    (tmp_path / ".env").write_bytes(b"GROQ_API_KEY=gsk-abc\x00def\n")
    version = run_chatbot("--version", cwd=tmp_path)
    chat = run_chatbot("--provider", "echo", "-p", "hi", cwd=tmp_path)
    for result in (version, chat):
        assert result.returncode == 0, result.stderr
        warnings = [line for line in result.stderr.splitlines() if ".env" in line]
        assert warnings == [f"chatbot: warning: {WARNING}"]
    assert version.stdout.startswith("chatbot ") and "stateless" in chat.stdout


def test_a_env_too_large_for_keys_is_not_read_and_every_run_goes_on_at_once(tmp_path):
    """A 16 MB .env of comments made every run in the folder take half a minute (python-dotenv's parse)."""
    (tmp_path / ".env").write_text("OPENAI_API_KEY=sk-from-a-huge-file\n" + "# comment\n" * 200_000)  # ~2 MB
    environ: dict[str, str] = {}
    ((line, warning),) = envfile.load(str(tmp_path / ".env"), environ).notices()
    assert environ == {} and warning
    assert (
        line
        == "cannot read .env (it is 2 MB; a .env of provider keys is a few hundred bytes); nothing was taken from it"
    )
    result = run_chatbot("--provider", "echo", "-p", "hi", cwd=tmp_path)
    assert result.returncode == 0 and "Last user message: hi" in result.stdout
    assert "cannot read .env (it is 2 MB" in result.stderr


def test_ctrl_c_while_the_env_is_read_ends_with_status_130_and_no_traceback(tmp_path):
    """Before the run begins (.env, the config file) Ctrl-C printed a whole traceback; a user trial hit it."""
    code = (
        "from chatbot.cli import entry, envfile\n"
        "def interrupted(*args, **kwargs):\n"
        "    raise KeyboardInterrupt\n"
        "envfile.load = interrupted\n"  # Ctrl-C as it comes while .env is read
        "raise SystemExit(entry.main(['--provider', 'echo', '-p', 'hi']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=chatbot_env(), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 130 and "Traceback" not in result.stderr and result.stdout == ""


def test_lines_that_are_not_name_value_are_named_by_chatbot_not_by_the_parser(tmp_path):
    (tmp_path / ".env").write_text("OPENAI_API_KEY=sk-from-env\nthis is junk\n# a comment\nmore junk here\n")
    result = run_chatbot("--provider", "echo", "-p", "hi", cwd=tmp_path, env={"OPENAI_API_KEY": None})
    assert result.returncode == 0, result.stderr
    assert "chatbot: warning: .env: skipped line(s) 2, 4: not NAME=value" in result.stderr
    assert "python-dotenv" not in result.stderr  # one voice: every line of the run starts with chatbot:
    assert all(line.startswith("chatbot:") for line in result.stderr.splitlines())
