"""Groq over the official ``groq`` SDK.

The groq SDK has no ``stream_options`` argument; the core sends every field it does not type through ``extra_body``
(:meth:`~chatbot.providers.openai_compat.CompatProvider._send`), so usage is asked for the same way. Groq also
reports it in ``x_groq.usage`` of the last chunk. Imported only when the provider is made.

The groq SDK's base URL is the server's root (``https://api.groq.com``): it appends ``/openai/v1`` itself. A base URL
written the OpenAI way, ending in ``/openai/v1`` (as Groq's documentation shows it for OpenAI's SDK), is taken as
meant: the suffix is dropped rather than sent twice.
"""

from __future__ import annotations

from typing import Any

import groq
import httpx

from chatbot.providers.error_map import SdkErrors
from chatbot.providers.openai_compat import CompatProvider

GROQ_ERRORS = SdkErrors(
    base=groq.GroqError,
    api=groq.APIError,
    status=groq.APIStatusError,
    # groq's stream does not wrap transport errors raised while reading, so httpx's own classes are mapped too.
    timeout=(groq.APITimeoutError, httpx.TimeoutException),
    connection=(groq.APIConnectionError, httpx.TransportError),
    protocol=(httpx.RemoteProtocolError,),
    invalid_url=(httpx.InvalidURL,),
)


class GroqProvider(CompatProvider):
    """Chat completions on Groq (default model ``openai/gpt-oss-20b``)."""

    name = "groq"

    client_class = groq.Groq
    sdk_errors = GROQ_ERRORS
    http_client_class = groq.DefaultHttpxClient

    def __init__(self, *, base_url: str | None = None, **more: Any) -> None:
        super().__init__(base_url=sdk_root(base_url) if base_url else base_url, **more)


#: the path the groq SDK appends to its base URL
SDK_PATH = "/openai/v1"


def sdk_root(base_url: str) -> str:
    """The root the groq SDK wants for ``base_url``: the URL without a trailing ``/openai/v1`` (the SDK adds it)."""
    trimmed = base_url.rstrip("/")
    return trimmed[: -len(SDK_PATH)] if trimmed.endswith(SDK_PATH) else base_url
