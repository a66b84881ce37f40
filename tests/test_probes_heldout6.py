"""The sixth held-out recall probe set (bench/probes_heldout6.py): its tools, its look-alikes and the validator
catching what breaks the rules in its data (the checks every set shares: tests/test_probe_sets.py)."""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType

import pytest

from tests.support.probe_sets import load


@pytest.fixture(scope="module")
def probes() -> ModuleType:
    return load("probes_heldout6")


def test_the_code_conversation_calls_these_tools(probes: ModuleType) -> None:
    code = probes.conversations()[3]
    assert {t.tool for t in code.turns if t.tool} == {"run_shell", "run_tests", "read_file", "grep"}


def test_a_twin_question_names_the_right_fact_and_its_look_alike(probes: ModuleType) -> None:
    english, korean, mixed, code = probes.conversations()
    mobile = english.twins[0]
    assert (mobile.proof, mobile.twin_proof) == ("07456 213 877", "07823 554 190")
    temperature = korean.twins[1]
    assert (temperature.proof, temperature.twin_proof) == ("26.5도", "7.5도")
    storage = mixed.twins[0]
    assert (storage.proof, storage.twin_proof) == ("canister 6", "box 17")
    branch = code.twins[1]
    assert (branch.proof, branch.twin_proof) == ("fix/slot-advisory-lock", "feat/sms-reminders")


def test_a_paraphrase_sharing_a_word_with_its_fact_is_caught(probes: ModuleType) -> None:
    code = probes.conversations()[3]
    fact = code.facts[1]
    bad = replace(fact, questions={**fact.questions, "paraphrase": "Where do I see the confirmation emails locally?"})
    broken = replace(code, facts=(code.facts[0], bad, *code.facts[2:]))
    assert any("paraphrase shares" in line for line in probes.validate([broken]))


def test_a_proof_repeated_in_a_filler_turn_is_caught(probes: ModuleType) -> None:
    mixed = probes.conversations()[2]
    leak = probes.Turn("그 antibody 말하는 거죠?", f"네, {mixed.facts[6].proof} 맞아요.")
    broken = replace(mixed, turns=(*mixed.turns[:39], leak, *mixed.turns[40:]))
    assert any("also in turns [40]" in line for line in probes.validate([broken]))


def test_an_endings_question_with_the_facts_own_word_forms_is_caught(probes: ModuleType) -> None:
    korean = probes.conversations()[1]
    fact = korean.facts[11]
    bad = replace(fact, questions={**fact.questions, "endings": "양액은 맞춰서 주고 있어요?"})
    broken = replace(korean, facts=(*korean.facts[:11], bad))
    assert any("endings question" in line for line in probes.validate([broken]))


def test_an_unrelated_question_sharing_a_fact_word_is_caught(probes: ModuleType) -> None:
    english = probes.conversations()[0]
    broken = replace(english, unrelated=(*english.unrelated[:9], "Is the outer harbour sheltered?"))
    assert any("unrelated 'Is the outer harbour" in line for line in probes.validate([broken]))


def test_too_few_unrelated_questions_or_twins_are_caught(probes: ModuleType) -> None:
    korean = probes.conversations()[1]
    lines = probes.validate([replace(korean, unrelated=korean.unrelated[:9], twins=korean.twins[:3])])
    assert any("9 unrelated" in line for line in lines)
    assert any("3 look-alike" in line for line in lines)
