"""``chatbot.Chat`` as a library user builds it, with only a session and a provider: what its defaults do. The reply
is streamed, a failed call is not retried, summaries are written when a request needs them (in order, on the
caller's thread), a model calling tools gets 8 rounds, and nothing is saved anywhere."""

from __future__ import annotations

import threading

import pytest

from chatbot import Chat, MemoryConfig
from chatbot.core.events import unsent
from chatbot.errors import ServerError
from chatbot.providers import make_provider
from chatbot.providers.base import TextDelta
from chatbot.providers.echo import EchoProvider
from chatbot.storage.session import Session
from chatbot.tools.registry import Registry
from tests.support.fake_server import FakeServer
from tests.support.tool_fixtures import LoopingModel, add, function_tools


def scratch(**memory) -> Session:
    return Session.new("scratch", system="be brief", memory=MemoryConfig(**memory))


def test_the_reply_is_streamed(clean_env):
    with FakeServer(reply="streamed to you", chunks=3) as server:
        chat = Chat(scratch(), make_provider("openai", model="m", base_url=server.base_url, max_retries=0))
        events = list(chat.send("hi"))
        assert server.record.last_request()["stream"] is True
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["strea", "med t", "o you"]  # in pieces


def test_a_failed_call_is_not_retried(clean_env):
    with FakeServer(error="server_error") as server:
        chat = Chat(scratch(), make_provider("openai", model="m", base_url=server.base_url, max_retries=0))
        with pytest.raises(ServerError) as caught:
            list(chat.send("hi"))
        assert len(server.record.requests) == 1
    kept = unsent(caught.value)
    assert kept is not None and kept.content == "hi" and chat.conversation.turns == []


class ThreadEcho(EchoProvider):
    """Echo that notes which kind of call ran on which thread, in order."""

    def __init__(self) -> None:
        super().__init__(delay=0)
        self.calls: list[tuple[str, str]] = []

    def stream(self, messages, **ask):
        self.calls.append(("chat", threading.current_thread().name))
        yield from super().stream(messages, **ask)

    def complete(self, messages, **ask):
        self.calls.append(("summary", threading.current_thread().name))
        return super().complete(messages, **ask)


def test_summaries_are_written_when_needed_on_the_callers_thread():
    provider = ThreadEcho()
    chat = Chat(scratch(strategy="summary", summary_trigger=2, keep_turns=1), provider)
    for text in ("one", "two", "three"):
        list(chat.send(text))
    assert provider.calls == [("chat", "MainThread")] * 3  # nothing written ahead after the third reply
    list(chat.send("four"))
    assert provider.calls[3:] == [("summary", "MainThread"), ("chat", "MainThread")]
    assert chat.conversation.summary_covers == 2


def test_a_model_calling_tools_gets_eight_rounds_then_must_answer():
    provider = LoopingModel()
    chat = Chat(scratch(), provider, tools=Registry(function_tools(add)))
    list(chat.send("loop"))
    assert [offered for _, offered in provider.requests] == [True] * 8 + [False]
    assert chat.conversation.turns[-1].usage["model_calls"] == 9


def test_the_run_settings_are_one_frozen_object_handed_to_the_chat(clean_env):
    import dataclasses

    from chatbot import TurnSettings

    run = TurnSettings(stream=False, max_output_tokens=64)
    with FakeServer(reply="whole at once") as server:
        chat = Chat(scratch(), make_provider("openai", model="m", base_url=server.base_url, max_retries=0), run=run)
        list(chat.send("hi"))
        sent = server.record.last_request()
    assert chat.run is run and not sent.get("stream") and sent["max_tokens"] == 64
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.stream = True  # type: ignore[misc]


def test_the_summarizer_the_engine_is_given_is_not_the_chat():
    # data goes one way: the engine's fold calls the summary's own model call, never back up into the chat
    chat = Chat(scratch(strategy="summary", summary_trigger=2, keep_turns=1), EchoProvider(delay=0))
    for text in ("one", "two", "three", "four"):
        list(chat.send(text))
    assert chat.conversation.summary  # folded through the summary call
    assert getattr(chat._summarize, "__self__", None) is not chat
    assert type(chat).__mro__ == (Chat, object)  # one object owns the session in use: no mixin behind it
