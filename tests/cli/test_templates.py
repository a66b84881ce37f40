"""Roles as templates: [roles.NAME] with system and prompt, $input and -v variables, --show; plain roles unchanged."""

from __future__ import annotations

import pytest

from tests.support.cli import assert_clean, one_error_line, openai_flags, run_chatbot
from tests.support.fake_server import FakeServer

CONFIG = """
[roles]
pirate = "Answer like a pirate. It costs $5."

[roles.review]
system = "You review $lang code for ${team}."
prompt = "Review this:\\n$input"

[roles.joke]
prompt = "Tell a joke about $topic."
"""


@pytest.fixture
def config(tmp_path):
    (tmp_path / "config.toml").write_text(CONFIG)
    return tmp_path


def sent_messages(server: FakeServer) -> list[tuple[str, str]]:
    request = server.record.last_request()
    assert request is not None
    return [(m["role"], m["content"]) for m in request["messages"]]


def test_the_filled_template_is_the_request(config):
    with FakeServer() as server:
        result = run_chatbot(
            *openai_flags(server.base_url), "--role", "review", "-v", "lang", "Go", "-v", "team", "the web team",
            "-p", "x := 1", cwd=config,
        )  # fmt: skip
        sent = sent_messages(server)
    assert result.returncode == 0, result.stderr
    assert sent == [("system", "You review Go code for the web team."), ("user", "Review this:\nx := 1")]


def test_piped_text_is_the_input_and_a_prompt_makes_the_run_one_shot(config):
    with FakeServer(reply="Looks fine.") as server:
        result = run_chatbot(
            *openai_flags(server.base_url), "--role", "review", "-v", "lang", "Go", "-v", "team", "us",
            cwd=config, stdin="func main() {}\n",
        )  # fmt: skip
        sent = sent_messages(server)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "Looks fine.\n"
    assert sent[-1] == ("user", "Review this:\nfunc main() {}")  # not also attached as a stdin block


def test_a_prompt_without_input_is_sent_as_it_is(config):
    with FakeServer() as server:
        result = run_chatbot(*openai_flags(server.base_url), "--role", "joke", "-v", "topic", "cats", cwd=config)
        sent = sent_messages(server)
    assert result.returncode == 0, result.stderr
    assert sent[-1] == ("user", "Tell a joke about cats.")


def test_a_missing_variable_is_one_error_naming_it_and_nothing_is_sent(config):
    with FakeServer() as server:
        result = run_chatbot(*openai_flags(server.base_url), "--role", "review", "-v", "lang", "Go", "-p", "x",
                             cwd=config)  # fmt: skip
        assert server.record.requests == []
    assert result.returncode == 2
    assert one_error_line(result) == "chatbot: role review needs a value for $team: add -v team VALUE"


def test_show_prints_the_filled_template_without_sending(config):
    with FakeServer() as server:
        result = run_chatbot(
            *openai_flags(server.base_url), "--role", "review", "-v", "lang", "Python", "-v", "team", "QA",
            "-p", "def f(): pass", "--show", cwd=config,
        )  # fmt: skip
        assert server.record.requests == []
    assert result.returncode == 0, result.stderr
    assert_clean(result)
    assert result.stdout == "system:\nYou review Python code for QA.\n\nprompt:\nReview this:\ndef f(): pass\n"
    assert not any((config / "sessions").iterdir())  # no session was opened


def test_show_names_the_files_that_would_be_attached_without_reading_them(config):
    files = ["-f", "notes.txt", "-f", "https://u:pw@example.org/a"]
    result = run_chatbot("--provider", "echo", "--role", "review", "-v", "lang", "Go", "-v", "team", "ops",
                         *files, "-p", "x", "--show", cwd=config)  # fmt: skip
    assert result.returncode == 0, result.stderr  # notes.txt does not exist: --show names it, reads nothing
    assert result.stdout.endswith("attached before the prompt (-f):\n- notes.txt\n- https://u:***@example.org/a\n")


