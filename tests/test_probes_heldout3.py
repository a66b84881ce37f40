"""The third held-out recall probe set (bench/probes_heldout3.py): its tools, its look-alikes and the validator
catching what breaks the rules in its data (the checks every set shares: tests/test_probe_sets.py)."""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType

import pytest

from tests.support.probe_sets import load


@pytest.fixture(scope="module")
def probes() -> ModuleType:
    return load("probes_heldout3")


def test_the_code_conversation_calls_these_tools(probes: ModuleType) -> None:
    code = probes.conversations()[3]
    assert {t.tool for t in code.turns if t.tool} == {"run_shell", "run_tests", "read_file"}


def test_a_twin_question_names_the_right_fact_and_its_look_alike(probes: ModuleType) -> None:
    english, korean, mixed, code = probes.conversations()
    phone = english.twins[0]
    assert (phone.proof, phone.twin_proof) == ("604-555-0139", "604-555-0176")
    checkup = korean.twins[3]
    assert (checkup.proof, checkup.twin_proof) == ("4월 26일", "4월 12일")
    handover = mixed.twins[0]
    assert (handover.proof, handover.twin_proof) == ("정민호", "오세린")
    port = code.twins[0]
    assert (port.proof, port.twin_proof) == ("9187", "7051")


def test_a_paraphrase_sharing_a_word_with_its_fact_is_caught(probes: ModuleType) -> None:
    code = probes.conversations()[3]
    fact = code.facts[1]
    bad = replace(fact, questions={**fact.questions, "paraphrase": "Where does Prometheus scrape from?"})
    broken = replace(code, facts=(code.facts[0], bad, *code.facts[2:]))
    assert any("paraphrase shares" in line for line in probes.validate([broken]))


def test_a_proof_repeated_in_a_filler_turn_is_caught(probes: ModuleType) -> None:
    mixed = probes.conversations()[2]
    leak = probes.Turn("그 VPN 주소요?", f"네, {mixed.facts[11].proof} 말씀하시는 거죠?")
    broken = replace(mixed, turns=(*mixed.turns[:39], leak, *mixed.turns[40:]))
    assert any("also in turns [40]" in line for line in probes.validate([broken]))


def test_an_endings_question_with_the_facts_own_word_forms_is_caught(probes: ModuleType) -> None:
    korean = probes.conversations()[1]
    fact = korean.facts[11]
    bad = replace(fact, questions={**fact.questions, "endings": "신혼집 전세 잔금은?"})
    broken = replace(korean, facts=(*korean.facts[:11], bad))
    assert any("endings question" in line for line in probes.validate([broken]))


def test_an_unrelated_question_sharing_a_fact_word_is_caught(probes: ModuleType) -> None:
    english = probes.conversations()[0]
    broken = replace(english, unrelated=(*english.unrelated[:9], "Is quartz a good gift for a birthday?"))
    assert any("unrelated 'Is quartz a good gift" in line for line in probes.validate([broken]))


def test_too_few_unrelated_questions_or_twins_are_caught(probes: ModuleType) -> None:
    korean = probes.conversations()[1]
    lines = probes.validate([replace(korean, unrelated=korean.unrelated[:9], twins=korean.twins[:3])])
    assert any("9 unrelated" in line for line in lines)
    assert any("3 look-alike" in line for line in lines)
