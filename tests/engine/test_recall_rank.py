"""Recall's ranking: words agree on a turn by share and cover, meaning by how far a turn stands out from the
session, both fused by reciprocal rank; a look-alike of the best turn comes with it, and meaning's guesses come
together."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.recall import choose, search
from chatbot.engine.recall_cues import Cue
from chatbot.engine.recall_index import Scores
from chatbot.engine.recall_rank import (
    MEANING_AGREES,
    MEANING_AGREES_UNCUED,
    MEANING_ALONE,
    MEANING_ALONE_UNCUED,
    MEANING_NEAREST,
    MEANING_NEAREST_WEAK,
    NEAREST,
    NEAREST_WEAK,
    ONE_WORD_COVER,
    ONE_WORD_LEAD,
    ONE_WORD_LEAD_UNCUED,
    RRF_K,
    TWIN_SHARE,
    Hit,
    comes_with,
    look_alike,
    rank,
)
from chatbot.engine.turn import Turn

#: a session of ten turns whose similarities to the message are 0.80, save the ones a test sets
BASE = [0.8] * 10
#: the cue of a message that points back at the conversation ("what was my ...")
MY = Cue("first person", "my")


def session_of(sims: dict[int, float]) -> tuple[dict[int, float], list[float]]:
    everything = list(BASE)
    for doc, sim in sims.items():
        everything[doc] = sim
    return dict(enumerate(everything)), everything


def test_by_words_a_turn_needs_both_its_share_and_its_cover():
    scores = Scores(by_turn={0: 2.5, 1: 2.5}, shared={0: 2, 1: 1}, weight=2.5 * 2.5, words=4, known_words=2)
    hits = {h.number: h for h in rank(scores, range(10), {}, [], "words")}
    assert hits[1].relevant and hits[1].cover == 0.5
    assert not hits[2].relevant and hits[2].cover == 0.25  # one word of four, however rare


def test_meaning_alone_recalls_a_turn_that_stands_out_from_the_session_and_not_a_merely_high_one():
    similarity, everything = session_of({3: 0.95})
    hits = rank(Scores(words=3, cue=MY), range(10), similarity, everything, "meaning")
    assert hits[0].number == 4 and hits[0].relevant and hits[0].standing >= MEANING_ALONE
    assert not any(h.relevant for h in hits[1:])  # 0.80 is high, but it is every turn's
    flat, everything = session_of({})
    assert not any(h.relevant for h in rank(Scores(words=3), range(10), flat, everything, "meaning"))


def test_both_fuses_the_two_rankings_by_reciprocal_rank():
    similarity, everything = session_of({2: 0.9, 5: 0.85})
    scores = Scores(by_turn={5: 3.0, 2: 1.0}, shared={5: 1, 2: 1}, weight=3.0, words=1, known_words=1)
    hits = rank(scores, range(10), similarity, everything, "both")
    fused = {h.number: h.fused for h in hits}
    assert fused[6] == fused[3] == pytest.approx(1 / (RRF_K + 1) + 1 / (RRF_K + 2))


def test_both_leaves_a_turn_words_agree_on_when_meaning_puts_it_below_the_session():
    similarity, everything = session_of({4: 0.5, 7: 0.6})
    scores = Scores(by_turn={4: 3.0}, shared={4: 2}, weight=3.0, words=2, known_words=2)
    (hit,) = [h for h in rank(scores, range(10), similarity, everything, "both") if h.number == 5]
    assert hit.words_agree and hit.standing < MEANING_AGREES and not hit.relevant
    assert "meaning" in hit.why and "words" in hit.why


def test_both_needs_meaning_clearly_above_the_session_for_a_turn_words_agree_on():
    # two shared words of an unrelated question agreed, and meaning put the turn only a little above the mean
    similarity, everything = session_of({4: 0.85, 1: 0.87, 7: 0.74})
    scores = Scores(by_turn={4: 3.0}, shared={4: 2}, weight=3.0, words=3, known_words=2)
    (hit,) = [h for h in rank(scores, range(10), similarity, everything, "both") if h.number == 5]
    assert hit.words_agree and 1.0 < hit.standing < MEANING_AGREES and not hit.relevant


def test_a_message_with_no_word_that_says_anything_recalls_nothing_by_meaning():
    # "ok", "고마워": every word a stop word; the vector of so short a message stands out by chance
    similarity, everything = session_of({3: 0.95})
    for by in ("meaning", "both"):
        hits = rank(Scores(words=0), range(10), similarity, everything, by)
        assert hits[0].standing >= MEANING_ALONE and not any(h.relevant for h in hits)


def test_look_alikes_are_two_relevant_turns_close_by_words_or_by_meaning():
    best = Hit(1, 4.0, 1.0, 1.0, relevant=True)
    assert look_alike(best, Hit(2, 4.0 * TWIN_SHARE, 0.9, 1.0, relevant=True))
    assert not look_alike(best, Hit(2, 4.0 * TWIN_SHARE - 0.01, 0.8, 1.0, relevant=True))
    assert not look_alike(best, Hit(2, 4.0, 1.0, 1.0, relevant=False))
    close = Hit(2, 0.0, 0.0, 0.0, 0.9, 3.1, relevant=True)
    assert look_alike(Hit(1, 0.0, 0.0, 0.0, 0.91, 3.4, relevant=True), close)


def turn(text: str) -> Turn:
    return Turn([{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}])


def test_two_look_alike_turns_are_both_recalled_even_at_recall_one():
    conv = Conversation("s", MemoryConfig(strategy="window", window_turns=1, recall=1))
    for text in (
        "My gym locker code is 4711.",
        "The bike shed padlock code is 9090.",
        "Tomatoes want six hours of sun.",
        "My office locker code is 2323.",
        "Green tea is brewed below boiling.",
    ):
        conv.add_turn(turn(text))
    hits = search(conv, "what is my locker code?")
    assert look_alike(hits[0], hits[1])
    assert choose(conv, "what is my locker code?", 4, lambda numbers: True) == (1, 4)
    assert choose(conv, "what is my gym locker code?", 4, lambda numbers: True) == (1,)  # the other word decides


def test_with_meaning_one_shared_word_agrees_only_when_it_is_half_the_message():
    # "birthday gift ideas for a coworker?" and a note of a sister's birthday: one everyday word of three in common
    # (three other turns nearer by meaning: as one of its three nearest, meaning would bring it back as a guess)
    everything = [0.8] * 20
    everything[4], everything[1], everything[7], everything[10] = 0.9, 0.93, 0.92, 0.91
    similarity = dict(enumerate(everything))
    for words, agrees in ((3, False), (2, True)):
        scores = Scores(by_turn={4: 3.0}, shared={4: 1}, weight=3.0, words=words, known_words=1, cue=MY)
        (hit,) = [h for h in rank(scores, range(20), similarity, everything, "both") if h.number == 5]
        assert hit.place == 3
        assert MEANING_AGREES <= hit.standing < MEANING_ALONE
        assert hit.words_agree is agrees and hit.relevant is agrees
        assert f"one word: a cue or the whole message, cover {ONE_WORD_COVER}" in hit.why


def test_with_meaning_one_shared_word_agrees_when_meaning_puts_its_turn_well_ahead_of_the_next():
    # "What do I type to get online at the cabin?": one word of three, and no other turn comes near by meaning
    scores = Scores(by_turn={4: 3.0}, shared={4: 1}, weight=3.0, words=3, known_words=1, cue=MY)
    ahead, everything = session_of({4: 0.9, 7: 0.7, 1: 0.75})
    (hit, *_) = rank(scores, range(10), ahead, everything, "both")
    assert hit.number == 5 and hit.lead >= ONE_WORD_LEAD and hit.standing < MEANING_ALONE
    assert hit.words_agree and hit.relevant
    close, everything = session_of({4: 0.9, 1: 0.89, 7: 0.7})  # another turn is as near: the word may be chance
    (hit,) = [h for h in rank(scores, range(10), close, everything, "both") if h.number == 5]
    assert hit.lead < ONE_WORD_LEAD and not hit.words_agree


def test_by_words_alone_one_shared_word_counts_when_the_message_points_back():
    scores = Scores(by_turn={4: 3.0}, shared={4: 1}, weight=3.0, words=3, known_words=1, cue=MY)
    (hit,) = rank(scores, range(10), {}, [], "words")
    assert hit.cover == pytest.approx(1 / 3) and hit.words_agree and hit.relevant
    assert "one word: a cue or the whole message" in hit.why and "meaning" not in hit.why


def test_by_words_alone_one_shared_word_of_a_general_question_is_chance():
    # "What's a good birthday gift for a coworker?" and a note of a sister's birthday: no cue, one word of three
    scores = Scores(by_turn={4: 3.0}, shared={4: 1}, weight=3.0, words=3, known_words=1)
    (hit,) = rank(scores, range(10), {}, [], "words")
    assert hit.share >= 1 and hit.cover == pytest.approx(1 / 3) and not hit.words_agree and not hit.relevant


def test_one_shared_word_that_is_the_whole_message_counts_without_a_cue():
    # "Okafor?", "/recall tides": the word is all the message says
    scores = Scores(by_turn={4: 3.0}, shared={4: 1}, weight=3.0, words=1, known_words=1)
    (hit,) = rank(scores, range(10), {}, [], "words")
    assert hit.cue is None and hit.cover == 1 and hit.meant and hit.relevant


def test_by_words_a_session_with_vectors_still_lets_one_shared_word_count():
    similarity, everything = session_of({1: 0.9})  # another turn nearer by meaning: by words, that is not asked
    scores = Scores(by_turn={4: 3.0}, shared={4: 1}, weight=3.0, words=3, known_words=1, cue=MY)
    (hit, *_) = rank(scores, range(10), similarity, everything, "words")
    assert hit.number == 5 and hit.lead is None and hit.words_agree and hit.relevant


def test_meaning_alone_needs_more_when_the_message_does_not_point_back():
    # "Is a standing desk worth it for a home office?" stood out from the session as far as questions asked back
    similarity, everything = session_of({3: 0.95})
    for cue, recalled in ((MY, True), (None, False), (Cue("name", "Okafor"), False)):
        hits = rank(Scores(words=3, cue=cue), range(10), similarity, everything, "meaning")
        assert MEANING_ALONE <= hits[0].standing < MEANING_ALONE_UNCUED and hits[0].relevant is recalled
        assert f"recalled from {hits[0].alone_level:+.1f}" in hits[0].why
    everything = [0.8] * 19 + [0.95]  # one turn of twenty far out: no cue needed
    (hit, *_) = rank(Scores(words=3), range(20), dict(enumerate(everything)), everything, "meaning")
    assert hit.number == 20 and hit.standing >= MEANING_ALONE_UNCUED and hit.relevant


def test_both_needs_meaning_higher_for_words_that_agree_without_a_cue():
    # "물 하루에 얼마나 마셔야 돼?": two words shared with a turn on watering tomatoes, meaning a little above the mean
    similarity, everything = session_of({4: 0.88, 1: 0.86, 7: 0.7})
    for cue, recalled in ((MY, True), (None, False)):
        scores = Scores(by_turn={4: 3.0}, shared={4: 2}, weight=3.0, words=2, known_words=2, cue=cue)
        (hit,) = [h for h in rank(scores, range(10), similarity, everything, "both") if h.number == 5]
        assert hit.words_agree and MEANING_AGREES <= hit.standing < MEANING_AGREES_UNCUED
        assert hit.relevant is recalled


def test_a_question_asking_back_recalls_its_three_nearest_turns_at_a_lower_standing_as_guesses():
    # "What plane is my bro on?": no word shared with "my brother flies in on KE 081", the fact third by meaning
    everything = [0.8] * 16
    everything[2], everything[6], everything[8], everything[11] = 0.9, 0.895, 0.893, 0.892
    similarity = dict(enumerate(everything))
    hits = {h.number: h for h in rank(Scores(words=3, cue=MY), range(16), similarity, everything, "meaning")}
    near, fourth = [hits[3], hits[7], hits[9]], hits[12]
    assert [h.place for h in (*near, fourth)] == [0, 1, 2, 3] and NEAREST == 3
    assert all(MEANING_NEAREST <= h.standing < MEANING_ALONE for h in (*near, fourth))
    assert all(h.relevant and h.guessed for h in near) and not fourth.relevant
    assert f"or {MEANING_NEAREST:+.1f} as one of the {NEAREST} nearest turns" in near[1].why
    assert near[1].why.endswith("nearest turns of a message that points back (a guess)") and "guess" not in fourth.why


def test_a_question_pointing_back_by_a_korean_past_ending_only_keeps_two_nearest_turns_and_no_guesses():
    # "임진왜란이 몇 년도에 일어났지?" asks general knowledge in the past as often as what was said
    everything = [0.8] * 16
    everything[2], everything[6], everything[8] = 0.9, 0.895, 0.893
    similarity = dict(enumerate(everything))
    cue = Cue("past ending", "일어났지")
    hits = {h.number: h for h in rank(Scores(words=3, cue=cue), range(16), similarity, everything, "meaning")}
    nearest, second, third = hits[3], hits[7], hits[9]
    assert (NEAREST_WEAK, MEANING_NEAREST_WEAK) == nearest.nearest == (2, 1.9)
    assert nearest.relevant and second.relevant and not third.relevant  # two nearest from +1.9
    assert not any(h.guessed for h in hits.values())  # each on its own merit: none comes past --recall
    assert not comes_with(nearest, second, 2)


def test_the_guesses_come_together_past_recall_but_not_with_a_turn_the_words_agree_on():
    everything = [0.8] * 16
    everything[2], everything[6], everything[8] = 0.9, 0.895, 0.893
    similarity = dict(enumerate(everything))
    guesses = [h for h in rank(Scores(words=3, cue=MY), range(16), similarity, everything, "both") if h.relevant]
    assert [h.number for h in guesses] == [3, 7, 9]
    assert all(comes_with(guesses[0], h, place) for place, h in enumerate(guesses[1:], 1))
    # "what was my locker code?" sharing both words with turn 3: the words vouch for it, the others stay guesses
    everything[2] = 0.92  # ahead of them by meaning too, more than look-alikes are
    similarity = dict(enumerate(everything))
    scores = Scores(by_turn={2: 3.0}, shared={2: 2}, weight=3.0, words=2, known_words=2, cue=MY)
    best, *others = [h for h in rank(scores, range(16), similarity, everything, "both") if h.relevant]
    assert best.number == 3 and best.words_agree and not best.guessed
    assert others and not any(comes_with(best, h, place) for place, h in enumerate(others, 1))


@pytest.mark.parametrize(
    ("cue", "recalled"),
    [
        (MY, True),
        (Cue("past ending", "뭐였지"), True),
        (Cue("name", "Okafor"), False),  # a name says which turn only when a turn shares it
        (None, False),
    ],
)
def test_only_a_message_that_asks_back_recalls_its_nearest_turn_below_the_usual_standing(
    cue: Cue | None, recalled: bool
):
    similarity, everything = session_of({2: 0.9, 6: 0.895})
    hit = next(h for h in rank(Scores(words=3, cue=cue), range(10), similarity, everything, "both") if h.number == 3)
    assert MEANING_NEAREST <= hit.standing < MEANING_ALONE and hit.relevant is recalled


def test_a_request_to_write_something_is_not_about_an_earlier_turn_by_meaning_alone():
    # "Write me a haiku about autumn leaves." and a turn on photographing autumn colours: near, yet not asked for
    everything = [0.8] * 19 + [0.97]
    similarity = dict(enumerate(everything))
    for writes, recalled in ((False, True), (True, False)):
        hits = rank(Scores(words=3, writes=writes), range(20), similarity, everything, "meaning")
        assert hits[0].number == 20 and hits[0].standing >= MEANING_ALONE_UNCUED and hits[0].relevant is recalled
    assert "recalled from never (a request to write something)" in hits[0].why
    asked_back = rank(Scores(words=3, cue=MY, writes=True), range(20), similarity, everything, "meaning")
    assert asked_back[0].relevant  # "write a toast with the date of my sister's wedding" points back


def test_without_a_cue_one_shared_word_needs_meaning_further_ahead_of_the_next_turn():
    # "Is bamboo actually a grass?" and a turn on bamboo shoots in the neighbour's yard: one word of two, well ahead
    scores = Scores(by_turn={4: 3.0}, shared={4: 1}, weight=3.0, words=2, known_words=1)
    ahead, everything = session_of({4: 0.9, 7: 0.7, 1: 0.75})
    for cue, agrees in ((MY, True), (None, False)):
        (hit, *_) = rank(replace(scores, cue=cue), range(10), ahead, everything, "both")
        assert ONE_WORD_LEAD <= hit.lead < ONE_WORD_LEAD_UNCUED and hit.words_agree is agrees
    far, everything = session_of({4: 0.96, 7: 0.78, 1: 0.78})
    (hit, *_) = rank(scores, range(10), far, everything, "both")
    assert hit.lead >= ONE_WORD_LEAD_UNCUED and hit.words_agree
