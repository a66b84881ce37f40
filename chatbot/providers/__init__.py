"""Providers: one small interface (:mod:`chatbot.providers.base`) over Groq, any OpenAI-compatible server, and echo.

Each provider's facts (class, default model, key and base-URL variables) are in :data:`PROVIDERS`
(:mod:`chatbot.providers.table`). The SDK-backed modules are imported only inside :func:`make_provider`, so
importing this package stays fast: ``chatbot --version`` never pays for the ``openai`` import, nor for the
interface's dataclasses (``ChatProvider`` is imported on first use).
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

from chatbot.errors import AuthenticationError, ConfigError, UsageError
from chatbot.providers.table import PROVIDERS, ProviderInfo

if TYPE_CHECKING:
    from chatbot.providers.base import ChatProvider

__all__ = ["PROVIDERS", "ChatProvider", "ProviderInfo", "make_provider", "missing_key_message"]

# Local OpenAI-compatible servers ignore the key, but the SDK insists on one.
LOCAL_DUMMY_KEY = "not-needed"


def __getattr__(name: str) -> Any:
    if name == "ChatProvider":  # the interface, imported on first use: the flag table needs only PROVIDERS
        from chatbot.providers.base import ChatProvider

        return ChatProvider
    raise AttributeError(f"module 'chatbot.providers' has no attribute {name!r}")


def missing_key_message(env: str) -> str:
    """What to tell a user whose ``env`` key is not set."""
    return (
        f"{env} is not set. Set it with `export {env}=your-key`, or put the line `{env}=your-key` in a .env file "
        "in this directory. To try the app offline without a key, use `--provider echo`."
    )


def key_problem(key: str) -> str:
    """Why ``key`` cannot go in an HTTP header ("" when it can): an API key is printable ASCII. Never shows the key."""
    for at, ch in enumerate(key, start=1):
        if not " " <= ch <= "~":
            what = "a line break" if ch in "\r\n" else "a control character" if ch < " " or ch == "\x7f" else (
                "a character outside ASCII")  # fmt: skip
            return f"it holds {what} (character {at} of {len(key)})"
    return ""


def _base_url(info: ProviderInfo, base_url: str | None) -> str | None:
    from chatbot.providers.endpoint import url_problem
    from chatbot.text import mask_password

    from_env = "" if base_url or not info.base_url_env else os.environ.get(info.base_url_env, "")
    url = base_url or from_env or None
    if url is None:
        return None
    problem = url_problem(url)
    if problem:
        where = f" (from ${info.base_url_env})" if from_env else ""
        raise ConfigError(f"base URL {mask_password(url)!r}{where} cannot be used: {problem}")
    return url


def make_provider(
    name: str,
    *,
    model: str | None = None,
    base_url: str | None = None,
    timeout: float | None = None,
    max_retries: int | None = None,
) -> ChatProvider:
    """The provider called ``name`` (a key of :data:`PROVIDERS`) for ``model`` (default: the provider's).

    Keys come only from the environment variable the table names; the base URL from ``base_url``, else the table's
    base-URL variable. ``timeout`` (seconds) and ``max_retries`` default to the SDK's. Raises AuthenticationError
    when the key is missing, ConfigError for a malformed base URL.
    """
    info = PROVIDERS.get(name)
    if info is None:
        raise UsageError(f"unknown provider {name!r}: choose one of {', '.join(PROVIDERS)}")
    module_name, _, class_name = info.cls.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    model = model or info.default_model
    if not info.default_base_url:  # echo: no server, nothing leaves this machine
        return cls(model=model)
    url = _base_url(info, base_url)
    key = os.environ.get(info.key_env, "").strip() if info.key_env else ""
    if not key and (info.local or (info.key_optional_with_base_url and url is not None)):
        key = LOCAL_DUMMY_KEY
    if not key:
        raise AuthenticationError(missing_key_message(info.key_env or ""))
    problem = key_problem(key)
    if problem:  # refused before any request: the HTTP library would fail on it, naming the key in its error
        raise ConfigError(
            f"{info.key_env} cannot be sent as an API key: {problem}; an API key is printable ASCII. Set it again "
            "(environment or .env)."
        )
    url = url or info.default_base_url
    return cls(api_key=key, model=model, base_url=url, timeout=timeout, max_retries=max_retries, name=info.name)
