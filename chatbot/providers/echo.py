"""The offline ``echo`` provider: no key, no network, fully deterministic.

Its reply describes the request it received, so a learner sees that the model is stateless: how many messages it
got, their roles and token counts, the summary and the recalled turns in the system message if any, and the last
user message. Its summaries are deterministic and labelled as such, and show what a summary loses: a short extract
of each turn and what was left out of it. The app's own tests use it as their fake provider.

It can call tools, so the tool loop works offline: when tools are offered and the user's message has lines
``@tool NAME {"json": "arguments"}``, the reply is one call per such line (the rest of the line is sent as the
arguments, exactly as written). Once the results are in, it describes the request again, results included.

Asked for JSON (``--schema``, or ``response_format``), it answers like a model in JSON mode: one JSON object, built
from the schema (each string holds the last user message; numbers are 0, booleans false), so a schema can be tried
offline.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Generator, Mapping, Sequence
from typing import Any

from chatbot.engine.recall import split_recalled
from chatbot.engine.reply_schema import asked_format
from chatbot.engine.summary_prompt import (
    NO_SUMMARY_YET,
    SUMMARY_HEADING,
    TURN_MARKER,
    USER_LINE,
    is_summary_request,
    summary_request_parts,
)
from chatbot.engine.tokens import TokenCounter, rough_count
from chatbot.engine.turn import TOOL_LINE, content_text
from chatbot.errors import ConfigError
from chatbot.providers.base import (
    ChatProvider,
    Completion,
    Message,
    StreamEnd,
    StreamEvent,
    TextDelta,
    ToolCall,
    Usage,
)
from chatbot.text import FENCED, code_blocks

#: the first line of every summary this provider writes
ECHO_SUMMARY_LABEL = "Echo summary (deterministic, no model involved):"
DELAY_ENV = "CHATBOT_ECHO_DELAY"

_TURN = re.escape(TURN_MARKER)
_TURN_BLOCK = re.compile(rf"^{_TURN}(\d+)\n(.*?)(?=^{_TURN}\d+\n|\Z)", re.MULTILINE | re.DOTALL)
_WORDS = re.compile(r"\s*\S+\s*")  # word-sized chunks that keep their spacing, so joined they give the text back


def json_reply(messages: Sequence[Message], options: Mapping[str, Any] | None) -> str | None:
    """The reply in JSON mode, when ``options`` ask for it (a JSON object matching the schema), else None."""
    kind, schema = asked_format(options or {})
    if not kind:
        return None
    last = next((m for m in reversed(messages) if m.get("role") == "user"), None)
    text = content_text(last.get("content")) if last else ""
    return json.dumps(_sample(schema, text) if schema else {"echo": text}, ensure_ascii=False)


def _sample(schema: Mapping[str, Any], text: str) -> Any:
    """A value that a plain schema (types, properties, enum, const, minimums) accepts; strings are ``text``."""
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    kind = schema.get("type")
    kind = next((k for k in kind if k != "null"), "null") if isinstance(kind, list) else kind
    if kind == "object" or (kind is None and "properties" in schema):
        return {k: _sample(v, text) for k, v in (schema.get("properties") or {}).items() if isinstance(v, Mapping)}
    if kind == "array":
        items = schema.get("items")
        return (
            [_sample(items, text) for _ in range(int(schema.get("minItems") or 0))]
            if isinstance(items, Mapping)
            else []
        )
    if kind in ("integer", "number"):
        return schema.get("minimum", 0)
    return {"boolean": False, "null": None}.get(str(kind), text)


def split_summary(system: str) -> tuple[str, str] | None:
    """``(heading, summary)`` when the system message carries a summary, else None."""
    at = system.find(SUMMARY_HEADING)
    if at < 0:
        return None
    line_end = system.find("\n", at)
    if line_end < 0:
        return system[at:].strip(), ""
    quoted = system[line_end + 1 :].strip().splitlines()  # the summary rides quoted: its own text is shown
    return system[at:line_end].strip(), "\n".join(line.removeprefix(">").removeprefix(" ") for line in quoted)


def tool_calls_asked(messages: Sequence[Message]) -> tuple[ToolCall, ...]:
    """The calls the last user message asks for, when it is the last message (results not in yet)."""
    if not messages or messages[-1].get("role") != "user":
        return ()
    text = str(messages[-1].get("content") or "")
    return tuple(
        ToolCall(f"echo_call_{n}", match["name"], match["arguments"])
        for n, match in enumerate(TOOL_LINE.finditer(text), start=1)
    )


def _tighter(messages: Sequence[Message]) -> int | None:
    """The words a summary request asks a tighter rewrite to stay within, or None when it asks none."""
    instructions, _, _ = summary_request_parts(str(messages[0].get("content") or ""))
    found = _TIGHTER.search(instructions)
    return int(found.group(1)) if found else None


def _within(lines: list[str], words: int) -> list[str]:
    """A tighter summary, as a model asked for one writes it: the label, then the newest turns' lines that fit
    ``words`` words (each turn's extract with what it left out), and a line saying the older ones were merged away.
    Lines that all fit are kept as they are (so that line is never written twice)."""
    if sum(len(x.split()) for x in lines[1:]) <= words:
        return lines
    kept: list[str] = []
    for line in reversed(lines[1:]):
        if sum(len(x.split()) for x in kept) + len(line.split()) > words:
            break
        kept.insert(0, line)
    while kept and kept[0].startswith("  "):  # a turn's "left out" line stays with its turn
        kept.pop(0)
    return [lines[0], _MERGED_AWAY, *kept]


def echo_summary(request_text: str, words: int | None = None) -> str:
    """A deterministic summary of a summary request's user message that shows what a summary loses: the previous
    summary, then for each turn a short extract of the user's message and a line naming what was left out.

    Each turn block ``--- turn N\nUser: ...\nAssistant: ...`` becomes::

        - turn N: user: "the first words of the message…"
          left out: 31 words of the user's, 181 of the assistant's, 3 code blocks, 1 tool result

    which is always shorter than the turn, so the summary shrinks what it replaces as the engine requires. Asked
    for a tighter rewrite within ``words`` words, it keeps only the newest lines that fit.
    """
    _, previous, turns = summary_request_parts(request_text)
    lines = [ECHO_SUMMARY_LABEL]
    for line in previous.splitlines():
        if line.strip() and line.strip() not in (ECHO_SUMMARY_LABEL, NO_SUMMARY_YET):
            lines.append(line.rstrip())
    for number, body in _TURN_BLOCK.findall(turns):
        lines += _turn_summary(number, body)
    return "\n".join(lines if words is None else _within(lines, words))


#: the line a tighter echo summary puts where the older turns' lines were
_MERGED_AWAY = "- earlier turns: left out of this tighter summary"
#: how a summary request asks for a tighter rewrite (``summary_prompt.TIGHTER``), and within how many words
_TIGHTER = re.compile(r"rewrite it tighter.*within (\d+) words")
#: a turn's line in an echo summary (what echo's reply counts)
_SUMMARY_TURN = re.compile(r"^- turn \d+:", re.MULTILINE)
#: a recalled turn in the block the system message carries: its number and its lines up to the next turn or the end
_RECALLED_TURN = re.compile(
    r"^--- turn (\d+)[^\n]*\n(.*?)(?=^--- turn \d+|^--- end of the recalled turns|\Z)", re.MULTILINE | re.DOTALL
)
#: a recalled user message up to this many words is shown whole in echo's reply (longer ones: their start)
RECALLED_WORDS = 30
#: how many words of a user's message an echo summary keeps
EXTRACT_WORDS = 12
#: what starts each message of a folded turn in a summary request (see ``summary_prompt._render_turn_text``)
_SPEAKER = re.compile(rf"^({re.escape(USER_LINE)}|Assistant: |Assistant called tool |Tool result \()", re.MULTILINE)


def _turn_summary(number: str, body: str) -> list[str]:
    """An echo summary's lines for one folded turn: the extract, and what it left out (when anything was)."""
    said: dict[str, list[str]] = {USER_LINE: [], "Assistant: ": [], "Assistant called tool ": [], "Tool result (": []}
    pieces = _SPEAKER.split(body)
    for speaker, text in zip(pieces[1::2], pieces[2::2], strict=True):
        said[speaker].append(text)
    user, answer = "\n".join(said[USER_LINE]), "\n".join(said["Assistant: "])
    blocks = len(code_blocks(user)) + len(code_blocks(answer))
    user_words, answer_words = _prose(user).split(), _prose(answer).split()
    kept = " ".join(user_words[:EXTRACT_WORDS]) + ("…" if len(user_words) > EXTRACT_WORDS else "")
    lost = [
        f"{len(user_words) - EXTRACT_WORDS} words of the user's" if len(user_words) > EXTRACT_WORDS else "",
        f"{len(answer_words)} words of the assistant's" if answer_words else "",
        f"{blocks} code block{'s' if blocks != 1 else ''}" if blocks else "",
        _count(len(said["Tool result ("]), "tool result"),
    ]
    lost = [item for item in lost if item]
    return [f'- turn {number}: user: "{kept}"'] + ([f"  left out: {', '.join(lost)}"] if lost else [])


def _prose(text: str) -> str:
    """``text`` without its fenced code blocks (counted apart)."""
    return FENCED.sub(" ", text)


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'s' if n != 1 else ''}" if n else ""


