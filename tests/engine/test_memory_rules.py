"""The memory rule pinned with exact numbers: every MemoryConfig check and default, and the exact fields of a
Request (tokens, uncorrected, first_turn, dropped, summarized) under each strategy and a tight budget.

The word counter of conftest makes the arithmetic exact: the system message "sys" costs 2, a stored turn
(three-word question, three-word answer) costs 8, and a one-word user message costs 2.
"""

from __future__ import annotations

import pytest

from chatbot.engine.memory import MAX_EARLY_FOLDS, SUMMARY_MAX_TOKENS, MemoryConfig, fold_now
from chatbot.engine.tool_results import shorten_tool_result
from chatbot.errors import BudgetError, UsageError
from tests.conftest import WordCounter

SYSTEM, TURN, USER = 2, 8, 2


class ScaledCounter(WordCounter):
    """Words, with a learned correction of 1.5."""

    correction = 1.5


def test_the_defaults_are_the_documented_ones():
    cfg = MemoryConfig()
    assert (cfg.strategy, cfg.summary_trigger, cfg.keep_turns, cfg.window_turns, cfg.max_input_tokens) == (
        "summary",
        8,
        4,
        6,
        6000,
    )
    assert (cfg.tool_result_tokens, cfg.window_step) == (400, 1)
    assert (MAX_EARLY_FOLDS, SUMMARY_MAX_TOKENS) == (3, 2048)


@pytest.mark.parametrize(
    ("settings", "flag"),
    [
        (
            {"strategy": "everything"},
            "unknown memory strategy 'everything': choose one of full, window, summary, first-last",
        ),
        ({"window_turns": -1}, "--window-turns must be 0 or more"),
        ({"window_step": 0}, "--window-step must be at least 1"),
        ({"keep_turns": -1}, "--summary-trigger and --keep-turns must be 0 or more"),
        ({"summary_trigger": -1, "keep_turns": 0}, "--summary-trigger and --keep-turns must be 0 or more"),
        ({"summary_trigger": 4, "keep_turns": 5}, "--keep-turns (5) must not be more than --summary-trigger (4)"),
        ({"max_input_tokens": 0}, "--max-input-tokens must be positive"),
        ({"recall": -1}, "--recall must be 0 or more"),
    ],
)
def test_each_bad_setting_is_refused_naming_its_flag(settings, flag):
    with pytest.raises(UsageError) as caught:
        MemoryConfig(**settings)
    assert caught.value.message == flag


@pytest.mark.parametrize(
    "settings",
    [
        {"window_turns": 0},
        {"window_step": 1},
        {"keep_turns": 0, "summary_trigger": 1},
        {"keep_turns": 3, "summary_trigger": 4},
        {"max_input_tokens": 1},
        {"recall": 0},
        # keep_turns matters only to the summary strategy: the others accept any pair
        {"strategy": "window", "keep_turns": 9, "summary_trigger": 2},
        {"strategy": "full", "keep_turns": 4, "summary_trigger": 4},
    ],
)
def test_the_edge_of_each_check_is_accepted(settings):
    assert MemoryConfig(**settings)


def test_full_sends_everything_with_exact_counts(conv_factory):
    conv = conv_factory(3, strategy="full")
    req = conv.build_request("hi")
    assert len(req.messages) == 1 + 3 * 2 + 1
    assert req.tokens == req.uncorrected == SYSTEM + 3 * TURN + USER
    assert (req.first_turn, req.dropped, req.summarized, req.summary_covers) == (0, 0, 0, 0)
    assert req.budget == 100_000 and not req.summary_included and req.warnings == ()


def test_full_memory_sends_the_turns_a_kept_summary_covers(conv_factory):
    conv = conv_factory(4, strategy="full")
    conv.set_summary("what was said before", 2)  # a session summarized earlier, resumed under --memory full
    req = conv.build_request("hi")
    assert (req.first_turn, req.dropped, req.summary_included) == (0, 0, False)
    assert len(req.messages) == 1 + 4 * 2 + 1


def test_a_correction_changes_tokens_but_not_uncorrected(conv_factory):
    conv = conv_factory(3, strategy="full")
    conv.counter = ScaledCounter()
    req = conv.build_request("hi")
    raw = SYSTEM + 3 * TURN + USER
    assert req.uncorrected == raw
    assert req.tokens == 42  # ceil(28 * 1.5)


