"""The fifth held-out recall probe set (bench/probes_heldout5.py): the shape and API of sets 1 to 4, new facts."""

from __future__ import annotations

import importlib.util
import inspect
import re
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
#: what a recall bench uses from a probe set, so it can take any of them
API = ("STYLES", "Turn", "Fact", "Twin", "Conversation", "Question", "questions", "conversations", "validate")
#: the people and pets sets 1 and 2 name (sets 3 and 4 list their own in PEOPLE), which the fifth set must not reuse
EARLIER_PEOPLE = (
    "Mark", "Lily", "Priya", "Dana", "Gerald", "Pruitt", "Renée", "Biscuit", "Okafor", "Lindqvist", "Priyanka",
    "준호", "한지우", "박도윤", "Daniel", "보리", "콩이",
)  # fmt: skip


def _load(name: str) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def probes() -> ModuleType:
    return _load("probes_heldout5")


@pytest.fixture(scope="module")
def earlier() -> list[ModuleType]:
    return [_load("probes_heldout"), _load("probes_heldout2"), _load("probes_heldout3"), _load("probes_heldout4")]


def _everything(module: ModuleType, conv: Any) -> str:
    """All a conversation says: its turns and every question asked about it."""
    return "\n".join([t.text() for t in conv.turns] + [q.text for q in module.questions(conv)])


def test_the_probe_set_has_no_problems(probes: ModuleType) -> None:
    assert probes.validate() == []


def test_four_conversations_of_44_turns_with_every_question_style(probes: ModuleType) -> None:
    convs = probes.conversations()
    assert [c.name for c in convs] == ["english", "korean", "mixed", "code"]
    assert [c.language for c in convs] == ["en", "ko", "ko+en", "en"]
    for conv in convs:
        kinds: dict[str, int] = {}
        for q in probes.questions(conv):
            kinds[q.kind] = kinds.get(q.kind, 0) + 1
            assert 45 <= q.at <= 60
        endings = {"endings": 12} if conv.language != "en" else {}
        assert kinds == {"keyword": 12, "paraphrase": 12, **endings, "twin": 4, "unrelated": 10}, conv.name
        assert len(conv.turns) == 44
        assert all(1 <= f.turn <= 25 for f in conv.facts)


def test_a_bench_can_take_any_set(probes: ModuleType, earlier: list[ModuleType]) -> None:
    for other in earlier:
        for name in API:
            ours, theirs = getattr(probes, name), getattr(other, name)
            if inspect.isfunction(theirs):
                assert inspect.signature(ours) == inspect.signature(theirs), name
            else:
                assert ours is theirs or ours == theirs, name
        assert [c.language for c in probes.conversations()] == [c.language for c in other.conversations()]


def test_the_fifth_set_asks_about_other_facts_than_the_first_four(
    probes: ModuleType, earlier: list[ModuleType]
) -> None:
    ours_all = "\n".join(_everything(probes, c) for c in probes.conversations()).lower()
    our_questions = {q.text for c in probes.conversations() for q in probes.questions(c)}
    for other in earlier:
        theirs_all = "\n".join(_everything(other, c) for c in other.conversations()).lower()
        for conv in probes.conversations():
            assert not [f.proof for f in conv.facts if f.proof.lower() in theirs_all], conv.name
        for conv in other.conversations():
            assert not [f.proof for f in conv.facts if f.proof.lower() in ours_all], (other.__name__, conv.name)
        their_questions = {q.text for c in other.conversations() for q in other.questions(c)}
        assert not our_questions & their_questions, other.__name__


def test_the_fifth_set_names_other_people_than_the_first_four(probes: ModuleType, earlier: list[ModuleType]) -> None:
    ours = "\n".join(_everything(probes, c) for c in probes.conversations())
    theirs = "\n".join(_everything(m, c) for m in earlier for c in m.conversations())
    assert all(name in ours for name in probes.PEOPLE)  # the list names people who are in the set
    assert not [name for name in probes.PEOPLE if name in theirs]
    named_before = (*EARLIER_PEOPLE, *earlier[2].PEOPLE, *earlier[3].PEOPLE)
    assert not [name for name in named_before if re.search(rf"(?<![A-Za-z]){name}(?![A-Za-z])", ours)]


def test_the_code_conversation_calls_tools_and_gets_results(probes: ModuleType) -> None:
    code = probes.conversations()[3]
    with_tools = [t for t in code.turns if t.tool]
    assert len(with_tools) >= 10
    assert {t.tool for t in with_tools} == {"run_shell", "run_tests", "read_file", "grep"}
    messages = with_tools[0].messages(1)
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "assistant"]
    assert messages[1]["tool_calls"][0]["id"] == messages[2]["tool_call_id"]
    assert messages[2]["content"] == with_tools[0].result


def test_a_twin_question_names_the_right_fact_and_its_look_alike(probes: ModuleType) -> None:
    english, korean, mixed, code = probes.conversations()
    mobile = english.twins[0]
    assert (mobile.proof, mobile.twin_proof) == ("07911 402 663", "0113 496 0219")
    phone = korean.twins[0]
    assert (phone.proof, phone.twin_proof) == ("010-3915-2207", "010-7741-3068")
    extension = mixed.twins[0]
    assert (extension.proof, extension.twin_proof) == ("4185", "4172")
    port = code.twins[0]
    assert (port.proof, port.twin_proof) == ("9091", "8089")


def test_a_paraphrase_sharing_a_word_with_its_fact_is_caught(probes: ModuleType) -> None:
    code = probes.conversations()[3]
    fact = code.facts[1]
    bad = replace(fact, questions={**fact.questions, "paraphrase": "Which port is my proxy on?"})
    broken = replace(code, facts=(code.facts[0], bad, *code.facts[2:]))
    assert any("paraphrase shares" in line for line in probes.validate([broken]))


def test_a_proof_repeated_in_a_filler_turn_is_caught(probes: ModuleType) -> None:
    mixed = probes.conversations()[2]
    leak = probes.Turn("그 장애 건이요?", f"네, {mixed.facts[4].proof} 말씀하시는 거죠?")
    broken = replace(mixed, turns=(*mixed.turns[:39], leak, *mixed.turns[40:]))
    assert any("also in turns [40]" in line for line in probes.validate([broken]))


def test_an_endings_question_with_the_facts_own_word_forms_is_caught(probes: ModuleType) -> None:
    korean = probes.conversations()[1]
    fact = korean.facts[11]
    bad = replace(fact, questions={**fact.questions, "endings": "안과에서 시우 시력이 어때?"})
    broken = replace(korean, facts=(*korean.facts[:11], bad))
    assert any("endings question" in line for line in probes.validate([broken]))


def test_an_unrelated_question_sharing_a_fact_word_is_caught(probes: ModuleType) -> None:
    english = probes.conversations()[0]
    broken = replace(english, unrelated=(*english.unrelated[:9], "Is the Tanner Street garage any good?"))
    assert any("unrelated 'Is the Tanner Street" in line for line in probes.validate([broken]))


def test_too_few_unrelated_questions_or_twins_are_caught(probes: ModuleType) -> None:
    mixed = probes.conversations()[2]
    lines = probes.validate([replace(mixed, unrelated=mixed.unrelated[:9], twins=mixed.twins[:3])])
    assert any("9 unrelated" in line for line in lines)
    assert any("3 look-alike" in line for line in lines)
