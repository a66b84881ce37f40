"""Where the key and the conversation go: the notice is computed from the final request target (base URL, proxy, CA
bundle), whatever set it and whether or not a key is set; a URL that carries a key is refused."""

from __future__ import annotations

import shutil

import certifi

from tests.support.cli import run_chatbot
from tests.support.fake_server import FakeServer
from tests.support.hostile_server import HostileServer

GROQ_KEY = "gsk_" + "k3y" * 12
PROXIES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy", "NO_PROXY", "no_proxy")


def env(**extra: str | None) -> dict[str, str | None]:
    """No proxy of the developer's own, plus ``extra``."""
    return {**dict.fromkeys(PROXIES), **extra}


def test_a_proxy_from_the_environment_is_named_with_the_key_it_carries(tmp_path):
    with FakeServer(reply="via the proxy") as proxy:
        result = run_chatbot(
            "--provider", "openai", "--model", "m", "--base-url", "http://api.example.invalid/v1", "-p", "hi",
            cwd=tmp_path, env=env(OPENAI_API_KEY="sk-mine", http_proxy=proxy.root_url),
        )  # fmt: skip
        carried = proxy.record.authorizations
    assert result.returncode == 0, result.stderr
    assert carried == ["Bearer sk-mine"]  # the proxy really is on the way
    (line,) = [s for s in result.stderr.splitlines() if "sending your OPENAI_API_KEY" in s]
    assert f"through the proxy {proxy.root_url} ($http_proxy)" in line


def test_a_ca_bundle_from_the_environment_is_named_even_for_the_providers_own_server(tmp_path):
    shutil.copy(certifi.where(), tmp_path / "ca.pem")
    result = run_chatbot(
        "--provider", "groq", "--session", "s", stdin="", cwd=tmp_path,
        env=env(GROQ_API_KEY=GROQ_KEY, SSL_CERT_FILE=str(tmp_path / "ca.pem")),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    (line,) = [s for s in result.stderr.splitlines() if "sending your GROQ_API_KEY" in s]
    assert "https://api.groq.com" in line and f"$SSL_CERT_FILE ({tmp_path / 'ca.pem'})" in line


def test_the_conversation_is_named_and_plain_http_warned_without_a_key(tmp_path):
    with HostileServer() as server:
        remote = server.base_url.replace("127.0.0.1", "localhost.example")
        result = run_chatbot(
            "--provider", "openai", "--model", "m", "--session", "s", stdin="", cwd=tmp_path,
            env=env(OPENAI_BASE_URL=remote),
        )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert f"sending the conversation to {remote} (set by $OPENAI_BASE_URL; no OPENAI_API_KEY is set)" in result.stderr
    assert "plain http://" in result.stderr


def test_a_base_url_carrying_another_providers_key_is_refused(tmp_path):
    with FakeServer(reply="got it") as thief:
        result = run_chatbot(
            "--provider", "openai", "--model", "m", "--base-url", f"{thief.root_url}/{GROQ_KEY}/v1", "-p", "hi",
            cwd=tmp_path, env=env(GROQ_API_KEY=GROQ_KEY),
        )  # fmt: skip
        stolen = thief.record.targets
    assert stolen == []
    assert result.returncode == 2
    assert "GROQ_API_KEY" in result.stderr and GROQ_KEY not in result.stderr


def test_a_base_url_carrying_a_key_shaped_string_is_refused(tmp_path):
    shaped = "gsk_" + "x" * 40
    with FakeServer(reply="got it") as thief:
        result = run_chatbot(
            "--provider", "openai", "--model", "m", "--base-url", f"{thief.root_url}/{shaped}/v1", "-p", "hi",
            cwd=tmp_path, env=env(),
        )  # fmt: skip
        stolen = thief.record.targets
    assert stolen == [] and result.returncode == 2
    assert "looks like an API key" in result.stderr and shaped not in result.stderr


def test_list_models_names_where_the_key_goes_and_refuses_a_url_carrying_it(tmp_path):
    with FakeServer() as server:
        listed = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url.replace("127.0.0.1", "localhost"), "--list-models",
            cwd=tmp_path, env=env(OPENAI_API_KEY="sk-mine"),
        )  # fmt: skip
        refused = run_chatbot(
            "--provider", "openai", "--base-url", f"{server.root_url}/{GROQ_KEY}/v1", "--list-models",
            cwd=tmp_path, env=env(GROQ_API_KEY=GROQ_KEY),
        )  # fmt: skip
        targets = server.record.targets
    assert listed.returncode == 0, listed.stderr
    assert "sending your OPENAI_API_KEY to http://localhost" in listed.stderr
    assert refused.returncode == 2 and len(targets) == 1  # only the first run's request


def test_the_usual_ca_bundle_is_not_named(tmp_path):
    result = run_chatbot(
        "--provider", "groq", "--session", "s", stdin="", cwd=tmp_path,
        env=env(GROQ_API_KEY=GROQ_KEY, SSL_CERT_FILE=certifi.where(), SSL_CERT_DIR=None),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "sending" not in result.stderr
