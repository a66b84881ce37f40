"""Every held-out recall probe set keeps one shape and API (so a bench takes any of them), passes its own checks,
catches what breaks its rules in its own data, and asks about other facts, in other questions, with other people than
every set written before it; each set's look-alikes and tools are pinned in one table."""

from __future__ import annotations

import inspect
import re
from dataclasses import replace
from typing import Any

import pytest

from tests.support.probe_sets import API, SETS, everything, load

#: the people and pets sets 1 and 2 name (later sets list their own in PEOPLE), which no later set may reuse
EARLIER_PEOPLE = (
    "Mark", "Lily", "Priya", "Dana", "Gerald", "Pruitt", "Renée", "Biscuit", "Okafor", "Lindqvist", "Priyanka",
    "준호", "한지우", "박도윤", "Daniel", "보리", "콩이",
)  # fmt: skip


@pytest.mark.parametrize("name", SETS)
def test_the_probe_set_has_no_problems(name: str) -> None:
    assert load(name).validate() == []


@pytest.mark.parametrize("name", SETS)
def test_four_conversations_of_44_turns_with_every_question_style(name: str) -> None:
    probes = load(name)
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


@pytest.mark.parametrize("name", SETS)
def test_the_code_conversation_calls_tools_and_gets_results(name: str) -> None:
    code = load(name).conversations()[3]
    with_tools = [t for t in code.turns if t.tool]
    assert len(with_tools) >= 10
    messages = with_tools[0].messages(1)
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "assistant"]
    assert messages[1]["tool_calls"][0]["id"] == messages[2]["tool_call_id"]
    assert messages[2]["content"] == with_tools[0].result


@pytest.mark.parametrize("later", range(1, len(SETS)))
def test_a_bench_can_take_any_set(later: int) -> None:
    probes = load(SETS[later])
    for other in map(load, SETS[:later]):
        for name in API:
            ours, theirs = getattr(probes, name), getattr(other, name)
            if inspect.isfunction(theirs):
                assert inspect.signature(ours) == inspect.signature(theirs), name
            else:
                assert ours is theirs or ours == theirs, name


#: from this set on (0-based: set 4), a set's proofs are new against every conversation of the sets before it; sets 2
#: and 3 were written to the rule of one conversation against its counterpart ("22%" of set 2's mixed conversation
#: is said in set 1's, "1187" of set 2's code conversation in set 3's)
ACROSS_CONVERSATIONS_FROM = 3


def _compared(later: int, ours: list[Any], theirs: list[Any]) -> list[tuple[list[Any], list[Any]]]:
    """The conversations compared: each with its counterpart, or (from :data:`ACROSS_CONVERSATIONS_FROM`) all."""
    if later >= ACROSS_CONVERSATIONS_FROM:
        return [(ours, theirs)]
    return [([a], [b]) for a, b in zip(ours, theirs, strict=True)]


@pytest.mark.parametrize("later", range(1, len(SETS)))
def test_each_set_asks_about_other_facts_than_the_sets_before_it(later: int) -> None:
    probes = load(SETS[later])
    for other in map(load, SETS[:later]):
        for ours, theirs in _compared(later, probes.conversations(), other.conversations()):
            our_text = "\n".join(everything(probes, c) for c in ours).lower()
            their_text = "\n".join(everything(other, c) for c in theirs).lower()
            assert not [f.proof for c in ours for f in c.facts if f.proof.lower() in their_text], other.__name__
            assert not [f.proof for c in theirs for f in c.facts if f.proof.lower() in our_text], other.__name__
            our_questions = {q.text for c in ours for q in probes.questions(c)}
            assert not our_questions & {q.text for c in theirs for q in other.questions(c)}, other.__name__


@pytest.mark.parametrize("later", range(2, len(SETS)))
def test_each_set_names_other_people_than_the_sets_before_it(later: int) -> None:
    probes, earlier = load(SETS[later]), [load(n) for n in SETS[:later]]
    ours = "\n".join(everything(probes, c) for c in probes.conversations())
    theirs = "\n".join(everything(m, c) for m in earlier for c in m.conversations())
    assert all(name in ours for name in probes.PEOPLE)  # the list names people who are in the set
    assert not [name for name in probes.PEOPLE if name in theirs]
    named_before = (*EARLIER_PEOPLE, *(name for m in earlier for name in getattr(m, "PEOPLE", ())))
    assert not [name for name in named_before if re.search(rf"(?<![A-Za-z]){name}(?![A-Za-z])", ours)]


