"""Which of a turn's notices are warnings (the front ends print those as "warning: ...", in yellow) and which are
plain notes: something went wrong or was cut is a warning; the summary and the store being back are notes. A retry
and what the provider changed to get an answer reach the turn as warnings, in their own words."""

from __future__ import annotations

from typing import Any

from chatbot.core.events import Notice, Retrying, TurnDone
from chatbot.core.turn_settings import TurnSettings
from chatbot.errors import ContextLengthError, ServerError
from chatbot.providers import make_provider
from chatbot.providers.base import TextDelta
from chatbot.providers.echo import EchoProvider
from chatbot.providers.json_mode import FALLBACK_NOTICE
from chatbot.tools.base import Tool, ToolSpec
from chatbot.tools.registry import MAX_RESULT_CHARS
from tests.support.fake_server import FakeServer
from tests.support.tool_fixtures import LoopingModel, add, function_tools


def notices(chat, text) -> list[Notice]:
    return [e for e in chat.send(text) if isinstance(e, Notice)]


class Stoppable(Tool):
    """A tool from an MCP server that can stop (as a real server process dies)."""

    spec = ToolSpec("lookup", "Look something up.", source="notes-server")

    def __init__(self) -> None:
        self.stopped = False

    @property
    def available(self) -> bool:
        return not self.stopped

    def run(self, arguments: dict[str, Any], timeout: float) -> str:
        return "x" * (MAX_RESULT_CHARS + 10)  # more than a result may hold


def test_a_stopped_server_is_a_warning_told_once_even_when_it_was_the_only_one(make_tool_app):
    tool = Stoppable()
    chat = make_tool_app([tool]).open("t")
    assert notices(chat, "hi") == []
    tool.stopped = True
    said = notices(chat, "still there?")
    assert said == [Notice("MCP server notes-server stopped; its tools are gone (the chat goes on without them)", True)]
    assert notices(chat, "and now?") == []


def test_a_result_cut_to_size_is_a_warning(make_tool_app):
    chat = make_tool_app([Stoppable()]).open("t")
    said = notices(chat, "@tool lookup {}")
    assert said == [Notice(f"the result of lookup was cut to {MAX_RESULT_CHARS:,} characters", True)]


def test_the_round_cap_is_a_warning(make_tool_app):
    chat = make_tool_app(function_tools(add), LoopingModel(), max_tool_rounds=1).open("t")
    said = notices(chat, "loop")
    text = "the model used tools in 1 rounds (--max-tool-rounds); it is asked to answer now, without tools"
    assert said == [Notice(text, True)]


class FullOnce(EchoProvider):
    """Echo whose context window is full once, when ``full`` is set."""

    full = False

    def stream(self, messages, **ask):
        if self.full:
            self.full = False
            raise ContextLengthError("the model's context window is full")
        yield from super().stream(messages, **ask)


def test_a_context_length_retry_is_a_warning_and_what_it_dropped_a_note(make_app):
    provider = FullOnce(delay=0)
    chat = make_app(provider, strategy="full").open("s")
    for i in range(4):
        list(chat.send(f"message {i} " + "word " * 30))
    provider.full = True
    said = notices(chat, "last")
    assert [n.warning for n in said] == [True, False]
    assert said[0].text.startswith("the model's context window is full; retrying once with a smaller request (")
    assert said[1].text.endswith("earlier turn(s) not sent (memory window / token budget)")


def test_an_incomplete_reply_is_a_warning(make_app):
    class CutShort(EchoProvider):
        def stream(self, messages, **ask):
            yield TextDelta("most of it")  # and no end

    said = notices(make_app(CutShort(delay=0)).open("i"), "q")
    text = "the server ended the reply without saying it was finished; it is kept, marked incomplete"
    assert said == [Notice(text, True)]


def test_what_the_provider_changed_to_get_an_answer_is_a_warning_in_its_words(make_app, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    option = {"type": "json_schema", "json_schema": {"name": "dog", "schema": schema}}
    with FakeServer(flavour="openai", schemas=False, replies=['{"name": "Rex"}']) as server:
        chat = make_app(make_provider("openai", base_url=server.base_url, max_retries=0)).open("j")
        chat.set_option("response_format", option)
        said = notices(chat, "invent a dog")
    # the server refused the schema; the provider asked for plain JSON instead, and the user reads what it did
    (note,) = said
    assert note.warning and note.text.endswith(FALLBACK_NOTICE.split("{where}")[1])
    assert chat.conversation.turns[-1].answer_text == '{"name": "Rex"}'


class DownOnce(EchoProvider):
    """Echo whose first call fails before its reply begins."""

    failed = False

    def stream(self, messages, **ask):
        if not self.failed:
            self.failed = True
            raise ServerError("the server is busy")
        yield from super().stream(messages, **ask)


def test_an_announced_retry_reaches_the_turn_as_a_warning_in_its_words(make_app):
    chat = make_app(DownOnce(delay=0)).open("r")
    chat.run = TurnSettings(retries=1)
    events = list(chat.send("hi"))
    said = [e for e in events if isinstance(e, Notice)]
    assert said == [Retrying("the server is busy — retrying in 1s (1 of 1; Ctrl-C cancels)", True, pause=1.0)]
    done = events[-1]
    assert isinstance(done, TurnDone) and not done.reasoned and "Last user message: hi" in done.turn.answer_text
