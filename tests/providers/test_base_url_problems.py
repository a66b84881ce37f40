"""What a base URL must be (``url_problem``): http(s), a host, a port from 1 to 65535 when one is named; and what
the HTTP library refuses anyway is a ConfigError when the provider is made, never its own exception."""

from __future__ import annotations

import pytest

from chatbot.errors import ConfigError
from chatbot.providers.endpoint import endpoint_mark, url_problem


@pytest.mark.parametrize(
    "url",
    [
        "https://api.openai.com/v1",
        "http://localhost:11434/v1",
        "http://[::1]:8080/v1",
        "http://[::1]/v1",
        "http://user:pass@host:80/v1",
        "http://host:/v1",  # an empty port is the scheme's own
        "HTTPS://host/v1",
    ],
)
def test_well_formed_base_urls_have_no_problem(url: str) -> None:
    assert url_problem(url) == ""


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://localhost:8o80/v1", "port '8o80'"),
        ("http://localhost:0/v1", "port '0'"),
        ("http://localhost:65536/v1", "port '65536'"),
        ("http://localhost:\u0663/v1", "port '\u0663'"),  # a digit, but not an ASCII one
        ("http://[::1/v1", "unclosed ["),
        ("localhost:8080/v1", "http:// or https://"),
        ("http://", "no host"),
        ("http://a host/v1", "a space"),
    ],
)
def test_a_malformed_base_url_is_told_what_is_wrong(url: str, said: str) -> None:
    assert said in url_problem(url)


@pytest.mark.parametrize("name", ["openai", "groq"])
def test_a_url_the_http_library_refuses_is_a_config_error_when_the_provider_is_made(name: str) -> None:
    from chatbot.providers.groq_provider import GroqProvider
    from chatbot.providers.openai_provider import OpenAIProvider

    cls = {"openai": OpenAIProvider, "groq": GroqProvider}[name]
    with pytest.raises(ConfigError, match=r"base URL 'http://h:8o80/' cannot be used: .*8o80"):
        cls(api_key="k", model="m", base_url="http://h:8o80/")


@pytest.mark.parametrize(
    ("provider", "url", "environ", "mark"),
    [
        ("openai", "http://127.0.0.1:8080/v1", {}, "custom"),
        ("openai", None, {"OPENAI_BASE_URL": "http://127.0.0.1:8080/v1"}, "custom"),
        ("openai", "https://api.openai.com/v1/", {}, ""),  # the provider's own service, however it is written
        ("openai", None, {}, ""),
        ("ollama", None, {}, ""),  # a service by name, at its own fixed address
        ("groq", "https://api.groq.com/openai/v1", {}, ""),  # another path on the service's own host
        ("openai", "https://API.openai.com:443/v1", {}, ""),
        ("openai", "http://api.openai.com/v1", {}, "custom"),  # not the service's own scheme
        ("openai", "https://api.openai.com.example.net/v1", {}, "custom"),
        ("echo", "http://127.0.0.1:8080/v1", {}, ""),  # no server: nothing to mark
    ],
)
def test_a_session_is_marked_custom_only_when_served_at_another_address_than_its_providers_own(
    provider: str, url: str | None, environ: dict[str, str], mark: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("OPENAI_BASE_URL", "OLLAMA_BASE_URL", "GROQ_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert endpoint_mark(provider, url) == mark
