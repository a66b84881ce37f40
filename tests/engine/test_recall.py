"""Recall: earlier turns not sent verbatim come back in the system message when the new message is about them, within
the budget; an unrelated message recalls nothing; Korean words match with their particles; the index grows."""

from __future__ import annotations

import pytest

from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.recall import RECALL_HEADING, RecallIndex, search, terms
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import Turn

FILLER = [
    ("How do I keep tomato plants healthy on a balcony?", "Large pots, six hours of sun, water in the morning."),
    ("Why does a minor key sound sad?", "Partly culture, partly the narrower third."),
    ("What defines Gothic architecture?", "Pointed arches, ribbed vaults and flying buttresses."),
    ("How do migratory birds find their way?", "The sun, the stars and the magnetic field."),
    ("How should green tea be brewed?", "Below boiling, one to two minutes."),
    ("How are mountains formed?", "Mostly where tectonic plates collide."),
]
FACT = "By the way, my gym locker code is 4711."


def turn(user: str, answer: str = "Noted.") -> Turn:
    return Turn([{"role": "user", "content": user}, {"role": "assistant", "content": answer}])


def conversation(first: str = FACT, recall: int = 1, **memory) -> Conversation:
    """The fact on turn 1, then six unrelated turns; a window of two by default."""
    memory = {"strategy": "window", "window_turns": 2, **memory}
    conv = Conversation("You are terse.", MemoryConfig(recall=recall, **memory), TokenCounter())
    conv.add_turn(turn(first))
    for user, answer in FILLER:
        conv.add_turn(turn(user, answer))
    return conv


