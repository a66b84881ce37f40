"""Provider errors: every failed answer an OpenAI-shaped server gives, mapped to the project's error tree.

:func:`classify_error` reads one failed answer (status, body, headers); it is where a context-length error is
recognised, whatever the server's wording (``_CONTEXT_PATTERNS``). :func:`map_exception` maps anything an SDK call
raised. Both return a :class:`~chatbot.errors.ProviderError` whose message says what to do, and never the API key:
a server that echoes it (a 401 body quoting the key it refused) has it masked (:func:`hide_key`).
"""

from __future__ import annotations

import ast
import datetime
import email.utils
import json
import math
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from chatbot.errors import (
    AuthenticationError,
    ConnectionFailed,
    ContextLengthError,
    IncompleteReply,
    ModelNotFoundError,
    ProviderError,
    ProviderTimeout,
    RateLimitError,
    ServerError,
    TokenRateLimitError,
)
from chatbot.text import preview


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


@dataclass(frozen=True)
class SdkErrors:
    """The exception classes of one SDK (and of the HTTP library under it) that a provider maps."""

    base: type[Exception]  # every SDK exception: OpenAIError / GroqError
    api: type[Exception]  # APIError: also raised for an error event mid-stream, which has no status
    status: type[Exception]  # APIStatusError: a 4xx/5xx answer
    timeout: tuple[type[Exception], ...]  # APITimeoutError and the HTTP library's TimeoutException
    connection: tuple[type[Exception], ...]  # APIConnectionError and the HTTP library's TransportError
    protocol: tuple[type[Exception], ...] = ()  # the HTTP library's RemoteProtocolError: an answer that is not HTTP
    invalid_url: tuple[type[Exception], ...] = ()  # the HTTP library's InvalidURL: a base URL it cannot parse

    @property
    def caught(self) -> tuple[type[Exception], ...]:
        """Everything a provider call may raise that must be mapped (ValueError: a stream that is not JSON)."""
        return (self.base, *self.timeout, *self.connection, *self.invalid_url, ValueError)


@dataclass(frozen=True)
class ErrorContext:
    """What a user needs named in an error message."""

    provider: str
    model: str
    base_url: str
    key_env: str
    key: str = field(default="", repr=False)  # the key sent, masked in every message (empty: none was set)


