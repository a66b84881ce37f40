"""Reading an answer off the wire, whatever the server actually sent: its usage, its tool calls, the chunk state of
a stream (:class:`StreamState`) and the stream itself (:func:`read_stream`), or a whole reply
(:func:`completion_from_dict`). Everything here reads plain dicts: no SDK type comes in.

The SDKs' own stream parser crashes or misleads on what real servers and proxies send: SSE events without data
(``retry:``, ``event: ping``, an empty ``data:``), chunks that are JSON but not objects, an HTML page with status
200 (a captive portal, a wrong URL), or a whole JSON answer to a streaming request. :func:`read_stream` reads the
SDK's raw server-sent events instead and names each of these for what it is.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator, Mapping
from typing import Any

from chatbot.errors import ProviderError, ServerError
from chatbot.providers.base import (
    Completion,
    ReasoningDelta,
    StreamEnd,
    StreamEvent,
    TextDelta,
    ToolCall,
    Usage,
)
from chatbot.providers.error_map import ErrorContext, classify_error

# --- the pieces of an answer: usage, tool calls, the chunk state -----------------------------------------------------


def parse_usage(data: object) -> Usage | None:
    """A :class:`Usage` from a wire ``usage`` dict, or None when there is none worth reporting."""
    if not isinstance(data, Mapping):
        return None
    # a count is a whole number from 0 to MAX_COUNT: a usage holding anything else (-500, 1.5, true, "12", 10**12) is
    # not the server's count of this request, and none is stored (the local estimate stands in, as for a server that
    # sends no usage); /timeline and /cost showed a 50-token request as a trillion, priced at $6,000,000
    given = [data[key] for key in ("prompt_tokens", "completion_tokens", "total_tokens") if data.get(key) is not None]
    if not given or any(_count(value) is None for value in given):
        return None
    prompt = _count(data.get("prompt_tokens")) or 0
    completion = _count(data.get("completion_tokens")) or 0
    total = _count(data.get("total_tokens"))
    # OpenAI and Groq report the cached prefix as ``prompt_tokens_details.cached_tokens``; it is part of the prompt
    details = data.get("prompt_tokens_details")
    cached = _count(details.get("cached_tokens")) if isinstance(details, Mapping) else None
    cached = None if cached is None else min(cached, prompt)  # (the cache serves part of the prompt, never more)
    return Usage(prompt, completion, total if total is not None else prompt + completion, cached)


#: more tokens than any model's window holds in one request (the largest are a few million)
MAX_COUNT = 100_000_000


def _count(value: object) -> int | None:
    return value if type(value) is int and 0 <= value <= MAX_COUNT else None


def chunk_usage(chunk: Mapping[str, Any]) -> Usage | None:
    """Usage carried by a stream chunk: top-level ``usage`` (OpenAI style) or ``x_groq.usage`` (Groq)."""
    usage = parse_usage(chunk.get("usage"))
    if usage is None:
        x_groq = chunk.get("x_groq")
        if isinstance(x_groq, Mapping):
            usage = parse_usage(x_groq.get("usage"))
    return usage


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


class _CallParts:
    """The pieces of one streamed tool call: the first piece names it, later ones add argument text."""

    def __init__(self) -> None:
        self.id = ""
        self.name = ""
        self.arguments: list[str] = []

    def add(self, piece: Mapping[str, Any]) -> None:
        self.id = self.id or _text(piece.get("id"))
        function = piece.get("function")
        function = function if isinstance(function, Mapping) else {}
        # some servers repeat the name in every piece; it is the same name, never a continuation
        self.name = self.name or _text(function.get("name"))
        self.arguments.append(_text(function.get("arguments")))

    def call(self, position: int) -> ToolCall:
        # a server that sends no id still needs one: the tool message is paired with its call by id
        return ToolCall(self.id or f"call_{position}", self.name, "".join(self.arguments))


def _pieces(value: object) -> list[Mapping[str, Any]]:
    """The tool-call pieces of ``value``: a list of objects. A server's junk (``"abc"``, ``5``, ``[5]``) is skipped."""
    return [piece for piece in value if isinstance(piece, Mapping)] if isinstance(value, list) else []


def tool_calls_from_message(message: Mapping[str, Any]) -> tuple[ToolCall, ...]:
    """The tool calls of a whole (non-streamed) assistant message; pieces that name no function are junk, skipped."""
    calls: list[ToolCall] = []
    for raw in _pieces(message.get("tool_calls")):
        parts = _CallParts()
        parts.add(raw)
        if parts.name:
            calls.append(parts.call(len(calls)))
    return tuple(calls)


