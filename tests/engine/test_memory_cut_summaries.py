"""What a summary cut off at its cap keeps (:func:`chatbot.engine.folds.whole_part`): its text up to the last complete
sentence or line, whichever ends later; nothing when that leaves no real text (empty, no letter or digit, or less than
half of what came: one long sentence cut in its middle). And a summary that repeats its request (a pretrained model
continuing its prompt) is never kept, cut or not."""

from __future__ import annotations

from typing import Any

import pytest

from chatbot.engine.conversation import Conversation
from chatbot.engine.folds import whole_part
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.summary_prompt import SUMMARY_INSTRUCTIONS, echoes_request, summary_request
from tests.conftest import make_turn


def test_a_cut_summary_of_bullet_points_keeps_its_complete_lines():
    assert whole_part("- rent is 900\n- food 300\n- transport 4") == ("- rent is 900\n- food 300", "line")


def test_a_cut_summary_of_prose_keeps_its_complete_sentences():
    whole = "The user budgets 900 for rent. Food is about 300! Is insurance due in March?"
    assert whole_part(f"{whole} Transport costs 4") == (whole, "sentence")


def test_the_later_of_the_last_sentence_and_the_last_line_wins():
    assert whole_part("- rent is 900\n- food is 300. Savings are 150 and tr") == (
        "- rent is 900\n- food is 300.",
        "sentence",
    )
    lines = '- he said "stop." Then\n- savings 150'
    assert whole_part(f"{lines}\n- tra") == (lines, "line")


@pytest.mark.parametrize(
    "text",
    [
        "",  # a reasoning model that spent the cap thinking
        "   \n ",
        "one long sentence that never ends because the cap cut it off",
        "Short. Then a very long sentence that goes on and on and on and on and on and on and on",  # keeps too little
        "- \n- ",  # nothing with a letter or a digit
        "Rent is 3.",  # a full stop at the very end may be mid-number ("3.5")
    ],
)
def test_a_cut_that_leaves_no_real_text_keeps_nothing(text):
    assert whole_part(text) == ("", "")


def parroting(previous: str, turns: list[list[dict[str, Any]]], first: int) -> str:
    """A pretrained model that continues its prompt instead of following it (Gemma 3 270M on llama.cpp, measured:
    its cut "summary" was the instructions over and over, kept up to its last full line)."""
    return summary_request(previous, turns, first)[0]["content"].rsplit("\n", 1)[0]


def test_a_summary_that_repeats_its_request_is_not_kept_and_the_turns_stay_unsummarized():
    conv = Conversation("sys", MemoryConfig(strategy="summary", summary_trigger=2, keep_turns=1))
    for i in range(1, 5):
        conv.add_turn(make_turn(i, words=40))
    request = conv.build_request("next", summarizer=parroting)
    assert (conv.summary, conv.summary_covers) == ("", 0)
    assert request.warnings[0].startswith(
        "the summary repeats its request instead of summarizing it, so it was not kept"
    )
    assert request.dropped == 0 and request.summarized == 0


@pytest.mark.parametrize(
    "text",
    [
        SUMMARY_INSTRUCTIONS.format(words=250),
        "- rent 900\n\nPrevious summary:\n- rent 900",
        "- rent 900\n  New turns to merge:\n--- turn 5\nUser: Step 5 of my household budget.",
        "New turns to merge:",
    ],
)
def test_a_summary_with_a_line_of_its_request_repeats_it(text):
    assert echoes_request(text)


def test_a_summary_that_only_mentions_the_labels_or_copied_a_turn_marker_does_not_repeat_its_request():
    assert not echoes_request("- the user asked how a previous summary: is merged\n- turn 5 of the plan: rent 900")
    assert not echoes_request("- a reply showed this:\n--- turn 7\nUser: hello")  # quoted where it rides