def test_window_sends_the_last_turns_and_counts_the_rest_as_dropped(conv_factory):
    req = conv_factory(10, strategy="window", window_turns=3).build_request("hi")
    assert (req.first_turn, req.dropped, req.summarized) == (7, 7, 0)
    assert req.tokens == SYSTEM + 3 * TURN + USER
    assert [m["content"] for m in req.messages[1:2]] == ["u8 u8 u8"]


def test_window_zero_sends_no_earlier_turn(conv_factory):
    req = conv_factory(4, strategy="window", window_turns=0).build_request("hi")
    assert (req.first_turn, req.dropped, len(req.messages)) == (4, 4, 2)


def test_window_step_moves_the_start_in_steps(conv_factory):
    starts = [
        conv_factory(n, strategy="window", window_turns=3, window_step=4).build_request("hi").first_turn
        for n in range(3, 12)
    ]
    assert starts == [0, 0, 0, 0, 4, 4, 4, 4, 8]


def test_summary_folds_only_past_the_trigger(conv_factory, summarizer):
    conv = conv_factory(8, summary_trigger=8, keep_turns=4)
    req = conv.build_request("hi", summarizer=summarizer)
    assert (req.first_turn, req.summarized, req.dropped, req.summary_included) == (0, 0, 0, False)
    assert summarizer.calls == []

    conv = conv_factory(9, summary_trigger=8, keep_turns=4)
    req = conv.build_request("hi", summarizer=summarizer)
    assert summarizer.calls == [("", 1, 5)]
    assert (req.first_turn, req.summarized, req.dropped, req.summary_covers) == (5, 5, 0, 5)
    assert req.summary_included and conv.summary == "t1 t2 t3 t4 t5"
    system = req.messages[0]["content"]
    assert system.startswith("sys\n\n## ") and system.endswith("t1 t2 t3 t4 t5")
    assert len(req.messages) == 1 + 4 * 2 + 1


def test_a_summary_that_is_not_shorter_is_not_kept(conv_factory):
    conv = conv_factory(9, summary_trigger=8, keep_turns=4)
    long = " ".join(["w"] * (5 * TURN))  # as long as the five turns it would replace
    req = conv.build_request("hi", summarizer=lambda prev, turns, first: long)
    assert conv.summary == "" and conv.summary_covers == 0
    assert (req.first_turn, req.summarized, req.dropped) == (0, 0, 0)
    assert req.warnings == (
        "the summary was not shorter than what it replaces, so it was not kept: this request sends all 9 "
        "unsummarized turn(s) instead",
    )


def test_a_summary_one_token_shorter_is_kept(conv_factory):
    conv = conv_factory(9, summary_trigger=8, keep_turns=4)
    shorter = " ".join(["w"] * (5 * TURN - 1))
    req = conv.build_request("hi", summarizer=lambda prev, turns, first: shorter)
    assert conv.summary_covers == 5 and req.summarized == 5 and req.warnings == ()


@pytest.mark.parametrize(
    ("answer", "warning"),
    [
        ("   ", "the summary came back empty"),
        (None, "the summary came back empty"),
        (RuntimeError("boom"), "summarizing failed (boom)"),
    ],
)
def test_a_failed_summary_still_sends_what_it_would_have_folded(conv_factory, answer, warning):
    def summarize(prev, turns, first):
        if isinstance(answer, Exception):
            raise answer
        return answer

    conv = conv_factory(9, summary_trigger=8, keep_turns=4)
    req = conv.build_request("hi", summarizer=summarize)
    assert (req.first_turn, req.summarized, req.dropped, conv.summary_covers) == (0, 0, 0, 0)
    assert len(req.warnings) == 1 and req.warnings[0].startswith(warning)


def test_without_a_summarizer_every_turn_that_fits_is_sent(conv_factory):
    conv = conv_factory(9, summary_trigger=8, keep_turns=4)
    req = conv.build_request("hi", budget=SYSTEM + 6 * TURN + USER)
    assert (req.first_turn, req.dropped, req.summarized) == (3, 3, 0)
    assert req.warnings == (
        "no summarizer available: this request sends the last 6 of 9 unsummarized turn(s), as many as the budget "
        "has room for",
    )


