"""The provider interface: everything above this line sees plain message dicts and these frozen dataclasses.

SDK types never leave a provider module.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chatbot.engine.turn import Message
from chatbot.text import wire_safe


@dataclass(frozen=True)
class CallOptions:
    """What one model call asks for beside the messages, made once by the turn (or the summary call) and passed
    whole to the provider: the model (None: the provider's), the reply limit, the tools offered, the model options
    (request fields such as temperature) and whether the reply is streamed."""

    model: str | None = None
    max_tokens: int | None = None
    tools: Sequence[Message] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    stream: bool = True

    def ask(self) -> dict[str, Any]:
        """The keyword arguments of :meth:`ChatProvider.stream` and :meth:`ChatProvider.complete`: only what is set."""
        ask: dict[str, Any] = {"model": self.model, "max_tokens": self.max_tokens}
        if self.tools:
            ask["tools"] = list(self.tools)
        if self.options:
            ask["options"] = dict(self.options)
        return ask


#: a call that asks for nothing beyond the messages: the provider's model, streamed
ASK_NOTHING = CallOptions()


@dataclass(frozen=True)
class Usage:
    """Token usage of one request as the provider reported it."""

    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    #: of ``prompt_tokens``, how many the provider served from its prompt cache (None: it did not say)
    cached_tokens: int | None = None


@dataclass(frozen=True)
class TextDelta:
    """A piece of the answer."""

    text: str


@dataclass(frozen=True)
class ReasoningDelta:
    """A piece of the model's reasoning (gpt-oss ``delta.reasoning``): shown on request, never stored as the answer."""

    text: str


@dataclass(frozen=True)
class StreamEnd:
    """The last event of a stream. ``usage`` is None when the server sent none (use the local estimate)."""

    usage: Usage | None
    finish_reason: str | None


@dataclass(frozen=True)
class ToolCall:
    """One tool call the model asked for, whole: ``arguments`` is the raw JSON text exactly as the model wrote it.

    Streamed calls arrive in pieces; the provider assembles them and yields each call once, after the last piece
    and before :class:`StreamEnd`.
    """

    id: str
    name: str
    arguments: str

    def to_message_dict(self) -> dict[str, Any]:
        """The call as it goes into an assistant message's ``tool_calls`` list (OpenAI format)."""
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.arguments}}


@dataclass(frozen=True)
class ProviderNote:
    """What the provider changed to get an answer, for the user to read once (a server that refuses JSON schemas
    was asked for plain JSON instead). Comes before the reply's first piece."""

    text: str


@dataclass(frozen=True)
class Resent:
    """A request the provider sent again, changed, because the server refused the one before (``why``): ``body`` is
    exactly the JSON that went out that time. Comes before the reply's first piece (``--show-requests`` shows it)."""

    body: dict[str, Any]
    why: str


StreamEvent = TextDelta | ReasoningDelta | ToolCall | StreamEnd | ProviderNote | Resent


@dataclass(frozen=True)
class Completion:
    """A whole (non-streamed) reply, as used for summaries."""

    text: str
    usage: Usage | None
    finish_reason: str | None
    tool_calls: tuple[ToolCall, ...] = ()
    note: str = ""  # what the provider changed to get it (see ProviderNote)
    resent: tuple[Resent, ...] = ()  # the requests sent again to get it, in order (see Resent)