#: one look-alike of each conversation a set pins: (conversation, which twin, its proof, its look-alike's proof)
TWINS = {
    "probes_heldout": [("english", 0, "DL 388", "UA 1472")],
    "probes_heldout2": [("english", 0, "2591", "7306"), ("korean", 2, "2월 11일", "음력 8월 3일")],
    "probes_heldout3": [
        ("english", 0, "604-555-0139", "604-555-0176"),
        ("korean", 3, "4월 26일", "4월 12일"),
        ("mixed", 0, "정민호", "오세린"),
        ("code", 0, "9187", "7051"),
    ],
    "probes_heldout4": [
        ("english", 0, "Saturday 18 May", "Thursday 9 May"),
        ("korean", 0, "010-2264-7315", "010-5832-9047"),
        ("mixed", 0, "184772", "184503"),
        ("code", 0, "8899", "5055"),
    ],
    "probes_heldout5": [
        ("english", 0, "07911 402 663", "0113 496 0219"),
        ("korean", 0, "010-3915-2207", "010-7741-3068"),
        ("mixed", 0, "4185", "4172"),
        ("code", 0, "9091", "8089"),
    ],
    "probes_heldout6": [
        ("english", 0, "07456 213 877", "07823 554 190"),
        ("korean", 1, "26.5도", "7.5도"),
        ("mixed", 0, "canister 6", "box 17"),
        ("code", 1, "fix/slot-advisory-lock", "feat/sms-reminders"),
    ],
    "probes_heldout7": [
        ("english", 0, "07950 118 642", "07712 480 366"),
        ("korean", 1, "6월 27일", "7월 12일"),
        ("mixed", 0, "8817", "6284"),
        ("code", 1, "fix/hold-expiry-race", "feat/vehicle-deck-quota"),
    ],
    "probes_heldout8": [
        ("english", 0, "07519 330 274", "07384 602 915"),
        ("korean", 3, "59,000원", "185만 원"),
        ("mixed", 1, "KQ58290.3", "KQ58314.1"),
        ("code", 3, "PickWave.ZoneSkipping", "PickWave.SmartBatching"),
    ],
}
#: the tools the code conversation of each set from the third on calls
TOOLS = {
    "probes_heldout3": {"run_shell", "run_tests", "read_file"},
    "probes_heldout4": {"run_shell", "run_tests", "read_file", "run_cell"},
    "probes_heldout5": {"run_shell", "run_tests", "read_file", "grep"},
    "probes_heldout6": {"run_shell", "run_tests", "read_file", "grep"},
    "probes_heldout7": {"run_shell", "run_tests", "read_file", "grep"},
    "probes_heldout8": {"run_shell", "run_tests", "read_file", "grep"},
}


@pytest.mark.parametrize("name", SETS)
def test_a_twin_question_names_the_right_fact_and_its_look_alike(name: str) -> None:
    convs = {c.name: c for c in load(name).conversations()}
    for conv, which, proof, twin_proof in TWINS[name]:
        twin = convs[conv].twins[which]
        assert (twin.proof, twin.twin_proof) == (proof, twin_proof), conv


@pytest.mark.parametrize("name", sorted(TOOLS))
def test_the_code_conversation_calls_these_tools(name: str) -> None:
    code = load(name).conversations()[3]
    assert {t.tool for t in code.turns if t.tool} == TOOLS[name]


def _with_fact(conv: Any, at: int, **questions: str) -> Any:
    """``conv`` with the questions of its ``at``-th fact changed."""
    fact = conv.facts[at]
    bad = replace(fact, questions={**fact.questions, **questions})
    return replace(conv, facts=(*conv.facts[:at], bad, *conv.facts[at + 1 :]))


@pytest.mark.parametrize("name", SETS)
def test_a_paraphrase_sharing_a_word_with_its_fact_is_caught(name: str) -> None:
    probes = load(name)
    for conv in probes.conversations():
        broken = _with_fact(conv, 1, paraphrase=conv.facts[1].questions["keyword"])
        assert any("paraphrase shares" in line for line in probes.validate([broken])), conv.name


@pytest.mark.parametrize("name", SETS)
def test_a_proof_repeated_in_a_filler_turn_is_caught(name: str) -> None:
    probes = load(name)
    for conv in probes.conversations():
        leak = probes.Turn(f"So that was {conv.facts[0].proof}, right?", "Yes.")
        broken = replace(conv, turns=(*conv.turns[:39], leak, *conv.turns[40:]))
        assert any("also in turns [40]" in line for line in probes.validate([broken])), conv.name


@pytest.mark.parametrize("name", SETS)
def test_an_endings_question_with_the_facts_own_word_forms_is_caught(name: str) -> None:
    probes = load(name)
    for conv in probes.conversations()[1:3]:  # Korean, and Korean with English
        broken = _with_fact(conv, 11, endings=conv.facts[11].said)
        assert any("endings question" in line for line in probes.validate([broken])), conv.name


@pytest.mark.parametrize("name", SETS)
def test_an_unrelated_question_sharing_a_fact_word_is_caught(name: str) -> None:
    probes = load(name)
    for conv in probes.conversations():
        asked = conv.facts[2].questions["keyword"]
        broken = replace(conv, unrelated=(*conv.unrelated[:9], asked))
        assert any(f"unrelated {asked!r} shares" in line for line in probes.validate([broken])), conv.name


@pytest.mark.parametrize("name", SETS)
def test_too_few_unrelated_questions_or_twins_are_caught(name: str) -> None:
    probes = load(name)
    for conv in probes.conversations():
        lines = probes.validate([replace(conv, unrelated=conv.unrelated[:9], twins=conv.twins[:3])])
        assert any("9 unrelated" in line for line in lines) and any("3 look-alike" in line for line in lines)
