"""Tool results in memory: older turns send them shortened (with a marker), the session keeps them whole, and no
strategy ever separates a call from its result."""

from __future__ import annotations

from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig, sent_messages, shorten_tool_result, turn_cost
from chatbot.engine.summary_prompt import summary_request
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import Turn, validate_request


def tool_turn(i: int, result_words: int) -> Turn:
    call = {"id": f"c{i}", "type": "function", "function": {"name": "search", "arguments": '{"q": "x"}'}}
    return Turn(
        [
            {"role": "user", "content": f"search {i}"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": f"c{i}", "name": "search", "content": " ".join(["word"] * result_words)},
            {"role": "assistant", "content": f"found {i}"},
        ]
    )


def test_older_results_are_shortened_with_a_marker(counter):
    conv = Conversation("sys", MemoryConfig(strategy="full", tool_result_tokens=50), counter)
    conv.add_turn(tool_turn(1, 3000))
    request = conv.build_request("next")
    tool = request.messages[3]
    assert tool["role"] == "tool" and tool["tool_call_id"] == "c1"
    assert tool["content"].endswith(
        "[tool result shortened for this request: 50 of about 3000 tokens shown; the full result is stored]"
    )
    assert counter.count(tool["content"]) < 80
    assert request.tokens < 120  # the request is counted as sent, not as stored
    assert counter.count(conv.turns[0].messages[2]["content"]) == 3000  # the session keeps it whole
    validate_request(request.messages)


def test_short_results_and_disabled_shortening_are_sent_whole(counter):
    short = tool_turn(1, 20)
    assert sent_messages(short, counter, 50) == short.messages
    assert turn_cost(short, counter, 50) == short.tokens(counter)
    big = tool_turn(2, 3000)
    assert sent_messages(big, counter, None) == big.messages
    assert turn_cost(big, counter, None) == big.tokens(counter)
    assert turn_cost(big, counter, 50) < big.tokens(counter) // 10
    user = {"role": "user", "content": "word " * 500}
    assert shorten_tool_result(user, counter, 50) == user  # only tool results are shortened


def test_the_current_turns_results_are_never_shortened():
    # build_request only holds earlier turns: the results of this turn are added whole by the tool loop
    counter = TokenCounter()
    conv = Conversation("sys", MemoryConfig(strategy="full", tool_result_tokens=10), counter)
    request = conv.build_request("hello")
    assert len(request.messages) == 2


def test_window_and_budget_keep_calls_with_results(counter):
    conv = Conversation("sys", MemoryConfig(strategy="window", window_turns=1, max_input_tokens=100_000), counter)
    for i in range(1, 4):
        conv.add_turn(tool_turn(i, 10))
    request = conv.build_request("next")
    assert [m["role"] for m in request.messages] == ["system", "user", "assistant", "tool", "assistant", "user"]
    # a budget that fits only part of a tool turn drops it whole
    tight = Conversation("sys", MemoryConfig(strategy="full", max_input_tokens=30), counter, turns=conv.turns)
    request = tight.build_request("next")
    validate_request(request.messages)
    assert request.dropped >= 2


def test_the_summarizer_sees_calls_and_results_compactly():
    text = summary_request("", [tool_turn(1, 3000).messages], 1)[1]["content"]
    assert 'Assistant called tool search({"q": "x"})' in text
    assert "Tool result (search): word word" in text
    assert "… [14,999 characters]" in text and len(text) < 1000