def test_a_tight_budget_drops_exactly_the_oldest_turns_that_do_not_fit(conv_factory):
    conv = conv_factory(5, strategy="full")
    exact = SYSTEM + 2 * TURN + USER
    req = conv.build_request("hi", budget=exact)
    assert (req.first_turn, req.dropped, req.tokens, req.budget) == (3, 3, exact, exact)
    req = conv.build_request("hi", budget=exact - 1)
    assert (req.first_turn, req.dropped, req.tokens) == (4, 4, exact - TURN)


def test_the_bare_request_may_use_the_whole_budget_but_not_more(conv_factory):
    conv = conv_factory(2, strategy="full")
    req = conv.build_request("hi", budget=SYSTEM + USER)
    assert (req.first_turn, req.dropped, req.tokens) == (2, 2, SYSTEM + USER)
    with pytest.raises(BudgetError) as caught:
        conv.build_request("hi", budget=SYSTEM + USER - 1)
    assert (caught.value.needed, caught.value.budget) == (SYSTEM + USER, SYSTEM + USER - 1)


def test_over_budget_the_summary_strategy_folds_early(conv_factory, summarizer):
    conv = conv_factory(6, summary_trigger=8, keep_turns=4)  # below the trigger: only the budget makes it fold
    budget = SYSTEM + 3 * TURN + USER
    req = conv.build_request("hi", summarizer=summarizer, budget=budget)
    # it folds at least as much as the trigger would (all but the last keep_turns), and so much that the turns it
    # keeps take at most half the room beside the system message and the new one (12 of 24: one turn)
    assert summarizer.calls[0] == ("", 1, 5)
    assert req.summary_included and req.summarized == conv.summary_covers
    assert req.tokens <= budget and req.dropped == 0
    assert req.first_turn == conv.summary_covers


def test_a_fold_the_budget_forces_measures_the_room_with_the_summary_there_is(conv_factory, summarizer):
    """The headroom is half the room beside the system message *with its summary*: measured without it, the room
    looked larger, and the fold swallowed the newest turn the rule keeps verbatim."""
    conv = conv_factory(4, summary_trigger=8, keep_turns=1)  # below the trigger: only the budget makes it fold
    conv.set_summary("earlier", 1)
    req = conv.build_request("hi", summarizer=summarizer, budget=38)
    assert summarizer.calls == [("earlier", 2, 2)]  # turns 2-3 folded
    assert (req.first_turn, req.summarized, conv.summary_covers) == (3, 2, 3)  # turn 4 sent verbatim
    assert req.summary_included and req.tokens <= 38


def test_the_summary_is_left_out_when_it_alone_is_over_the_budget(conv_factory):
    conv = conv_factory(2, summary_trigger=8, keep_turns=4)
    conv.set_summary(" ".join(["s"] * 50), 1)
    req = conv.build_request("hi", budget=SYSTEM + USER + TURN)
    assert req.summary_included is False and req.summary_covers == 1
    assert req.warnings == ("the summary is too long for the budget and was left out of this request",)
    assert (req.first_turn, req.dropped) == (1, 1)


def test_an_included_summary_means_its_turns_are_not_dropped(conv_factory):
    conv = conv_factory(6, summary_trigger=8, keep_turns=4)
    conv.set_summary("short", 2)
    req = conv.build_request("hi")
    assert (req.first_turn, req.summary_included, req.dropped, req.summary_covers) == (2, True, 0, 2)


def test_shrink_budget_halves_and_refuses_when_nothing_can_go(conv_factory):
    conv = conv_factory(4, strategy="full")
    req = conv.build_request("hi")
    assert conv.shrink_budget(req) == (SYSTEM + 4 * TURN + USER) // 2
    bare = conv_factory(0, strategy="full").build_request("hi")
    assert conv.shrink_budget(bare) is None
    long_user = " ".join(["w"] * 10)  # 11 tokens: the bare request is 13, with one turn 21, half of that 10
    small = conv.build_request(long_user, budget=SYSTEM + 11 + TURN)
    assert small.tokens == 21 and conv.shrink_budget(small) == SYSTEM + 11  # never below the bare request
    odd = conv_factory(3, strategy="full").build_request("hi there")
    assert odd.tokens % 2 == 1 and conv.shrink_budget(odd) == odd.tokens // 2
    assert isinstance(conv.shrink_budget(odd), int)  # a budget is a whole number of tokens