class StreamState:
    """Turns chunk dicts into events, remembering the last usage and finish reason seen.

    Tool calls arrive as ``delta.tool_calls`` pieces keyed by ``index`` (several calls may interleave); they are
    assembled here and handed out whole by :meth:`tool_calls` once the stream has ended.
    """

    def __init__(self) -> None:
        self.usage: Usage | None = None
        self.finish_reason: str | None = None
        self.began = False  # a chunk came: a stream with none at all is a failed one
        self._calls: dict[int, _CallParts] = {}
        self.done = False  # the server sent [DONE]: it finished, even if it named no finish reason

    def events(self, chunk: Mapping[str, Any]) -> Generator[StreamEvent, None, None]:
        """The events of one chunk, in order: reasoning before content."""
        self.began = True
        # Servers repeat or split usage; the last non-null one is the total for the request, so never add them up.
        usage = chunk_usage(chunk)
        if usage is not None:
            self.usage = usage
        # The usage chunk has an empty ``choices``; some servers send ``choices: null``.
        choices = chunk.get("choices")
        for choice in choices if isinstance(choices, list) else []:
            if not isinstance(choice, Mapping) or not _asked(choice):
                continue  # a server's junk ("choices": ["x"]), or a choice not asked for, is skipped
            if isinstance(choice.get("finish_reason"), str):
                self.finish_reason = choice["finish_reason"]
            delta = choice.get("delta")
            delta = delta if isinstance(delta, Mapping) else {}
            # gpt-oss on Groq/vLLM sends ``reasoning``; llama.cpp, DeepSeek and others ``reasoning_content``.
            reasoning = _text(delta.get("reasoning")) or _text(delta.get("reasoning_content"))
            if reasoning:
                yield ReasoningDelta(reasoning)
            content = _text(delta.get("content"))
            if content:
                yield TextDelta(content)
            for piece in _pieces(delta.get("tool_calls")):
                index = piece.get("index")
                self._calls.setdefault(index if isinstance(index, int) else len(self._calls), _CallParts()).add(piece)

    def tool_calls(self) -> list[ToolCall]:
        """The assembled tool calls, in index order; one that never got a function name is junk, skipped."""
        named = [self._calls[i] for i in sorted(self._calls) if self._calls[i].name]
        return [parts.call(n) for n, parts in enumerate(named)]

    def end(self) -> StreamEnd:
        """The closing event. Neither [DONE] nor a finish reason: the finish reason stays None (incomplete)."""
        return StreamEnd(self.usage, self.finish_reason or ("stop" if self.done else None))


def _asked(choice: Mapping[str, Any]) -> bool:
    """Whether ``choice`` is the one reply asked for: index 0 (a server that sends several choices, unasked, must
    not have them joined into one reply), or one that names no index."""
    index = choice.get("index")
    return not isinstance(index, int) or index == 0


def _first_choice(choices: object) -> Mapping[str, Any]:
    """The choice asked for among a whole answer's ``choices`` (by :func:`_asked`, whatever order they come in)."""
    found = [c for c in choices if isinstance(c, Mapping)] if isinstance(choices, list) else []
    return next((c for c in found if _asked(c)), found[0] if found else {})


def completion_from_dict(data: Mapping[str, Any]) -> Completion:
    """A :class:`Completion` from a non-streamed response dict."""
    first = _first_choice(data.get("choices"))
    message = first.get("message")
    message = message if isinstance(message, Mapping) else {}
    return Completion(
        _text(message.get("content")),
        chunk_usage(data),
        _text(first.get("finish_reason")) or None,
        tool_calls_from_message(message),
    )


# --- the stream itself ----------------------------------------------------------------------------------------------


def _snippet(text: str | bytes, size: int = 80) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= size else flat[:size] + "…")


def parse_chunk(data: str, ctx: ErrorContext) -> dict[str, Any]:
    """One SSE ``data`` payload as a chunk dict; an error event or anything that is not a JSON object raises."""
    where = f"{ctx.provider} ({ctx.base_url})"
    try:
        chunk = json.loads(data)
    except ValueError:
        raise ServerError(f"{where} sent a stream line that is not valid JSON: {_snippet(data)}") from None
    if not isinstance(chunk, dict):
        raise ServerError(f"{where} sent a stream chunk that is not a JSON object: {_snippet(data)}")
    if chunk.get("error"):  # an error event mid-stream
        raise classify_error(None, chunk, "", None, ctx)
    return chunk


