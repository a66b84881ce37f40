"""The OpenAI-compatible chat-completions core that the ``openai`` and ``groq`` providers share.

Both SDKs are generated from the same template, so their clients, stream objects and exception classes have the
same shapes. :class:`CompatProvider` drives either one; a subclass only names the SDK's client and exception
classes (mapped by :mod:`chatbot.providers.error_map`).
Chunks are turned into plain dicts at once, so no SDK type leaves this module or its subclasses.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Generator, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from chatbot.errors import (
    ConfigError,
    ConnectionFailed,
    ContextLengthError,
    IncompleteReply,
    ProviderError,
)
from chatbot.providers import LOCAL_DUMMY_KEY
from chatbot.providers.base import (
    ASK_NOTHING,
    CallOptions,
    ChatProvider,
    Completion,
    Message,
    ProviderNote,
    Resent,
    StreamEvent,
    collect,
    completion_events,
)
from chatbot.providers.error_map import ErrorContext, SdkErrors, map_exception
from chatbot.providers.json_mode import FALLBACK_NOTICE, SCHEMA_REFUSED, as_json_object, refuses_schema, schema_in
from chatbot.providers.reading import (
    EmptyStream,
    StreamState,
    completion_from_dict,
    html_page,
    looks_like_html,
    read_stream,
)
from chatbot.providers.table import PROVIDERS
from chatbot.text import mask_password

# --- request parameters -----------------------------------------------------------------------------------------

# Reasoning models (gpt-5, o1, o3, o4) reject ``max_tokens`` and want ``max_completion_tokens`` instead.
_COMPLETION_TOKENS_MODELS = re.compile(r"^(gpt-5|o1|o3|o4)")


def token_limit_param(model: str, max_tokens: int) -> dict[str, int]:
    """The reply-length parameter ``model`` accepts; a routed name (``openai/o3-mini``) is judged by its last part."""
    base = model.rsplit("/", 1)[-1].lower()
    key = "max_completion_tokens" if _COMPLETION_TOKENS_MODELS.match(base) else "max_tokens"
    return {key: max_tokens}


def model_ids(raw: bytes, where: str) -> list[str]:
    """The sorted model ids of a ``GET /models`` answer. Entries that are not ``{"id": "..."}`` are skipped; an answer
    without a list of models is a :class:`ProviderError` naming what came instead."""
    try:
        data = json.loads(raw)
    except ValueError:
        data = None
    listed = data.get("data", []) if isinstance(data, Mapping) else None
    if not isinstance(listed, list):
        shown = " ".join(raw.decode("utf-8", "replace").split())[:80]
        raise ProviderError(f"{where} answered the list of models with something else: {shown!r}")
    ids = (item.get("id") for item in listed if isinstance(item, Mapping))
    return sorted({i for i in ids if isinstance(i, str) and i})


#: why a request went out again without ``stream_options`` (shown above its body with --show-requests)
STREAM_OPTIONS_REFUSED = "the server refused stream_options; sent again without them (no usage in the stream)"
EMPTY_STREAM_RESENT = "the server streamed nothing; asked again without streaming, to hear why (a window it names)"


def _mentions_stream_options(exc: BaseException, sdk: SdkErrors) -> bool:
    """Whether ``exc`` is a 400 that blames ``stream_options`` (some OpenAI-compatible servers do not know it)."""
    if not isinstance(exc, sdk.status) or getattr(exc, "status_code", None) != 400:
        return False
    return "stream_options" in f"{exc} {getattr(exc, 'body', '')}"


# --- the provider -----------------------------------------------------------------------------------------------


class CompatProvider(ChatProvider):
    """A chat-completions provider over an OpenAI-shaped SDK client.

    Subclasses set ``name``, the SDK's client class (``client_class``) and its errors (``sdk_errors``). Every call
    sends :meth:`request_body`'s dict (through :meth:`_send`): what ``/context json`` and ``--show-requests`` show
    is built by the same code.
    """

    #: the SDK's client class (``openai.OpenAI``, ``groq.Groq``); typed Any so the SDK's overloads stay out of here
    client_class: ClassVar[Any]
    #: the SDK's exception classes, for :func:`~chatbot.providers.error_map.classify_error`
    sdk_errors: ClassVar[SdkErrors]
    #: the SDK's HTTP client with its own defaults (``DefaultHttpxClient``), made here to follow no redirect
    http_client_class: ClassVar[Any]

    def __init__(
        self,
        *,
        api_key: str,
        model: str,
        base_url: str | None = None,
        timeout: float | None = None,
        max_retries: int | None = None,
        name: str | None = None,
    ) -> None:
        """A client for ``base_url`` (None: the SDK's own); ``timeout`` and ``max_retries`` None keep the SDK's.
        ``name`` is the provider's row in the table when it is not the class's own (``gemini`` over the openai SDK)."""
        self.name = name or type(self).name
        # no redirect is followed: a server that answers 307 would have the conversation (the key is dropped, the
        # body is not) sent on to an address the user never gave; the error names it (error_map.py)
        http_client = self.http_client_class(follow_redirects=False)
        options: dict[str, Any] = {"api_key": api_key, "base_url": base_url, "http_client": http_client}
        if timeout is not None:
            options["timeout"] = timeout
        if max_retries is not None:
            options["max_retries"] = max_retries
        try:
            self._client = self.client_class(**options)
        except self.sdk_errors.invalid_url as exc:  # one the URL check let through: still a line, not a traceback
            raise ConfigError(f"base URL {mask_password(str(base_url))!r} cannot be used: {exc}") from None
        self.model = model
        # Cleared after a server rejects stream_options, so later requests do not pay for the retry again.
        self._ask_usage = True
        # models whose server refused a JSON schema: asked in JSON mode from then on, without a refused request first
        self._no_schemas: set[str] = set()

    @property
    def base_url(self) -> str:
        """The server this provider talks to, as lines for the user show it (a password in it masked)."""
        return mask_password(str(self._client.base_url).rstrip("/"))

    def request_body(self, messages: Sequence[Message], call: CallOptions = ASK_NOTHING) -> dict[str, Any]:
        """The body this provider sends (see :meth:`ChatProvider.request_body`), with, while streaming, the request
        for usage in the last chunk (unless the server refused it)."""
        body = super().request_body(messages, call)
        if call.stream and self._ask_usage:
            body["stream_options"] = {"include_usage": True}
        schema = schema_in(body)
        if schema is not None and body.get("model") in self._no_schemas:  # it refused the schema before
            return as_json_object(body, schema)
        return body

    def reply_limit(self, model: str, max_tokens: int) -> dict[str, int]:
        """The reply limit under the name ``model`` accepts (reasoning models want ``max_completion_tokens``)."""
        return token_limit_param(model, max_tokens)

    def _context(self, model: str) -> ErrorContext:
        key = str(self._client.api_key or "")
        key = "" if key == LOCAL_DUMMY_KEY else key  # the stand-in sent when no key was set: none to name or hide
        return ErrorContext(self.name, model, self.base_url, PROVIDERS[self.name].key_env or "", key)

    def _error(self, exc: BaseException, model: str, *, streaming: bool = False) -> ProviderError:
        return map_exception(exc, self.sdk_errors, self._context(model), streaming=streaming)

    def _send(self, body: dict[str, Any], resent: list[Resent]) -> tuple[Any, str]:
        """Send ``body`` as the call's JSON, and what the user should hear ("" for nothing). A server that refuses a
        part of it that can go another way (:meth:`_refused`) gets it again that way; every body sent again is added
        to ``resent`` as it goes out (the caller's list: it is shown even when a later attempt fails).

        The SDK takes the fields it types by name; every other one goes in ``extra_body``, which it merges into the
        JSON as given (so an option it does not know still goes)."""
        note = ""
        while True:
            named = {key: body[key] for key in ("model", "messages", "stream") if key in body}
            rest = {key: value for key, value in body.items() if key not in named}
            try:
                return self._client.chat.completions.create(**named, extra_body=rest or None), note
            except self.sdk_errors.status as exc:
                again = self._refused(body, exc)
                if again is None:
                    raise
                body, why, told = again
                resent.append(Resent(body, why))
                note = told or note

    def _refused(self, body: dict[str, Any], exc: BaseException) -> tuple[dict[str, Any], str, str] | None:
        """``body`` made again without what ``exc`` refused, why, and what the user hears; None when ``exc`` refuses
        nothing that can go: a JSON schema (asked in JSON mode instead, the schema in the prompt: :mod:`.json_mode`;
        later bodies for that model ask for JSON mode straight away, :meth:`request_body`), or ``stream_options``
        (left out, and of later requests too, so they do not pay for the refusal again)."""
        schema = schema_in(body)
        if schema is not None and refuses_schema(exc, self.sdk_errors.status):
            model = str(body.get("model"))
            self._no_schemas.add(model)
            where = f"{self.name} ({self.base_url}, model {model})"
            return as_json_object(body, schema), SCHEMA_REFUSED, FALLBACK_NOTICE.format(where=where)
        if "stream_options" in body and _mentions_stream_options(exc, self.sdk_errors):
            self._ask_usage = False
            return {key: value for key, value in body.items() if key != "stream_options"}, STREAM_OPTIONS_REFUSED, ""
        return None

    def events(
        self, messages: Sequence[Message], call: CallOptions = ASK_NOTHING
    ) -> Generator[StreamEvent, None, None]:
        """The reply's events as they come; closing the generator early closes the HTTP response. (A call that is
        not streamed is the whole reply, :meth:`complete`, told as the same events.)"""
        if not call.stream:
            yield from super().events(messages, call)
            return
        model = call.model or self.model
        call = replace(call, model=model)
        streaming = False
        resent: list[Resent] = []  # the bodies sent again (a refused schema, refused stream_options)
        try:
            # ``with`` closes the response on every exit, including GeneratorExit when the consumer stops (Ctrl-C).
            opened, note = self._send(self.request_body(messages, call), resent)
            with opened as sdk_stream:
                yield from resent
                if note:
                    yield ProviderNote(note)
                streaming, state = True, StreamState()  # the state of the stream that came
                yield from read_stream(sdk_stream, state, self._context(model))
            yield from state.tool_calls()  # whole, once the stream has ended
            yield state.end()
        except EmptyStream as empty:
            # a local server streams nothing for a prompt over its window and names the window only to a request not
            # streamed: asked so once, its context error teaches the window (or, a glitch, the reply comes whole)
            yield from self._asked_whole(messages, call, empty)
        except self.sdk_errors.caught as exc:
            if not streaming:  # what went out is told even when it failed too (once streaming, it was told)
                yield from resent
            raise self._error(exc, model, streaming=streaming) from exc

    def _asked_whole(
        self, messages: Sequence[Message], call: CallOptions, empty: EmptyStream
    ) -> Generator[StreamEvent, None, None]:
        """The reply to ``call`` asked again without streaming, after a stream that came ``empty``: its events, or
        the server's context error; any other failure is the empty stream's (it says more)."""
        whole = replace(call, stream=False)
        yield Resent(self.request_body(messages, whole), EMPTY_STREAM_RESENT)
        try:
            answer = self._complete_anew(messages, whole)
        except ContextLengthError:
            raise
        except ProviderError:
            raise empty from None
        yield from completion_events(answer)

    def _complete_anew(self, messages: Sequence[Message], whole: CallOptions) -> Completion:
        """:meth:`complete`, once more on a connection failure: llama-cpp-python drops the connection after the stream
        it failed, and the request sent at once went on that connection, which the client's pool still held (the real
        server resets it; a second try opens a new one)."""
        try:
            return self.complete(messages, **whole.ask())
        except ConnectionFailed:
            return self.complete(messages, **whole.ask())

    def stream(
        self,
        messages: Sequence[Message],
        *,
        model: str | None = None,
        max_tokens: int | None = None,
        tools: Sequence[Message] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Generator[StreamEvent, None, None]:
        """Stream a reply (:meth:`events` of a streamed call); closing the generator early closes the HTTP response."""
        return self.events(messages, CallOptions(model, max_tokens, tools or (), options or {}))

    def complete(
        self,
        messages: Sequence[Message],
        *,
        model: str | None = None,
        max_tokens: int | None = None,
        tools: Sequence[Message] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Completion:
        """Return a whole reply without streaming."""
        model = model or self.model
        try:
            call = CallOptions(model, max_tokens, tools or (), options or {}, stream=False)
            resent: list[Resent] = []
            response, note = self._send(self.request_body(messages, call), resent)
            if not hasattr(response, "to_dict"):  # the SDK hands back the body's text when it is not JSON
                where = f"{self.name} ({self.base_url})"
                if looks_like_html(str(response)):
                    raise html_page(where, 200)  # (as a stream is told: a captive portal is not a failing server)
                raise ProviderError(f"{where} answered with no chat completion (not JSON): is --base-url right?")
            # warnings off: pydantic would print its own about odd fields (junk the code below skips) over the chat
            whole = completion_from_dict(response.to_dict(warnings=False))
            return replace(whole, note=note, resent=tuple(resent))
        except self.sdk_errors.caught as exc:
            raise self._error(exc, model) from exc

    def whole(self, messages: Sequence[Message], call: CallOptions) -> Completion:
        """A whole reply (a summary), read as it streams when ``call.stream`` asks: the timeout then bounds the wait
        for each piece, as for a chat reply, not the whole answer, which a slow local model takes minutes to write
        (asked in one piece, it would time out and be asked again, the server still busy with the first)."""
        if not call.stream:
            return super().whole(messages, call)
        with contextlib.closing(self.events(messages, call)) as events:  # closed: the HTTP response with it
            whole = collect(events)
        if whole.finish_reason is None and whole.text.strip():  # the stream just ended: not whole, so not kept
            raise IncompleteReply(f"{self.name} ({self.base_url}) ended the reply without saying it was finished")
        return whole

    def list_models(self) -> list[str]:
        """The model ids the endpoint's ``GET /models`` route lists, sorted (plain strings: no SDK type leaves)."""
        try:
            # the raw answer, read below: the SDK's page object trusts the server's ``data`` and crashes on junk
            raw = self._client.models.with_raw_response.list()
        except self.sdk_errors.caught as exc:
            raise self._error(exc, self.model) from exc
        return model_ids(raw.content, f"{self.name} ({self.base_url})")
