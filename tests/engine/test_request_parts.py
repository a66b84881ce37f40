"""A request's parts (system, summary, recalled, earlier turns, their tool results, the new message): counted where
the request is built, they add up to its estimate exactly, whatever the memory rule sent and whatever the correction."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chatbot.engine.calibration import Calibration
from chatbot.engine.conversation import Conversation
from chatbot.engine.fresh_round import fresh_results_request
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.parts import PART_NAMES, Parts, sent_record
from chatbot.engine.request_record import system_mark
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.tool_results import sent_messages
from tests.conftest import make_turn


@pytest.mark.parametrize("strategy", ["full", "window", "summary"])
@pytest.mark.parametrize("factor", [1.0, 0.83, 1.37])
def test_the_parts_add_up_to_the_request_estimate(strategy, factor, summarizer):
    counter = TokenCounter(calibration=Calibration(ratios=[factor], turns=1))
    memory = MemoryConfig(strategy=strategy, window_turns=3, summary_trigger=4, keep_turns=2, max_input_tokens=900)
    conv = Conversation("You are terse.", memory, counter)
    for i in range(1, 12):
        conv.add_turn(make_turn(i, words=9, tool=i % 2 == 1))
    request = conv.build_request("what now, after all that?", summarizer=summarizer)
    parts = request.parts
    assert parts.total == request.tokens
    assert parts.recalled == 0  # (recall adds its turns to the system message on another branch)
    assert (parts.summary > 0) == request.summary_included
    assert parts.tool_results > 0  # the last turn called a tool and is sent whatever the rule
    assert parts.new >= counter.count("what now, after all that?")


def test_each_part_counts_what_it_names(conv_factory, counter, summarizer):
    conv = conv_factory(6, system="one two three", tool_every=2, strategy="summary", summary_trigger=4, keep_turns=2)
    request = conv.build_request("a b c d", summarizer=summarizer)
    assert request.summary_included and request.first_turn == 4
    system = conv.system_tokens(False)
    sent = conv.turns[4:]
    tool_results = sum(counter.count_message(m) for t in sent for m in t.messages if m["role"] == "tool")
    whole = sum(t.tokens(counter) for t in sent)
    assert request.parts == Parts(
        system=system,
        summary=conv.system_tokens(True) - system,
        earlier=whole - tool_results,
        tool_results=tool_results,
        new=counter.count_message({"role": "user", "content": "a b c d"}),
    )


def test_a_shortened_tool_result_counts_as_sent(conv_factory, counter):
    conv = conv_factory(0, strategy="full", tool_result_tokens=5)
    turn = make_turn(1, tool=True)
    turn.messages[2]["content"] = "word " * 300
    conv.add_turn(turn)
    parts = conv.build_request("next").parts
    assert 5 < parts.tool_results < 40  # the shortened result and its marker, not 300 words
    sent = sent_messages(turn, counter, 5)
    assert parts.tool_results == counter.count_message(sent[2])
    assert parts.earlier == sum(counter.count_message(m) for m in sent if m["role"] != "tool")  # the rest, whole
    # a new limit counts the result anew: the count kept on the turn is per limit
    conv.memory = replace(conv.memory, tool_result_tokens=50)
    assert conv.build_request("next").parts.tool_results == counter.count_message(sent_messages(turn, counter, 50)[2])


def test_a_request_of_fresh_results_alone_has_the_system_and_the_new_message(conv_factory, counter):
    conv = conv_factory(3, strategy="full")
    user = {"role": "user", "content": "x y"}
    rounds = [
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": ""}}]},
        {"role": "tool", "tool_call_id": "c", "content": "r " * 200},
    ]
    request, _ = fresh_results_request(conv, user, rounds, 150)
    assert request.parts == Parts(system=conv.system_tokens(False), new=counter.count_message(user))


def test_a_turn_keeps_a_record_of_its_request(conv_factory, summarizer):
    conv = conv_factory(6, strategy="summary", summary_trigger=4, keep_turns=2)
    request = conv.build_request("go on", summarizer=summarizer)
    record = sent_record(request, tools=12, provider=99)
    assert record == {
        "budget": request.budget,
        "tools": 12,
        "parts": request.parts.to_dict(),
        "summarized": 4,
        "summary_covers": 4,
        "dropped": 0,
        "provider": 99,
        "refs": {
            "turns": 6,
            "verbatim_from": 5,
            "summary": 1,
            "summary_covers": 4,
            "recalled": [],
            "result_limit": 400,
            "system": system_mark(conv.system),  # a fingerprint: /context at N says when /system changed it
        },
    }
    assert Parts.from_dict(record["parts"]) == request.parts
    assert set(record["parts"]) == set(PART_NAMES)
    assert Parts.from_dict({"system": 3}) == Parts(system=3)  # a part missing from an older record is 0
