"""The text each chat template writes for a request's tool definitions, to the character.

Llama 3.1 and Qwen are checked against their templates (tests/support/chat_templates.py: Meta's written out, Qwen's
own Jinja rendered). gpt-oss's namespace is spelled out below: it is what its chat_template.jinja renders (jinja2 with
transformers' settings) for these tools, quirks included: a nested object's field types each come after a line break
and 16 spaces, an array of strings is string[] (enum or not), an enum's default goes bare, a oneOf's variants are
joined by " | " and a line break.
"""

from __future__ import annotations

import pytest

from chatbot.engine.tool_text import tool_text
from tests.support.chat_templates import render_chatml, render_harmony, render_llama3

GREETING = [
    {"role": "system", "content": "You are a helpful assistant in a terminal chat."},
    {"role": "user", "content": "hi"},
]


def column(name: str) -> dict:
    """An array of objects with one optional string field ``name``."""
    return {"type": "array", "items": {"type": "object", "properties": {name: {"type": "string"}}}}


FORECAST = {
    "type": "function",
    "function": {
        "name": "forecast",
        "description": "도시의 날씨 예보 (weather forecast)",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "도시 이름"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"},
                "days": {"type": "integer", "default": 3},
                "hourly": {"type": "boolean", "default": False},
                "near": {"type": "string", "default": "서울"},
                "lat": {"type": "number"},
                "hours": {"type": "array", "items": {"type": "integer"}},
                "fields": {"type": "array", "items": {"type": "string", "enum": ["rain", "wind"]}},
                "grid": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
                "raw": {"type": "array"},
                "where": {
                    "type": "object",
                    "properties": {"zone": {"type": "string"}, "radius": {"type": "number"}},
                    "required": ["zone"],
                },
                "extra": {"type": "object"},
                "anything": {},
                "flag": True,
                "rows": column("first_column_of_table"),  # its item type is 50 characters: kept
                "cols": column("second_column_of_table"),  # 51: too long, any[]
                "loose": {"properties": {"x": {"type": "string"}}},
                "nothing": {"type": "null"},
                "pair": {"type": "array", "items": [{"type": "string"}]},
            },
            "required": ["city", "days"],
        },
    },
}
FIND = {  # the shapes zod (a list of types) and OpenAPI (nullable) write for a value that may be null
    "type": "function",
    "function": {
        "name": "find",
        "description": "Find a place.",
        "parameters": {
            "type": "object",
            "properties": {
                "query": {"type": ["string", "null"]},
                "page": {"type": ["integer"]},
                "lang": {"type": "string", "nullable": True},
                "bbox": {"type": "array", "items": {"type": "number"}, "nullable": True},
                "ids": {"type": "array", "nullable": True},
                "shapes": {"type": "array", "items": {"type": ["object", "object"]}},
                "notes": {"type": "array", "items": {"type": ["string", "null"]}},
                "sort": {"type": "string", "enum": ["near", "name"], "nullable": True},
                "limit": {"type": "integer", "nullable": True},
                "other": {"type": []},
            },
            "required": ["query"],
        },
    },
}
PICK = {  # oneOf: the template writes each variant, its description and its default
    "type": "function",
    "function": {
        "name": "pick",
        "description": "Pick one.",
        "parameters": {
            "type": "object",
            "properties": {
                "id": {"oneOf": [{"type": "string", "description": "a name", "default": "기본"}, {"type": "integer"}]},
                "size": {
                    "oneOf": [
                        {"type": "string", "enum": ["s", "l"]},
                        {"type": "object", "properties": {"w": {"type": "number"}}},
                    ],
                    "default": "s",
                },
                "tags": {"type": "array", "items": {"oneOf": [{"type": "string"}, {"type": "null"}]}},
            },
            "required": ["id"],
        },
    },
}
NOW = {"type": "function", "function": {"name": "now", "description": "The current time.", "parameters": {}}}
TOOLS = [FORECAST, FIND, PICK, NOW]

