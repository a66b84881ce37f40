"""Token counting: a rough estimate that needs nothing, or a real tokenizer through ``tokenizers``.

A request's count is the sum of its messages' counts plus the chat format's own tokens (role headers,
separators), which differ per provider family. ``TokenCounter.correction`` is a self-calibration factor learned
from the provider's reported ``prompt_tokens``; it never goes below 1.0 so the budget only ever tightens.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

# Scripts whose characters are roughly one token each or more (CJK, Hangul, kana) vs. Latin words.
_WIDE = re.compile(r"[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_WORD = re.compile(r"[A-Za-z]+|\d|[^\sA-Za-z\d]")


def rough_count(text: str) -> int:
    """Estimate the tokens of ``text`` without a tokenizer; errs high rather than low."""
    if not text:
        return 0
    wide = len(_WIDE.findall(text))
    rest = _WIDE.sub(" ", text)
    pieces = 0
    for piece in _WORD.findall(rest):
        # long words split into several tokens; short ones are one
        pieces += 1 + len(piece) // 8 if piece.isalpha() else 1
    return math.ceil(wide * 1.0 + pieces)


@dataclass(frozen=True)
class ChatFormat:
    """Tokens a chat template adds: per message (role header, separators) and once per request (reply primer)."""

    per_message: int
    per_request: int


# Llama 3: <|start_header_id|>role<|end_header_id|>\n\n ... <|eot_id|> is 5 tokens a message;
# <|begin_of_text|> and the assistant header that primes the reply add 5 per request.
LLAMA3_FORMAT = ChatFormat(per_message=5, per_request=5)
# OpenAI's documented cost: 3 tokens a message, 3 to prime the reply.
OPENAI_FORMAT = ChatFormat(per_message=3, per_request=3)

FORMATS = {"groq": LLAMA3_FORMAT, "openai": OPENAI_FORMAT, "echo": OPENAI_FORMAT}


class TokenCounter:
    """Counts tokens of texts and chat messages; subclasses change how a text is counted."""

    name = "rough"

    def __init__(self, chat_format: ChatFormat = OPENAI_FORMAT, correction: float = 1.0) -> None:
        self.chat_format = chat_format
        self.correction = correction

    def count(self, text: str) -> int:
        """Tokens of a plain text."""
        return rough_count(text)

    def count_message(self, message: dict[str, Any]) -> int:
        """Tokens of one message including its share of the chat format (uncorrected)."""
        n = self.chat_format.per_message + self.count(str(message.get("content") or ""))
        if message.get("tool_calls"):
            n += self.count(json.dumps(message["tool_calls"], ensure_ascii=False))
        if message.get("name"):
            n += self.count(str(message["name"]))
        return n

    def total(self, raw_message_tokens: int) -> int:
        """A whole request's count from the sum of its messages' counts, with the format and correction."""
        return math.ceil((raw_message_tokens + self.chat_format.per_request) * self.correction)

    @property
    def key(self) -> tuple[str, int]:
        """What a cached per-message count depends on."""
        return (self.name, self.chat_format.per_message)
