"""What real providers check in a chat request and how they word a refusal, for the scripted server.

:mod:`tests.support.fake_server` asks these rules about every request; a ``flavour`` names the server family it
plays (``openai``, ``groq``, ``vllm``, ``llamacpp``; ``""`` is a lenient OpenAI-compatible server). A request too
long for the model's context is refused by the server itself (``FakeConfig.context``).

- :func:`refusal`: the 400 a server answers for a request it will not take: an option of the wrong type
  (``temperature`` as a string), a ``response_format`` it does not know, JSON mode without the word "json" in the
  messages (OpenAI), ``stream_options`` on a request that does not stream (OpenAI).
- :func:`json_reply`: the reply a model in JSON mode gives (the scripted text inside a JSON object, or the scripted
  text itself when it is a JSON object already, as a model answering in JSON writes it).

A model without structured outputs (``schemas=False``) refuses ``json_schema`` as its server words it: Groq "This
model does not support response format `json_schema`.", OpenAI "Invalid parameter: 'response_format' of type
'json_schema' is not supported with this model." (the lenient server and vLLM/llama.cpp as OpenAI does).
"""

from __future__ import annotations

import json
from typing import Any

FLAVOURS = ("", "openai", "groq", "vllm", "llamacpp")

Refusal = tuple[int, dict[str, Any]]

# option name -> (accepted JSON types, OpenAI's word for the type)
_OPTION_TYPES: dict[str, tuple[tuple[type, ...], str]] = {
    "temperature": ((int, float), "a decimal"),
    "top_p": ((int, float), "a decimal"),
    "frequency_penalty": ((int, float), "a decimal"),
    "presence_penalty": ((int, float), "a decimal"),
    "seed": ((int,), "an integer"),
    "max_tokens": ((int,), "an integer"),
    "max_completion_tokens": ((int,), "an integer"),
    "response_format": ((dict,), "an object"),
}
_JSON_TYPES = {str: "a string", bool: "a boolean", int: "an integer", float: "a decimal", list: "an array"}


def _invalid(message: str, param: str | None, code: str | None = None) -> Refusal:
    return 400, {"error": {"message": message, "type": "invalid_request_error", "param": param, "code": code}}


def _type_name(value: object) -> str:
    return "an object" if isinstance(value, dict) else _JSON_TYPES.get(type(value), "null")


def _option_refusal(body: dict[str, Any]) -> Refusal | None:
    for name, (types, word) in _OPTION_TYPES.items():
        if name not in body:
            continue
        value = body[name]
        if isinstance(value, bool) or not isinstance(value, types):
            got = _type_name(value)
            message = f"Invalid type for '{name}': expected {word}, but got {got} instead."
            return _invalid(message, name, "invalid_type")
    temperature = body.get("temperature")
    if isinstance(temperature, (int, float)) and not 0 <= temperature <= 2:
        message = f"Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got {temperature}."
        return _invalid(message, "temperature", "decimal_above_max_value")
    return None


def _schema_refusal(flavour: str) -> Refusal:
    """How a model without structured outputs refuses ``json_schema``: Groq's words, else OpenAI's."""
    if flavour == "groq":
        return 400, {"error": {"message": "This model does not support response format `json_schema`.",
                               "type": "invalid_request_error"}}  # fmt: skip
    message = "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model."
    return _invalid(message, "response_format")


def _format_refusal(body: dict[str, Any], flavour: str, schemas: bool = True) -> Refusal | None:
    fmt = body.get("response_format")
    if fmt is None:
        return None
    kind = fmt.get("type")
    if kind not in ("text", "json_object", "json_schema"):
        message = f"Invalid value: '{kind}'. Supported values are: 'json_object', 'json_schema', and 'text'."
        return _invalid(message, "response_format.type", "invalid_value")
    if kind == "json_schema" and not schemas:
        return _schema_refusal(flavour)
    if kind == "json_schema" and not isinstance((fmt.get("json_schema") or {}).get("schema"), dict):
        return _invalid("Missing required parameter: 'response_format.json_schema'.", "response_format.json_schema")
    said_json = "json" in json.dumps(body.get("messages") or []).lower()
    if kind == "json_object" and flavour in ("openai", "groq") and not said_json:
        message = "'messages' must contain the word 'json' in some form, to use 'response_format' of type "
        message += "'json_object'."
        return _invalid(message, "messages")
    return None


def refusal(body: dict[str, Any], flavour: str, schemas: bool = True) -> Refusal | None:
    """The 400 ``flavour``'s server answers ``body`` with, or None when it takes the request. ``schemas`` False: the
    model has no structured outputs, and a ``json_schema`` response format is refused (by every flavour)."""
    if not flavour:
        return _format_refusal(body, flavour, schemas) if not schemas else None
    if flavour == "openai" and "stream_options" in body and not body.get("stream"):
        message = "The 'stream_options' parameter is only allowed when 'stream' is enabled."
        return _invalid(message, "stream_options", "invalid_value")
    return _option_refusal(body) or _format_refusal(body, flavour, schemas)


def _instance(schema: dict[str, Any], text: str) -> Any:
    """A small value that satisfies ``schema`` (strings get ``text``), as a model held to the schema writes."""
    kind = schema.get("type")
    if "enum" in schema:
        return schema["enum"][0]
    if kind == "object":
        props = schema.get("properties") or {}
        return {name: _instance(sub, text) for name, sub in props.items()}
    if kind == "array":
        return [_instance(schema.get("items") or {"type": "string"}, text)]
    return {"integer": 7, "number": 0.5, "boolean": True, "null": None}.get(str(kind), text)


def _is_object(text: str) -> bool:
    """Whether ``text`` is a JSON object, bare or in one ```json code fence (as many models write it in JSON mode)."""
    body = text.strip()
    if body.startswith("```json\n") and body.endswith("\n```"):
        body = body[len("```json\n") : -len("\n```")]
    try:
        return isinstance(json.loads(body), dict)
    except json.JSONDecodeError:
        return False
    except (ValueError, RecursionError):  # JSON past what Python reads (a 5,000-digit number, nesting 100,000 deep),
        return body.startswith("{")  # which a server held to JSON by a grammar writes all the same


def json_reply(body: dict[str, Any], text: str) -> str:
    """What the model answers ``body`` with when the scripted reply is ``text``: JSON in JSON mode, else ``text``
    (a scripted object goes out as written in JSON mode, fenced or not)."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_object":
        return text if _is_object(text) else json.dumps({"reply": text})
    if fmt.get("type") == "json_schema":
        return json.dumps(_instance(fmt["json_schema"]["schema"], text))
    return text