# Every shape of "the request is longer than the context window" seen in the wild.
_CONTEXT_PATTERNS = re.compile(
    r"context_length_exceeded"  # OpenAI, Groq (code)
    r"|exceed_context_size"  # llama.cpp (type)
    r"|maximum context length"  # vLLM, OpenAI: "This model's maximum context length is N tokens"
    r"|longer than the model's context length"  # vLLM
    r"|exceeds? the (available )?context (size|length|window)"  # llama.cpp: "the request exceeds the available ..."
    r"|context (length|window) (is )?exceeded"
    r"|prompt \(\d+ tokens\) is too long",  # vLLM: "Input prompt (9000 tokens) is too long and exceeds limit of 8192"
    re.IGNORECASE,
)
# Where a context-length error names the window, in each server's words (never the size that was asked for).
_CONTEXT_LIMITS = re.compile(
    r"maximum context length is (\d+)"  # OpenAI, vLLM, Groq: "This model's maximum context length is 8192 tokens"
    r"|context (?:size|length|window) \((\d+)(?: tokens)?\)"  # llama.cpp "(8192 tokens)", vLLM "(4096)"
    r"|maximum model length (?:of |is )?(\d+)"  # vLLM: "longer than the maximum model length of 4096"
    r"|exceeds limit of (\d+)"  # vLLM: "Input prompt (9000 tokens) is too long and exceeds limit of 8192"
    r"|context (?:length|window) of (\d+)",
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
    """A ``retry-after`` value: seconds, or an HTTP date (the whole seconds until then)."""
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:  # NaN or a negative wait asks for nothing: as if none was given ("inf": over any wait chatbot does)
        return None if math.isnan(seconds) or seconds < 0 else seconds
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:  # "-0000": an HTTP date is always UTC, never the local time
        when = when.replace(tzinfo=datetime.timezone.utc)
    return float(max(0, math.ceil(when.timestamp() - time.time())))  # a date says a second, not a fraction


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


# A server can ask for any wait ("Retry-After: 2306432640"); more than this is not believed, only reported.
MAX_WAIT = 3600.0


def _wait_text(seconds: float | None, then: str = "") -> str:
    """What the user reads of the wait a server asked for, and ``then`` what to do after it (not after a wait
    chatbot does not do)."""
    if seconds is not None and seconds > MAX_WAIT:
        return "the server asks to wait over an hour, which chatbot does not do: try again later"
    wait = "wait a moment" if seconds is None else f"the server asks to wait {seconds:.1f}s"
    return f"{wait}{then}"


#: how much of a server's error text a message quotes (an HTML error page or a 200 KB body is not a message)
BRIEF_CHARS = 300


def brief(text: str) -> str:
    """A server's error text as one short line: markup dropped, whitespace folded, cut at ``BRIEF_CHARS``."""
    flat = " ".join(re.sub(r"<[^>]*>", " ", text).split())
    return flat if len(flat) <= BRIEF_CHARS else flat[: BRIEF_CHARS - 1] + "…"


def context_limit(err: Mapping[str, Any], message: str) -> int | None:
    """The context window a context-length error names, in tokens (llama.cpp also sends it as ``n_ctx``), or None."""
    n_ctx = err.get("n_ctx")
    if isinstance(n_ctx, int) and not isinstance(n_ctx, bool) and n_ctx > 0:
        return n_ctx
    match = _CONTEXT_LIMITS.search(message)
    if match is None:
        return None
    limit = int(next(g for g in match.groups() if g is not None))
    return limit or None


#: what stands for the API key in a message
KEY_MASK = "[API key hidden]"


def hide_key(text: str, key: str) -> str:
    """``text`` with ``key`` masked, as written and as escaped in a repr or JSON (``\\n`` for a newline)."""
    if len(key) < 8:  # no real key is this short; masking "x" would eat every x
        return text
    for form in (key, repr(key)[1:-1], json.dumps(key)[1:-1]):
        text = text.replace(form, KEY_MASK)
    return text


def _masked(error: ProviderError, ctx: ErrorContext) -> ProviderError:
    """``error`` with the key masked in its message (the same object: its kind and fields stay)."""
    error.message = hide_key(error.message, ctx.key)
    error.args = (error.message,)
    return error


def _redirected(where: str, status: int, headers: Mapping[str, str] | None) -> ProviderError:
    """A redirect, not followed: the conversation goes only to the address the user gave."""
    location = preview(str((headers or {}).get("location") or ""), 120)
    to = f" to {location}" if location else ""
    use = "; if that is the right server, give it as --base-url (without /chat/completions)" if location else ""
    return ProviderError(
        f"{where} answered with a redirect ({status}){to}: chatbot does not follow it, so the conversation goes "
        f"nowhere you did not name{use}"
    )


def classify_error(
    status: int | None, body: object, message: str, headers: Mapping[str, str] | None, ctx: ErrorContext
) -> ProviderError:
    """Map one failed answer (or a mid-stream error event, ``status`` None) to the project's error type; the key
    masked."""
    return _masked(_classify(status, body, message, headers, ctx), ctx)


def _classify(
    status: int | None, body: object, message: str, headers: Mapping[str, str] | None, ctx: ErrorContext
) -> ProviderError:
    err = _error_body(body)
    full = hide_key(_text(err.get("message")) or message or "no details", ctx.key)  # before brief() may cut it
    detail = brief(full)  # what the user reads: one short line, whatever the server sent
    code = str(err.get("code") or "")
    kind = str(err.get("type") or "")
    where = f"{ctx.provider} ({ctx.base_url})"

    # Before the status: llama.cpp used to answer 500 and vLLM 400 for an over-long prompt, and it can come mid-stream.
    if _CONTEXT_PATTERNS.search(" ".join((code, kind, full))):
        return ContextLengthError(
            f"the request is longer than model {ctx.model!r} can read: {detail}", limit=context_limit(err, full)
        )
    if status in (401, 403) or code in _KEY_CODES:
        if not ctx.key_env:  # a local server behind a key check: this provider has no key to name
            return AuthenticationError(
                f"{where} refused the request ({status or code}: {detail}); {ctx.provider} sends no API key. To "
                f"send one, use --provider openai --base-url {ctx.base_url} with the key in OPENAI_API_KEY."
            )
        if not ctx.key:  # a server that ignores keys was assumed (a base URL, no key set); this one checks them
            return AuthenticationError(
                f"{where} refused the request ({status or code}: {detail}): it needs an API key and none was set. "
                f"Set {ctx.key_env} to this server's key (environment or .env)."
            )
        what = "was rejected" if status != 403 else "is not allowed to do this"
        return AuthenticationError(
            f"{where}: the API key in {ctx.key_env} {what} ({status or code}: {detail}). "
            f"Check the key in {ctx.key_env} (environment or .env), or use --provider echo offline."
        )
    if status is not None and 300 <= status < 400:
        return _redirected(where, status, headers)
    if status == 404 or code == "model_not_found":
        return ModelNotFoundError(
            f"{where} has no model {ctx.model!r} ({detail}). {ModelNotFoundError.CHOOSE.format(flag='--model')}"
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
        hint = "check your plan and billing" if code == "insufficient_quota" else _wait_text(wait, ", then retry")
        capped = min(wait, MAX_WAIT) if wait is not None else None
        return RateLimitError(f"{where}: rate limit reached ({detail}); {hint}.", retry_after=capped)
    if status is None or status >= 500:
        what = "reported an error mid-stream" if status is None else f"failed ({status})"
        if wait is None:
            return ServerError(f"{where} {what}: {detail}. Try again in a moment.")
        # a 503 with Retry-After (seconds or a date): waited for like a 429's, or refused when too far
        return ServerError(f"{where} {what}: {detail}; {_wait_text(wait)}.", retry_after=min(wait, MAX_WAIT))
    return ProviderError(f"{where} rejected the request ({status}: {detail}).")


#: how much of a non-HTTP answer's error (the junk it began with, as the HTTP library quotes it) a message shows
NOT_HTTP_CHARS = 60


#: how much of the HTTP library's own words a connection error quotes (they can quote what the server sent)
CAUSE_CHARS = 200


def _cause(exc: BaseException) -> str:
    """What the HTTP library said of a failed connection, one line of at most :data:`CAUSE_CHARS`."""
    return preview(str(exc.__cause__ or exc), CAUSE_CHARS)


def _no_http_answer(exc: BaseException, sdk: SdkErrors, ctx: ErrorContext) -> ProviderError | None:
    """The error for a server that was reached but gave no HTTP answer (the HTTP library's protocol error, under
    ``exc`` or as it), or None for any other failure."""
    cause = exc if isinstance(exc, sdk.protocol) else exc.__cause__
    if not isinstance(cause, sdk.protocol):
        return None
    where = f"{ctx.provider} ({ctx.base_url})"
    said = str(cause)
    if said.startswith("Server disconnected"):  # closed before a whole answer: restarting, or not HTTP
        return ConnectionFailed(
            f"{where} closed the connection without an HTTP answer. Is --base-url right (its port, http or https)?"
        )
    if said.startswith("peer closed connection"):  # an HTTP answer cut off (the server died while sending it)
        return ConnectionFailed(f"{where} closed the connection in the middle of its answer")
    return ProviderError(  # junk, or another service on that port: asking again gets the same
        f"{where} answered with something that is not HTTP ({preview(_as_text(said), NOT_HTTP_CHARS)}). "
        "Is --base-url right (its port, http or https)?"
    )


# the HTTP library quotes what it could not read as a Python value: ``illegal status line: bytearray(b'\x00...')``
_BYTES_SHOWN = re.compile(r"bytearray\((b'(?:[^'\\]|\\.)*'|b\"(?:[^\"\\]|\\.)*\")\)")


def _as_text(said: str) -> str:
    """``said`` with the bytes it quotes as Python values shown as the text they hold (what could not be decoded as
    U+FFFD), so that a user reads what came, not a repr."""

    def text(match: re.Match[str]) -> str:
        try:
            data = ast.literal_eval(match.group(1))
        except (ValueError, SyntaxError):
            return match.group(0)
        return repr(data.decode("utf-8", "replace")) if isinstance(data, bytes) else match.group(0)

    return _BYTES_SHOWN.sub(text, said)


def map_exception(exc: BaseException, sdk: SdkErrors, ctx: ErrorContext, *, streaming: bool = False) -> ProviderError:
    """Map any exception a provider call raised (SDK, HTTP library, bad JSON) to the project's error type, the key
    masked.

    ``streaming``: the server had answered and the reply was arriving, so a broken connection is not "unreachable".
    """
    return _masked(exc if isinstance(exc, ProviderError) else _map(exc, sdk, ctx, streaming), ctx)


def _map(exc: BaseException, sdk: SdkErrors, ctx: ErrorContext, streaming: bool) -> ProviderError:
    if streaming and isinstance(exc, (*sdk.timeout, *sdk.connection)):
        stalled = isinstance(exc, sdk.timeout)
        what = "stopped sending" if stalled else f"broke the connection ({_cause(exc)})"
        message = (
            f"{ctx.provider} ({ctx.base_url}) {what} while the reply was streaming; the partial reply was not "
            "stored. Try again."
        )
        return ProviderTimeout(message) if stalled else IncompleteReply(message)
    unheard = _no_http_answer(exc, sdk, ctx)  # reached, so never "could not reach"
    if unheard is not None:
        return unheard
    if isinstance(exc, sdk.invalid_url):  # (url_problem checks a base URL first: this is the HTTP library's word)
        return ProviderError(f"{ctx.base_url} is not a URL the HTTP client accepts ({exc}); check the base URL")
    if isinstance(exc, sdk.timeout):
        return ProviderTimeout(
            f"{ctx.provider} ({ctx.base_url}) did not answer in time; try again"
            " (a slow local model may need a longer --timeout)."
        )
    if isinstance(exc, sdk.connection):
        return ConnectionFailed(
            f"could not reach {ctx.base_url} ({_cause(exc)}). Is the server running and the URL right"
            " (--base-url)? --provider echo works offline."
        )
    if isinstance(exc, sdk.status):
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None)
        return classify_error(getattr(exc, "status_code", None), getattr(exc, "body", None), str(exc), headers, ctx)
    if isinstance(exc, sdk.api):
        return classify_error(None, getattr(exc, "body", None), str(getattr(exc, "message", exc)), None, ctx)
    if isinstance(exc, UnicodeEncodeError):  # our side: text that UTF-8 cannot hold; nothing was sent
        return ProviderError(f"the request to {ctx.provider} could not be encoded ({exc.reason}); nothing was sent")
    if isinstance(exc, ValueError):  # a server that streams something that is not JSON
        return ServerError(f"{ctx.provider} ({ctx.base_url}) sent a response that is not valid JSON: {exc}")
    return ProviderError(f"{ctx.provider} ({ctx.base_url}) failed: {exc}")
