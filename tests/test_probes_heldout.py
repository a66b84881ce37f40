"""The held-out recall probes (bench/probes_heldout.py) keep the shape the recall bench relies on."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest

PATH = Path(__file__).resolve().parents[1] / "bench" / "probes_heldout.py"


@pytest.fixture(scope="module")
def probes() -> ModuleType:
    spec = importlib.util.spec_from_file_location("probes_heldout", PATH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def test_the_probe_set_has_no_problems(probes: ModuleType) -> None:
    assert probes.validate() == []


def test_four_conversations_of_44_turns_with_every_question_style(probes: ModuleType) -> None:
    convs = probes.conversations()
    assert [c.name for c in convs] == ["english", "korean", "mixed", "code"]
    for conv in convs:
        kinds: dict[str, int] = {}
        for q in probes.questions(conv):
            kinds[q.kind] = kinds.get(q.kind, 0) + 1
            assert 45 <= q.at <= 60
        endings = {"endings": 12} if conv.language != "en" else {}
        assert kinds == {"keyword": 12, "paraphrase": 12, **endings, "twin": 4, "unrelated": 10}, conv.name
        assert len(conv.turns) == 44
        assert all(1 <= f.turn <= 25 for f in conv.facts)


def test_the_code_conversation_calls_tools_and_gets_results(probes: ModuleType) -> None:
    code = probes.conversations()[3]
    with_tools = [t for t in code.turns if t.tool]
    assert len(with_tools) >= 10
    messages = with_tools[0].messages(1)
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "assistant"]
    assert messages[1]["tool_calls"][0]["id"] == messages[2]["tool_call_id"]
    assert messages[2]["content"] == with_tools[0].result


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
