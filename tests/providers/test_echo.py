"""The offline echo provider: describes each request, streams word-sized chunks, summarizes deterministically."""

from __future__ import annotations

import time

import pytest

from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.summary_prompt import is_summary_request, summary_request
from chatbot.engine.tokens import TokenCounter, rough_count
from chatbot.engine.turn import Turn
from chatbot.errors import ConfigError
from chatbot.providers import make_provider
from chatbot.providers.base import TextDelta, Usage
from chatbot.providers.echo import ECHO_SUMMARY_LABEL, EchoProvider, echo_summary
from tests.support.sse import end, texts

MESSAGES = [
    {"role": "system", "content": "You are helpful."},
    {"role": "user", "content": "My name is Mina."},
    {"role": "assistant", "content": "Nice to meet you, Mina!"},
    {"role": "user", "content": "What is my name?"},
]


def turn(i: int) -> Turn:
    return Turn([{"role": "user", "content": f"question number {i} about topic {i}"},
                 {"role": "assistant", "content": f"a fairly long answer to question {i} " * 3}])  # fmt: skip


@pytest.fixture
def echo(clean_env):
    return EchoProvider()


def test_reply_describes_the_request(echo):
    events = list(echo.stream(MESSAGES))
    reply = texts(events)
    counter = TokenCounter()
    assert "4 messages" in reply
    for i, message in enumerate(MESSAGES, start=1):
        assert f"{i}. {message['role']}: {counter.count_message(message)} tokens" in reply
    assert "No summary" in reply
    assert reply.rstrip().endswith("Last user message: What is my name?")


def test_streams_word_sized_chunks_and_one_end(echo):
    events = list(echo.stream(MESSAGES))
    deltas = [e for e in events if isinstance(e, TextDelta)]
    assert len(deltas) > 10 and all(len(d.text.split()) == 1 for d in deltas)
    assert texts(events) == echo.describe(MESSAGES)
    assert end(events).finish_reason == "stop"


def test_usage_from_rough_counts(echo):
    events = list(echo.stream(MESSAGES))
    counter = TokenCounter()
    prompt = counter.total(sum(counter.count_message(m) for m in MESSAGES))
    completion = rough_count(texts(events))
    assert end(events).usage == Usage(prompt, completion, prompt + completion)


def test_describes_the_summary_in_the_system_message_without_quoting_it(echo):
    """Quoted whole, the summary would be re-sent in every later reply, folded and recalled again: a long offline
    session would fill its budget with echo quoting itself."""
    convo = Conversation("You are helpful.", summary="- the user is Mina\n- she likes tea", summary_covers=3,
                         turns=[turn(1), turn(2), turn(3)])  # fmt: skip
    system = convo.system_message(with_summary=True)
    reply = texts(list(echo.stream([system, {"role": "user", "content": "Hi again"}])))
    assert "1. system" in reply and "(with the summary)" in reply
    assert "Summary of the earlier conversation (turns 1-3" in reply
    assert "tokens, 2 lines (/summary shows it)." in reply and "Mina" not in reply
    assert "Last user message: Hi again" in reply


def test_deterministic(echo):
    assert list(echo.stream(MESSAGES)) == list(echo.stream(MESSAGES))
    assert echo.complete(MESSAGES) == echo.complete(MESSAGES)
    assert echo.complete(MESSAGES).text == echo.describe(MESSAGES)


def test_max_tokens_cuts_the_reply(echo):
    events = list(echo.stream(MESSAGES, max_tokens=10))
    assert rough_count(texts(events)) <= 10
    assert end(events).finish_reason == "length"
    assert echo.complete(MESSAGES, max_tokens=10).finish_reason == "length"


def test_delay_from_environment_lets_a_test_cancel(clean_env):
    clean_env.setenv("CHATBOT_ECHO_DELAY", "0.05")
    stream = make_provider("echo").stream(MESSAGES)
    started = time.monotonic()
    first, second = next(stream), next(stream)
    stream.close()
    assert isinstance(first, TextDelta) and isinstance(second, TextDelta)
    assert 0.09 <= time.monotonic() - started < 1


def test_bad_delay(clean_env):
    clean_env.setenv("CHATBOT_ECHO_DELAY", "fast")
    with pytest.raises(ConfigError, match="CHATBOT_ECHO_DELAY"):
        list(EchoProvider().stream(MESSAGES))


def test_summary_is_labelled_incremental_and_shorter(echo):
    turns = [list(turn(i).messages) for i in (1, 2, 3)]
    request = summary_request("", turns, 1)
    assert is_summary_request(request) and not is_summary_request(MESSAGES)
    first = echo.complete(request)
    assert first.text.splitlines() == [
        ECHO_SUMMARY_LABEL,
        '- turn 1: user: "question number 1 about topic 1"',
        "  left out: 21 words of the assistant's",
        '- turn 2: user: "question number 2 about topic 2"',
        "  left out: 21 words of the assistant's",
        '- turn 3: user: "question number 3 about topic 3"',
        "  left out: 21 words of the assistant's",
    ]
    assert rough_count(first.text) < rough_count(request[-1]["content"])
    assert first.usage is not None and first.finish_reason == "stop"
    # incremental: the previous summary is kept (label once), new turns are appended
    second = echo.complete(summary_request(first.text, [list(turn(4).messages)], 4)).text
    assert second.count(ECHO_SUMMARY_LABEL) == 1
    assert second.splitlines()[1:] == [
        *first.text.splitlines()[1:],
        '- turn 4: user: "question number 4 about topic 4"',
        "  left out: 21 words of the assistant's",
    ]


