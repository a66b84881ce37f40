"""Groq over the official ``groq`` SDK.

The groq SDK has no ``stream_options`` argument, so usage is asked for through ``extra_body``; Groq also reports it
in ``x_groq.usage`` of the last chunk. Imported only when the provider is made.
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
)


class GroqProvider(CompatProvider):
    """Chat completions on Groq (default model ``openai/gpt-oss-20b``)."""

    name = "groq"

    client_class = groq.Groq
    sdk_errors = GROQ_ERRORS

    def _usage_params(self) -> dict[str, Any]:
        return {"extra_body": {"stream_options": {"include_usage": True}}}
