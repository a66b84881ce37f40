"""What the tool definitions a request offers cost, against each family's real template and tokenizer.

Servers render the ``tools`` parameter into the prompt (Llama 3.1 into the first user message, Qwen into the system
message, gpt-oss into the developer message) and count it in ``prompt_tokens``; the local count must count them the
same way, or calibration learns the tools as if the messages ran high.
"""

from __future__ import annotations

import pytest

from chatbot.engine.tokens import LLAMA31_FORMAT, TokenCounter
from chatbot.tools.base import ToolSpec
from tests.engine.test_chat_formats import ExactCounter, family

WEB_SEARCH = ToolSpec(
    "web_search",
    "Search the web and return the top results as text.",
    {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What to search for"},
            "max_results": {"type": "integer", "description": "How many results", "default": 5},
        },
        "required": ["query"],
    },
)
FILES = [
    ToolSpec(
        "mcp__filesystem__read_text_file",
        "Read the complete contents of a file as text. Use head or tail for the first or last lines.",
        {
            "type": "object",
            "properties": {
                "path": {"type": "string"},
                "head": {"type": "number", "description": "If provided, returns only the first N lines"},
                "tail": {"type": "number", "description": "If provided, returns only the last N lines"},
            },
            "required": ["path"],
        },
    ),
    ToolSpec(
        "mcp__filesystem__search_files",
        "Recursively search for files matching a pattern.",
        {
            "type": "object",
            "properties": {
                "path": {"type": "string"},
                "pattern": {"type": "string"},
                "excludePatterns": {"type": "array", "items": {"type": "string"}, "default": []},
                "kind": {"type": "string", "enum": ["file", "directory", "any"]},
                "options": {
                    "type": "object",
                    "properties": {"caseSensitive": {"type": "boolean"}, "depth": {"type": "integer"}},
                    "required": ["depth"],
                },
            },
            "required": ["path", "pattern"],
        },
    ),
    ToolSpec("now", "The current date and time (UTC)."),
]
GREETING = [
    {"role": "system", "content": "You are a helpful assistant in a terminal chat. Answer clearly and concisely."},
    {"role": "user", "content": "hi"},
]


@pytest.mark.parametrize("name", ["llama3.1", "chatml", "harmony"])
@pytest.mark.parametrize("specs", [[WEB_SEARCH], FILES, [WEB_SEARCH, *FILES]], ids=["search", "files", "both"])
def test_tool_definitions_count_what_the_template_adds(name, specs):
    fmt, tokenizer, server = family(name)
    counter = ExactCounter(fmt, tokenizer)
    tools = [spec.to_openai() for spec in specs]
    added = server(GREETING, tools) - server(GREETING)
    assert added > 50  # what a server counts for offering the tools at all
    # within a few tokens: where the definitions meet the text around them, tokens may merge differently
    assert abs(counter.count_tools(tools) - added) <= 3, (name, counter.count_tools(tools), added)


def test_a_greeting_with_tools_offered_counts_close_to_the_server_erring_high():
    """The request calibration compares with prompt_tokens: messages and tools, by the rough count (which errs high
    on JSON a little: 8% here, where leaving the tools out made it 70% low)."""
    _, _, server = family("llama3.1")
    counter = TokenCounter(LLAMA31_FORMAT)
    tools = [spec.to_openai() for spec in [WEB_SEARCH, *FILES]]
    ours = counter.count_request(GREETING) + counter.count_tools(tools)
    assert 0 <= ours / server(GREETING, tools) - 1 < 0.10


def test_no_tools_cost_nothing():
    assert TokenCounter().count_tools([]) == 0
