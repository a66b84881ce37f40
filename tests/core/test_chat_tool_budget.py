"""A later tool round re-sends the turn so far: what happens when its tool results crowd the budget. Older turns make
room (said once), a round that still fits is sent as it was built, the calibration's correction counts for the tool
results too (no round is sent over the budget), and results that leave no room for the system message and the user's
own are sent shortened (the session keeps them whole); only calls that leave no room even so are refused, with an
error that names the calls and the real budget. In summary memory a round makes room by summarizing, not dropping. Only
the definitions offered take budget: none with --max-tool-rounds 0, and not those of a tool too large to offer.

Counted with the word counter (one token a word, one a message). The echo model reports usage, so the counter learns a
correction; ``Uncalibrated`` reports none, which keeps the counts exact (correction 1.0)."""

from __future__ import annotations

import pytest

from chatbot.core.app import App, AppSettings
from chatbot.core.events import Notice, TurnDone
from chatbot.core.turn_settings import TurnSettings
from chatbot.engine.memory import MemoryConfig
from chatbot.errors import BudgetError
from chatbot.providers.base import StreamEnd, Usage
from chatbot.storage.json_store import JsonStore
from chatbot.text import quote_lines
from chatbot.tools.registry import Registry
from tests.conftest import WordCounter
from tests.support.tool_fixtures import RecordingEcho, function_tools

LIMIT = 460  # three earlier turns do not fit; two and a small tool round do


def page(words: int) -> str:
    """A page of ``words`` words."""
    return " ".join(["w"] * words)


class Uncalibrated(RecordingEcho):
    """Echo that reports no usage: the counter never learns a correction."""

    def stream(self, messages, **kw):
        for event in super().stream(messages, **kw):
            yield StreamEnd(None, event.finish_reason) if isinstance(event, StreamEnd) else event


@pytest.fixture
def tool_chat(tmp_path):
    apps = []

    def build(
        max_input_tokens: int = LIMIT,
        system: str = "be brief",
        provider=None,
        functions=(page,),
        strategy="full",
        **run,
    ):
        provider = provider or Uncalibrated()
        # recall off: no built-in search beside the tool, so the definitions are the one tool's (the arithmetic below)
        memory = MemoryConfig(strategy=strategy, max_input_tokens=max_input_tokens, recall=0, summary_trigger=50)
        settings = AppSettings("echo", None, memory, system, run=TurnSettings(**run))
        tools = Registry(function_tools(*functions))
        app = App(JsonStore(tmp_path / "s"), provider, settings, lambda model: WordCounter(), tools=tools)
        apps.append(app)
        return app.open(f"t{len(apps)}"), provider

    yield build
    for app in apps:
        app.close()


def ask(words: int) -> str:
    return f'@tool page {{"words": {words}}}'


def sent_tokens(chat, messages) -> int:
    """The count of a request as sent (the counter's, with its correction)."""
    counter = chat.conversation.counter
    return counter.total(sum(counter.count_message(m) for m in messages))


def history(chat) -> None:
    for i in range(3):
        list(chat.send(f"question {i} " + "x " * 60))


def dropped_once(events) -> TurnDone:
    done = events[-1]
    assert isinstance(done, TurnDone) and done.request.dropped >= 1
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert notices == [f"{done.request.dropped} earlier turn(s) not sent (memory window / token budget)"]
    return done


def test_a_round_that_still_fits_is_sent_as_built_and_its_notices_come_once(tool_chat):
    chat, provider = tool_chat()
    history(chat)
    # the first request drops the oldest turns; the tool round (about 60 tokens more) still fits what is left
    done = dropped_once(list(chat.send(ask(40))))
    first, second = provider.requests[-2][0], provider.requests[-1][0]
    assert second[: len(first)] == first  # the same earlier turns, the round added after them
    assert sent_tokens(chat, second) <= LIMIT - chat.tool_definition_tokens()
    # the turn's prompt estimate adds up what each of its two requests was counted at, with the tool definitions
    # both offered (the server counts them too; uncalibrated, so counted as they are)
    both = sent_tokens(chat, first) + sent_tokens(chat, second)
    assert done.turn.usage["estimated_prompt_tokens"] == both + 2 * chat.tool_definition_tokens()


