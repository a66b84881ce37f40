"""A folder's ``.env`` at its edges: a line no environment variable can hold (a NUL byte in the key's value, or in
its name) is ignored with one warning, and every run in the folder goes on, ``--version`` too."""

from __future__ import annotations

from chatbot.cli import envfile
from tests.support.cli import run_chatbot

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
