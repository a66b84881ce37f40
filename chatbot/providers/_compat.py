"""What the ``openai`` and ``groq`` SDKs have in common: one chat-completions provider and one error mapping.

Both SDKs are generated from the same template, so their clients, stream objects and exception classes have the
same shapes. :class:`CompatProvider` drives either one; a subclass only builds the client, says how to ask for
usage while streaming, and names the SDK's exception classes. Chunks are turned into plain dicts at once, so no
SDK type leaves this module or its subclasses.
"""

from __future__ import annotations

import email.utils
import json
import re
import time
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chatbot.errors import (
    AuthenticationError,
    ConnectionFailed,
    ContextLengthError,
    ModelNotFoundError,
    ProviderError,
    ProviderTimeout,
    RateLimitError,
    ServerError,
    TokenRateLimitError,
)
from chatbot.providers.base import (
    ChatProvider,
    Completion,
    Message,
    ReasoningDelta,
    StreamEnd,
    StreamEvent,
    TextDelta,
    Usage,
)

# --- request parameters -----------------------------------------------------------------------------------------

# Reasoning models (gpt-5, o1, o3, o4) reject ``max_tokens`` and want ``max_completion_tokens`` instead.
_COMPLETION_TOKENS_MODELS = re.compile(r"^(gpt-5|o1|o3|o4)")


def token_limit_param(model: str, max_tokens: int) -> dict[str, int]:
    """The reply-length parameter ``model`` accepts; a routed name (``openai/o3-mini``) is judged by its last part."""
    base = model.rsplit("/", 1)[-1].lower()
    key = "max_completion_tokens" if _COMPLETION_TOKENS_MODELS.match(base) else "max_tokens"
    return {key: max_tokens}


def client_options(
    api_key: str, base_url: str | None, timeout: float | None, max_retries: int | None
) -> dict[str, Any]:
    """Keyword arguments for either SDK's client; what is None is left to the SDK's default."""
    options: dict[str, Any] = {"api_key": api_key, "base_url": base_url}
    if timeout is not None:
        options["timeout"] = timeout
    if max_retries is not None:
        options["max_retries"] = max_retries
    return options


# --- reading responses ------------------------------------------------------------------------------------------


def parse_usage(data: object) -> Usage | None:
    """A :class:`Usage` from a wire ``usage`` dict, or None when there is none worth reporting."""
    if not isinstance(data, Mapping):
        return None
    prompt = data.get("prompt_tokens")
    completion = data.get("completion_tokens")
    if not isinstance(prompt, int) and not isinstance(completion, int):
        return None
    prompt = prompt if isinstance(prompt, int) else 0
    completion = completion if isinstance(completion, int) else 0
    total = data.get("total_tokens")
    return Usage(prompt, completion, total if isinstance(total, int) else prompt + completion)


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


class StreamState:
    """Turns chunk dicts into events, remembering the last usage and finish reason seen."""

    def __init__(self) -> None:
        self.usage: Usage | None = None
        self.finish_reason: str | None = None
        self.chunks = 0  # chunks seen: a stream with none at all is a failed one

    def events(self, chunk: Mapping[str, Any]) -> Generator[StreamEvent, None, None]:
        """The events of one chunk, in order: reasoning before content."""
        self.chunks += 1
        # Servers repeat or split usage; the last non-null one is the total for the request, so never add them up.
        usage = chunk_usage(chunk)
        if usage is not None:
            self.usage = usage
        # The usage chunk has an empty ``choices``; some servers send ``choices: null``.
        for choice in chunk.get("choices") or []:
            if choice.get("finish_reason"):
                self.finish_reason = choice["finish_reason"]
            delta = choice.get("delta") or {}
            # gpt-oss on Groq/vLLM sends ``reasoning``; llama.cpp, DeepSeek and others ``reasoning_content``.
            reasoning = _text(delta.get("reasoning")) or _text(delta.get("reasoning_content"))
            if reasoning:
                yield ReasoningDelta(reasoning)
            content = _text(delta.get("content"))
            if content:
                yield TextDelta(content)

    def end(self) -> StreamEnd:
        """The closing event."""
        return StreamEnd(self.usage, self.finish_reason)


def completion_from_dict(data: Mapping[str, Any]) -> Completion:
    """A :class:`Completion` from a non-streamed response dict."""
    choices = data.get("choices") or []
    first = choices[0] if choices else {}
    message = first.get("message") or {}
    return Completion(_text(message.get("content")), chunk_usage(data), first.get("finish_reason"))


# --- errors -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SdkErrors:
    """The exception classes of one SDK (and of the HTTP library under it) that a provider maps."""

    base: type[Exception]  # every SDK exception: OpenAIError / GroqError
    api: type[Exception]  # APIError: also raised for an error event mid-stream, which has no status
    status: type[Exception]  # APIStatusError: a 4xx/5xx answer
    timeout: tuple[type[Exception], ...]  # APITimeoutError and the HTTP library's TimeoutException
    connection: tuple[type[Exception], ...]  # APIConnectionError and the HTTP library's TransportError

    @property
    def caught(self) -> tuple[type[Exception], ...]:
        """Everything a provider call may raise that must be mapped (ValueError: a stream that is not JSON)."""
        return (self.base, *self.timeout, *self.connection, ValueError)


