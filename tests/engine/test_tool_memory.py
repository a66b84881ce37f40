"""Tool results in memory: older turns send them shortened (with a marker), this turn's go out shortened only when
they do not fit the budget at all, the session keeps them whole, and no strategy ever separates a call from its
result."""

from __future__ import annotations

import pytest

from chatbot.engine.conversation import Conversation
from chatbot.engine.fresh_round import fresh_results_request
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.summary_prompt import summary_request, summary_request_parts
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.tool_results import (
    SHORTENED_MARK,
    rounds_cost,
    sent_messages,
    shorten_to_fit,
    shorten_tool_result,
    turn_cost,
)
from chatbot.engine.turn import Turn, validate_request
from chatbot.errors import BudgetError
from tests.conftest import WordCounter


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


def test_the_current_turns_results_are_not_shortened_by_the_earlier_turns_limit():
    # build_request only holds earlier turns: the tool loop adds this turn's results, whole while they fit
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
    _, _, text = summary_request_parts(summary_request("", [tool_turn(1, 3000).messages], 1)[0]["content"])
    assert 'Assistant called tool search({"q": "x"})' in text
    assert "Tool result (search): word word" in text
    assert "… [14,999 characters]" in text and len(text) < 1000


def test_this_turns_results_share_what_the_budget_leaves_under_one_common_limit(counter):
    rounds = tool_turn(1, 300).messages[1:3] + tool_turn(2, 40).messages[1:3]
    whole = rounds_cost(rounds, counter)
    sent, limit = shorten_to_fit(rounds, counter, whole - 200)
    assert rounds_cost(sent, counter) <= whole - 200
    assert rounds_cost(shorten_to_fit(rounds, counter, whole - 199)[0], counter) > whole - 200  # the largest limit
    assert 40 < limit < 300
    assert sent[1]["content"].endswith(f"{limit} of about 300 tokens shown; the full result is stored]")
    assert sent[3] == rounds[3]  # a result under the common limit is sent whole
    assert [m["role"] for m in sent] == ["assistant", "tool", "assistant", "tool"]
    calls_only = rounds_cost([rounds[0], rounds[2]], counter)
    assert shorten_to_fit(rounds, counter, calls_only) is None  # no room for even the markers


def test_an_older_turn_fits_the_budget_at_the_size_its_shortened_results_are_sent(counter):
    conv = Conversation("sys", MemoryConfig(strategy="full", tool_result_tokens=50, max_input_tokens=200), counter)
    conv.add_turn(tool_turn(1, 3000))  # whole, far over the budget; shortened to 50 tokens, well within it
    request = conv.build_request("next")
    assert (request.first_turn, request.dropped) == (0, 0) and request.tokens <= 200


def test_a_fresh_request_is_counted_without_the_summary_and_says_what_it_left_out():
    counter = TokenCounter()  # OpenAI's format: 3 tokens per request, which `uncorrected` holds
    conv = Conversation("sys", MemoryConfig(strategy="summary", max_input_tokens=200), counter)
    conv.add_turn(tool_turn(1, 10))
    conv.add_turn(tool_turn(2, 10))
    conv.set_summary("one two three four five six seven", 1)
    rounds = tool_turn(3, 3000).messages[1:3] + tool_turn(4, 2).messages[1:3]
    user = {"role": "user", "content": "search 3"}
    request, sent = fresh_results_request(conv, user, rounds, 200)
    raw = conv.system_tokens(False) + counter.count_message(user)
    assert request.messages == [conv.system_message(False), user]
    assert (request.tokens, request.uncorrected) == (counter.total(raw), raw + counter.chat_format.per_request)
    assert (request.budget, request.first_turn, request.dropped) == (200, 2, 2)
    assert (request.summary_included, request.summary_covers, request.summarized) == (False, 1, 0)
    assert sent[3] == rounds[3] and len(request.warnings) == 1  # one result cut, the short one sent whole
    assert request.warnings[0].startswith("1 tool result(s) of this turn sent shortened to ")
    assert request.parts.summary == 0 and request.parts.total == request.tokens  # /timeline shows no summary sent
    request, sent = fresh_results_request(conv, user, rounds[2:], 200)
    assert sent == rounds[2:] and request.warnings == ()  # nothing cut, nothing said


