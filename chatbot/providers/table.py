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
    #: where the SDK sends requests when no base URL is given ("" for echo, which sends nothing anywhere)
    default_base_url: str = ""
    #: a server on this machine (Ollama, LM Studio, vLLM): it needs no key (``key_env``, if any, is sent when set)
    local: bool = False


#: the class of every service that speaks OpenAI's chat-completions API: the openai SDK pointed at its base URL
_COMPATIBLE = "chatbot.providers.openai_provider:OpenAIProvider"


def _compatible(name: str, model: str, key_env: str | None, base_url_env: str, url: str) -> ProviderInfo:
    return ProviderInfo(name, _COMPATIBLE, model, key_env, base_url_env, default_base_url=url, local=key_env is None)


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
        # services that speak the OpenAI wire format, each at its documented endpoint, key variable and a current
        # model (any other is --model NAME). Anthropic's base-URL variable is not ANTHROPIC_BASE_URL: Anthropic's
        # own SDK reads that one as the root of its native API, which is not this OpenAI-compatible endpoint.
        _compatible(
            "openrouter",
            "openai/gpt-4o-mini",
            "OPENROUTER_API_KEY",
            "OPENROUTER_BASE_URL",
            "https://openrouter.ai/api/v1",
        ),
        _compatible(
            "gemini",
            "gemini-3.5-flash",
            "GEMINI_API_KEY",
            "GEMINI_BASE_URL",
            "https://generativelanguage.googleapis.com/v1beta/openai/",
        ),
        _compatible(
            "anthropic",
            "claude-sonnet-5-5",
            "ANTHROPIC_API_KEY",
            "CHATBOT_ANTHROPIC_BASE_URL",
            "https://api.anthropic.com/v1/",
        ),
        _compatible(
            "mistral", "mistral-small-latest", "MISTRAL_API_KEY", "MISTRAL_BASE_URL", "https://api.mistral.ai/v1"
        ),
        _compatible(
            "deepseek", "deepseek-v4-flash", "DEEPSEEK_API_KEY", "DEEPSEEK_BASE_URL", "https://api.deepseek.com"
        ),
        _compatible(
            "together", "openai/gpt-oss-20b", "TOGETHER_API_KEY", "TOGETHER_BASE_URL", "https://api.together.ai/v1"
        ),
        # NAVER Cloud's CLOVA Studio, its OpenAI-compatible endpoint (HyperCLOVA X models)
        _compatible(
            "clova",
            "HCX-005",
            "CLOVA_STUDIO_API_KEY",
            "CLOVA_STUDIO_BASE_URL",
            "https://clovastudio.stream.ntruss.com/v1/openai",
        ),
        # servers on this machine: no key
        _compatible("ollama", "llama3.2", None, "OLLAMA_BASE_URL", "http://localhost:11434/v1"),
        _compatible("lmstudio", "openai/gpt-oss-20b", None, "LMSTUDIO_BASE_URL", "http://localhost:1234/v1"),
        # (vllm serve --api-key reads VLLM_API_KEY: sent when set, never required)
        ProviderInfo(
            "vllm",
            _COMPATIBLE,
            "openai/gpt-oss-20b",
            "VLLM_API_KEY",
            "VLLM_BASE_URL",
            default_base_url="http://localhost:8000/v1",
            local=True,
        ),
        ProviderInfo("echo", "chatbot.providers.echo:EchoProvider", "echo"),
    )
}