def test_a_tighter_rewrite_keeps_the_newest_turns_within_the_words_asked_and_says_the_older_went(echo):
    first = echo.complete(summary_request("", [list(turn(i).messages) for i in range(1, 7)], 1)).text
    tighter = echo.complete(summary_request(first, [list(turn(7).messages)], 7, words=41, tighter=True)).text
    lines = tighter.splitlines()
    assert lines[:2] == [ECHO_SUMMARY_LABEL, "- earlier turns: left out of this tighter summary"]
    # 17 words a turn, its extract (10) and what it left out (7), kept together: the newest two fit 41 words, and
    # turn 5's left-out line would too, but not without its turn
    assert lines[2:] == first.splitlines()[-2:] + [
        '- turn 7: user: "question number 7 about topic 7"',
        "  left out: 21 words of the assistant's",
    ]
    assert sum(len(line.split()) for line in lines[2:]) <= 41
    # rewritten tighter again: the older turns are said to be gone once
    again = echo.complete(summary_request(tighter, [list(turn(8).messages)], 8, words=41, tighter=True)).text
    assert again.count("earlier turns: left out") == 1 and again.splitlines()[-2].startswith("- turn 8:")
    # asked tighter with room for all of it: nothing is left out
    roomy = echo.complete(summary_request(first, [list(turn(7).messages)], 7, words=500, tighter=True)).text
    assert roomy == echo.complete(summary_request(first, [list(turn(7).messages)], 7)).text


def test_summary_keeps_an_extract_of_each_turn_and_names_what_it_left_out():
    user = "My locker code is 4711 and the bike stays in the basement by the stairs, next to the boxes.\n" + (
        "```py\nprint('kept nowhere')\n```\n"
    )
    answer = "Noted. " + "blah " * 40 + "\n```sh\nls\n```\nand\n~~~\nmore\n~~~"
    call = {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
    messages = [
        {"role": "user", "content": user},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "name": "lookup", "content": "a long result " * 30},
        {"role": "assistant", "content": answer},
    ]
    text = echo_summary(summary_request("", [messages], 4)[-1]["content"])
    assert text.splitlines()[1:] == [
        '- turn 4: user: "My locker code is 4711 and the bike stays in the basement…"',
        "  left out: 7 words of the user's, 42 words of the assistant's, 3 code blocks, 1 tool result",
    ]


def test_summary_keeps_a_model_written_previous_summary_and_cuts_long_messages():
    long = "word " * 40
    request = summary_request("- the user is Mina", [[{"role": "user", "content": long}]], 7)
    lines = echo_summary(request[-1]["content"]).splitlines()
    assert lines[:2] == [ECHO_SUMMARY_LABEL, "- the user is Mina"]
    assert lines[2] == '- turn 7: user: "' + " ".join(["word"] * 12) + '…"'
    assert lines[3] == "  left out: 28 words of the user's"


def test_a_turn_kept_whole_has_no_left_out_line():
    request = summary_request("", [[{"role": "user", "content": "hi"}]], 1)
    assert echo_summary(request[-1]["content"]).splitlines()[1:] == ['- turn 1: user: "hi"']


def test_the_engine_accepts_echo_summaries(echo):
    """The engine keeps a summary only when it shrinks what it replaces: echo's must always pass."""
    convo = Conversation(
        "You are helpful.", MemoryConfig(strategy="summary", summary_trigger=4, keep_turns=2, recall=0)
    )
    for i in range(1, 6):
        convo.add_turn(turn(i))

    def summarizer(previous, turns, first):
        return echo.complete(summary_request(previous, turns, first)).text

    request = convo.build_request("next question", summarizer=summarizer)
    assert request.summarized == 3 and request.summary_included and not request.warnings
    assert convo.summary.startswith(ECHO_SUMMARY_LABEL)
    # and the echo reply to that request shows the summary it carries
    reply = texts(list(echo.stream(request.messages)))
    assert ", 7 lines, 3 turn lines (/summary shows it)." in reply and "question number 3" not in reply


def test_make_provider_echo_needs_no_key(clean_env):
    provider = make_provider("echo")
    assert isinstance(provider, EchoProvider) and provider.name == "echo" and provider.model == "echo"
    events = list(provider.stream([]))
    assert "0 messages" in texts(events) and end(events).usage is not None


def test_recalled_turns_are_described_by_their_message_and_counted_as_the_request_counts_them(echo):
    convo = Conversation("You are helpful.", MemoryConfig(strategy="window", window_turns=1, recall=1))
    convo.add_turn(Turn([{"role": "user", "content": "My bike is in the basement, next to the stairs."},
                         {"role": "assistant", "content": "Noted: " + "word " * 40}]))  # fmt: skip
    for i in range(2, 4):
        convo.add_turn(turn(i))
    request = convo.build_request("Where is my bike?")
    assert request.recalled == (1,)
    reply = texts(list(echo.stream(request.messages)))
    assert (
        f"Earlier turns recalled for this message (turn 1): {request.recall_tokens} tokens in the system message:"
        in reply
    )
    assert '- turn 1: user: "My bike is in the basement, next to the stairs." (and 42 more words)' in reply
    assert "word word" not in reply
