"""Providers: one small interface (:mod:`chatbot.providers.base`) over Groq, any OpenAI-compatible server, and echo.

The SDK-backed modules are imported only inside :func:`make_provider`, so importing this package (for
``DEFAULT_MODELS`` or the base types) stays fast: ``chatbot --version`` never pays for the ``openai`` import.
"""

from __future__ import annotations

import os

from chatbot.errors import AuthenticationError, ConfigError, UsageError
from chatbot.providers.base import ChatProvider

PROVIDERS = ("groq", "openai", "echo")

DEFAULT_MODELS = {
    "groq": "openai/gpt-oss-20b",
    "openai": "gpt-4o-mini",
    "echo": "echo",
}

KEY_ENV = {"groq": "GROQ_API_KEY", "openai": "OPENAI_API_KEY"}
BASE_URL_ENV = {"groq": "GROQ_BASE_URL", "openai": "OPENAI_BASE_URL"}

# Local OpenAI-compatible servers (Ollama, llama.cpp, vLLM, LM Studio) ignore the key, but the SDK insists on one.
LOCAL_DUMMY_KEY = "not-needed"


def missing_key_message(env: str) -> str:
    """What to tell a user whose ``env`` key is not set."""
    return (
        f"{env} is not set. Set it with `export {env}=your-key`, or put the line `{env}=your-key` in a .env file "
        "in this directory. To try the app offline without a key, use `--provider echo`."
    )


def _base_url(name: str, base_url: str | None) -> str | None:
    url = base_url or os.environ.get(BASE_URL_ENV[name]) or None
    if url is not None and not url.startswith(("http://", "https://")):
        raise ConfigError(f"base URL {url!r} must start with http:// or https:// (e.g. http://localhost:11434/v1)")
    return url


def make_provider(
    name: str,
    *,
    model: str | None = None,
    base_url: str | None = None,
    timeout: float | None = None,
    max_retries: int | None = None,
) -> ChatProvider:
    """The provider called ``name`` ("groq", "openai" or "echo") for ``model`` (default: ``DEFAULT_MODELS[name]``).

    Keys come only from ``GROQ_API_KEY`` / ``OPENAI_API_KEY`` in the environment; the base URL from ``base_url``,
    else ``GROQ_BASE_URL`` / ``OPENAI_BASE_URL``. ``timeout`` (seconds) and ``max_retries`` default to the SDK's.
    Raises AuthenticationError when the key is missing, ConfigError for a malformed base URL.
    """
    if name not in PROVIDERS:
        raise UsageError(f"unknown provider {name!r}: choose one of {', '.join(PROVIDERS)}")
    model = model or DEFAULT_MODELS[name]
    if name == "echo":
        from chatbot.providers.echo import EchoProvider

        return EchoProvider(model=model)

    url = _base_url(name, base_url)
    key = os.environ.get(KEY_ENV[name], "").strip()
    if not key and name == "openai" and url is not None:
        key = LOCAL_DUMMY_KEY
    if not key:
        raise AuthenticationError(missing_key_message(KEY_ENV[name]))
    if name == "groq":
        from chatbot.providers.groq_provider import GroqProvider

        return GroqProvider(api_key=key, model=model, base_url=url, timeout=timeout, max_retries=max_retries)
    from chatbot.providers.openai_provider import OpenAIProvider

    return OpenAIProvider(api_key=key, model=model, base_url=url, timeout=timeout, max_retries=max_retries)