def test_a_round_that_fills_the_budget_exactly_is_sent_as_built(tool_chat):
    probe, probe_provider = tool_chat()
    history(probe)
    list(probe.send(ask(40)))
    budget = LIMIT - probe.tool_definition_tokens()
    room = budget - sent_tokens(probe, probe_provider.requests[-1][0])  # what a 40-word page leaves free
    assert room > 0
    chat, provider = tool_chat()
    history(chat)
    events = list(chat.send(ask(40 + room)))
    assert sent_tokens(chat, provider.requests[-1][0]) == budget
    dropped_once(events)
    assert provider.requests[-1][0][: len(provider.requests[-2][0])] == provider.requests[-2][0]


def test_a_round_one_token_over_makes_room_by_dropping_an_older_turn(tool_chat):
    probe, probe_provider = tool_chat()
    history(probe)
    list(probe.send(ask(40)))
    budget = LIMIT - probe.tool_definition_tokens()
    room = budget - sent_tokens(probe, probe_provider.requests[-1][0])
    chat, provider = tool_chat()
    history(chat)
    events = list(chat.send(ask(40 + room + 1)))
    first, second = provider.requests[-2][0], provider.requests[-1][0]
    assert sent_tokens(chat, second) <= budget
    assert second[1:-3] == first[3:-1]  # the oldest turn sent before is out; the round is in
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert len(notices) == 2 and all("earlier turn(s) not sent" in n for n in notices)


def test_with_a_learned_correction_no_round_is_sent_over_the_budget(tool_chat):
    for words in (150, 170, 190):  # (a raw count of the results would send the last two over)
        chat, provider = tool_chat(provider=RecordingEcho())
        history(chat)
        list(chat.send(ask(words)))
        assert chat.conversation.counter.correction > 1.1  # the echo model's counts taught it
        assert sent_tokens(chat, provider.requests[-1][0]) <= LIMIT - chat.tool_definition_tokens(), words


def manual(topic: str) -> str:
    return topic


manual.__doc__ = "A manual far too long to offer. " + "w " * 300  # more than half the budget (LIMIT)


def test_a_tool_too_large_to_offer_is_neither_sent_nor_counted_in_the_budget(tool_chat):
    alone, _ = tool_chat()
    chat, provider = tool_chat(functions=(page, manual))
    assert chat.tool_definition_tokens() == alone.tool_definition_tokens() > 0  # only the definitions offered count
    events = list(chat.send("hi"))
    [left_out] = [e for e in events if isinstance(e, Notice) and "1 tool left out" in e.text]
    assert left_out.warning  # shown as a warning: a tool the user gave is not offered
    assert provider.offered == [["page"]]
    assert events[-1].request.budget == LIMIT - alone.tool_definition_tokens()
    assert events[-1].turn.sent["tools"] == alone.tool_definition_tokens()  # what the turn keeps of its request


def test_with_no_tool_rounds_no_tool_is_offered_and_the_whole_budget_is_for_the_messages(tool_chat):
    chat, provider = tool_chat(max_tool_rounds=0)
    assert chat.tool_definition_tokens() > 0  # the tools are there, only not offered
    done = list(chat.send(ask(3)))[-1]
    assert provider.offered == [[]] and done.request.budget == LIMIT and done.turn.sent["tools"] == 0
    assert done.turn.usage["estimated_prompt_tokens"] == sent_tokens(chat, provider.requests[-1][0])


class CountsAsWeDo(RecordingEcho):
    """A server that counts a prompt as the word counter does, the tool definitions it was offered included."""

    def stream(self, messages, tools=None, **kw):
        counter = WordCounter()
        prompt = sum(counter.count_message(m) for m in messages) + (counter.count_tools(tools) if tools else 0)
        for event in super().stream(messages, tools=tools, **kw):
            ended = isinstance(event, StreamEnd)
            yield StreamEnd(Usage(prompt, 1, prompt + 1), event.finish_reason) if ended else event


