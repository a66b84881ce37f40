"""The request log of a chat, in process: one line per model call (chat, summary, failed, interrupted) with the
numbers of that call, and nothing written when there is no log."""

from __future__ import annotations

import json

import pytest

from chatbot.core.app import App, Settings
from chatbot.core.request_log import RequestLog
from chatbot.core.settings import RunSettings
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.errors import ServerError
from chatbot.providers.base import Completion, StreamEnd, TextDelta, Usage
from chatbot.providers.echo import EchoProvider
from chatbot.storage.json_store import JsonStore


class Logged(EchoProvider):
    def __init__(self, fail_summary: bool = False) -> None:
        super().__init__(delay=0)
        self.fail_summary = fail_summary

    def stream(self, messages, *, model=None, max_tokens=None, tools=None, options=None):
        yield TextDelta("an answer")
        yield StreamEnd(Usage(50, 2, 52), "stop")

    def complete(self, messages, *, model=None, max_tokens=None, tools=None, options=None):
        if self.fail_summary:
            raise ServerError("summary model down")
        return Completion("gist", Usage(20, 3, 23), "stop")


@pytest.fixture
def logged_app(tmp_path):
    apps = []

    def build(provider, **memory):
        log = tmp_path / "log.jsonl"
        settings = Settings(
            "echo", None, MemoryConfig(**memory), run=RunSettings(log=RequestLog(str(log)), summary_model="small")
        )
        app = App(JsonStore(tmp_path / "s"), provider, settings, lambda model: TokenCounter())
        apps.append(app)
        return app, log

    yield build
    for app in apps:
        app.close()


def lines(log):
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_each_chat_and_summary_call_is_one_line_with_its_numbers(logged_app):
    app, log = logged_app(Logged(), summary_trigger=2, keep_turns=1)
    chat = app.open("l")
    for q in ("one", "two", "three", "four"):
        list(chat.send(q))
    records = lines(log)
    assert [r["kind"] for r in records] == ["chat", "chat", "chat", "summary", "chat"]
    first, summary, last = records[0], records[3], records[4]
    assert (first["session"], first["provider"], first["model"], first["strategy"]) == ("l", "echo", "echo", "summary")
    assert first["request_tokens"]["provider"] == 50 and first["request_tokens"]["estimate"] > 0
    assert first["completion_tokens"] == {"provider": 2, "estimate": 2}  # "an answer": two rough tokens
    assert first["ok"] is True and first["error"] is None and first["finish_reason"] == "stop"
    assert first["ttft"] is not None and first["ttft"] <= first["latency"]
    assert summary["model"] == "small" and summary["summarized"] == 2 and summary["request_tokens"]["provider"] == 20
    assert last["summarized"] == 2 and last["dropped"] == 0


def test_a_failed_summary_is_logged_as_such(logged_app):
    app, log = logged_app(Logged(fail_summary=True), summary_trigger=2, keep_turns=1)
    chat = app.open("f")
    for q in ("one", "two", "three", "four"):
        list(chat.send(q))
    failed = next(r for r in lines(log) if r["kind"] == "summary")
    assert failed["ok"] is False and failed["error"] == "ServerError" and failed["request_tokens"]["provider"] is None


def test_an_interrupted_reply_is_logged_as_such(logged_app):
    app, log = logged_app(Logged(), strategy="full")
    events = app.open("i").send("hello")
    assert isinstance(next(events), TextDelta)
    events.close()
    (interrupted,) = lines(log)
    assert interrupted["kind"] == "chat" and interrupted["error"] == "interrupted" and interrupted["ok"] is False
    assert interrupted["completion_tokens"]["estimate"] is None
