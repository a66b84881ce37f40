"""``chatbot.Chat`` as a library user builds it, with only a session and a provider: what its defaults do. The reply
is streamed, a failed call is not retried, summaries are written when a request needs them (in order, on the
caller's thread), a model calling tools gets 8 rounds, and nothing is saved anywhere."""

from __future__ import annotations

import threading

import pytest

from chatbot import Chat, MemoryConfig
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
        with pytest.raises(ServerError):
            list(chat.send("hi"))
        assert len(server.record.requests) == 1
    assert chat.pending == "hi" and chat.conversation.turns == []


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