class ChatProvider(ABC):
    """A chat-completions backend.

    ``stream`` yields ``TextDelta``/``ReasoningDelta`` events, then one ``ToolCall`` per call the model made (when
    ``tools`` were offered), and ends with exactly one ``StreamEnd``. ``tools`` are OpenAI-format function
    definitions. Closing the generator early (Ctrl-C) closes the HTTP response. Errors are raised as
    :mod:`chatbot.errors` types.
    """

    #: provider family name, e.g. "groq", "openai", "echo"
    name: str = ""
    #: the chat model used when a call names none
    model: str = ""

    @abstractmethod
    def stream(
        self,
        messages: Sequence[Message],
        *,
        model: str | None = None,
        max_tokens: int | None = None,
        tools: Sequence[Message] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Generator[StreamEvent, None, None]:
        """Stream a reply to ``messages``. ``options`` are extra request fields (temperature, seed, ...)."""

    @abstractmethod
    def complete(
        self,
        messages: Sequence[Message],
        *,
        model: str | None = None,
        max_tokens: int | None = None,
        tools: Sequence[Message] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Completion:
        """Return a whole reply to ``messages`` without streaming."""

    def request_body(self, messages: Sequence[Message], call: CallOptions = ASK_NOTHING) -> dict[str, Any]:
        """The JSON body of the chat-completions request :meth:`events` makes for the same ``call``, as a plain dict.

        It holds the model, the messages, the reply limit, the tools and the options, never a key (that travels in a
        header). An HTTP provider sends exactly this (:class:`~chatbot.providers.openai_compat.CompatProvider`
        builds its call from it); one that sends nothing (``echo``) shows what an OpenAI-compatible server would get.
        """
        model = call.model or self.model
        body: dict[str, Any] = {"model": model, "messages": wire_safe(list(messages))}
        if call.max_tokens is not None:
            body.update(self.reply_limit(model, call.max_tokens))
        if call.tools:
            body["tools"] = list(call.tools)
        # options are body fields as given; one named like the reply limit replaces it (the app's other fields are
        # reserved: chatbot.engine.options)
        body.update(call.options)
        if call.stream:
            body["stream"] = True
        return body

    def reply_limit(self, model: str, max_tokens: int) -> dict[str, int]:
        """The body field that caps the reply at ``max_tokens`` for ``model``."""
        return {"max_tokens": max_tokens}

    def events(
        self, messages: Sequence[Message], call: CallOptions = CallOptions()
    ) -> Generator[StreamEvent, None, None]:
        """:meth:`stream`'s events for ``call``, or when it is not streamed the whole reply (:meth:`complete`) as the
        same events."""
        if call.stream:
            yield from self.stream(messages, **call.ask())
            return
        yield from completion_events(self.complete(messages, **call.ask()))

    def whole(self, messages: Sequence[Message], call: CallOptions) -> Completion:
        """A whole reply to ``messages`` for ``call`` (a summary): :meth:`complete`, unless the provider reads it as
        it streams when ``call.stream`` asks (an HTTP one: its timeout then bounds each pause, not the whole reply,
        which a slow model writes for minutes)."""
        return self.complete(messages, **call.ask())

    def list_models(self) -> list[str]:
        """The ids of the models the endpoint serves (its models route), sorted; a provider without one has its own."""
        return [self.model] if self.model else []


def collect(events: Iterator[StreamEvent]) -> Completion:
    """A streamed reply's events as one :class:`Completion` (reasoning left out, as :meth:`ChatProvider.complete`
    leaves it)."""
    text: list[str] = []
    calls: list[ToolCall] = []
    notes: list[str] = []
    resent: list[Resent] = []
    end = StreamEnd(None, None)
    for event in events:
        if isinstance(event, TextDelta):
            text.append(event.text)
        elif isinstance(event, ToolCall):
            calls.append(event)
        elif isinstance(event, ProviderNote):
            notes.append(event.text)
        elif isinstance(event, Resent):
            resent.append(event)
        elif isinstance(event, StreamEnd):
            end = event
    return Completion("".join(text), end.usage, end.finish_reason, tuple(calls), " ".join(notes), tuple(resent))


def completion_events(whole: Completion) -> Iterator[StreamEvent]:
    """A whole reply told as a stream's events (what :func:`collect` takes back): what was sent again, what the user
    should hear, the text, the tool calls, the end."""
    yield from whole.resent
    if whole.note:
        yield ProviderNote(whole.note)
    if whole.text:
        yield TextDelta(whole.text)
    yield from whole.tool_calls
    yield StreamEnd(whole.usage, whole.finish_reason)
