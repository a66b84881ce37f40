"""Reading a streamed answer off the wire, whatever the server actually sent.

The SDKs' own stream parser crashes or misleads on what real servers and proxies send: SSE events without data
(``retry:``, ``event: ping``, an empty ``data:``), chunks that are JSON but not objects, an HTML page with status
200 (a captive portal, a wrong URL), or a whole JSON answer to a streaming request. :func:`read_stream` reads the
SDK's raw server-sent events instead and names each of these for what it is.
"""

from __future__ import annotations

import json
from collections.abc import Generator
from typing import Any, Protocol

from chatbot.errors import ServerError
from chatbot.providers.base import StreamEvent
from chatbot.providers.error_map import ErrorContext, classify_error


class StreamState(Protocol):
    """What :func:`read_stream` needs of the provider's chunk reader: the events of one chunk, and two flags."""

    began: bool  # a chunk came
    done: bool  # the server sent ``[DONE]``

    def events(self, chunk: dict[str, Any]) -> Generator[StreamEvent, None, None]:
        """The events of one chunk, in order."""
        ...


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
    choices = data.get("choices") if isinstance(data, dict) else None
    first = choices[0] if isinstance(choices, list) and choices else None
    if not isinstance(first, dict) or not isinstance(first.get("message"), dict):
        raise ServerError(f"{where} answered with a JSON document, not a stream or a reply: {_snippet(raw)}")
    # the server ignored stream=true and sent the whole reply at once: use it as a one-chunk stream
    choice = {"index": 0, "delta": first["message"], "finish_reason": first.get("finish_reason")}
    return {"choices": [choice], "usage": data.get("usage")}


def read_stream(sdk_stream: Any, state: StreamState, ctx: ErrorContext) -> Generator[StreamEvent, None, None]:
    """The events of an SDK stream object, read from its raw server-sent events (``state`` keeps usage/finish)."""
    response = sdk_stream.response
    where = f"{ctx.provider} ({ctx.base_url})"
    kind = str(response.headers.get("content-type", "")).partition(";")[0].strip().lower()
    if kind == "application/json":
        yield from state.events(_whole_answer(response.read(), response.status_code, response.headers, ctx))
        return
    if kind in ("text/html", "application/xhtml+xml"):
        raise ServerError(
            f"{where} answered with an HTML page (status {response.status_code}), not a chat stream. Is --base-url "
            "right (it usually ends in /v1)? A captive portal or a proxy may be in the way."
        )
    for sse in sdk_stream._iter_events():  # the SDK's SSE decoder (both SDKs share it); its JSON step is ours
        data = sse.data
        if not data.strip():
            continue  # retry:, event: ping, an empty data: line — valid SSE that carries no chunk
        if data.startswith("[DONE]"):
            state.done = True
            break
        yield from state.events(parse_chunk(data, ctx))
    if not state.began and kind in ("text/event-stream", ""):
        # llama-cpp-python answers 200 and then sends nothing when the prompt exceeds its context window.
        raise ServerError(
            f"{where} ended the reply without sending anything. A local server does this when the request is "
            "longer than its context window: try a smaller --max-input-tokens."
        )
    if not state.began:
        raise ServerError(f"{where} answered with {kind} and no chat chunks: is --base-url right?")
