"""A fold on a real model's window: the turns go in pieces that each fit a summary request (min(window, budget) less
the reply room), a turn too long alone is shortened and said, a refusal for length is retried smaller within the fold,
the summary is held to a quarter (a tighter rewrite is asked), and trigger/keep can fold after every reply."""

from __future__ import annotations

import re
from typing import Any

import pytest

from chatbot.engine.conversation import Conversation
from chatbot.engine.folds import request_tokens, summary_limit, summary_messages, summary_share
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.summary_prompt import TIGHTER
from chatbot.errors import ContextLengthError
from tests.conftest import RecordingSummarizer, make_turn


class Measuring(RecordingSummarizer):
    """Records what each summary request it is asked counts, by the conversation's calibrated count."""

    def __init__(self, conv: Conversation) -> None:
        super().__init__()
        self.conv = conv
        self.sizes: list[int] = []

    def __call__(self, previous: str, turns: list[list[dict[str, Any]]], first: int) -> str:
        self.sizes.append(request_tokens(self.conv, previous, turns, first))
        return super().__call__(previous, turns, first)


def long_conversation(window: int, turns: int, words: int) -> Conversation:
    conv = Conversation("sys", MemoryConfig())
    conv.counter.calibration.context = window  # a server named it
    for i in range(1, turns + 1):
        conv.add_turn(make_turn(i, words=words))
    return conv


def test_a_fold_on_a_small_window_goes_in_pieces_that_each_fit_the_window_with_room_for_the_answer():
    conv = long_conversation(2048, 12, words=300)  # ~600 tokens a turn: 8 to fold do not fit one request
    summarizer = Measuring(conv)
    request = conv.build_request("next", summarizer=summarizer, budget=1536)
    assert len(summarizer.calls) >= 3 and max(summarizer.sizes) <= summary_limit(conv) == 2048 - 512 - 102
    assert request.dropped == 0 and conv.summary_covers >= 8  # every folded turn is in the summary


def test_a_fold_is_held_to_max_input_tokens_when_no_window_is_known():
    conv = Conversation("sys", MemoryConfig(max_input_tokens=1500))
    for i in range(1, 11):
        conv.add_turn(make_turn(i, words=200))
    summarizer = Measuring(conv)
    conv.build_request("next", summarizer=summarizer)
    assert summarizer.sizes and max(summarizer.sizes) <= 1500 - 375 - 75


def test_a_turn_too_long_for_any_summary_request_is_shortened_and_said():
    conv = long_conversation(2048, 10, words=3)
    conv.turns[0].messages[0]["content"] = "pasted " * 3000  # a pasted file
    summarizer = Measuring(conv)
    request = conv.build_request("next", summarizer=summarizer, budget=1536)
    assert max(summarizer.sizes) <= summary_limit(conv)
    assert "turn 1 is too long for a summary request: its long texts were shortened for it" in request.warnings
    assert conv.summary_covers >= 6


class Refusing(RecordingSummarizer):
    """A server whose window is smaller than the one learned: refuses a summary request over ``window`` tokens."""

    def __init__(self, conv: Conversation, window: int) -> None:
        super().__init__()
        self.conv, self.window, self.refused = conv, window, 0

    def __call__(self, previous: str, turns: list[list[dict[str, Any]]], first: int) -> str:
        if request_tokens(self.conv, previous, turns, first) > self.window:
            self.refused += 1
            raise ContextLengthError("maximum context length exceeded")
        return super().__call__(previous, turns, first)


def test_a_summary_request_refused_for_its_length_is_retried_smaller_within_the_fold():
    conv = long_conversation(4096, 12, words=250)
    summarizer = Refusing(conv, window=1200)
    request = conv.build_request("next", summarizer=summarizer, budget=3000)
    assert summarizer.refused >= 1 and summarizer.calls  # refused, then asked again smaller, in the same request
    assert conv.summary_covers >= 8 and request.dropped == 0


def test_a_summary_over_its_share_is_asked_for_a_tighter_rewrite():
    conv = long_conversation(2048, 2, words=3)
    share = summary_share(conv)
    small = summary_messages(conv, "- a point", [], 1)[0]["content"]
    grown = summary_messages(conv, "- a point that grew " * share, [], 1)[0]["content"]
    assert "rewrite it tighter" not in small
    assert TIGHTER.split(":")[0] in grown and "within" in grown


@pytest.mark.parametrize(("trigger", "keep"), [(1, 1), (0, 0)])
def test_the_summary_can_fold_after_every_reply_keeping_the_last_turn_or_none(trigger, keep):
    conv = Conversation("sys", MemoryConfig(summary_trigger=trigger, keep_turns=keep))
    summarizer = RecordingSummarizer()
    for i in range(1, 6):
        conv.add_turn(make_turn(i, tool=i == 3))
        request = conv.build_request("next", summarizer=summarizer)
        assert conv.summary_covers == i - keep and request.first_turn == i - keep
    assert len(summarizer.calls) == 5 - keep
    # turns stay whole: the tool call and its result are folded (or kept) together
    assert all(len(call) == 3 for call in summarizer.calls)


class Obedient:
    """A model that grows its summary by a line a turn, however few words it is asked for, until asked to rewrite it
    tighter: then it keeps the newest lines within the words asked (as :func:`chatbot.providers.echo.echo_summary`)."""

    def __init__(self, conv: Conversation) -> None:
        self.conv = conv
        self.tighter = 0

    def __call__(self, previous: str, turns: list[list[dict[str, Any]]], first: int) -> str:
        instructions = summary_messages(self.conv, previous, turns, first)[0]["content"]
        lines = previous.splitlines() + [f"- turn {first + k}: " + "point " * 25 for k in range(len(turns))]
        asked = re.search(r"within (\d+) words", instructions)
        if asked is None:
            return "\n".join(lines)
        self.tighter += 1
        kept: list[str] = []
        for line in reversed(lines):
            if sum(len(x.split()) for x in [line, *kept]) > int(asked.group(1)):
                break
            kept.insert(0, line)
        return "\n".join(kept)


def test_the_summary_is_held_near_a_quarter_of_a_summary_request_over_a_long_conversation():
    conv = Conversation("sys", MemoryConfig())
    conv.counter.calibration.context = 2048
    summarizer, largest = Obedient(conv), 0
    for i in range(1, 41):
        conv.build_request(f"question {i}", summarizer=summarizer, budget=1536)
        conv.add_turn(make_turn(i, words=150))
        largest = max(largest, conv.counter.count(conv.summary))
    assert conv.summary_covers >= 30 and summarizer.tighter >= 2
    # over its share only by what one fold adds before the next fold asks for a tighter rewrite
    assert summary_share(conv) == 358 and largest <= 2 * 358, largest


def test_a_summary_too_long_for_the_budget_is_rewritten_tighter_rather_than_left_out():
    conv = long_conversation(2048, 6, words=20)
    # it covers every turn: there is nothing left to fold early, only the summary itself to shorten
    conv.set_summary("\n".join(f"- turn {i}: " + "point " * 25 for i in range(1, 30)), 6)
    summarizer = Obedient(conv)
    request = conv.build_request("next", summarizer=summarizer, budget=700)
    assert summarizer.tighter == 1 and request.summary_included and request.dropped == 0
    assert not any("left out" in w for w in request.warnings)
    assert conv.counter.count(conv.summary) <= summary_share(conv)
