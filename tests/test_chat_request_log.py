"""Timing and failures of a chat call as the user and the request log see them: the time to the first piece is when
the first piece came (not the last), a whole (--no-stream) reply has none, the turn's latency reaches the front end,
and a chat call that fails is one log line naming the failure."""

from __future__ import annotations

import json
import time

import pytest

from chatbot.core.app import App, Settings
from chatbot.core.events import TurnDone
from chatbot.core.request_log import RequestLog
from chatbot.core.settings import RunSettings
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.errors import ServerError
from chatbot.providers.base import Completion, StreamEnd, TextDelta, Usage
from chatbot.providers.echo import EchoProvider
from chatbot.storage.json_store import JsonStore

PAUSE = 0.1


class Paused(EchoProvider):
    """Streams a first piece, pauses, then the rest; a whole reply takes the same pause."""

    def stream(self, messages, **ask):
        yield TextDelta("first")
        time.sleep(PAUSE)
        yield TextDelta(" second")
        yield StreamEnd(Usage(30, 2, 32), "stop")

    def complete(self, messages, **ask):
        time.sleep(PAUSE)
        return Completion("first second", Usage(30, 2, 32), "stop")


class Down(EchoProvider):
    def stream(self, messages, **ask):
        raise ServerError("the model is down")
        yield  # a generator, like a real provider's stream


@pytest.fixture
def logged(tmp_path):
    apps = []

    def build(provider, *, stream: bool = True):
        log = tmp_path / "requests.jsonl"
        settings = Settings(
            "echo", None, MemoryConfig(strategy="full"), run=RunSettings(log=RequestLog(str(log)), stream=stream)
        )
        app = App(JsonStore(tmp_path / "s"), provider, settings, lambda model: TokenCounter())
        apps.append(app)
        return app.open("s"), log

    yield build
    for app in apps:
        app.close()


def lines(log):
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_the_time_to_the_first_piece_is_when_it_came_not_when_the_reply_ended(logged):
    chat, log = logged(Paused(delay=0))
    done = list(chat.send("hi"))[-1]
    (record,) = lines(log)
    assert record["ttft"] is not None and record["latency"] - record["ttft"] >= PAUSE - 0.001  # (each rounded to ms)
    # the turn's latency is what the front end shows ("· 0.1s")
    assert isinstance(done, TurnDone) and done.latency == done.turn.latency >= PAUSE


def test_a_whole_reply_has_no_time_to_a_first_piece(logged):
    chat, log = logged(Paused(delay=0), stream=False)
    assert list(chat.send("hi"))[-1].turn.answer_text == "first second"
    (record,) = lines(log)
    assert record["ttft"] is None and record["latency"] >= PAUSE


def test_a_failed_chat_call_is_one_line_naming_the_failure(logged):
    chat, log = logged(Down(delay=0))
    with pytest.raises(ServerError):
        list(chat.send("hi"))
    (record,) = lines(log)
    assert (record["kind"], record["ok"], record["error"]) == ("chat", False, "ServerError")
    assert record["request_tokens"]["estimate"] > 0 and record["completion_tokens"]["estimate"] is None
