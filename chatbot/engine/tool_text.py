"""How chat templates write a request's tool definitions into the prompt, so that they are counted as servers count
them: a server renders the ``tools`` parameter into the prompt, and its ``prompt_tokens`` include it.

- ``llama3.1``: Meta's template puts ``Environment: ipython`` in the system message and, in the first user message,
  an instruction followed by each tool as indented JSON (``tojson(indent=4)``).
- ``chatml``: Qwen's template appends a ``# Tools`` section to the system message: each tool as one line of JSON
  between ``<tools>`` tags, then how to answer with a ``<tool_call>``.
- ``harmony`` (gpt-oss) and ``typescript`` (OpenAI's own models): a TypeScript-like ``namespace functions`` in the
  developer message, one ``type name = (_: {...}) => any;`` per tool; harmony also names the commentary channel in
  its system message. Written to the character as gpt-oss's ``chat_template.jinja`` renders it, quirks included
  (a nested object's field types each after a line break and 16 spaces, ``string[]`` for an array of enum strings,
  an enum's default bare, a ``oneOf`` variant by variant).
"""

from __future__ import annotations

import json
from typing import Any

Tool = dict[str, Any]

_LLAMA31 = (
    "Environment: ipython\n"
    "Given the following functions, please respond with a JSON for a function call with its proper arguments that "
    'best answers the given prompt.\n\nRespond in the format {"name": function name, "parameters": dictionary of '
    "argument name and its value}.Do not use variables.\n\n"
)
_CHATML_HEAD = (
    "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with "
    "function signatures within <tools></tools> XML tags:\n<tools>"
)
_CHATML_TAIL = (
    "\n</tools>\n\nFor each function call, return a json object with function name and arguments within "
    '<tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n'
    "</tool_call>"
)
_NESTED = "\n" + " " * 16  # what the template leaves before a nested object's field type
_HARMONY_CHANNEL = "\nCalls to these tools must go to the commentary channel: 'functions'."


def tool_text(tools: list[Tool], style: str) -> str:
    """The text ``style``'s template adds to the prompt for ``tools`` (OpenAI ``tools`` entries); "" for none."""
    if not tools:
        return ""
    if style == "llama3.1":
        return _LLAMA31 + "".join(json.dumps(t, ensure_ascii=False, indent=4) + "\n\n" for t in tools)
    if style == "chatml":
        return _CHATML_HEAD + "".join("\n" + json.dumps(t, ensure_ascii=False) for t in tools) + _CHATML_TAIL
    namespace = "# Tools\n\n## functions\n\nnamespace functions {\n\n"
    namespace += "".join(_typescript_function(t.get("function") or {}) for t in tools) + "} // namespace functions"
    return (_HARMONY_CHANNEL if style == "harmony" else "") + namespace


def _typescript_function(function: Tool) -> str:
    """One tool as the gpt-oss template's ``render_tool_namespace`` writes it."""
    out = f"// {function.get('description') or ''}\ntype {function.get('name') or ''} = "
    parameters = function.get("parameters") or {}
    properties = parameters.get("properties") or {}
    if not properties:
        return out + "() => any;\n\n"
    required = parameters.get("required") or []
    out += "(_: {\n"
    for name, spec in properties.items():
        if isinstance(spec, dict) and spec.get("description"):
            out += f"// {spec['description']}\n"
        out += f"{name}{'' if name in required else '?'}: {_typescript_type(spec)}"
        if isinstance(spec, dict) and "default" in spec:
            out += _default(spec)
        out += ",\n"
    return out + "}) => any;\n\n"


def _default(spec: Tool) -> str:
    """A parameter's default as the template writes it: as JSON, but an enum's bare (``, // default: celsius``) and
    a ``oneOf``'s bare without the comma."""
    if spec.get("enum"):
        return f", // default: {spec['default']}"
    if spec.get("oneOf"):
        return f"// default: {spec['default']}"
    return f", // default: {json.dumps(spec['default'], ensure_ascii=False)}"


def _one_of(variants: list[Any]) -> str:
    """A ``oneOf`` as the template writes it: each variant's type with its description and default as comments, then
    `` | `` and a line break. (The template means a union with an object variant to read ``any``, but its flag is set
    inside the loop, where Jinja forgets it.)"""
    out = []
    for variant in variants:
        text = _typescript_type(variant)
        if isinstance(variant, dict) and variant.get("description"):
            text += f"// {variant['description']}"
        if isinstance(variant, dict) and "default" in variant:
            text += f"{' ' * 20}// default: {json.dumps(variant['default'], ensure_ascii=False)}"
        out.append(text)
    return " | \n".join(out)


def _typescript_type(spec: Any) -> str:
    """A JSON Schema type as TypeScript (the gpt-oss template's ``render_typescript_type``, for the common shapes)."""
    if not isinstance(spec, dict):
        return "any"
    kind = spec.get("type")
    null = " | null" if spec.get("nullable") else ""  # OpenAPI's nullable, which the template reads on these two
    if kind == "array":
        items = spec.get("items")
        if isinstance(items, dict) and items.get("type") == "string":
            items = {"type": "string"}  # the template writes an array of strings as string[], enum or not
        inner = _typescript_type(items) if isinstance(items, dict) else "any"
        return (inner + "[]" if len(inner) <= 50 and inner != "object | object" else "any[]") + null
    if isinstance(kind, list) and kind:  # a list of types, as zod writes a nullable or a union: ["string", "null"]
        return " | ".join(str(k) for k in kind)
    if spec.get("oneOf"):
        return _one_of(spec["oneOf"])
    if kind == "string" and spec.get("enum"):
        return '"' + '" | "'.join(str(v) for v in spec["enum"]) + '"'
    if kind == "string":
        return "string" + null
    if kind in ("number", "integer"):
        return "number"
    if kind == "boolean":
        return "boolean"
    if kind == "object" and spec.get("properties"):
        required = spec.get("required") or []
        # the template writes each nested type after a line break and its own indentation (16 spaces)
        fields = [
            f"{n}{'' if n in required else '?'}: {_NESTED}{_typescript_type(s)}" for n, s in spec["properties"].items()
        ]
        return "{\n" + ", ".join(fields) + "}"
    return "object" if kind == "object" else "any"
