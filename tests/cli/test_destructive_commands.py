"""/delete and /reset in a piped script, and a slash command given to -p, through the real CLI: nothing is erased
or sent that the user did not say to erase or send."""

from __future__ import annotations

import pytest

from tests.support.cli import one_error_line, run_chatbot, session_doc

ECHO = ("--provider", "echo")
FAST = {"CHATBOT_ECHO_DELAY": "0"}


def user_texts(doc: dict) -> list[str]:
    return [t["messages"][0]["content"] for t in doc["turns"]]


def test_delete_in_a_script_refuses_with_one_line_and_deletes_nothing(tmp_path):
    run_chatbot(*ECHO, "--session", "del1", "-p", "keep me", cwd=tmp_path, env=FAST)
    result = run_chatbot(*ECHO, "--session", "ed2", stdin="/delete del1\n", cwd=tmp_path, env=FAST)
    assert result.returncode == 2
    assert one_error_line(result) == (
        "chatbot: not deleted: /delete asks first and a script has nobody to ask; /delete del1 --force deletes "
        "without a question"
    )
    assert user_texts(session_doc(tmp_path, "del1")) == ["keep me"]


def test_delete_with_force_in_a_script_deletes_without_a_question(tmp_path):
    run_chatbot(*ECHO, "--session", "del1", "-p", "old", cwd=tmp_path, env=FAST)
    result = run_chatbot(*ECHO, "--session", "ed2", stdin="/delete del1 --force\n", cwd=tmp_path, env=FAST)
    assert result.returncode == 0, result.stderr
    assert "deleted session del1" in result.stderr
    assert not (tmp_path / "sessions" / "del1.json").exists()


def test_reset_in_a_script_says_how_many_turns_it_erased(tmp_path):
    result = run_chatbot(*ECHO, "--session", "r", stdin="one\ntwo\n/reset\nthree\n", cwd=tmp_path, env=FAST)
    assert result.returncode == 0, result.stderr
    assert "erased 2 turn(s) and the summary of session r; the system message stays" in result.stderr
    assert user_texts(session_doc(tmp_path, "r")) == ["three"]


@pytest.mark.parametrize("command", ["/undo", "/context", "/reset"])
def test_prompt_with_a_command_is_refused_and_nothing_is_sent_or_stored(tmp_path, command):
    run_chatbot(*ECHO, "--session", "s", "-p", "first", cwd=tmp_path, env=FAST)
    result = run_chatbot(*ECHO, "-c", "-p", command, cwd=tmp_path, env=FAST)
    assert result.returncode == 2 and result.stdout == ""
    line = one_error_line(result)
    assert f"-p sends a message, not a command: '{command}' was not sent" in line
    assert f"echo {command} | chatbot -c" in line and "start it with // to send a message that begins with /" in line
    assert user_texts(session_doc(tmp_path, "s")) == ["first"]


def test_prompt_with_a_slash_path_is_refused_and_double_slash_sends_it(tmp_path):
    refused = run_chatbot(*ECHO, "--session", "p", "-p", "/usr/bin is where?", cwd=tmp_path, env=FAST)
    assert refused.returncode == 2 and "'/usr/bin' was not sent; start it with //" in one_error_line(refused)
    assert not (tmp_path / "sessions" / "p.json").exists()
    sent = run_chatbot(*ECHO, "--session", "p", "-p", "//usr/bin is where?", cwd=tmp_path, env=FAST)
    assert sent.returncode == 0, sent.stderr
    assert user_texts(session_doc(tmp_path, "p")) == ["/usr/bin is where?"]


@pytest.mark.parametrize("typed", ['"att/my file.txt"', "'att/my file.txt'", "att/my\\ file.txt", "att/my file.txt"])
def test_file_takes_a_quoted_or_escaped_path_as_terminals_paste_it(tmp_path, typed):
    (tmp_path / "att").mkdir()
    (tmp_path / "att" / "my file.txt").write_text("the dropped file\n")
    result = run_chatbot(*ECHO, "--session", "f", stdin=f"/file {typed}\nread it\n", cwd=tmp_path, env=FAST)
    assert result.returncode == 0, result.stderr
    assert "attached att/my file.txt (1 lines)" in result.stderr
    assert "the dropped file" in str(session_doc(tmp_path, "f")["turns"][0]["messages"][0])


def test_prompt_with_a_command_in_a_new_session_names_no_session_and_makes_none(tmp_path):
    # the refusal came after the session was opened and announced: "session 20261207-eo8l (new)" for none made
    result = run_chatbot(*ECHO, "-p", "/undo", cwd=tmp_path, env=FAST)
    assert result.returncode == 2 and result.stdout == ""
    assert "session" not in result.stderr.split("-p sends")[0]
    assert "'/undo' was not sent" in one_error_line(result)
    assert list((tmp_path / "sessions").iterdir()) == []
