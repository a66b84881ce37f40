"""Each request records how it was built by reference (the turns sent verbatim, the summary version, the turns
recalled, the tool-result limit), and rebuilding from that record gives back the very messages that were sent, even
after the summary was replaced."""

from __future__ import annotations

from chatbot.engine.memory import build_request
from chatbot.engine.request_record import Built, rebuild, shortened, summary_version
from tests.conftest import make_turn


def sent_and_stored(conv, text, summarizer):
    """Build the request for ``text`` as a turn would, store the turn, and return (its messages, its record)."""
    request = build_request(conv, text, summarizer)
    turn = make_turn(len(conv.turns) + 1)
    turn.messages[0] = {"role": "user", "content": text}
    conv.add_turn(turn)
    return request.messages, Built.from_refs(request.refs, request.parts)


def test_a_rebuilt_request_is_the_request_that_was_sent_summary_and_recall_included(conv_factory, summarizer):
    conv = conv_factory(4, strategy="summary", summary_trigger=2, keep_turns=1, recall=1)
    sent = [sent_and_stored(conv, f"question {i} about apples {i}", summarizer) for i in range(5)]
    assert any(built.summary for _, built in sent) and any(built.recalled for _, built in sent)
    for number, (messages, built) in enumerate(sent, start=5):
        assert built.number == number
        assert rebuild(conv, built, conv.turns[number - 1].messages[0]) == messages


def test_a_replaced_summary_is_still_the_one_an_earlier_request_rebuilds_with(conv_factory, summarizer):
    conv = conv_factory(4, strategy="summary", summary_trigger=2, keep_turns=1, recall=0)
    messages, built = sent_and_stored(conv, "next", summarizer)
    assert built.summary == 1 and conv.summaries == [conv.summary]
    conv.set_summary("a rewritten summary", conv.summary_covers)  # what /summary redo does
    assert rebuild(conv, built, conv.turns[-1].messages[0]) == messages
    assert summary_version(conv) == 2 and conv.summaries[1] == "a rewritten summary"


def test_the_record_names_the_verbatim_turns_and_the_shortened_tool_results(conv_factory):
    conv = conv_factory(4, strategy="window", window_turns=3, tool_every=2, tool_result_tokens=1, recall=0)
    request = build_request(conv, "next")
    built = Built.from_refs(request.refs)
    assert list(built.verbatim) == [2, 3, 4] and built.summary == 0 and built.recalled == ()
    assert shortened(conv, built) == (2, 4)