@dataclass(frozen=True)
class ErrorContext:
    """What a user needs named in an error message."""

    provider: str
    model: str
    base_url: str
    key_env: str


# Every shape of "the request is longer than the context window" seen in the wild.
_CONTEXT_PATTERNS = re.compile(
    r"context_length_exceeded"  # OpenAI, Groq (code)
    r"|exceed_context_size"  # llama.cpp (type)
    r"|maximum context length"  # vLLM, OpenAI: "This model's maximum context length is N tokens"
    r"|longer than the model's context length"  # vLLM
    r"|exceeds? the (available )?context (size|length|window)"  # llama.cpp: "the request exceeds the available ..."
    r"|context (length|window) (is )?exceeded",
    re.IGNORECASE,
)
_KEY_CODES = {"invalid_api_key", "invalid_authentication", "authentication_error"}
_RATE_CODES = {"rate_limit_exceeded", "rate_limit_error"}
# Groq's message says "Please try again in 7.66s" or "in 1m2.5s" or "in 250ms".
_TRY_AGAIN = re.compile(r"try again in (?:(\d+)m)?(\d+(?:\.\d+)?)(ms|s)\b", re.IGNORECASE)


def _error_body(body: object) -> dict[str, Any]:
    """The ``error`` object of a response body, however deep the SDK left it (groq keeps the wrapper)."""
    if isinstance(body, Mapping):
        inner = body.get("error")
        if isinstance(inner, Mapping):
            return dict(inner)
        return dict(body)
    if isinstance(body, str):
        try:
            return _error_body(json.loads(body))
        except ValueError:
            return {"message": body}
    return {}


def _seconds(value: str) -> float | None:
    """A ``retry-after`` value: seconds, or an HTTP date."""
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def retry_after_seconds(headers: Mapping[str, str] | None, message: str = "") -> float | None:
    """The wait the server asked for: ``retry-after-ms``, ``retry-after`` (seconds or an HTTP date), or the text."""
    headers = headers or {}
    if headers.get("retry-after-ms") is not None:
        wait = _seconds(headers["retry-after-ms"])
        if wait is not None:
            return wait / 1000
    if headers.get("retry-after") is not None:
        wait = _seconds(headers["retry-after"])
        if wait is not None:
            return wait
    match = _TRY_AGAIN.search(message)
    if match:
        minutes, amount, unit = match.groups()
        seconds = float(amount) / (1000 if unit.lower() == "ms" else 1)
        return seconds + 60 * int(minutes or 0)
    return None


def _wait_text(seconds: float | None) -> str:
    return f"the server asks to wait {seconds:.1f}s" if seconds is not None else "wait a moment"


def classify_error(
    status: int | None, body: object, message: str, headers: Mapping[str, str] | None, ctx: ErrorContext
) -> ProviderError:
    """Map one failed answer (or a mid-stream error event, ``status`` None) to the project's error type."""
    err = _error_body(body)
    detail = _text(err.get("message")) or message or "no details"
    code = str(err.get("code") or "")
    kind = str(err.get("type") or "")
    where = f"{ctx.provider} ({ctx.base_url})"

    # Before the status: llama.cpp used to answer 500 and vLLM 400 for an over-long prompt, and it can come mid-stream.
    if _CONTEXT_PATTERNS.search(" ".join((code, kind, detail))):
        return ContextLengthError(f"the request is longer than model {ctx.model!r} can read: {detail}")
    if status in (401, 403) or code in _KEY_CODES:
        what = "was rejected" if status != 403 else "is not allowed to do this"
        return AuthenticationError(
            f"{where}: the API key in {ctx.key_env} {what} ({status or code}: {detail}). "
            f"Check the key in {ctx.key_env} (environment or .env), or use --provider echo offline."
        )
    if status == 404 or code == "model_not_found":
        return ModelNotFoundError(
            f"{where} has no model {ctx.model!r} ({detail}). Choose another with --model NAME"
            + (" (is --base-url right? it usually ends in /v1)." if ctx.provider == "openai" else ".")
        )
    wait = retry_after_seconds(headers, detail)
    if status == 413:
        # Groq: the request alone is over this tier's per-minute token limit; waiting does not help, shrinking does.
        return TokenRateLimitError(
            f"{where}: the request is larger than the per-minute token limit ({detail}). "
            "Lower --max-input-tokens, /reset, or try a model with a higher limit.",
            retry_after=wait,
        )
    if status == 429 or code in _RATE_CODES:
        hint = "check your plan and billing" if code == "insufficient_quota" else _wait_text(wait) + ", then retry"
        return RateLimitError(f"{where}: rate limit reached ({detail}); {hint}.", retry_after=wait)
    if status is None or status >= 500:
        what = "reported an error mid-stream" if status is None else f"failed ({status})"
        return ServerError(f"{where} {what}: {detail}. Try again in a moment.")
    return ProviderError(f"{where} rejected the request ({status}: {detail}).")