def test_tool_results_are_shortened_only_past_the_limit(counter):
    result = {"role": "tool", "tool_call_id": "c", "content": " ".join(["x"] * 10)}
    assert shorten_tool_result(result, counter, 10) == result
    assert shorten_tool_result(result, counter, None) == result
    cut = shorten_tool_result(result, counter, 9)
    assert cut["content"].startswith("x x x x") and "9 of about 10 tokens shown" in cut["content"]
    assert cut["tool_call_id"] == "c"
    answer = {"role": "assistant", "content": " ".join(["x"] * 10)}
    assert shorten_tool_result(answer, counter, 2) == answer


def test_preview_never_changes_the_stored_summary(conv_factory):
    conv = conv_factory(9, summary_trigger=8, keep_turns=4)
    req = conv.preview_request("hi")
    assert req.summarized == 5 and req.summary_included
    assert "summarized before sending" in req.messages[0]["content"]
    assert (conv.summary, conv.summary_covers) == ("", 0)


def test_summary_now_with_a_failing_summarizer_says_why_and_changes_nothing(conv_factory):
    conv = conv_factory(6, strategy="summary", keep_turns=2)

    def failing(previous, turns, first):
        raise RuntimeError("the model is away")

    assert fold_now(conv, failing) == (0, ["summarizing failed (the model is away)"])
    assert (conv.summary, conv.summary_covers, len(conv.turns)) == ("", 0, 6)


def test_the_preview_names_the_turns_its_summary_stands_in_for(conv_factory):
    conv = conv_factory(9, summary_trigger=8, keep_turns=4)
    assert conv.preview_request("hi").messages[0]["content"].endswith("(turns 1-5: summarized before sending)")


def test_tool_calls_and_names_count_toward_the_budget(counter):
    call = {"id": "c1", "type": "function", "function": {"name": "web search", "arguments": '{"q": "two words"}'}}
    assistant = {"role": "assistant", "content": None, "tool_calls": [call, call]}
    # per message 1; per call: the format's 15, the name (2 words), the arguments (3 words)
    assert counter.count_message(assistant) == 1 + 2 * (15 + 2 + 3)
    result = {"role": "tool", "tool_call_id": "c1", "name": "web search", "content": "found it"}
    assert counter.count_message(result) == 1 + 2 + 2
    parsed = {**call, "function": {"name": "f", "arguments": {"q": 1}}}  # arguments given as an object
    assert counter.count_message({"role": "assistant", "content": "", "tool_calls": [parsed]}) == 1 + 15 + 1 + 2


def test_a_turn_with_tool_calls_costs_its_calls_in_the_request(conv_factory):
    plain = conv_factory(1, strategy="full").build_request("hi")
    with_tools = conv_factory(1, strategy="full", tool_every=1).build_request("hi")
    # the call message: 1 + 15 + name 1 + arguments "{}" 1; the result "result 1": 1 + 2
    assert with_tools.tokens - plain.tokens == (1 + 15 + 1 + 1) + (1 + 2)


def test_the_retry_floor_is_the_bare_request_without_the_summary(conv_factory):
    conv = conv_factory(2)
    conv.set_summary("S", 1)
    user = " ".join(["w"] * 30)  # 31 tokens: the bare request (system "sys" and this) is 33
    req = conv.build_request(user)
    assert req.summary_included and req.tokens == 17 + TURN + 31  # the system message with the summary (quoted) is 17
    assert conv.shrink_budget(req) == 33  # half of 56 would be below the bare request


def test_why_no_summary_was_made_is_told_before_that_the_old_one_was_left_out(conv_factory):
    conv = conv_factory(10, summary_trigger=8, keep_turns=4)  # a fold is due, and no summarizer can make it
    conv.set_summary(" ".join(["s"] * 50), 1)
    req = conv.build_request("hi", budget=SYSTEM + USER + TURN)
    assert not req.summary_included
    assert req.warnings == (
        "no summarizer available: this request sends the last 1 of 9 unsummarized turn(s), as many as the budget has "
        "room for",
        "the summary is too long for the budget and was left out of this request",
    )
