"""OpenAI and every OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp, OpenRouter) over the ``openai`` SDK.

Imported only when the provider is made: the SDK takes about half a second to import.
"""

from __future__ import annotations

import httpx2
import openai

from chatbot.providers.error_map import SdkErrors
from chatbot.providers.openai_compat import CompatProvider

OPENAI_ERRORS = SdkErrors(
    base=openai.OpenAIError,
    api=openai.APIError,
    status=openai.APIStatusError,
    timeout=(openai.APITimeoutError, httpx2.TimeoutException),
    connection=(openai.APIConnectionError, httpx2.TransportError),
    protocol=(httpx2.RemoteProtocolError,),
    invalid_url=(httpx2.InvalidURL,),
)


class OpenAIProvider(CompatProvider):
    """Chat completions over the official ``openai`` SDK; ``base_url`` points it at any compatible server."""

    name = "openai"

    client_class = openai.OpenAI
    sdk_errors = OPENAI_ERRORS
    http_client_class = openai.DefaultHttpxClient
