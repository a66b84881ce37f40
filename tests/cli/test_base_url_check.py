"""A malformed base URL is one usage line naming where it came from (the flag, the config file, the provider's
variable), exit 2, before any request: never the HTTP library's error as an internal one."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import one_error_line, run_chatbot
from tests.support.fake_server import FakeServer

BAD = [
    ("http://localhost:8o80/v1", "its port '8o80' is not a number from 1 to 65535"),
    ("http://localhost:99999/v1", "its port '99999' is not a number from 1 to 65535"),
    ("http://[::1/v1", "its host has an unclosed ["),
    ("ftp://localhost/v1", "must start with http:// or https://"),
    ("http:///v1", "names no host"),
]


@pytest.mark.parametrize(("url", "why"), BAD)
@pytest.mark.parametrize("action", [["-p", "hi"], ["--list-models"]])
def test_a_malformed_base_url_flag_is_a_usage_error_naming_the_flag(
    url: str, why: str, action: list[str], tmp_path: Path
) -> None:
    result = run_chatbot("--provider", "openai", "--base-url", url, *action, cwd=tmp_path)
    assert result.returncode == 2
    line = one_error_line(result)
    assert line.startswith(f"chatbot: --base-url '{url}' cannot be used: ") and why in line
    assert "internal error" not in result.stderr
    assert not list((tmp_path / "sessions").iterdir())  # refused before a session was made


def test_a_malformed_base_url_in_the_config_file_names_the_file_and_hides_its_password(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('provider = "openai"\nbase_url = "http://me:secret@localhost:8o80/v1"\n')
    result = run_chatbot("-p", "hi", cwd=tmp_path)
    assert result.returncode == 2
    line = one_error_line(result)
    assert f"{tmp_path / 'config.toml'}, line 2: base_url" in line and "port '8o80'" in line
    assert "secret" not in result.stderr


def test_a_malformed_base_url_variable_is_named(tmp_path: Path) -> None:
    result = run_chatbot("--provider", "openai", "-p", "hi", cwd=tmp_path, env={"OPENAI_BASE_URL": "http://h:8o80/"})
    assert result.returncode == 2
    assert "$OPENAI_BASE_URL 'http://h:8o80/' cannot be used: its port '8o80'" in one_error_line(result)


def test_the_base_url_variable_of_a_continued_sessions_provider_is_checked_too(tmp_path: Path) -> None:
    with FakeServer(reply="ok") as server:
        assert run_chatbot("--provider", "openai", "--base-url", server.base_url, "--session", "s", "-p", "hi",
                           cwd=tmp_path, env={"OPENAI_API_KEY": "k"}).returncode == 0  # fmt: skip
    result = run_chatbot("--session", "s", "-p", "x", cwd=tmp_path, env={"OPENAI_BASE_URL": "http://h:8o80/"})
    assert result.returncode == 2
    assert "base URL 'http://h:8o80/' (from $OPENAI_BASE_URL) cannot be used: its port '8o80'" in one_error_line(result)


@pytest.mark.parametrize("url", ["http://localhost:{port}/v1", "HTTP://127.0.0.1:{port}/v1"])
def test_well_formed_base_urls_still_reach_the_server(url: str, tmp_path: Path) -> None:
    with FakeServer(reply="fine") as server:
        result = run_chatbot("--provider", "openai", "--base-url", url.format(port=server.port), "-p", "hi",
                             cwd=tmp_path)  # fmt: skip
    assert (result.returncode, result.stdout.strip()) == (0, "fine"), result.stderr


def test_a_base_url_without_a_provider_says_how_to_reach_an_openai_compatible_server(tmp_path: Path) -> None:
    """--base-url alone meets the default provider (groq) and its missing key: the error says what to add."""
    with FakeServer(reply="hello from a local server") as server:
        alone = run_chatbot("--base-url", server.base_url, "--model", "x", "-p", "hi", cwd=tmp_path)
        told = one_error_line(alone)
        assert alone.returncode != 0 and "GROQ_API_KEY is not set" in told
        assert "--base-url without --provider uses groq; for another" in told and "--provider openai" in told
        added = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url, "--model", "x", "-p", "hi", cwd=tmp_path
        )
    assert added.returncode == 0, added.stderr
    assert added.stdout.strip() == "hello from a local server"
