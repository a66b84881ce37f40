"""Recall's terms: English words meet their other forms, stop words say nothing, Korean one-syllable words meet
under other particles, and a turn is found by the word forms of the question."""

from __future__ import annotations

from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.recall import search
from chatbot.engine.recall_terms import terms, words
from chatbot.engine.turn import Turn


def conversation(*texts: str) -> Conversation:
    conv = Conversation("s", MemoryConfig(strategy="full"))
    for text in texts:
        conv.add_turn(Turn([{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}]))
    return conv


def test_english_words_meet_their_other_forms_by_their_stem():
    assert terms("I parked the cars") == terms("park car") == ["park", "car"]
    assert terms("flights") == terms("flight")


def test_a_question_in_another_word_form_finds_the_turn():
    conv = conversation("I parked on level B2 today.", "The weather was lovely in the park district.", "noted")
    assert [h.number for h in search(conv, "Where did I park?")][:2] == [1, 2]


def test_greetings_and_question_framing_are_stop_words_in_english_and_korean():
    assert terms("Good morning! What was it again, please?") == []
    assert terms("뭐야? 뭐였죠? 안녕하세요") == []


def test_a_korean_one_syllable_word_meets_itself_under_other_particles():
    assert "차" in terms("차를") and "차" in terms("차는") and "차" in terms("차")
    conv = conversation("차를 지하 2층에 세웠어요.", "오늘 녹차를 마셨어요.", "주차장이 넓어요.")
    hits = search(conv, "내 차는 어디 있지?")
    assert hits[0].number == 1 and hits[0].relevant


def test_a_syllable_inside_a_longer_word_is_no_word_of_its_own():
    # "번호" does not make "호" a word, so "호주" (Australia) does not meet a phone number
    assert "호" not in terms("비밀번호는") and "호" not in terms("호주의")


def test_terms_come_word_by_word_so_a_question_can_count_the_words_a_turn_holds():
    assert words("gym 사물함 번호가 뭐였죠?") == [["gym"], ["사물", "물함"], ["번호"]]


def test_the_bigram_across_a_noun_and_its_particle_is_no_word():
    # "호주의" is "호주" and "의": its "주의" must not meet "인상주의" (impressionism)
    assert terms("호주의") == ["호주"] and "대" not in terms("대한")
    conv = conversation("인상주의 화가들은 빛을 그렸어요.", "noted")
    assert not [h for h in search(conv, "호주의 수도가 어디예요?") if h.relevant]


def test_chat_replies_and_lone_digits_say_nothing():
    assert terms("좋아 그래 ㅋㅋ ㅎㅎ 넵 알겠어요") == []
    assert terms("lol ok, usually fine") == []
    assert terms("3 더하기 4는?") == ["더하", "하기"]


def test_korean_demonstratives_say_nothing_about_what_is_asked():
    # "뭐야 이거" ("what's this?") shared 이거 with a turn quoting '이거 왜 이렇게 짰어요?' and pulled it in
    assert terms("뭐야 이거") == []
    assert terms("그게 저건 이건") == []


def test_thanks_that_helps_says_nothing():
    # "thanks, that helps" shared "help" with a turn and, being its only word, pulled it in
    assert terms("thanks, that helps") == []
