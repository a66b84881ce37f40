"""Secret files through the real CLI: a folder attached with ``-f`` or ``/file`` leaves its ``.env`` and private keys
out of the request and the session, and says so; the file named alone is refused in one line, nothing sent."""

from __future__ import annotations

import subprocess

from tests.support.cli import assert_clean, one_error_line, openai_flags, run_chatbot
from tests.support.fake_server import FakeServer

KEY = "gsk_realsecretkey123"


def git(cwd, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t.invalid", *args], cwd=cwd, check=True,
                   capture_output=True)  # fmt: skip


def project(tmp_path):
    """A git project with a committed ``src/`` and a ``.env`` holding a key, which no ``.gitignore`` keeps out."""
    proj = tmp_path / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "src" / "main.py").write_text("print('hi')\n")
    git(proj, "init", "-q")
    git(proj, "add", "src")
    git(proj, "commit", "-qm", "src")
    (proj / ".env").write_text(f"GROQ_API_KEY={KEY}\n")
    return proj


def stored(tmp_path) -> str:
    """Everything the run wrote under ``tmp_path``: its sessions and user data."""
    return "".join(p.read_text(errors="replace") for p in tmp_path.rglob("*.json") if p.is_file())


def test_a_git_folders_dotenv_that_git_does_not_ignore_is_not_sent_nor_kept_and_is_said(tmp_path):
    project(tmp_path)
    with FakeServer(reply="ok") as server:
        result = run_chatbot(*openai_flags(server.base_url), "-f", "proj", "-p", "review", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        (request,) = server.record.requests
    assert_clean(result)
    assert request["messages"][-1]["content"] == "```proj/src/main.py\nprint('hi')\n```\n\nreview"
    lines = result.stderr.splitlines()
    assert "chatbot: attached 1 file(s) from proj: proj/src/main.py (1 lines)" in lines
    assert "chatbot: left out proj/.env (holds secrets)" in lines
    assert "proj/src/main.py" in stored(tmp_path) and KEY not in stored(tmp_path)  # the turn is kept, the key not


def test_file_on_a_folder_in_the_chat_leaves_its_dotenv_out(tmp_path):
    project(tmp_path)
    with FakeServer(reply="ok") as server:
        result = run_chatbot(*openai_flags(server.base_url), stdin="/file proj\nreview\n", cwd=tmp_path)
        (request,) = server.record.requests
    assert_clean(result)
    assert KEY not in request["messages"][-1]["content"] and "proj/src/main.py" in request["messages"][-1]["content"]
    assert "left out proj/.env (holds secrets)" in result.stderr
    assert "proj/src/main.py" in stored(tmp_path) and KEY not in stored(tmp_path)


def test_a_dotenv_named_with_f_is_refused_in_one_line_and_nothing_is_sent(tmp_path):
    proj = project(tmp_path)
    with FakeServer() as server:
        result = run_chatbot(*openai_flags(server.base_url), "-f", "proj/.env", "-p", "hi", cwd=tmp_path)
        assert server.record.requests == []
    assert result.returncode == 2
    assert one_error_line(result) == (
        "chatbot: proj/.env is not attached (holds secrets): secrets are never sent to the model; paste the lines "
        "you want to ask about into your message, without the keys"
    )
    assert KEY not in result.stderr + result.stdout and (proj / ".env").exists()


def test_a_secret_file_is_never_read_as_the_system_message_or_a_reply_schema(tmp_path):
    proj = project(tmp_path)
    (proj / "notes.txt").symlink_to(proj / ".env")  # an innocent name leading to one
    runs = {
        ("--system-file", "proj/.env"): "--system-file proj/.env is not read as the system message (holds secrets)",
        ("--system-file", "proj/notes.txt"): "--system-file proj/notes.txt is not read as the system message (holds",
        ("--schema", "proj/.env"): "--schema proj/.env is not read as a reply schema (holds secrets)",
        (): f"--system-file {proj / '.env'} is not read as the system message (holds secrets)",
    }
    with FakeServer() as server:
        for flags, said in runs.items():
            if not flags:  # the config file's, relative to it
                (tmp_path / "config.toml").write_text('system_file = "proj/.env"\n')
            result = run_chatbot(*openai_flags(server.base_url), *flags, "-p", "hi", cwd=tmp_path)
            assert result.returncode == 2 and one_error_line(result).startswith(f"chatbot: {said}"), result.stderr
            assert "secrets are never sent to the model" in result.stderr and KEY not in result.stderr + result.stdout
        assert server.record.requests == []
    assert KEY not in stored(tmp_path)


def test_a_dotenv_named_with_file_is_refused_and_the_chat_goes_on(tmp_path):
    project(tmp_path)
    with FakeServer(reply="still here") as server:
        result = run_chatbot(*openai_flags(server.base_url), stdin="/file proj/.env\nhello\n", cwd=tmp_path)
        (request,) = server.record.requests
    assert_clean(result)
    assert request["messages"][-1]["content"] == "hello"
    assert "proj/.env is not attached (holds secrets)" in result.stderr and "still here" in result.stdout
    assert "hello" in stored(tmp_path) and KEY not in stored(tmp_path)
