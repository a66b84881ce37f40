"""A server that refuses JSON schemas: the request is sent again in plain JSON mode, with the schema in the prompt.

Not every OpenAI-compatible model takes ``response_format`` of type ``json_schema``. Groq answers such a request with
"This model does not support response format `json_schema`", OpenAI's older models with "Invalid parameter:
'response_format' of type 'json_schema' is not supported with this model." Both still take ``json_object`` (JSON
mode, which wants the word "json" in the messages), so the request is repeated that way with the schema written
into the system message, and the user is told once. llama-cpp-python's server refuses it with a 500 wrapping its
request validation ("response_format ... Input should be 'text' or 'json_object'"); a FastAPI server may say 422.
The reply is checked against the schema either way (above the provider), so a model that ignores the prompt is still
caught.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

#: what the user reads when a server refused the schema (once per provider)
FALLBACK_NOTICE = (
    "{where} does not take JSON schemas (response_format json_schema); asking for plain JSON (json_object) with "
    "the schema in the prompt instead"
)

#: why a request went out again in JSON mode (shown above its body with --show-requests)
SCHEMA_REFUSED = (
    "the server refused response_format json_schema; sent again in plain JSON mode (json_object), the schema in the "
    "system message"
)


def schema_in(body: Mapping[str, Any]) -> dict[str, Any] | None:
    """The JSON schema a request body asks for (its ``response_format``), or None."""
    fmt = body.get("response_format")
    if not isinstance(fmt, Mapping) or fmt.get("type") != "json_schema":
        return None
    inner = fmt.get("json_schema")
    schema = inner.get("schema") if isinstance(inner, Mapping) else None
    return dict(schema) if isinstance(schema, Mapping) else {}


#: the statuses a refusal of ``json_schema`` comes with: 400 (Groq, OpenAI), 422 (a server's request validation),
#: 500 (llama-cpp-python, which wraps its validation error in one: retried as a server failure, it only failed again)
REFUSAL_STATUSES = (400, 422, 500)
#: the words of a refusal (pydantic's "Input should be 'text' or 'json_object'" among them)
REFUSING = ("not support", "unsupported", "not supported", "unknown", "invalid value", "input should be")


def refuses_schema(exc: BaseException, status_error: type[BaseException]) -> bool:
    """Whether ``exc`` says the server (or model) does not support ``json_schema`` response formats."""
    if not isinstance(exc, status_error) or getattr(exc, "status_code", None) not in REFUSAL_STATUSES:
        return False
    text = f"{exc} {getattr(exc, 'body', '')}".lower()
    names_it = "json_schema" in text or "response_format" in text or "response format" in text
    return names_it and any(word in text for word in REFUSING)


def as_json_object(body: Mapping[str, Any], schema: Mapping[str, Any]) -> dict[str, Any]:
    """``body`` asking for ``json_object`` instead, the schema told in the system message (JSON mode alone does
    not know the shape; OpenAI's also wants the word "json" in the messages)."""
    said = f"Answer with one JSON object that matches this JSON schema:\n{json.dumps(dict(schema), ensure_ascii=False)}"
    messages = [dict(m) for m in body.get("messages") or []]
    if messages and messages[0].get("role") == "system" and isinstance(messages[0].get("content"), str):
        messages[0]["content"] = f"{messages[0]['content']}\n\n{said}"
    else:
        messages.insert(0, {"role": "system", "content": said})
    return {**body, "messages": messages, "response_format": {"type": "json_object"}}
