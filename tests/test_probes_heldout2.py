"""The second held-out recall probe set (bench/probes_heldout2.py): its look-alikes and the validator catching
what breaks the rules in its data (the checks every set shares: tests/test_probe_sets.py)."""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType

import pytest

from tests.support.probe_sets import load


@pytest.fixture(scope="module")
def probes() -> ModuleType:
    return load("probes_heldout2")


def test_a_twin_question_names_the_right_fact_and_its_look_alike(probes: ModuleType) -> None:
    english, korean = probes.conversations()[:2]
    door = english.twins[0]
    assert (door.proof, door.twin_proof) == ("2591", "7306")
    mum = korean.twins[2]
    assert (mum.proof, mum.twin_proof) == ("2월 11일", "음력 8월 3일")


def test_a_paraphrase_sharing_a_word_with_its_fact_is_caught(probes: ModuleType) -> None:
    code = probes.conversations()[3]
    fact = code.facts[5]
    bad = replace(fact, questions={**fact.questions, "paraphrase": "Which URL serves GraphQL before release?"})
    broken = replace(code, facts=(*code.facts[:5], bad, *code.facts[6:]))
    assert any("paraphrase shares" in line for line in probes.validate([broken]))


def test_a_proof_repeated_in_a_filler_turn_is_caught(probes: ModuleType) -> None:
    mixed = probes.conversations()[2]
    leak = probes.Turn("그 Jira 티켓이요?", f"네, {mixed.facts[3].proof} 말씀하시는 거죠?")
    broken = replace(mixed, turns=(*mixed.turns[:35], leak, *mixed.turns[36:]))
    assert any("also in turns [36]" in line for line in probes.validate([broken]))


def test_an_endings_question_with_the_facts_own_word_forms_is_caught(probes: ModuleType) -> None:
    korean = probes.conversations()[1]
    fact = korean.facts[9]
    bad = replace(fact, questions={**fact.questions, "endings": "필라테스 회원번호는?"})
    broken = replace(korean, facts=(*korean.facts[:9], bad, *korean.facts[10:]))
    assert any("endings question" in line for line in probes.validate([broken]))


def test_an_unrelated_question_sharing_a_fact_word_is_caught(probes: ModuleType) -> None:
    english = probes.conversations()[0]
    broken = replace(english, unrelated=(*english.unrelated[:9], "How do I stop a cat scratching the sofa?"))
    assert any("unrelated 'How do I stop a cat" in line for line in probes.validate([broken]))


def test_too_few_unrelated_questions_or_twins_are_caught(probes: ModuleType) -> None:
    code = probes.conversations()[3]
    lines = probes.validate([replace(code, unrelated=code.unrelated[:9], twins=code.twins[:3])])
    assert any("9 unrelated" in line for line in lines)
    assert any("3 look-alike" in line for line in lines)
