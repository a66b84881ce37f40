"""What a summary cut off at its cap keeps (:func:`chatbot.engine.folds.whole_part`): its text up to the last complete
sentence or line, whichever ends later; nothing when that leaves no real text (empty, no letter or digit, or less than
half of what came: one long sentence cut in its middle)."""

from __future__ import annotations

import pytest

from chatbot.engine.folds import whole_part


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
