"""The first held-out recall probe set (bench/probes_heldout.py): its look-alikes, its comparison keys and the
validator catching what breaks the rules (the checks every set shares: tests/test_probe_sets.py)."""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType

import pytest

from tests.support.probe_sets import load


@pytest.fixture(scope="module")
def probes() -> ModuleType:
    return load("probes_heldout")


def test_a_twin_question_names_the_right_fact_and_its_look_alike(probes: ModuleType) -> None:
    english = probes.conversations()[0]
    brother = english.twins[0]
    assert (brother.proof, brother.twin_proof) == ("DL 388", "UA 1472")


def test_word_forms_meet_under_the_comparison_keys(probes: ModuleType) -> None:
    assert probes.content_keys("I parked the car") & probes.content_keys("where do I park")
    assert probes.content_keys("차를 어디에") & probes.content_keys("차는 지하에")
    assert not probes.content_keys("good morning") & probes.content_keys("the car is on level 3")


def test_a_paraphrase_sharing_a_word_with_its_fact_is_caught(probes: ModuleType) -> None:
    english = probes.conversations()[0]
    fact = english.facts[1]
    bad = replace(fact, questions={**fact.questions, "paraphrase": "Where is the car?"})
    broken = replace(english, facts=(english.facts[0], bad, *english.facts[2:]))
    assert any("paraphrase shares" in line for line in probes.validate([broken]))


def test_a_proof_repeated_in_a_filler_turn_is_caught(probes: ModuleType) -> None:
    korean = probes.conversations()[1]
    leak = probes.Turn(f"참고로 {korean.facts[0].proof} 얘기는 아니고요.", "네.")
    broken = replace(korean, turns=(*korean.turns[:30], leak, *korean.turns[31:]))
    assert any("also in turns [31]" in line for line in probes.validate([broken]))


def test_an_endings_question_with_the_facts_own_word_forms_is_caught(probes: ModuleType) -> None:
    korean = probes.conversations()[1]
    fact = korean.facts[1]
    bad = replace(fact, questions={**fact.questions, "endings": "차는 어디?"})
    broken = replace(korean, facts=(korean.facts[0], bad, *korean.facts[2:]))
    assert any("endings question" in line for line in probes.validate([broken]))


def test_too_few_unrelated_questions_or_twins_are_caught(probes: ModuleType) -> None:
    mixed = probes.conversations()[2]
    lines = probes.validate([replace(mixed, unrelated=mixed.unrelated[:9], twins=mixed.twins[:3])])
    assert any("9 unrelated" in line for line in lines)
    assert any("3 look-alike" in line for line in lines)