def map_exception(exc: BaseException, sdk: SdkErrors, ctx: ErrorContext) -> ProviderError:
    """Map any exception a provider call raised (SDK, HTTP library, bad JSON) to the project's error type."""
    if isinstance(exc, ProviderError):
        return exc
    if isinstance(exc, sdk.timeout):
        return ProviderTimeout(
            f"{ctx.provider} ({ctx.base_url}) did not answer in time; try again"
            " (slow local models may need a longer timeout)."
        )
    if isinstance(exc, sdk.connection):
        return ConnectionFailed(
            f"could not reach {ctx.base_url} ({exc.__cause__ or exc}). Is the server running and the URL right"
            " (--base-url)? --provider echo works offline."
        )
    if isinstance(exc, sdk.status):
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None)
        return classify_error(getattr(exc, "status_code", None), getattr(exc, "body", None), str(exc), headers, ctx)
    if isinstance(exc, sdk.api):
        return classify_error(None, getattr(exc, "body", None), str(getattr(exc, "message", exc)), None, ctx)
    if isinstance(exc, ValueError):  # a server that streams something that is not JSON
        return ServerError(f"{ctx.provider} ({ctx.base_url}) sent a response that is not valid JSON: {exc}")
    return ProviderError(f"{ctx.provider} ({ctx.base_url}) failed: {exc}")


def _mentions_stream_options(exc: BaseException, sdk: SdkErrors) -> bool:
    """Whether ``exc`` is a 400 that blames ``stream_options`` (some OpenAI-compatible servers do not know it)."""
    if not isinstance(exc, sdk.status) or getattr(exc, "status_code", None) != 400:
        return False
    return "stream_options" in f"{exc} {getattr(exc, 'body', '')}"


# --- the provider -----------------------------------------------------------------------------------------------


class CompatProvider(ChatProvider):
    """A chat-completions provider over an OpenAI-shaped SDK client.

    Subclasses set ``name`` and ``key_env``, pass their SDK client and :class:`SdkErrors` to ``__init__``, and may
    change how usage is asked for while streaming (:meth:`_usage_params`).
    """

    key_env: str = ""

    def __init__(self, client: Any, sdk: SdkErrors, *, model: str) -> None:
        # ``client`` is an SDK client; typed Any on purpose so the SDK's overloads do not leak into this module.
        self._client = client
        self._sdk = sdk
        self.model = model
        # Cleared after a server rejects stream_options, so later requests do not pay for the retry again.
        self._ask_usage = True

    @property
    def base_url(self) -> str:
        """The server this provider talks to."""
        return str(self._client.base_url).rstrip("/")

    def _usage_params(self) -> dict[str, Any]:
        """Request parameters that ask for usage in the stream's last chunk."""
        return {"stream_options": {"include_usage": True}}

    def _params(self, messages: Sequence[Message], model: str, max_tokens: int | None) -> dict[str, Any]:
        params: dict[str, Any] = {"model": model, "messages": list(messages)}
        if max_tokens is not None:
            params.update(token_limit_param(model, max_tokens))
        return params

    def _error(self, exc: BaseException, model: str) -> ProviderError:
        return map_exception(exc, self._sdk, ErrorContext(self.name, model, self.base_url, self.key_env))

    def _open_stream(self, params: dict[str, Any]) -> Any:
        """Start a streamed request; retry once without stream_options when the server refuses them."""
        if self._ask_usage:
            try:
                return self._client.chat.completions.create(stream=True, **params, **self._usage_params())
            except self._sdk.status as exc:
                if not _mentions_stream_options(exc, self._sdk):
                    raise
                self._ask_usage = False
        return self._client.chat.completions.create(stream=True, **params)

    def stream(
        self, messages: Sequence[Message], *, model: str | None = None, max_tokens: int | None = None
    ) -> Generator[StreamEvent, None, None]:
        """Stream a reply; closing the generator early closes the HTTP response."""
        model = model or self.model
        state = StreamState()
        try:
            # ``with`` closes the response on every exit, including GeneratorExit when the consumer stops (Ctrl-C).
            with self._open_stream(self._params(messages, model, max_tokens)) as sdk_stream:
                for chunk in sdk_stream:
                    yield from state.events(chunk.to_dict())
        except self._sdk.caught as exc:
            raise self._error(exc, model) from exc
        if state.chunks == 0:
            # llama-cpp-python answers 200 and then sends nothing when the prompt exceeds its context window.
            raise ServerError(
                f"{self.name} ({self.base_url}) ended the reply without sending anything. A local server does this "
                "when the request is longer than its context window: try a smaller --max-input-tokens."
            )
        yield state.end()

    def complete(
        self, messages: Sequence[Message], *, model: str | None = None, max_tokens: int | None = None
    ) -> Completion:
        """Return a whole reply without streaming."""
        model = model or self.model
        try:
            response = self._client.chat.completions.create(**self._params(messages, model, max_tokens))
            return completion_from_dict(response.to_dict())
        except self._sdk.caught as exc:
            raise self._error(exc, model) from exc
