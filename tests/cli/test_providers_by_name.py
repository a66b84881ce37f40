"""Providers by name: each OpenAI-compatible service of the table, its key variable, default model and base URL;
--list-providers; --base-url still wins; model aliases from the config file."""

from __future__ import annotations

import pytest

from chatbot.providers import LOCAL_DUMMY_KEY
from chatbot.providers.table import PROVIDERS
from tests.support.cli import one_error_line, run_chatbot
from tests.support.fake_server import FakeServer

SERVICES = ["openrouter", "gemini", "anthropic", "mistral", "deepseek", "together", "clova"]
LOCAL = ["ollama", "lmstudio", "vllm"]


@pytest.mark.parametrize("name", SERVICES)
def test_a_service_by_name_sends_its_key_variable_as_the_bearer_token_and_its_default_model(tmp_path, name):
    info = PROVIDERS[name]
    assert info.key_env and info.base_url_env
    with FakeServer(reply="hi from the service") as server:
        env = {info.base_url_env: server.base_url, info.key_env: f"test-key-of-{name}"}
        result = run_chatbot("--provider", name, "-p", "hello", cwd=tmp_path, env=env)
        request = server.record.last_request()
        auth = server.record.authorizations[-1]
    assert result.returncode == 0, result.stderr
    assert result.stdout == "hi from the service\n"
    assert auth == f"Bearer test-key-of-{name}"
    assert request is not None and request["model"] == info.default_model


@pytest.mark.parametrize("name", LOCAL)
def test_a_local_server_by_name_needs_no_key(tmp_path, name):
    info = PROVIDERS[name]
    assert info.base_url_env and info.local
    with FakeServer() as server:
        result = run_chatbot("--provider", name, "-p", "hello", cwd=tmp_path, env={info.base_url_env: server.base_url})
        request = server.record.last_request()
        auth = server.record.authorizations[-1]
    assert result.returncode == 0, result.stderr
    assert auth == f"Bearer {LOCAL_DUMMY_KEY}"
    assert request is not None and request["model"] == info.default_model
    assert "warning" not in result.stderr  # nothing of the user's left this machine


def test_vllm_sends_its_optional_key_when_it_is_set(tmp_path):
    with FakeServer() as server:
        env = {"VLLM_BASE_URL": server.base_url, "VLLM_API_KEY": "token-abc123"}
        result = run_chatbot("--provider", "vllm", "-p", "hello", cwd=tmp_path, env=env)
        auth = server.record.authorizations[-1]
    assert result.returncode == 0, result.stderr
    assert auth == "Bearer token-abc123"


def test_a_service_without_its_key_is_one_line_naming_the_variable(tmp_path):
    with FakeServer() as server:
        result = run_chatbot("--provider", "gemini", "-p", "hello", cwd=tmp_path,
                             env={"GEMINI_BASE_URL": server.base_url})  # fmt: skip
        assert server.record.requests == []
    assert result.returncode == 5
    assert one_error_line(result).startswith("chatbot: GEMINI_API_KEY is not set.")


def test_base_url_still_overrides_a_named_provider(tmp_path):
    with FakeServer() as server:
        result = run_chatbot(
            "--provider", "mistral", "--base-url", server.base_url, "--model", "mistral-large-latest", "-p", "hi",
            cwd=tmp_path, env={"MISTRAL_API_KEY": "m-key", "MISTRAL_BASE_URL": "http://127.0.0.1:9/v1"},
        )  # fmt: skip
        request = server.record.last_request()
    assert result.returncode == 0, result.stderr
    assert request is not None and request["model"] == "mistral-large-latest"
    assert server.record.authorizations[-1] == "Bearer m-key"


def test_list_providers_says_which_keys_are_set_and_never_shows_one(tmp_path):
    env = {"GEMINI_API_KEY": "gm-secret-value", "OLLAMA_BASE_URL": "http://127.0.0.1:9/v1"}
    result = run_chatbot("--list-providers", "--provider", "gemini", cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert "gm-secret-value" not in result.stdout + result.stderr
    lines = {
        line.split()[0] if not line.startswith("*") else line.split()[1]: line for line in result.stdout.splitlines()
    }
    assert set(PROVIDERS) <= set(lines)
    assert lines["gemini"].startswith("*") and "GEMINI_API_KEY (set)" in lines["gemini"]
    assert "https://generativelanguage.googleapis.com/v1beta/openai/" in lines["gemini"]
    assert "ANTHROPIC_API_KEY (not set)" in lines["anthropic"] and "https://api.anthropic.com/v1/" in lines["anthropic"]
    assert "none (local server)" in lines["ollama"] and "$OLLAMA_BASE_URL is set" in lines["ollama"]


def test_clova_studio_by_name_takes_its_key_from_dotenv_and_is_listed_with_its_endpoint(tmp_path):
    (tmp_path / ".env").write_text("CLOVA_STUDIO_API_KEY=nv-test-key\n")
    with FakeServer(reply="안녕하세요") as server:
        result = run_chatbot("--provider", "clova", "-p", "안녕", cwd=tmp_path,
                             env={"CLOVA_STUDIO_BASE_URL": server.base_url})  # fmt: skip
        request = server.record.last_request()
        auth = server.record.authorizations[-1]
    assert result.returncode == 0, result.stderr
    assert "ignored" not in result.stderr and result.stdout == "안녕하세요\n"
    assert auth == "Bearer nv-test-key" and request is not None and request["model"] == "HCX-005"
    listed = run_chatbot("--list-providers", cwd=tmp_path).stdout
    (line,) = [line for line in listed.splitlines() if line.split()[0] == "clova"]
    assert "CLOVA_STUDIO_API_KEY (set)" in line and "HCX-005" in line
    assert "https://clovastudio.stream.ntruss.com/v1/openai" in line


def test_a_model_alias_from_the_config_file_names_its_model(tmp_path):
    (tmp_path / "config.toml").write_text('[aliases]\nfast = "llama-3.1-8b-instant"\nsmart = "m-smart"\n')
    with FakeServer() as server:
        by_flag = run_chatbot("--provider", "ollama", "--model", "fast", "-p", "hi", cwd=tmp_path,
                              env={"OLLAMA_BASE_URL": server.base_url})  # fmt: skip
        script = run_chatbot("--provider", "ollama", "--model", "fast", cwd=tmp_path, stdin="/model smart\nhello\n",
                             env={"OLLAMA_BASE_URL": server.base_url})  # fmt: skip
        models = [r["model"] for r in server.record.requests]
    assert by_flag.returncode == 0 and script.returncode == 0, by_flag.stderr + script.stderr
    assert models == ["llama-3.1-8b-instant", "m-smart"]


def test_list_models_and_the_models_command_mark_the_model_an_alias_names(tmp_path):
    (tmp_path / "config.toml").write_text('[aliases]\nfast = "m-fast"\nsmart = "m-smart"\n')
    env = {"OLLAMA_BASE_URL": None}
    with FakeServer(models=["m-fast", "m-smart", "m-other"]) as server:
        flags = ["--provider", "ollama", "--base-url", server.base_url]
        listed = run_chatbot(*flags, "--model", "fast", "--list-models", cwd=tmp_path, env=env)
        script = run_chatbot(*flags, "--model", "fast", cwd=tmp_path, env=env, stdin="/models\n/model smart\n/models\n")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == ["* m-fast", "  m-other", "  m-smart"]
    assert script.returncode == 0, script.stderr
    marked = [line for line in script.stdout.splitlines() if line.startswith("* ")]
    assert marked == ["* m-fast", "* m-smart"]  # after /model smart, the model in use is the one marked
