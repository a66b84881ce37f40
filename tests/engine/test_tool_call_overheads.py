"""What a tool round costs in each chat format, against the family's real template and tokenizer.

The messages have the app's own shape (chatbot/core/rounds.py: an assistant message with ``tool_calls``, then one
``tool`` message per call carrying the call's ``name``). Given exact text counts, the estimate must be exactly what
the template makes however many rounds a request holds: an overhead off by one token a call grows with every round.
"""

from __future__ import annotations

import pytest

from chatbot.engine.tokens import CHATML_FORMAT, LLAMA3_FORMAT, OPENAI_FORMAT, TokenCounter
from tests.engine.test_chat_formats import ExactCounter, family, paragraphs


def rounds(count: int, name: str, arguments: str, result: str) -> list[dict]:
    """A request whose turn made ``count`` tool rounds of one call each, as the app sends it."""
    messages: list[dict] = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "What is the weather in Seoul?"},
    ]
    for i in range(count):
        call = {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": arguments}}
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": f"call_{i}", "name": name, "content": result})
    messages.append({"role": "assistant", "content": "It is 18 degrees and partly cloudy."})
    messages.append({"role": "user", "content": "thanks"})
    return messages


def cases() -> list[tuple[str, str, str]]:
    """(tool name, arguments, result): a short name with Korean, and an MCP tool's long name with a file of code."""
    return [
        ("search", '{"query": "서울 날씨", "limit": 3}', "맑음, 18도"),
        ("mcp__filesystem__read_text_file", '{"path": "src/app.py"}', paragraphs("code")[5]),
    ]


@pytest.mark.parametrize("name", ["llama3.1", "harmony", "chatml"])
def test_tool_rounds_count_exactly_what_the_template_makes(name):
    fmt, tokenizer, server = family(name)
    counter = ExactCounter(fmt, tokenizer)
    for tool, arguments, result in cases():
        for count in (1, 2, 5):
            messages = rounds(count, tool, arguments, result)
            assert counter.count_request(messages) == server(messages), (name, tool, count)


@pytest.mark.parametrize("name", ["llama3.1", "harmony", "chatml"])
def test_a_long_tool_name_costs_where_the_template_writes_it(name):
    """Harmony writes the name in the call and in the result's header; Llama 3.1 and Qwen only in the call."""
    fmt, tokenizer, server = family(name)
    counter = ExactCounter(fmt, tokenizer)
    short = rounds(3, "x", '{"path": "a"}', "ok")
    long = rounds(3, "mcp__filesystem__read_multiple_text_files", '{"path": "a"}', "ok")
    assert counter.count_request(long) - counter.count_request(short) == server(long) - server(short)


def test_a_tool_results_name_counts_only_in_formats_that_write_it():
    result = {"role": "tool", "tool_call_id": "c", "name": "a_rather_long_tool_name", "content": "ok"}
    unnamed = {**result, "name": ""}
    for fmt in (CHATML_FORMAT, LLAMA3_FORMAT):
        assert TokenCounter(fmt).count_message(result) == TokenCounter(fmt).count_message(unnamed)
    # OpenAI's published count includes every message's name
    openai = TokenCounter(OPENAI_FORMAT)
    assert openai.count_message(result) > openai.count_message(unnamed)
    # a name on any other message counts in every format
    user = {"role": "user", "name": "a_rather_long_user_name", "content": "ok"}
    assert TokenCounter(CHATML_FORMAT).count_message(user) > TokenCounter(CHATML_FORMAT).count_message(
        {**user, "name": ""}
    )
