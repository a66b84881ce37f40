"""The one table of provider facts: what each provider is called, its class, default model and variables."""

from __future__ import annotations

from typing import NamedTuple


class ProviderInfo(NamedTuple):
    """Facts about one provider. ``key_env`` is None for a provider that needs no key.

    A named tuple rather than a dataclass: the flag table reads this at every start, and ``dataclasses`` (with the
    ``inspect`` it imports) would cost ``chatbot --version`` a fifth of a bare interpreter's start-up.
    """

    name: str
    cls: str  # "module:Class", imported only when the provider is made (SDK imports are slow)
    default_model: str
    key_env: str | None = None
    base_url_env: str | None = None
    #: a local OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio) ignores the key: with a base URL, none
    #: is needed
    key_optional_with_base_url: bool = False
    #: where the SDK sends requests when no base URL is given
    default_base_url: str = ""


PROVIDERS: dict[str, ProviderInfo] = {
    info.name: info
    for info in (
        ProviderInfo(
            "groq",
            "chatbot.providers.groq_provider:GroqProvider",
            "openai/gpt-oss-20b",
            "GROQ_API_KEY",
            "GROQ_BASE_URL",
            default_base_url="https://api.groq.com",
        ),
        ProviderInfo(
            "openai",
            "chatbot.providers.openai_provider:OpenAIProvider",
            "gpt-4o-mini",
            "OPENAI_API_KEY",
            "OPENAI_BASE_URL",
            key_optional_with_base_url=True,
            default_base_url="https://api.openai.com/v1",
        ),
        ProviderInfo("echo", "chatbot.providers.echo:EchoProvider", "echo"),
    )
}