def _whole_answer(raw: bytes, status: int, headers: Any, ctx: ErrorContext) -> dict[str, Any]:
    """A non-streamed JSON answer turned into one chunk, or the error it names."""
    where = f"{ctx.provider} ({ctx.base_url})"
    try:
        data = json.loads(raw)
    except ValueError:
        raise ServerError(f"{where} answered with JSON that does not parse, not a stream: {_snippet(raw)}") from None
    if isinstance(data, dict) and data.get("error"):
        raise classify_error(status, data, "", headers, ctx)
    first = _first_choice(data.get("choices")) if isinstance(data, dict) else {}
    if not isinstance(first.get("message"), dict):
        raise ServerError(f"{where} answered with a JSON document, not a stream or a reply: {_snippet(raw)}")
    # the server ignored stream=true and sent the whole reply at once: use it as a one-chunk stream
    choice = {"index": 0, "delta": first["message"], "finish_reason": first.get("finish_reason")}
    return {"choices": [choice], "usage": data.get("usage")}


class EmptyStream(ServerError):
    """A stream that ended before its first chunk: what llama.cpp (and LM Studio) send for a prompt over the context
    window. Asked the same without streaming, such a server says so, naming the window."""


#: The most a server may send for one server-sent event: a stream's chunk is a few hundred bytes, and a proxy that
#: buffers a whole reply into one event sends its size. The SDK's decoder has no limit of its own: a server sending one
#: endless line (or data: lines with no blank line between) grew chatbot by ~40 MB a second, with --timeout never
#: firing, since bytes kept coming.
MAX_EVENT_BYTES = 16 * 1024 * 1024


class _Bounded:
    """An SDK's SSE decoder, held to :data:`MAX_EVENT_BYTES` between two events it yields."""

    def __init__(self, decoder: Any, where: str) -> None:
        self._decoder, self._where, self._since = decoder, where, 0

    def iter_bytes(self, chunks: Iterator[bytes]) -> Iterator[Any]:
        """The decoder's events from ``chunks``; a :class:`ProviderError` once an event runs over the limit."""
        for sse in self._decoder.iter_bytes(self._counted(chunks)):
            self._since = 0
            yield sse

    def _counted(self, chunks: Iterator[bytes]) -> Iterator[bytes]:
        for piece in chunks:
            self._since += len(piece)
            if self._since > MAX_EVENT_BYTES:
                raise ProviderError(
                    f"{self._where} sent over {MAX_EVENT_BYTES // 2**20} MB without ending a server-sent event: "
                    "not a chat stream (reading stopped). Is --base-url right?"
                )
            yield piece


def html_page(where: str, status: int) -> ProviderError:
    """A web page where a chat answer should be (a captive portal, a proxy's login, a wrong base URL): not a server's
    failure that a retry a second later mends, so not retried."""
    return ProviderError(
        f"{where} answered with an HTML page (status {status}), not a chat answer. Is --base-url right (it usually "
        "ends in /v1)? A captive portal or a proxy may be in the way."
    )


def looks_like_html(text: str) -> bool:
    """Whether an answer's text is a web page (what an SDK hands back when the body was not JSON)."""
    start = text.lstrip()[:200].lower()
    return start.startswith(("<!doctype html", "<html")) or "<html" in start


def read_stream(sdk_stream: Any, state: StreamState, ctx: ErrorContext) -> Generator[StreamEvent, None, None]:
    """The events of an SDK stream object, read from its raw server-sent events (``state`` keeps usage/finish)."""
    response = sdk_stream.response
    where = f"{ctx.provider} ({ctx.base_url})"
    kind = str(response.headers.get("content-type", "")).partition(";")[0].strip().lower()
    if kind == "application/json":
        yield from state.events(_whole_answer(response.read(), response.status_code, response.headers, ctx))
        return
    if kind in ("text/html", "application/xhtml+xml"):
        raise html_page(where, response.status_code)
    # the SDK's SSE decoder (both SDKs share it), bounded, read through the SDK's own loop (which names its timeouts
    # and dropped connections as the SDK's errors); its JSON step is ours
    sdk_stream._decoder = _Bounded(sdk_stream._decoder, where)
    for sse in sdk_stream._iter_events():
        data = sse.data
        if not data.strip():
            continue  # retry:, event: ping, an empty data: line — valid SSE that carries no chunk
        if data.startswith("[DONE]"):
            state.done = True
            break
        yield from state.events(parse_chunk(data, ctx))
    if not state.began and kind in ("text/event-stream", ""):
        # llama-cpp-python answers 200 and then sends nothing when the prompt exceeds its context window.
        raise EmptyStream(
            f"{where} ended the reply without sending anything. A local server does this when the request is "
            "longer than its context window: try a smaller --max-input-tokens."
        )
    if not state.began:
        raise ServerError(f"{where} answered with {kind} and no chat chunks: is --base-url right?")
