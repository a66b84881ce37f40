"""Flags reach the wire: what the scripted server receives for chat and summary calls carries --max-output-tokens,
--summary-model, the summary's own output cap, the model chosen by a /model switch, --no-stream, and the session's
options (-o) on every chat request, a continued session's too."""

from __future__ import annotations

import pytest

from chatbot.core.app import App, AppSettings
from chatbot.core.turn_settings import TurnSettings
from chatbot.engine.memory import SUMMARY_MAX_TOKENS, MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.providers import make_provider
from chatbot.storage.json_store import JsonStore
from tests.support.fake_server import FakeServer, is_summary


@pytest.fixture
def wired(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    apps = []

    def build(server: FakeServer, options=None, timeout=None, **settings) -> App:
        provider = make_provider("openai", base_url=server.base_url, max_retries=0, timeout=timeout)
        memory = MemoryConfig(summary_trigger=2, keep_turns=1)
        app = App(
            JsonStore(tmp_path / "sessions"),
            provider,
            AppSettings("openai", None, memory, options=options or {}, run=TurnSettings(**settings)),
            lambda model: TokenCounter(),
        )
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.close()


def test_chat_and_summary_calls_carry_their_models_and_output_caps(wired):
    with FakeServer(reply="A reply.", whole_reply="The gist.") as server:
        app = wired(server, max_output_tokens=77, summary_model="small-model")
        chat = app.open("w")
        for q in ("one", "two", "three", "four"):
            list(chat.send(q))
        requests = server.record.requests
    chats = [r for r in requests if not is_summary(r)]
    summaries = [r for r in requests if is_summary(r)]
    assert len(chats) == 4 and len(summaries) == 1
    assert {r["max_tokens"] for r in chats} == {77}
    assert {r["model"] for r in chats} == {app.provider.model}
    assert summaries[0]["model"] == "small-model"
    assert summaries[0]["max_tokens"] == SUMMARY_MAX_TOKENS
    assert summaries[0]["stream"] is True  # read as it streams, as the chat is: --timeout bounds each pause
    # the summary came before the fourth chat request, which carries it in its system message
    assert requests.index(summaries[0]) == 3
    assert "The gist." in chats[3]["messages"][0]["content"]


def test_a_summary_slower_than_the_timeout_is_kept_when_each_pause_is_shorter(wired):
    # a slow local model writes a summary for longer than --timeout; streamed, the timeout bounds each pause (0.2 s
    # here), as for a chat reply, so it is not asked again and again, the server still busy with the first
    with FakeServer(reply="A reply.", whole_reply="- the gist", whole_delay=2.0, chunks=8) as server:
        chat = wired(server, timeout=1.0, retries=0).open("slow")
        for q in ("one", "two", "three", "four"):
            list(chat.send(q))
        summaries = [r for r in server.record.requests if is_summary(r)]
    assert len(summaries) == 1 and summaries[0]["stream"] is True
    assert chat.conversation.summary == "- the gist" and chat.conversation.summary_covers == 2


def test_with_no_stream_the_summary_is_asked_for_whole_too(wired):
    with FakeServer(reply="A reply.", whole_reply="- the gist") as server:
        chat = wired(server, stream=False).open("whole")
        for q in ("one", "two", "three", "four"):
            list(chat.send(q))
        summaries = [r for r in server.record.requests if is_summary(r)]
    assert len(summaries) == 1 and "stream" not in summaries[0]
    assert chat.conversation.summary == "- the gist"


def test_without_flags_no_output_cap_is_sent_and_summaries_use_the_chat_model(wired):
    with FakeServer(reply="A reply.", whole_reply="The gist.") as server:
        app = wired(server)
        chat = app.open("d")
        for q in ("one", "two", "three", "four"):
            list(chat.send(q))
        requests = server.record.requests
    chats = [r for r in requests if not is_summary(r)]
    summary = next(r for r in requests if is_summary(r))
    assert all("max_tokens" not in r and "max_completion_tokens" not in r for r in chats)
    assert summary["model"] == chats[0]["model"] == app.provider.model
    assert summary["max_tokens"] == SUMMARY_MAX_TOKENS


def test_a_model_switch_reaches_chat_and_summary_calls(wired):
    with FakeServer(reply="A reply.", whole_reply="The gist.") as server:
        app = wired(server)
        chat = app.open("m")
        list(chat.send("one"))
        app.set_model("switched-model")
        for q in ("two", "three", "four"):
            list(chat.send(q))
        requests = server.record.requests
    assert requests[0]["model"] != "switched-model"
    assert {r["model"] for r in requests[1:]} == {"switched-model"}
    assert any(is_summary(r) for r in requests[1:])  # the summary call is among them
    assert app.store.load("m").model == "switched-model"


def test_the_sessions_options_go_with_every_chat_request_of_the_session_continued_too(wired):
    with FakeServer(reply="A reply.", whole_reply="The gist.") as server:
        first = wired(server, options={"temperature": 0.2, "seed": 7})
        chat = first.open("o")
        for q in ("one", "two", "three"):
            list(chat.send(q))
        first.close()
        again = wired(server)  # the session continued without -o: it keeps its options
        list(again.open("o").send("four"))
        requests = server.record.requests
    chats = [r for r in requests if not is_summary(r)]
    assert len(chats) == 4 and len(requests) == 5  # (and one summary)
    assert [(r.get("temperature"), r.get("seed")) for r in chats] == [(0.2, 7)] * 4


def test_no_stream_asks_every_chat_request_for_the_whole_reply(wired):
    with FakeServer(reply="A reply.", whole_reply="A reply.") as server:
        chat = wired(server, stream=False).open("n")
        for q in ("one", "two"):
            list(chat.send(q))
        requests = server.record.requests
    assert len(requests) == 2 and not any(r.get("stream") for r in requests)
    assert [t.answer_text for t in chat.conversation.turns] == ["A reply.", "A reply."]


@pytest.mark.parametrize("stream", [True, False])
def test_show_requests_shows_each_chat_body_as_the_server_received_it(wired, stream):
    shown: list[tuple] = []
    with FakeServer(reply="A reply.") as server:
        app = wired(server, options={"seed": 7}, stream=stream, show_request=lambda *what: shown.append(what))
        chat = app.open("shown")
        for q in ("one", "two"):
            list(chat.send(q))
        requests = server.record.requests
    assert shown == [("chat", body) for body in requests]
    assert all(("stream" in body) is stream and body["seed"] == 7 for body in requests)


def test_show_requests_shows_a_body_sent_again_with_why(wired):
    from chatbot.providers.openai_compat import STREAM_OPTIONS_REFUSED

    shown: list[tuple] = []
    with FakeServer(reply="A reply.", reject=("stream_options",)) as server:
        app = wired(server, show_request=lambda *what: shown.append(what))
        list(app.open("again").send("one"))
        first, again = server.record.requests
    assert shown == [("chat", first), ("chat", again, STREAM_OPTIONS_REFUSED)]
    assert "stream_options" in first and "stream_options" not in again
