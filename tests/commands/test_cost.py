"""/cost against full memory when tools ride along: a turn that offered tools sent their definitions beside its
messages, and one that called tools asked again with their results; full memory would have sent both too."""

from __future__ import annotations

from chatbot import commands
from chatbot.commands.cost import cost_report
from chatbot.core.app import App, AppSettings
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.providers.echo import EchoProvider
from chatbot.storage.json_store import JsonStore
from chatbot.tools.registry import Registry
from tests.support.tool_fixtures import add, function_tools


def app_with_tools(tmp_path, strategy: str) -> App:
    settings = AppSettings("echo", None, MemoryConfig(strategy=strategy, window_turns=1, recall=0))
    tools = Registry(function_tools(add))
    return App(JsonStore(tmp_path / "s"), EchoProvider(delay=0), settings, lambda model: TokenCounter(), tools=tools)


def test_under_full_memory_with_tools_full_memory_would_have_sent_what_was_sent(tmp_path):
    app = app_with_tools(tmp_path, "full")
    try:
        chat = app.open("t")
        for text in ("hello", '@tool add {"a": 2, "b": 3}', "and now?"):
            list(chat.send(text))
        report = cost_report(chat.session)
        shown = commands.run(app, "/cost").text
    finally:
        app.close()
    rows = report["turns"]
    assert [r["calls"] for r in rows] == [1, 2, 1]  # the tool turn asked twice: with the call, then its result
    assert all(r["full"] == r["sent"] for r in rows), rows  # the same requests, definitions and rounds included
    assert "in 4 request(s) over 3 turn(s)" in shown and "1.0x what was sent" in shown


def test_a_window_with_tools_is_compared_with_full_memory_sending_the_same_definitions(tmp_path):
    app = app_with_tools(tmp_path, "window")
    try:
        chat = app.open("t")
        for n in range(4):
            list(chat.send(f"message {n} with a few words in it"))
        rows = cost_report(chat.session)["turns"]
    finally:
        app.close()
    # each request carried the tool definitions: full memory would have too, so it never sends less than was sent
    assert all(r["full"] >= r["sent"] for r in rows) and rows[-1]["full"] > rows[-1]["sent"]