def test_a_server_that_counts_the_offered_definitions_as_we_do_teaches_no_correction(tool_chat):
    chat, provider = tool_chat(provider=CountsAsWeDo())
    history(chat)
    assert all(provider.offered) and chat.conversation.counter.calibration.turns == 3
    assert chat.conversation.counter.calibration.ratios == [1.0] * 3  # what each turn taught: the counts agree


def test_without_tools_the_whole_budget_is_for_the_messages(make_app):
    chat = make_app(max_input_tokens=500).open("n")
    assert chat.tool_definition_tokens() == 0
    assert list(chat.send("hi"))[-1].request.budget == 500


@pytest.mark.parametrize("words", [250, 600])
def test_results_that_leave_no_room_beside_the_system_message_and_the_users_are_sent_shortened(tool_chat, words):
    # 250 words leave a little of the budget, less than the system message and the user's need; 600 exceed it all
    chat, provider = tool_chat(400, system="rule " * 150)
    budget = 400 - chat.tool_definition_tokens()
    events = list(chat.send(ask(words)))
    done = events[-1]
    assert isinstance(done, TurnDone) and not done.turn.interrupted  # the turn went on
    second = provider.requests[-1][0]
    assert sent_tokens(chat, second) <= budget
    (result,) = [m for m in second if m["role"] == "tool"]
    kept = int(result["content"].split("shortened for this request: ")[1].split()[0])
    assert 0 < kept < words
    assert result["content"].endswith(f"{kept} of about {words} tokens shown; the full result is stored]")
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert (
        f"1 tool result(s) of this turn sent shortened to {kept} tokens each to fit the budget (--max-input-tokens); "
        "the session keeps them whole"
    ) in notices
    stored = [m for m in chat.conversation.turns[-1].messages if m["role"] == "tool"]
    assert [m["content"] for m in stored] == [page(words)]  # the session keeps it whole


def test_a_round_whose_calls_alone_leave_no_room_is_refused(tool_chat):
    probe, _ = tool_chat(400)
    budget = 400 - probe.tool_definition_tokens()
    # the system message and the user's take all but 5 tokens: the call message alone is more than that
    chat, provider = tool_chat(400, system="rule " * (budget - 11))
    with pytest.raises(BudgetError) as refused:
        list(chat.send(ask(20)))
    error = refused.value
    assert error.message.startswith("the tool calls of this turn need ")
    assert "even with their results shortened" in error.message
    assert f"the budget (--max-input-tokens) of {budget}" in error.message
    assert error.budget == budget and error.needed > budget
    assert len(provider.requests) == 1  # the round was never sent
    turn = chat.conversation.turns[-1]
    assert turn.interrupted and turn.answer_text == f"[the turn stopped: {error.message}]"
    assert [m["role"] for m in turn.messages] == ["user", "assistant", "tool", "assistant"]


def test_a_later_round_over_the_budget_in_summary_memory_summarizes_rather_than_drops(tool_chat):
    chat, provider = tool_chat(strategy="summary")
    history(chat)
    events = list(chat.send(ask(150)))  # the first request folds two turns; the round's page needs the third folded
    assert [e.text for e in events if isinstance(e, Notice)] == [
        "summarized 2 earlier turn(s) into the rolling summary (it now covers turns 1-2)",
        # its summary request is held to the budget (400) with room for the answer: the long page is shortened
        "turn 3 is too long for a summary request: its long texts were shortened for it",
        "summarized 1 earlier turn(s) into the rolling summary (it now covers turns 1-3)",
    ]
    done = events[-1]
    assert isinstance(done, TurnDone) and done.request.dropped == 0 and chat.conversation.summary_covers == 3
    round_sent = provider.requests[-1][0]
    summary = "\n".join(quote_lines(chat.conversation.summary))  # it rides quoted in the system message
    assert summary in round_sent[0]["content"] and round_sent[-1]["role"] == "tool"
    # the round is built within the turn's budget, which the turn's request keeps once the round is fitted
    budget = LIMIT - chat.tool_definition_tokens()
    assert sent_tokens(chat, round_sent) <= budget and done.request.budget == budget
