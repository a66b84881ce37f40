"""The second held-out recall probe set (bench/probes_heldout2.py): the first set's shape and API, new facts."""

from __future__ import annotations

import importlib.util
import inspect
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
#: what a recall bench uses from a probe set, so it can take either module
API = ("STYLES", "Turn", "Fact", "Twin", "Conversation", "Question", "questions", "conversations", "validate")


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
    return _load("probes_heldout2")


@pytest.fixture(scope="module")
def first() -> ModuleType:
    return _load("probes_heldout")


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


def test_a_bench_can_take_either_set(probes: ModuleType, first: ModuleType) -> None:
    for name in API:
        ours, theirs = getattr(probes, name), getattr(first, name)
        if inspect.isfunction(theirs):
            assert inspect.signature(ours) == inspect.signature(theirs), name
        else:
            assert ours is theirs or ours == theirs, name
    assert probes.conversations()[0].language == first.conversations()[0].language


def test_the_second_set_asks_about_other_facts_than_the_first(probes: ModuleType, first: ModuleType) -> None:
    for ours, theirs in zip(probes.conversations(), first.conversations(), strict=True):
        their_text = "\n".join(t.text() for t in theirs.turns).lower()
        our_text = "\n".join(t.text() for t in ours.turns).lower()
        assert not [f.proof for f in ours.facts if f.proof.lower() in their_text], ours.name
        assert not [f.proof for f in theirs.facts if f.proof.lower() in our_text], ours.name
        assert not {q.text for q in probes.questions(ours)} & {q.text for q in first.questions(theirs)}, ours.name


def test_the_code_conversation_calls_tools_and_gets_results(probes: ModuleType) -> None:
    code = probes.conversations()[3]
    with_tools = [t for t in code.turns if t.tool]
    assert len(with_tools) >= 10
    messages = with_tools[0].messages(1)
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "assistant"]
    assert messages[1]["tool_calls"][0]["id"] == messages[2]["tool_call_id"]
    assert messages[2]["content"] == with_tools[0].result


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