def test_a_turn_the_window_dropped_comes_back_inside_the_system_message_under_a_heading_naming_it():
    conv = conversation()
    request = conv.build_request("Which numbers open my locker at the gym again?")
    assert request.recalled == (1,)
    system = request.messages[0]["content"]
    assert system.startswith("You are terse.\n\n## ")
    assert f"## {RECALL_HEADING} (turn 1, verbatim from the stored conversation)" in system
    assert f"--- turn 1\nUser: {FACT}\nAssistant: Noted." in system
    # the rest of the request is the window, as without recall: one system message, then turns 6-7, then the message
    assert [m["role"] for m in request.messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert request.messages[1]["content"] == FILLER[-2][0]
    # the block is counted: the request's tokens are its messages' tokens
    counter = conv.counter
    assert request.tokens == counter.total(sum(counter.count_message(m) for m in request.messages))
    without = Conversation(conv.system, MemoryConfig(strategy="window", window_turns=2, recall=0), counter)
    for t in conv.turns:
        without.add_turn(t)
    assert request.tokens - without.build_request("Which numbers open my locker at the gym again?").tokens == (
        request.recall_tokens
    )
    # and shown as its own part of the request, the parts adding up to the request's estimate
    assert request.parts.recalled == request.recall_tokens > 0 and request.parts.total == request.tokens


def test_a_detail_the_summary_dropped_comes_back_after_the_summary():
    conv = conversation(strategy="summary", summary_trigger=3, keep_turns=1)

    def gist(previous, turns, first):
        return "\n".join([previous, *(f"- turn {n}: small talk" for n in range(first, first + len(turns)))]).strip()

    request = conv.build_request("what was the locker code", summarizer=gist)
    system = request.messages[0]["content"]
    assert request.summary_included and request.recalled == (1,)
    assert system.index("## Summary of the earlier conversation") < system.index(f"## {RECALL_HEADING}")
    assert "4711" in system


def test_a_message_about_nothing_earlier_recalls_nothing_and_costs_nothing():
    conv = conversation()
    request = conv.build_request("Can you write a short poem about the sea?")
    assert request.recalled == () and request.recall_tokens == 0
    assert RECALL_HEADING not in request.messages[0]["content"]
    assert request.messages[0] == {"role": "system", "content": "You are terse."}


def test_one_shared_word_in_a_longer_message_is_not_enough():
    conv = conversation()
    assert conv.build_request("Can you write code for a small web scraper in Python?").recalled == ()


def test_turns_sent_verbatim_are_never_recalled():
    conv = conversation(strategy="full")
    request = conv.build_request("Which numbers open my locker at the gym again?")
    assert request.first_turn == 0 and request.recalled == ()


def test_recall_0_turns_it_off():
    conv = conversation(recall=0)
    assert conv.build_request("Which numbers open my locker at the gym again?").recalled == ()


def test_at_most_k_turns_the_best_first_in_the_order_they_happened():
    conv = conversation(first="My locker code at the gym is 4711.", recall=2, window_turns=1)
    conv.turns.insert(3, turn("The old locker at the gym had code 1234."))
    conv.turns.insert(4, turn("I also rent a bike locker; its code is 9999."))
    request = conv.build_request("gym locker code?")
    assert len(request.recalled) == 2 and request.recalled == tuple(sorted(request.recalled))
    hits = search(conv, "gym locker code?")
    assert request.recalled == tuple(sorted(h.number for h in hits[:2]))


def test_the_budget_holds_with_recall():
    question = "Which numbers open my locker at the gym again?"
    roomy = conversation().build_request(question)
    # a budget with room for the window but not for the recalled turn too: nothing is recalled
    tight = conversation(max_input_tokens=roomy.tokens - 1).build_request(question)
    assert tight.recalled == () and tight.tokens <= tight.budget
    assert tight.first_turn == roomy.first_turn  # recall never pushes out a turn the memory rule sends
    exact = conversation(max_input_tokens=roomy.tokens).build_request(question)
    assert exact.recalled == (1,) and exact.tokens == exact.budget


def test_a_recalled_turns_long_tool_result_is_shortened_as_in_any_request():
    conv = conversation(first="look up the locker code", tool_result_tokens=20)
    call = {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": '{"q": "locker"}'}}
    long_result = "the gym locker code is 4711 " + "and more words " * 200
    conv.turns[0] = Turn(
        [
            {"role": "user", "content": "look up the locker code at the gym"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "c1", "name": "lookup", "content": long_result},
            {"role": "assistant", "content": "It is 4711."},
        ]
    )
    system = conv.build_request("what is the gym locker code?").messages[0]["content"]
    assert 'Assistant called tool lookup({"q": "locker"})' in system
    assert "Tool result (lookup): the gym locker code is 4711" in system
    assert "[tool result shortened for this request" in system and long_result not in system


@pytest.mark.parametrize("asked", ["사물함 번호가 뭐였죠?", "사물함 번호는?", "번호 알려줘, 사물함"])
def test_korean_words_match_whatever_particle_they_carry(asked):
    assert "번호" in terms("번호는") and "번호" in terms("번호가") and terms("번호") == ["번호"]
    conv = conversation(first="참고로 헬스장 사물함 비밀번호는 5820이에요.")
    request = conv.build_request(asked)
    assert request.recalled == (1,) and "5820" in request.messages[0]["content"]


def test_the_index_grows_a_turn_at_a_time_and_reads_each_turn_once():
    seen: list[str] = []

    def counting(text: str) -> list[str]:
        seen.append(text)
        return terms(text)

    conv = conversation()
    conv.recall_index = RecallIndex(counting)
    conv.build_request("gym locker")
    assert len(conv.recall_index) == 7 and len(seen) == 7 + 1  # every stored turn, and the query
    conv.add_turn(turn("a new turn about chess openings"))
    conv.preview_request("gym locker")  # a preview shares the index
    conv.build_request("gym locker")
    assert len(seen) == 7 + 1 + 1 + 1 + 1  # the new turn once, and two queries
    conv.undo()
    conv.add_turn(turn("instead, a turn about cycling"))
    search(conv, "cycling")
    assert len(conv.recall_index) == 8 and seen[-2] == "instead, a turn about cycling\nNoted."
    assert [h.number for h in search(conv, "chess openings")] == []  # the undone turn is gone from the index


def test_scores_are_bm25_as_bm25s_computes_them():
    bm25s = pytest.importorskip("bm25s")
    texts = [FACT, *(u + " " + a for u, a in FILLER), "locker locker gym"]
    conv = Conversation("s", MemoryConfig(strategy="full"))
    for text in texts:
        conv.add_turn(turn(text, ""))
    corpus = [terms(t) for t in texts]
    reference = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
    reference.index(corpus, show_progress=False)
    query = "gym locker code tomato"
    expected = reference.get_scores(terms(query))
    found = {h.number - 1: h.score for h in search(conv, query)}
    for doc, score in enumerate(expected):
        assert found.get(doc, 0.0) == pytest.approx(float(score), rel=1e-4)