def test_show_prints_a_file_name_with_an_escape_or_a_newline_as_codes_on_its_line(config):
    files = ["-f", "a\x1b[2Jb.txt", "-f", "n\n- /etc/passwd", "-f", "x\u202etxt.exe"]
    result = run_chatbot("--provider", "echo", "--role", "review", "-v", "lang", "Go", "-v", "team", "ops",
                         *files, "-p", "x", "--show", cwd=config)  # fmt: skip
    assert_clean(result)
    shown = "- a\\u001b[2Jb.txt\n- n\\u000a- /etc/passwd\n- x\\u202etxt.exe\n"
    assert result.stdout.endswith("attached before the prompt (-f):\n" + shown)  # three names, three lines


def test_a_plain_role_is_still_a_system_message_used_as_written(config):
    with FakeServer() as server:
        result = run_chatbot(*openai_flags(server.base_url), "--role", "pirate", "-p", "hello", cwd=config)
        sent = sent_messages(server)
    assert result.returncode == 0, result.stderr
    assert sent == [("system", "Answer like a pirate. It costs $5."), ("user", "hello")]


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ('[roles.bad]\nsystem = "costs $5"\n', "line 2: roles.bad.system: a $ that starts no variable name"),
        ('[roles.bad]\nsytem = "x"\n', "line 2: roles.bad.sytem: unknown key (a role table holds system and prompt)"),
    ],
)
def test_a_template_that_cannot_be_filled_is_a_config_error(tmp_path, table, words):
    (tmp_path / "config.toml").write_text(table)
    result = run_chatbot("--provider", "echo", "-p", "x", cwd=tmp_path)
    assert result.returncode == 2
    assert words in one_error_line(result)


def test_a_role_given_to_a_continued_session_is_named_as_the_role_when_its_system_message_is_not_used(config):
    first = run_chatbot("--provider", "echo", "-p", "hello", cwd=config)
    assert first.returncode == 0, first.stderr
    result = run_chatbot("--provider", "echo", "--role", "review", "-v", "lang", "Go", "-v", "team", "us", "-c",
                         "-p", "x := 1", cwd=config)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "chatbot: --role review shapes new sessions only; this one keeps its own system message" in result.stderr
    assert "--system shapes" not in result.stderr
    assert "Last user message: Review this:\nx := 1" in result.stdout  # the template's prompt is still the message


def test_role_in_a_chat_says_a_template_needs_the_command_line_and_how_to_run_it(config):
    """``/role review`` is no "no role 'review'": the role is there, its variables have no value in a chat, and the
    answer names them and the command line that fills them; ``/role`` lists the templates too."""
    script = "/role\n/role review\n/role joke\n/system\n"
    result = run_chatbot("--provider", "echo", "--session", "r", stdin=script, cwd=config)
    assert "no role" not in result.stderr
    assert "review: (a template /role cannot set; /role review says how to run it)" in result.stdout
    assert (
        "role review is a template /role cannot set: its system message has variables ($lang, $team) that only "
        "the command line fills; run it from the shell: chatbot --role review -v lang VALUE -v team VALUE -p TEXT"
    ) in result.stderr
    assert "role joke is a template /role cannot set: it is a prompt to send, with no system message; run it from " \
        "the shell: chatbot --role joke -v topic VALUE" in result.stderr  # fmt: skip
    assert "You review" not in result.stdout  # the system message is untouched


def test_a_template_system_message_without_variables_is_a_role_with_its_dollar_written_once(tmp_path):
    (tmp_path / "config.toml").write_text('[roles.cost]\nsystem = "Prices in $$ only."\n')
    result = run_chatbot("--provider", "echo", "--session", "c", stdin="/role cost\n/system\n", cwd=tmp_path)
    assert "system message set from role cost" in result.stderr
    assert "Prices in $ only." in result.stdout
