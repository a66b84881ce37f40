"""The system text at the head of the first user message, for a server that leaves system messages out: what the
request becomes (pure), and how the memory rule assembles it once the model's calibration has learned the drop."""

from __future__ import annotations

import copy

import pytest

from chatbot.engine.folds import Folded, RollingSummary
from chatbot.engine.memory import assemble, build_request
from chatbot.engine.system_carry import carry_system
from chatbot.engine.turn import InvalidRequest, validate_request

SYSTEM = {"role": "system", "content": "Be brief.\n\n## Summary\n> the user likes tea"}


def test_the_system_text_heads_the_first_user_message_after_a_blank_line():
    messages = [SYSTEM, {"role": "user", "content": "hello"}]
    assert carry_system(messages) == [{"role": "user", "content": f"{SYSTEM['content']}\n\nhello"}]


def test_the_first_user_message_of_an_earlier_turn_carries_it_and_the_stored_turn_is_unchanged():
    earlier = [{"role": "user", "content": "first"}, {"role": "assistant", "content": "ok"}]
    kept = copy.deepcopy(earlier)
    messages = [SYSTEM, *earlier, {"role": "user", "content": "second"}]
    sent = carry_system(messages)
    assert [m["role"] for m in sent] == ["user", "assistant", "user"]
    assert sent[0]["content"] == f"{SYSTEM['content']}\n\nfirst" and sent[1:] == messages[2:]
    assert earlier == kept and messages[0] is SYSTEM  # nothing given was changed


def test_a_message_with_images_gets_the_system_text_as_a_text_part_of_its_own_first():
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
    content = [{"type": "text", "text": "what is this?"}, image]
    (sent,) = carry_system([SYSTEM, {"role": "user", "content": content}])
    assert sent["content"] == [{"type": "text", "text": f"{SYSTEM['content']}\n\n"}, *content]


def test_an_empty_system_message_is_left_out_with_nothing_added():
    assert carry_system([{"role": "system", "content": ""}, {"role": "user", "content": "hi"}]) == [
        {"role": "user", "content": "hi"}
    ]


def test_a_request_without_a_system_message_is_sent_as_it_is():
    messages = [{"role": "user", "content": "hi"}]
    assert carry_system(messages) == messages


def test_a_carried_request_is_valid_only_as_one_and_still_holds_no_system_message():
    carried = carry_system([SYSTEM, {"role": "user", "content": "hi"}])
    validate_request(carried, carried=True)
    with pytest.raises(InvalidRequest, match="starts with the system message"):
        validate_request(carried)
    with pytest.raises(InvalidRequest, match="starts with the first user message"):
        validate_request([SYSTEM, *carried], carried=True)


def summarized(conv_factory, drops: bool):
    """Six turns under summary memory with a summary of the first four kept, the server's drop learned or not."""
    conv = conv_factory(6, system="be brief", strategy="summary", summary_trigger=8, keep_turns=2)
    conv.take_fold(Folded(RollingSummary("the user keeps a ledger", 4), 4, True, kept=True))
    conv.counter.calibration.drops_system = drops
    return conv


def test_once_the_drop_is_learned_the_request_carries_the_system_text_and_summary_in_its_first_user_message(
    conv_factory,
):
    plain = build_request(summarized(conv_factory, False), "and now?")
    carried = build_request(summarized(conv_factory, True), "and now?")
    assert carried.system_in_user and not plain.system_in_user
    assert carried.messages == carry_system(plain.messages)
    first = carried.messages[0]["content"]
    assert first.startswith("be brief\n\n") and "the user keeps a ledger" in first
    # counted as before (the system text is still sent, a message's overhead more: errs high) and built alike; the
    # record says the system text rode in the user message (so /context at N rebuilds it as it went)
    assert (carried.tokens, carried.uncorrected, carried.parts, carried.refs) == (
        plain.tokens,
        plain.uncorrected,
        plain.parts,
        {**plain.refs, "carried": True},
    )
    assert "carried" not in plain.refs  # a request sent as usual is recorded as before


def test_the_preview_shows_the_request_as_it_is_sent(conv_factory):
    conv = summarized(conv_factory, True)
    assert conv.preview_request("and now?").messages == build_request(conv, "and now?").messages


def test_assembling_is_a_function_of_the_plan_and_what_was_learned(conv_factory):
    from chatbot.engine.memory import Folds, as_message, plan

    conv = summarized(conv_factory, True)
    message = as_message("and now?")
    planned = plan(conv, message, 100_000, Folds(conv.rolling))
    assert assemble(conv, message, planned) == assemble(conv, message, planned)
    conv.counter.calibration.drops_system = False
    assert assemble(conv, message, planned).messages[0]["role"] == "system"


def test_a_request_whose_new_message_carries_the_system_text_is_halved_for_its_retry_as_before(conv_factory):
    # no earlier turn is sent: the new message carries the system text and the summary, which the retry may leave out
    def alone(drops: bool):
        conv = summarized(conv_factory, drops)
        conv.take_fold(Folded(RollingSummary("the user keeps a ledger " * 50, 6), 6, True, kept=True))
        return conv, build_request(conv, "and now?")

    (plain_conv, plain), (carried_conv, carried) = alone(False), alone(True)
    assert plain.summary_included and len(carried.messages) == 1
    assert carried.new_tokens == plain_conv.counter.count_message(plain.messages[-1])
    assert carried_conv.shrink_budget(carried) == plain_conv.shrink_budget(plain) is not None
