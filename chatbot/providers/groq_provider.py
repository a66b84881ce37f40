"""Groq over the official ``groq`` SDK.

The groq SDK has no ``stream_options`` argument; the core sends every field it does not type through ``extra_body``
(:meth:`~chatbot.providers.openai_compat.CompatProvider._create`), so usage is asked for the same way. Groq also
reports it in ``x_groq.usage`` of the last chunk. Imported only when the provider is made.
"""

from __future__ import annotations

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
)


class GroqProvider(CompatProvider):
    """Chat completions on Groq (default model ``openai/gpt-oss-20b``)."""

    name = "groq"

    client_class = groq.Groq
    sdk_errors = GROQ_ERRORS