def test_tool_calls_that_do_not_fit_even_shortened_name_what_they_need(counter):
    conv = Conversation("sys", MemoryConfig(strategy="full", max_input_tokens=200), counter)
    rounds = tool_turn(1, 3000).messages[1:3]
    user = {"role": "user", "content": "search 1"}
    bare = counter.total(conv.system_tokens(False) + counter.count_message(user))
    needed = bare + rounds_cost([shorten_tool_result(m, counter, 1) for m in rounds], counter)
    with pytest.raises(BudgetError) as info:
        fresh_results_request(conv, user, rounds, needed - 1)
    assert (info.value.needed, info.value.budget) == (needed, needed - 1)
    assert f"need {needed - bare} tokens even with their results shortened" in info.value.message
    assert f"that is {needed}, more than the budget (--max-input-tokens) of {needed - 1}" in info.value.message


def test_a_fresh_result_over_the_budget_goes_out_shortened_without_earlier_turns(counter):
    conv = Conversation("sys", MemoryConfig(strategy="full", max_input_tokens=200), counter)
    conv.add_turn(tool_turn(1, 10))
    rounds = tool_turn(2, 3000).messages[1:3]
    user = {"role": "user", "content": "search 2"}
    request, sent = fresh_results_request(conv, user, rounds, 200)
    assert request.messages == [{"role": "system", "content": "sys"}, user]
    assert (request.first_turn, request.dropped) == (1, 1)
    assert request.tokens + rounds_cost(sent, counter) <= 200
    assert request.tokens == counter.total(conv.system_tokens(False) + counter.count_message(user))
    validate_request(request.messages + sent, in_turn=True)
    assert rounds[1]["content"] == " ".join(["word"] * 3000)  # what is stored is not touched
    assert request.warnings[0].startswith("1 tool result(s) of this turn sent shortened to ")


def test_a_cut_result_keeps_its_start_as_it_was_leading_space_and_at_least_one_character():
    counter = TokenCounter()
    ideographs = {"role": "tool", "tool_call_id": "c", "content": "一二三四五六七八九十" * 10}
    total = counter.count(ideographs["content"])
    assert total > 50  # about a token a character: one token's share of it is one character
    assert shorten_tool_result(ideographs, counter, 1)["content"] == "一\n" + SHORTENED_MARK.format(kept=1, total=total)
    words = WordCounter()
    spaced = {"role": "tool", "tool_call_id": "c", "content": "  " + "word " * 100}
    assert shorten_tool_result(spaced, words, 10)["content"] == (
        "  " + "word " * 9 + "wor\n" + SHORTENED_MARK.format(kept=10, total=100)  # 10% of its 502 characters
    )


def test_an_older_turns_cost_follows_its_limit():
    counter = WordCounter()
    turn = tool_turn(1, 300)
    for limit in (50, 120, 50):
        sent = sent_messages(turn, counter, limit)
        assert turn_cost(turn, counter, limit) == sum(counter.count_message(m) for m in sent)
    assert turn_cost(turn, counter, 50) < turn_cost(turn, counter, 120)


def test_the_common_limit_is_the_largest_that_fits_and_no_larger_than_the_largest_result(counter):
    rounds = tool_turn(1, 60).messages[1:3] + tool_turn(2, 25).messages[1:3]
    rounds[0] = {**rounds[0], "content": "let me look that up " * 40}  # the call's own text is never cut
    whole = rounds_cost(rounds, counter)
    assert shorten_to_fit(rounds, counter, whole + 500) == (rounds, 60)
    room, tried = whole - 1, 0
    while (fitted := shorten_to_fit(rounds, counter, room)) is not None:
        sent, limit = fitted
        larger = [shorten_tool_result(m, counter, limit + 1) for m in rounds]
        assert rounds_cost(sent, counter) <= room < rounds_cost(larger, counter)
        room, tried = room - 1, tried + 1
    assert tried > 30  # every room from the whole rounds down to the markers alone


def test_rounds_without_results_have_nothing_to_shorten(counter):
    assert shorten_to_fit(tool_turn(1, 5).messages[1:2], counter, 1000) is None