PAD = " " * 16
FUNCTIONS = "\n".join(
    [
        "# Tools",
        "",
        "## functions",
        "",
        "namespace functions {",
        "",
        "// 도시의 날씨 예보 (weather forecast)",
        "type forecast = (_: {",
        "// 도시 이름",
        "city: string,",
        'unit?: "celsius" | "fahrenheit", // default: celsius,',
        "days: number, // default: 3,",
        "hourly?: boolean, // default: false,",
        'near?: string, // default: "서울",',
        "lat?: number,",
        "hours?: number[],",
        "fields?: string[],",
        "grid?: number[][],",
        "raw?: any[],",
        "where?: {",
        "zone: ",
        f"{PAD}string, radius?: ",
        f"{PAD}number}},",
        "extra?: object,",
        "anything?: any,",
        "flag?: any,",
        "rows?: {",
        "first_column_of_table?: ",
        f"{PAD}string}}[],",
        "cols?: any[],",
        "loose?: any,",
        "nothing?: any,",
        "pair?: any[],",
        "}) => any;",
        "",
        "// Find a place.",
        "type find = (_: {",
        "query: string | null,",
        "page?: integer,",
        "lang?: string | null,",
        "bbox?: number[] | null,",
        "ids?: any[] | null,",
        "shapes?: any[],",
        "notes?: string | null[],",
        'sort?: "near" | "name",',
        "limit?: number,",
        "other?: any,",
        "}) => any;",
        "",
        "// Pick one.",
        "type pick = (_: {",
        f'id: string// a name{" " * 20}// default: "기본" | ',
        "number,",
        'size?: "s" | "l" | ',
        "{",
        "w?: ",
        f"{PAD}number}}// default: s,",
        "tags?: string | ",
        "any[],",
        "}) => any;",
        "",
        "// The current time.",
        "type now = () => any;",
        "",
        "} // namespace functions",
    ]
)


@pytest.mark.parametrize("style", ["llama3.1", "chatml", "harmony", "typescript"])
def test_no_tools_add_no_text(style):
    assert tool_text([], style) == ""


def test_harmony_writes_the_tools_as_a_typescript_namespace():
    assert tool_text(TOOLS, "typescript") == FUNCTIONS
    assert (
        tool_text(TOOLS, "harmony")
        == "\nCalls to these tools must go to the commentary channel: 'functions'." + FUNCTIONS
    )


def test_harmony_tool_text_is_what_the_template_adds():
    """The channel line ends the system message; the namespace ends the developer message."""
    channel, namespace = tool_text(TOOLS, "harmony").split("# Tools", 1)
    bare = render_harmony(GREETING)
    system_end = bare.index("<|end|>")
    developer_end = bare.index("<|end|>", system_end + 1)
    expected = bare[:system_end] + channel + bare[system_end:developer_end] + "# Tools" + namespace
    assert render_harmony(GREETING, tools=TOOLS) == expected + bare[developer_end:]


def test_a_tool_missing_its_description_or_name_is_written_with_them_empty():
    """The template would fail on them; the count keeps the frame the tool takes."""
    tools = [{"type": "function", "function": {"name": "ping"}}, {"type": "function", "function": {"description": "x"}}]
    assert tool_text(tools, "typescript") == (
        "# Tools\n\n## functions\n\nnamespace functions {\n\n"
        "// \ntype ping = () => any;\n\n// x\ntype  = () => any;\n\n} // namespace functions"
    )


def test_llama31_tool_text_is_what_the_template_adds():
    """ "Environment: ipython" opens the system message; the instruction and each tool as indented JSON (non-ASCII
    kept) open the first user message."""
    environment, instructions = tool_text(TOOLS, "llama3.1").split("\n", 1)
    assert environment == "Environment: ipython"
    assert '"description": "도시 이름"' in instructions and '\n    "type": "function",' in instructions
    bare = render_llama3(GREETING, "3.1")
    system_at = bare.index("Cutting Knowledge Date")
    user_at = bare.index("user<|end_header_id|>\n\n") + len("user<|end_header_id|>\n\n")
    expected = bare[:system_at] + environment + "\n" + bare[system_at:user_at] + instructions + bare[user_at:]
    assert render_llama3(GREETING, "3.1", TOOLS) == expected


def test_chatml_tool_text_is_what_the_template_adds_to_the_system_message():
    """Qwen's template: a # Tools section after the system message, one JSON line per tool (non-ASCII kept)."""
    text = tool_text(TOOLS, "chatml")
    assert '"description": "도시 이름"' in text
    system = GREETING[0]["content"]
    assert render_chatml(GREETING, TOOLS) == render_chatml(GREETING).replace(system, system + text, 1)