class EchoProvider(ChatProvider):
    """Answers every request with a description of that request; summaries are deterministic."""

    name = "echo"

    def __init__(self, *, model: str = "echo", delay: float | None = None) -> None:
        """``delay`` is the pause before each streamed chunk in seconds; None reads ``CHATBOT_ECHO_DELAY`` per call."""
        self.model = model
        self.delay = delay
        self.counter = TokenCounter()

    def _delay(self) -> float:
        if self.delay is not None:
            return self.delay
        raw = os.environ.get(DELAY_ENV, "").strip()
        try:
            return max(0.0, float(raw)) if raw else 0.0
        except ValueError:
            raise ConfigError(f"{DELAY_ENV} must be a number of seconds, not {raw!r}") from None

    def describe(self, messages: Sequence[Message]) -> str:
        """What the stateless model received in this request, as Markdown."""
        counts = [self.counter.count_message(m) for m in messages]
        total = self.counter.total(sum(counts))
        lines = [
            "**Echo**: the model is stateless, so this request is all it knows.",
            f"It holds {len(messages)} message{'s' if len(messages) != 1 else ''}, about {total} tokens:",
            "",
        ]
        summary: tuple[str, str] | None = None
        recalled = ""
        for i, (message, n) in enumerate(zip(messages, counts, strict=True), start=1):
            role = str(message.get("role"))
            note = ""
            if role == "system" and i == 1:
                system, recalled = split_recalled(str(message.get("content") or ""))
                summary = split_summary(system)
                parts = [p for p, there in (("the summary", summary), ("recalled turns", recalled)) if there]
                note = f" (with {' and '.join(parts)})" if parts else ""
            if message.get("tool_calls"):
                note = f" (calls {', '.join(str(c['function']['name']) for c in message['tool_calls'])})"
            elif role == "tool":
                result = " ".join(str(message.get("content") or "").split())
                note = f" (result of {message.get('name') or 'a tool'}: {result[:60]}{'…' if len(result) > 60 else ''})"
            lines.append(f"{i}. {role}: {n} tokens{note}")
        lines.append("")
        lines += self._summary_lines(summary) + self._recalled_lines(messages[0] if messages else {}, recalled)
        last_user = next((m for m in reversed(messages) if m.get("role") == "user"), None)
        if last_user is not None:
            content = last_user.get("content")
            images = sum(1 for p in content if p.get("type") == "image_url") if isinstance(content, list) else 0
            shown = content_text(content) + (f"\n(and {images} image(s))" if images else "")
            lines += ["", f"Last user message: {shown}"]
        return "\n".join(lines)

    def _summary_lines(self, summary: tuple[str, str] | None) -> list[str]:
        """The summary the system message carries, described (its size and the turns it names), not quoted: a reply
        quoting it whole would be re-sent, summarized and recalled again, inflating every later request."""
        if not summary:
            return ["No summary of earlier turns in this request."]
        heading, text = summary
        named = len(_SUMMARY_TURN.findall(text))
        lines = [line for line in text.splitlines() if line.strip()]
        which = f", {named} turn line{'s' if named != 1 else ''}" if named else ""
        return [
            f"{heading}: {self.counter.count(text)} tokens, {len(lines)} line{'s' if len(lines) != 1 else ''}"
            f"{which} (/summary shows it)."
        ]

    def _recalled_lines(self, system: Message, recalled: str) -> list[str]:
        """The recalled block, described: its size as the request counts it (the tokens it adds to the system
        message, as ``/recall`` says), and per turn the user's message (whole when short, the lesson of recall:
        the detail is back) and the size of the rest."""
        if not recalled:
            return []
        whole = self.counter.count_message(system)
        before = self.counter.count_message(
            {**system, "content": str(system.get("content") or "")[: -len(recalled)].rstrip()}
        )
        heading, _, which = recalled.partition("\n")[0].lstrip("# ").partition(" (")
        which = which.split(", verbatim", 1)[0]  # "turn 1", "turns 1, 3": the heading names them
        lines = ["", f"{heading} ({which}): {whole - before} tokens in the system message:"]
        for number, body in _RECALLED_TURN.findall(recalled):
            user, _, rest = body.partition("\nAssistant")
            said = " ".join(line.removeprefix(">").strip() for line in user.splitlines()[1:])
            words = said.split()
            shown = said if len(words) <= RECALLED_WORDS else " ".join(words[:RECALLED_WORDS]) + "…"
            rest_words = len([w for w in rest.split() if w != ">"])
            lines.append(
                f'- turn {number}: user: "{shown}"' + (f" (and {rest_words} more words)" if rest_words else "")
            )
        return lines

    def _usage(self, messages: Sequence[Message], reply: str, tools: Sequence[Message] | None) -> Usage:
        # the tool definitions count too, as a real server counts them in prompt_tokens (else a chat with tools
        # would learn a correction below 1 from echo, and its /timeline bars would come out short)
        raw = sum(self.counter.count_message(m) for m in messages) + self.counter.count_tools(list(tools or []))
        prompt = self.counter.total(raw)
        completion = rough_count(reply)
        return Usage(prompt, completion, prompt + completion)

    def _reply(
        self, messages: Sequence[Message], max_tokens: int | None, options: Mapping[str, Any] | None
    ) -> tuple[list[str], str]:
        """The reply (JSON when ``options`` ask for it) as word-sized chunks, cut at ``max_tokens`` like a real
        model; and the finish reason."""
        chunks = _WORDS.findall(json_reply(messages, options) or self.describe(messages))
        if max_tokens is None:
            return chunks, "stop"
        kept: list[str] = []
        for chunk in chunks:
            if rough_count("".join([*kept, chunk])) > max_tokens:
                return kept, "length"
            kept.append(chunk)
        return kept, "stop"

    def stream(
        self,
        messages: Sequence[Message],
        *,
        model: str | None = None,
        max_tokens: int | None = None,
        tools: Sequence[Message] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Generator[StreamEvent, None, None]:
        """Stream the description word by word, pausing ``CHATBOT_ECHO_DELAY`` seconds before each chunk.

        With ``tools`` offered and ``@tool`` lines in the new user message, yields those calls instead.
        """
        delay = self._delay()
        calls = tool_calls_asked(messages) if tools else ()
        if calls:
            if delay:
                time.sleep(delay)
            yield from calls
            yield StreamEnd(self._usage(messages, "".join(c.arguments for c in calls), tools), "tool_calls")
            return
        chunks, finish = self._reply(messages, max_tokens, options)
        for chunk in chunks:
            if delay:
                time.sleep(delay)
            yield TextDelta(chunk)
        yield StreamEnd(self._usage(messages, "".join(chunks), tools), finish)

    def complete(
        self,
        messages: Sequence[Message],
        *,
        model: str | None = None,
        max_tokens: int | None = None,
        tools: Sequence[Message] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Completion:
        """A deterministic summary for a summary request, else what ``stream`` gives, whole."""
        calls = tool_calls_asked(messages) if tools else ()
        if calls:
            return Completion("", self._usage(messages, "", tools), "tool_calls", calls)
        if is_summary_request(messages):
            text = echo_summary(str(messages[-1].get("content") or ""), _tighter(messages))
            return Completion(text, self._usage(messages, text, tools), "stop")
        chunks, finish = self._reply(messages, max_tokens, options)
        text = "".join(chunks)
        return Completion(text, self._usage(messages, text, tools), finish)
