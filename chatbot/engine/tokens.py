"""Token counting: a rough estimate that needs nothing, or a real tokenizer through ``tokenizers``.

A request's count is the sum of its messages' counts plus the chat format's own tokens (role headers,
separators), which differ per provider family. ``TokenCounter.correction`` is the factor its
:class:`~chatbot.engine.calibration.Calibration` learned from the provider's reported ``prompt_tokens`` (both ways,
with a safety margin); 1.0 while no provider count has arrived, so the estimate errs high.

The rough estimate is tuned against the Llama 3 tokenizer on ``bench/corpus`` (English and Korean prose, mixed
Korean-English chat, source code, JSON tool output); ``python bench/bench_tokens.py`` prints how close it is.
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chatbot.engine.calibration import Calibration
from chatbot.engine.tool_text import tool_text
from chatbot.errors import ConfigError

# The text is cut into pieces the way Llama 3's pre-tokenizer cuts it (words, numbers, punctuation runs, line
# breaks), and each kind of piece costs what it costs on average in Llama 3's vocabulary. Named groups say the kind.
_PIECES = re.compile(
    r"(?P<hangul>[\uac00-\ud7a3]+)"  # a Korean word (run of Hangul syllables)
    r"|(?P<cjk>[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])"  # one kana or CJK ideograph
    # an ASCII word; a single '.', '_', '-', '(' ... between it and a preceding word or number joins it
    # (`self.rows`, `lru_cache`), as Llama 3 glues one leading symbol to a word
    r"|(?P<latin>(?:(?<=[A-Za-z0-9])[!-/:-@\[-`{-~])?[A-Za-z]+)"
    r"|(?P<letters>[^\W\d_\u3130-\u318f]+)"  # other letters: accented Latin, Cyrillic, Greek, Arabic, Thai ...
    r"|(?P<space_digit> (?=[0-9]))"  # a space before a number is a token of its own (numbers take no space)
    r"|(?P<digits>[0-9]+)"
    r"|(?P<punct>[!-/:-@\[-`{-~]+\n*)"  # an ASCII punctuation run, with the line breaks right after it (`{\n`)
    r"|(?P<blank>\n+|[ \t]{2,}|\t)"  # line breaks, indentation, tabs; a single space rides on the next word
    r"|(?P<astral>[\U00010000-\U0010ffff])"  # emoji and other 4-byte characters
    r"|(?P<other>\S)"  # any other symbol: Hangul jamo (ㅋ), CJK punctuation, arrows ...
)

# Tokens per piece, by kind. Fitted on bench/corpus against Llama 3 (o200k is within a few percent of it).
_COST: dict[str, Callable[[str], float]] = {
    # Korean: ~1.1 tokens for a one-syllable word, +0.7 per further syllable (common endings merge, rare stems split)
    "hangul": lambda s: 0.4 + 0.7 * len(s),
    # Chinese and Japanese: common characters are one token, many pairs merge
    "cjk": lambda s: 0.8,
    # words of up to 6 letters are mostly one token; longer and rarer ones split, about one more per 6 letters
    "latin": lambda s: 1 + max(0, len(s) - 6) / 6,
    # non-ASCII letters are 2-byte UTF-8 and merge less: about two letters a token
    "letters": lambda s: 0.5 * len(s),
    "space_digit": lambda s: 1,
    # Llama 3 splits numbers into groups of up to 3 digits
    "digits": lambda s: (len(s) + 2) // 3,
    # `": "`, `{"`, `"},` are single tokens; longer runs (`...`, `"}]}`) add about one per 4 characters
    "punct": lambda s: 1 + (len(s.rstrip("\n")) - 1) / 4,
    "blank": lambda s: 1,
    # 4-byte characters are two byte-level tokens
    "astral": lambda s: 2,
    "other": lambda s: 1,
}


#: texts at least this long are counted from where a recent long text they start like was (see :class:`_Resume`)
LONG_TEXT = 2000


def rough_count(text: str) -> int:
    """Estimate the tokens of ``text`` without a tokenizer; errs high rather than low.

    Within a few percent of Llama 3 (and OpenAI's o200k) on English, Korean, mixed chat, code and JSON.
    Known to run low on random strings (base64, API keys: about half) and ALL-CAPS prose (about 0.7); and high on
    long rules of one character (`=====`). Self-calibration against the provider's counts covers what is systematic.
    A long text that starts like one counted lately is counted only from where they part (the same number).
    """
    return _RESUME.count(text) if len(text) >= LONG_TEXT else _scan(text, 0, 0.0, [])


def _scan(text: str, pos: int, n: float, marks: list[tuple[int, float]]) -> int:
    """The rough count of ``text`` given ``n``, the costs of its pieces before ``pos`` (a piece's start); each
    :data:`_MARK_EVERY` characters the running cost is noted in ``marks`` (added in the same order as from 0, so
    the float sum and its ceiling are those of a scan from the start)."""
    next_mark = pos + _MARK_EVERY
    for m in _PIECES.finditer(text, pos):
        if m.start() >= next_mark:
            marks.append((m.start(), n))
            next_mark = m.start() + _MARK_EVERY
        n += _COST[m.lastgroup or "other"](m.group())
    return math.ceil(n)


#: how often a long scan notes where it is
_MARK_EVERY = 1024
#: characters past a mark that must agree too: a piece, or a try at one, looks at most this far past its end
_LOOKS_AHEAD = 8


class _Resume:
    """The last few long texts counted, with their marks: a text that starts like one of them (a summary that grew
    by a fold, the system message with it and a recall block, the next summary request) is scanned only from the
    last mark before they part, so counting each fold's longer summary costs what it added, not its whole length
    (building a long session's requests, or replaying them under ``--compare-memory``, would grow with its square)."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self.recent: list[tuple[str, list[tuple[int, float]], int]] = []
        self.lock = threading.Lock()

    def count(self, text: str) -> int:
        """The rough count of ``text``, from the best mark of a recent text it starts like."""
        with self.lock:
            recent = list(self.recent)
        best: tuple[int, float] = (0, 0.0)
        marks: list[tuple[int, float]] = []
        for old, old_marks, total in recent:
            if old == text:
                return total
            shared = _shared_marks(old, old_marks, text)
            if shared and shared[-1][0] > best[0]:
                best, marks = shared[-1], shared
        marks = list(marks)
        total = _scan(text, best[0], best[1], marks)
        with self.lock:
            self.recent = [(text, marks, total), *self.recent[: self.size - 1]]
        return total


def _shared_marks(old: str, marks: list[tuple[int, float]], text: str) -> list[tuple[int, float]]:
    """The marks of ``old`` that hold for ``text`` too: those before which (and a little after) the two agree."""
    held = 0
    done = 0
    for pos, _ in marks:
        upto = pos + _LOOKS_AHEAD
        if old[done:upto] != text[done:upto] or upto > len(text):
            break
        held, done = held + 1, upto
    return marks[:held]


_RESUME = _Resume()


@dataclass(frozen=True)
class ChatFormat:
    """Tokens a chat template adds: per message (role header, separators), per tool call (the JSON or header
    around its name and arguments) and once per request (reply primer, fixed preambles).

    ``trim``: the template strips whitespace around each message's content before encoding it (Llama 3 does).
    ``quote_tools``: the template writes tool arguments and results as JSON strings (``tojson``: quotes and line
    breaks escaped, which costs tokens in code and JSON), as Llama 3.1 and harmony do.
    ``result_names``: the template writes a tool result's function ``name`` (harmony's result header does; Llama
    3.1's ``ipython`` message and Qwen's ``<tool_response>`` do not), so a tool message's name counts.
    ``tool_style``: how the template writes the definitions of the tools a request offers
    (:func:`~chatbot.engine.tool_text.tool_text`).
    The numbers below are checked against each family's real template and tokenizer (tests/engine/
    test_chat_formats.py): plain chat counts exactly what the template makes, given the exact text counts.
    """

    per_message: int
    per_request: int
    name: str = "custom"
    trim: bool = False
    per_call: int = 15
    quote_tools: bool = False
    result_names: bool = True
    tool_style: str = "typescript"  # how the template writes tool definitions (chatbot.engine.tool_text)


# Llama 3: <|start_header_id|>role<|end_header_id|>\n\n ... <|eot_id|> is 5 tokens a message (every role name
# is one token); <|begin_of_text|> and the assistant header that primes the reply add 5 per request.
LLAMA3_FORMAT = ChatFormat(
    per_message=5, per_request=5, name="llama3", trim=True, result_names=False, tool_style="llama3.1"
)
# Llama 3.1, 3.2, 3.3: the template also opens the system message with "Cutting Knowledge Date: December 2023\n
# Today Date: 26 Jul 2024\n\n" (20 tokens, always, before the system content). We assume the request has a system
# message, as every request of this app does; without one the template adds a whole system message (25 tokens).
# A tool call is written {"name": "...", "parameters": ...} with the arguments JSON-quoted again; a tool result goes
# under the ipython role, JSON-quoted, without its name: 9 tokens beyond the name, the quoted arguments and the result.
LLAMA31_FORMAT = ChatFormat(
    per_message=5,
    per_request=25,
    name="llama3.1",
    trim=True,
    per_call=9,
    quote_tools=True,
    result_names=False,
    tool_style="llama3.1",
)
# OpenAI's published count: 3 tokens a message plus its role (one token), 3 to prime the reply.
OPENAI_FORMAT = ChatFormat(per_message=4, per_request=3, name="openai", per_call=10)
# gpt-oss (harmony): <|start|>user<|message|> ... <|end|> is 4 tokens, 6 for an earlier assistant reply
# (<|channel|>final), so 5 on average. Per request: the system message harmony adds (identity, knowledge cutoff,
# date, reasoning level, valid channels: 55 o200k tokens with its 4 format tokens), "# Instructions\n\n" and "\n\n"
# around the developer message, less the one token the last user message saves, and the <|start|>assistant primer.
# A call is <|start|>assistant to=functions.NAME<|channel|>commentary json<|message|>"quoted arguments"<|call|>, its
# result <|start|>functions.NAME to=assistant<|channel|>commentary<|message|>"quoted result"<|end|>: the name twice
# (the call's and the result message's), 11 tokens more per call.
HARMONY_FORMAT = ChatFormat(
    per_message=5, per_request=64, name="harmony", per_call=11, quote_tools=True, tool_style="harmony"
)
# ChatML (Qwen): <|im_start|>role\n ... <|im_end|>\n is 5 tokens a message; <|im_start|>assistant\n primes the reply.
# A tool call is <tool_call>\n{"name": ..., "arguments": ...}\n</tool_call>; a result is wrapped in <tool_response>.
CHATML_FORMAT = ChatFormat(per_message=5, per_request=3, name="chatml", result_names=False, tool_style="chatml")


# Images (OpenAI's documented rule for detail "high"/"auto"): scale to fit 2048x2048, then the shorter side to
# 768; every 512x512 tile costs 170 tokens, plus 85 for the whole image. An image whose size cannot be read costs
# the most any image costs under this rule (2048x768: 4 x 2 tiles, 1,445 tokens), so the budget errs high.
IMAGE_BASE_TOKENS = 85
IMAGE_TILE_TOKENS = 170
IMAGE_MOST_TOKENS = IMAGE_BASE_TOKENS + IMAGE_TILE_TOKENS * 8


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG or JPEG from its bytes (the header is enough), or None."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:2] != b"\xff\xd8":
        return None
    at = 2
    while at + 9 <= len(data):  # walk the JPEG segments to the first start-of-frame marker (its size ends at + 9)
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        length = int.from_bytes(data[at + 2 : at + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return int.from_bytes(data[at + 7 : at + 9], "big"), int.from_bytes(data[at + 5 : at + 7], "big")
        at += 2 + length
    return None


def image_tokens_for_size(width: int, height: int) -> int:
    """OpenAI's token cost of an image of ``width`` x ``height`` pixels at detail "high" (also "auto")."""
    if width <= 0 or height <= 0:
        return IMAGE_MOST_TOKENS
    scale = min(1.0, 2048 / max(width, height))
    scale *= min(1.0, 768 / (min(width, height) * scale))
    return IMAGE_BASE_TOKENS + IMAGE_TILE_TOKENS * math.ceil(width * scale / 512) * math.ceil(height * scale / 512)


def image_tokens(part: dict[str, Any]) -> int:
    """The estimated tokens of one ``image_url`` content part (a ``data:`` URL is decoded to read its size)."""
    url = str((part.get("image_url") or {}).get("url") or "")
    size = None
    head, comma, data = url.partition(",")
    if head.startswith("data:") and comma:
        import base64
        import binascii

        try:
            size = image_size(base64.b64decode(data, validate=False))
        except (ValueError, binascii.Error):
            size = None
    return IMAGE_MOST_TOKENS if size is None else image_tokens_for_size(*size)


class TokenCounter:
    """Counts tokens of texts and chat messages with :func:`rough_count`; subclasses change how a text is counted."""

    name = "rough"

    def __init__(self, chat_format: ChatFormat = OPENAI_FORMAT, calibration: Calibration | None = None) -> None:
        self.chat_format = chat_format
        self.calibration = calibration or Calibration()

    @property
    def correction(self) -> float:
        """The factor a whole request's count is multiplied by (learned correction and margin; 1.0 before any)."""
        return self.calibration.factor

    def count(self, text: str) -> int:
        """Tokens of a plain text."""
        return rough_count(text)

    def count_message(self, message: dict[str, Any]) -> int:
        """Tokens of one message including its share of the chat format (uncorrected).

        A list of content parts (text and images) counts its text parts as text and each image by
        :func:`image_tokens`.
        """
        fmt = self.chat_format
        raw = message.get("content")
        images = 0
        if isinstance(raw, list):
            texts = [str(p.get("text") or "") for p in raw if isinstance(p, dict) and p.get("type") == "text"]
            images = sum(image_tokens(p) for p in raw if isinstance(p, dict) and p.get("type") == "image_url")
            content = "\n".join(texts)
        else:
            content = str(raw or "")
        if fmt.trim:
            content = content.strip()
        if fmt.quote_tools and message.get("role") == "tool":
            content = _quoted(content)
        n = fmt.per_message + self.count(content) + images
        for call in message.get("tool_calls") or ():
            # what templates write of a call: its name and its arguments, inside the format's own wrapper
            function = call.get("function") or {}
            arguments = function.get("arguments") or ""
            if not isinstance(arguments, str):
                arguments = _quoted(arguments)
            if fmt.quote_tools:
                arguments = _quoted(arguments)
            n += fmt.per_call + self.count(str(function.get("name") or "")) + self.count(arguments)
        if message.get("name") and (fmt.result_names or message.get("role") != "tool"):
            n += self.count(str(message["name"]))
        return n

    def count_request(self, messages: Iterable[dict[str, Any]]) -> int:
        """Uncorrected tokens of a whole request: its messages plus the per-request format tokens.

        The same number as a built request's ``Request.uncorrected``, which is what :class:`chatbot.core.chat.Chat` has
        calibration compare with the provider's ``prompt_tokens``.
        """
        return sum(self.count_message(m) for m in messages) + self.chat_format.per_request

    def count_tools(self, tools: list[dict[str, Any]]) -> int:
        """Uncorrected tokens the definitions of ``tools`` (OpenAI ``tools`` entries) add to a request, as the chat
        template writes them into the prompt (servers count them in ``prompt_tokens``); 0 for none."""
        return self.count(tool_text(tools, self.chat_format.tool_style)) if tools else 0

    def total(self, raw_message_tokens: int) -> int:
        """A whole request's count from the sum of its messages' counts, with the format and correction.

        The correction applies to the messages: the per-request format tokens are fixed, and are left out of what
        calibration learns too (see :meth:`calibrate`).
        """
        return self.chat_format.per_request + math.ceil(raw_message_tokens * self.correction)

    def plain_total(self, raw_message_tokens: int) -> int:
        """:meth:`total` for a request that offers no tool definitions (a summary request): corrected by the ratios
        of such requests (:attr:`~chatbot.engine.calibration.Calibration.plain_factor`)."""
        return self.chat_format.per_request + math.ceil(raw_message_tokens * self.calibration.plain_factor)

    def calibrate(self, local_total: int, provider_prompt_tokens: int, tools: int = 0, *, chat: bool = True) -> float:
        """Learn from the provider's ``prompt_tokens`` for a request we counted as ``local_total`` (uncorrected), of
        which ``tools`` were its tool definitions (``chat=False``: a summary request, which teaches only the count of
        requests without definitions).

        See :class:`~chatbot.engine.calibration.Calibration`. Returns the new :attr:`correction`.
        """
        self.calibration.learn(local_total, provider_prompt_tokens, self.chat_format.per_request, tools, chat=chat)
        return self.correction

    @property
    def key(self) -> tuple[str, int]:
        """What a cached per-message count depends on: how texts are counted and the chat format."""
        fmt = self.chat_format
        return (
            f"{self.name}/{fmt.name}/{int(fmt.trim)}{int(fmt.quote_tools)}{int(fmt.result_names)}/{fmt.per_call}",
            fmt.per_message,
        )


def _quoted(value: object) -> str:
    """``value`` as a template's ``tojson`` writes it."""
    return json.dumps(value, ensure_ascii=False)


#: where a tokenizer named by a hub name (not a path) is found: its local tokenizer.json (the edge may download it)
Locate = Callable[[str], str]


class TokenizerCounter(TokenCounter):
    """Counts with a real tokenizer (``tokenizers``): a tokenizer.json path, or a Hugging Face hub name that
    ``locate`` turns into one (the engine does no network I/O: the command line hands it the hub's download).

    The tokenizer is loaded once, on the first count; a :class:`~chatbot.errors.ConfigError` says why it cannot be.
    """

    def __init__(
        self,
        source: str,
        chat_format: ChatFormat = OPENAI_FORMAT,
        calibration: Calibration | None = None,
        *,
        locate: Locate | None = None,
    ) -> None:
        super().__init__(chat_format, calibration)
        self.source = source
        self.name = f"tokenizer:{source}"
        self._locate = locate
        self._tokenizer: Any = None

    @property
    def tokenizer(self) -> Any:
        """The loaded ``tokenizers.Tokenizer`` (loads it on first use)."""
        if self._tokenizer is None:
            self._tokenizer = load_tokenizer(self.source, self._locate)
        return self._tokenizer

    def count(self, text: str) -> int:
        """Exact tokens of a plain text, without the BOS token the tokenizer's post-processor would add."""
        if not text:
            return 0
        return len(self.tokenizer.encode(text, add_special_tokens=False).ids)


def load_tokenizer(source: str, locate: Locate | None = None) -> Any:
    """Load a ``tokenizers.Tokenizer`` from a tokenizer.json path (or a directory holding one), or from a hub name
    through ``locate`` (None: a name that is no file is one clear error)."""
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise ConfigError("--tokenizer needs the 'tokenizers' package: pip install tokenizers") from None
    path = Path(source).expanduser()
    if path.is_dir():
        path = path / "tokenizer.json"
    if path.is_file():
        try:
            return Tokenizer.from_file(str(path))
        except Exception as exc:  # tokenizers raises a bare Exception for a malformed file
            raise ConfigError(f"{path} is not a tokenizer.json that 'tokenizers' can load ({exc})") from None
    if path.exists() or source.endswith(".json") or source.startswith((".", "/", "~", "\\")):
        raise ConfigError(f"tokenizer file not found: {path}")
    if locate is None:
        raise ConfigError(f"tokenizer file not found: {path} (a Hugging Face hub name needs the command line)")
    return Tokenizer.from_file(locate(source))


def chat_format_for(provider: str, model: str) -> ChatFormat:
    """The chat template overhead of ``model`` served by ``provider`` (by model family; OpenAI's as the default)."""
    m = model.lower()
    if provider == "echo":
        return OPENAI_FORMAT  # the echo provider reports usage with the default counter
    if "gpt-oss" in m:
        return HARMONY_FORMAT
    if "llama" in m:
        # "llama-3.1-8b-instant", "Llama-3.3-70B", "llama3.2:3b" carry the date preamble; Llama 3.0 and
        # Llama 4 (same 5-token message shape) do not
        return LLAMA31_FORMAT if re.search(r"llama[-_ ]?3\.\d", m) else LLAMA3_FORMAT
    if "qwen" in m:
        return CHATML_FORMAT
    return OPENAI_FORMAT


def make_counter(tokenizer: str | None, provider: str, model: str, locate: Locate | None = None) -> TokenCounter:
    """The counter for ``--tokenizer`` (None: the rough estimate) with ``model``'s chat format on ``provider``; a hub
    name is found through ``locate``."""
    chat_format = chat_format_for(provider, model)
    if tokenizer:
        return TokenizerCounter(tokenizer, chat_format, locate=locate)
    return TokenCounter(chat_format)
