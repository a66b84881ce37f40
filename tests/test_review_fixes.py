"""What a review of the merged app found, each pinned as a user meets it (then fixed)."""

from __future__ import annotations

import json
import os

from chatbot.providers.error_map import BRIEF_CHARS, ErrorContext, classify_error
from chatbot.storage.export import export_markdown
from chatbot.storage.json_store import JsonStore
from chatbot.terminal.commands import as_message, is_command
from chatbot.tools.functions import load_functions
from chatbot.tools.registry import Registry
from tests.support.cli import run_chatbot, session_doc
from tests.support.fake_server import FakeServer

ESC = "\x1b"


def test_a_folders_env_cannot_choose_the_config_file_or_code_to_run(tmp_path, monkeypatch):
    (tmp_path / "evil.py").write_text(
        "import pathlib\npathlib.Path('RAN').write_text('x')\ndef f() -> str:\n    return 'x'\n"
    )
    (tmp_path / "evil.toml").write_text('functions = ["evil.py"]\n')
    (tmp_path / ".env").write_text("CHATBOT_CONFIG=evil.toml\nCHATBOT_FUNCTIONS=evil.py\nOPENAI_API_KEY=sk-x\n")
    result = run_chatbot("--provider", "echo", "-p", "hi", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "RAN").exists()
    assert "ignored CHATBOT_CONFIG, CHATBOT_FUNCTIONS" in result.stderr
    # in-process, with no CHATBOT_CONFIG of the user's own: .env may not set it either
    from chatbot import cli

    monkeypatch.chdir(tmp_path)
    for name in ("CHATBOT_CONFIG", "CHATBOT_FUNCTIONS", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    assert cli._load_dotenv() == {"OPENAI_API_KEY"}
    assert "CHATBOT_CONFIG" not in os.environ and "CHATBOT_FUNCTIONS" not in os.environ


def test_relative_paths_in_the_config_file_are_relative_to_it(tmp_path):
    conf = tmp_path / "conf"
    conf.mkdir()
    (conf / "tools.py").write_text('def shout(text: str) -> str:\n    """Upper case."""\n    return text.upper()\n')
    (conf / "c.toml").write_text('functions = ["tools.py"]\nprovider = "echo"\n')
    (tmp_path / "tools.py").write_text("raise SystemExit('the wrong file ran')\n")  # the current folder's: ignored
    result = run_chatbot("-p", '@tool shout {"text": "hi"}', cwd=tmp_path, env={"CHATBOT_CONFIG": str(conf / "c.toml")})
    assert result.returncode == 0, result.stderr
    assert "HI" in result.stderr  # the tool result preview


def test_an_environment_variable_no_flag_reads_does_not_drop_the_config_value(tmp_path):
    with FakeServer(reply="from the configured server") as server:
        (tmp_path / "config.toml").write_text(f'provider = "openai"\nbase_url = "{server.base_url}"\n')
        result = run_chatbot(
            "-p", "hi", cwd=tmp_path, env={"CHATBOT_BASE_URL": "http://127.0.0.1:1/v1", "OPENAI_API_KEY": "k"}
        )
    assert result.returncode == 0, result.stderr
    assert "from the configured server" in result.stdout


def test_extract_and_json_never_print_escape_sequences(tmp_path):
    reply = f"see {ESC}]52;c;cHduZWQ=\x07this\n```sh\nrm -rf x{ESC}[2K{ESC}]8;;http://evil\x07link{ESC}]8;;\x07\n```\n"
    with FakeServer(reply=reply) as server:
        flags = ["--provider", "openai", "--base-url", server.base_url, "-p", "hi"]
        extracted = run_chatbot(*flags, "-x", cwd=tmp_path, env={"OPENAI_API_KEY": "k"})
        as_json = run_chatbot(*flags, "--json", cwd=tmp_path, env={"OPENAI_API_KEY": "k"})
    assert ESC not in extracted.stdout and "rm -rf x" in extracted.stdout and "link" in extracted.stdout
    assert all(ord(c) < 128 for c in as_json.stdout) and ESC not in as_json.stdout
    assert ESC in json.loads(as_json.stdout)["reply"]  # the reply itself is reported as received, escaped in JSON


def test_retry_against_a_dead_server_keeps_the_turn_it_would_replace(tmp_path):
    with FakeServer(reply="first answer") as server:
        good = ["--provider", "openai", "--base-url", server.base_url, "--session", "r"]
        for text in ("q1", "q2"):
            assert run_chatbot(*good, "-p", text, cwd=tmp_path, env={"OPENAI_API_KEY": "k"}).returncode == 0
    dead = ["--provider", "openai", "--base-url", "http://127.0.0.1:1/v1", "--session", "r", "--timeout", "2"]
    result = run_chatbot(*dead, stdin="/retry\n/edit changed\n", cwd=tmp_path, env={"OPENAI_API_KEY": "k"})
    assert result.returncode != 0
    turns = session_doc(tmp_path, "r")["turns"]
    assert [t["messages"][0]["content"] for t in turns] == ["q1", "q2"]


def test_a_tool_that_exits_is_a_tool_message_and_a_file_that_exits_a_clear_error(tmp_path):
    (tmp_path / "quit.py").write_text('import sys\ndef quitter() -> str:\n    """Exits."""\n    sys.exit(3)\n')
    registry = Registry(load_functions(str(tmp_path / "quit.py")), timeout=5)
    outcome = registry.call("quitter", "{}")
    assert outcome.error and "SystemExit" in outcome.text
    (tmp_path / "exits.py").write_text("import sys\nsys.exit(4)\n")
    result = run_chatbot("--provider", "echo", "--functions", str(tmp_path / "exits.py"), "-p", "hi", cwd=tmp_path)
    assert result.returncode == 2 and "failed to load: SystemExit" in result.stderr


def test_a_servers_error_page_is_one_short_line():
    page = "<html><head><title>502 Bad Gateway</title></head><body>" + "<p>nginx</p>\n" * 5000 + "</body></html>"
    error = classify_error(
        502, page, page, None, ErrorContext("openai", "m", "http://127.0.0.1:9/v1", "OPENAI_API_KEY")
    )
    assert "\n" not in error.message and "502 Bad Gateway" in error.message
    assert len(error.message) < BRIEF_CHARS + 200


def test_a_message_may_start_with_a_slash():
    assert is_command("/help") and not is_command("//home/me/app.py: TypeError")
    assert as_message("//home/me/app.py: TypeError") == "/home/me/app.py: TypeError"
    assert as_message("plain") == "plain"


def test_an_exported_transcript_holds_no_escape_sequences(tmp_path):
    from chatbot.engine.turn import Turn

    store = JsonStore(tmp_path / "s")
    session = store.create("e", system="sys")
    session.conversation.add_turn(
        Turn([{"role": "user", "content": f"hi{ESC}[2J"}, {"role": "assistant", "content": f"{ESC}]0;TITLE\x07ok"}])
    )
    text = export_markdown(session)
    assert ESC not in text and "\x07" not in text and "ok" in text


def test_a_fresh_clones_sessions_folder_with_only_gitkeep_is_tightened_not_warned_about(tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir(mode=0o755)
    (folder / ".gitkeep").write_text("")
    os.chmod(folder, 0o755)
    assert JsonStore(folder).warnings == []
    assert folder.stat().st_mode & 0o777 == 0o700
