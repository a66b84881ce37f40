"""Whether a message points back at the conversation: first-person words and recall words outside a how-to, a past
question, a demonstrative before a word few turns hold, Korean endings asking what was said, and a name one or two
turns hold (a cue for the turns holding it)."""

from __future__ import annotations

import time

import pytest

from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.recall import search
from chatbot.engine.recall_cues import DEFINITE_TURNS, NAME_TURNS, Cue, asks_to_write, back_reference
from chatbot.engine.turn import Turn

#: how many turns hold each term, as a conversation about a cabin, a landlord and a project would
HOLDING = {
    **{"별장": 1, "cabin": 1, "okafor": 1, "nightjar": 1, "korean": 1, "tuesday": 1, "python": 9},
    **{"blue": 1, "sun": 1, "tea": 2, "password": 2, "비밀번호": 2, "녹차": 1},
}


def holding(term: str) -> int:
    return HOLDING.get(term, 0)


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("What was my locker code again?", Cue("first person", "my")),
        ("Where does our standup take place?", Cue("first person", "our")),
        ("Remind me of the flight number.", Cue("recall word", "remind")),
        ("When did we pick that?", Cue("first person", "we")),
        ("What do you type to get online at that cabin?", Cue("definite", "that cabin")),
        ("Which restaurant was it, from before?", Cue("recall word", "before")),
        ("전에 말한 식당 어디야?", Cue("recall word", "전에")),
        ("비밀번호가 기억이 안 나요.", Cue("recall word", "기억이")),
        ("무슨 알레르기가 있다고 했었죠?", Cue("past ending", "했었죠")),
        ("지수의 생일이 며칠이더라?", Cue("past ending", "며칠이더라")),
        ("laptop의 비밀번호 힌트가 뭐였어?", Cue("past ending", "뭐였어")),
        ("What codename was it, did you say?", Cue("past question", "did you")),
        ("내 차 번호판이 뭐였더라?", Cue("first person", "내")),
        ("부산행 열차 번호 좀 다시 알려줘요.", Cue("recall word", "다시")),
        ("지수 생일이 언제라고 했죠?", Cue("past ending", "했죠")),
        ("회의실이 어디로 바뀌었지?", Cue("past ending", "바뀌었지")),
        ("그 별장 와이파이 암호 알려줘", Cue("definite", "그 별장 와이파이")),
        ("When does Okafor get paid?", Cue("name", "Okafor")),
        ("Nightjar는 무슨 이름이야?", Cue("name", "Nightjar")),
    ],
)
def test_a_message_asking_back_carries_a_cue(message: str, cue: Cue):
    assert back_reference(message, holding) == cue


@pytest.mark.parametrize(
    "message",
    [
        "What's a good birthday gift for a coworker?",
        "How do I make my phone battery last longer?",  # a how-to about one's own things asks for something new
        "What should I name my cat?",
        "Tell me a joke.",  # "me": asked for something new
        "What's the capital of Australia?",  # "the" is no cue
        "How do I reverse a list in Python?",  # a name nine turns hold is the conversation's subject
        "Hannah's birthday?",  # a capital opening a sentence is no name
        "생일 선물 추천해줘",
        "호주의 수도가 어디예요?",
        "회사 그만두고 싶어",
        "폰 충전에 좋은 방법 있어?",  # 충전에 holds 전에 ("before"), not at its start
    ],
)
def test_a_general_question_carries_none(message: str):
    assert back_reference(message, holding) is None


@pytest.mark.parametrize(
    "message",
    [
        "Why is the sky blue?",  # "the" presumes nothing: most questions hold one before some word of a long session
        "How hot is the sun?",
        "Is the green tea at Starbucks any good?",
    ],
)
def test_the_article_before_a_word_a_turn_holds_is_no_cue(message: str):
    assert back_reference(message, holding) is None


def test_a_demonstrative_is_a_cue_only_before_a_word_few_turns_hold():
    assert back_reference("Is that cabin far?", lambda t: DEFINITE_TURNS if t == "cabin" else 0) is not None
    assert back_reference("Is that cabin far?", lambda t: DEFINITE_TURNS + 1 if t == "cabin" else 0) is None


@pytest.mark.parametrize(
    "message",
    [
        "How can I remember names better?",  # a how-to asks for something new, whatever its recall word
        "Any tips to remember a new password?",
        "비밀번호 다시 설정하는 방법 알려줘",
        "녹차 다시 우려도 돼?",
        "remind me how to convert celsius to fahrenheit",  # "remind me how to" asks general knowledge as often
    ],
)
def test_a_recall_word_inside_a_how_to_is_no_cue(message: str):
    assert back_reference(message, holding) is None


@pytest.mark.parametrize(
    "message",
    [
        "Is coffee okay before a run?",  # "before" governing a run: no "before now"
        "자기 전에 뭘 먹지?",  # "before sleeping"
        "기억력이 나빠졌어",  # memory, the faculty
    ],
)
def test_before_and_memory_are_recall_words_only_as_before_now_and_remembering(message: str):
    assert back_reference(message, holding) is None


@pytest.mark.parametrize(
    "message",
    [
        "세종대왕은 언제 죽었나요?",  # a general past question
        "아인슈타인은 어디서 태어나셨나요?",
        "비가 오더라도 자전거 타야 해?",  # a past inside a clause
        "토마토 키웠지만 다 죽었어, 이유가 뭘까?",
        "어제 본 영화 진짜 재밌었어",  # a story, not a question
        "냉장고에 우유 있지?",  # the present
        "이 영화 재밌지?",
        "이번 주말 날씨 좋겠지?",  # a guess
    ],
)
def test_a_korean_past_is_a_cue_only_as_an_ending_asking_what_was_said(message: str):
    assert back_reference(message, holding) is None


@pytest.mark.parametrize(
    "message",
    [
        "임진왜란이 몇 년도에 일어났지?",  # general knowledge asked in the past, with a syllable not listed
        "베를린 장벽은 언제 무너졌죠?",
        "리눅스는 언제 처음 나왔죠?",
    ],
)
def test_a_past_ending_is_made_of_the_listed_syllables_only(message: str):
    # every syllable closing on ㅆ would cue these, and they ask general knowledge: 13 of 46 such questions a reviewer
    # wrote gained a cue that way
    assert back_reference(message, holding) is None


def test_a_name_is_a_cue_only_for_the_turns_holding_it():
    conv = Conversation("s", MemoryConfig(strategy="window", window_turns=1, recall=2))
    for text in ("Rent goes to my landlord Mr Okafor by the 3rd.", "Chess openings are fun to study."):
        conv.add_turn(turn(text))
    conv.add_turn(turn("Green tea is brewed below boiling."))
    hits = {h.number: h for h in search(conv, "Does Okafor like chess?")}
    assert hits[1].relevant and hits[1].cue == Cue("name", "Okafor")
    assert not hits[2].relevant and hits[2].cue is None  # one word, chess, and no cue for it


def test_names_are_found_in_time_linear_in_a_long_message():
    """A message four times as long takes about four times as long, not sixteen (the scan that copied the text per
    name took 7 s on 848 KB). Measured as a ratio, each size at its best of three, so a busy machine does not fail it
    (a bound in seconds did, beside a llama.cpp server loading the cores)."""
    line = "Some Words Written With Capitals and more text here. "

    def best(text: str) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            assert back_reference(text) is None
            times.append(time.perf_counter() - start)
        return min(times)

    short, long = best(line * 2_000), best(line * 8_000)  # 106 KB and 424 KB
    assert long / short < 8  # linear: ~4; quadratic: ~16


def test_a_name_is_a_cue_only_while_few_turns_hold_it():
    many = {"okafor": NAME_TURNS + 1}
    assert back_reference("When does Okafor get paid?", lambda t: many.get(t, 0)) is None
    assert back_reference("When does Okafor get paid?", lambda t: NAME_TURNS if t == "okafor" else 0) is not None


def test_a_name_says_which_turn_but_the_message_does_not_point_back_by_it():
    assert not Cue("name", "Okafor").points_back and Cue("past ending", "했죠").points_back
    assert str(Cue("first person", "my")) == "first person 'my'"


def turn(text: str) -> Turn:
    return Turn([{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}])


def test_by_words_a_general_question_sharing_one_word_recalls_nothing_and_a_question_asking_back_does():
    conv = Conversation("s", MemoryConfig(strategy="window", window_turns=1, recall=1))
    for text in ("My sister Hannah's birthday is on the 14th of September.", "Green tea is brewed below boiling."):
        conv.add_turn(turn(text))
    assert conv.build_request("What's a good birthday gift for a coworker?").recalled == ()
    assert conv.build_request("When was my sister's birthday again?").recalled == (1,)
    assert conv.build_request("생일 선물 추천해줘").recalled == ()
    assert conv.build_request("Hannah?").recalled == (1,)  # the word is all the message says


def test_the_search_tool_points_back_by_being_asked():
    conv = Conversation("s", MemoryConfig(strategy="window", window_turns=1, recall=1))
    for text in ("Rent goes to my landlord Mr Okafor by the 3rd.", "Green tea is brewed below boiling."):
        conv.add_turn(turn(text))
    (asked,) = [h for h in search(conv, "landlord name") if h.number == 1]
    (tool,) = [h for h in search(conv, "landlord name", tool=True) if h.number == 1]
    assert not asked.relevant and tool.relevant and tool.cue == Cue("search", "search_conversation")


@pytest.mark.parametrize(
    "message",
    [
        "내 노트북 느려, 빨라지게 하는 법?",  # a how-to about my things asks for something new, as in English
        "제 커피 너무 써요, 덜 쓰게 마시는 방법 있어요?",
        "my coffee is too bitter ㅠㅠ 덜 쓰게 마시는 팁 있어?",
    ],
)
def test_the_first_person_inside_a_korean_how_to_is_no_cue(message: str):
    assert back_reference(message, holding) is None


@pytest.mark.parametrize(
    "message",
    [
        "What was my locker code?",
        "Which floor did I leave my car on",  # a question word asks without its question mark
        "내 차 어디 세웠더라",
        "저녁 메뉴 짤 때 제 알레르기를 꼭 생각해 주세요.",  # a request about my things asks too
        "Please keep my allergy in mind.",
    ],
)
def test_the_first_person_of_a_message_that_asks_is_a_cue(message: str):
    cue = back_reference(message, holding)
    assert cue is not None and cue.kind == "first person"


@pytest.mark.parametrize(
    "message",
    ["Thanks, I'm heading out for lunch.", "I'm so tired 오늘", "나 다음 달에 이사 가", "저 다음 달에 이사 가요"],
)
def test_the_first_person_of_a_message_that_tells_and_asks_nothing_is_no_cue(message: str):
    assert back_reference(message, holding) is None


@pytest.mark.parametrize(
    ("message", "writes"),
    [
        ("Write me a haiku about autumn leaves.", True),
        ("Can you draft a short email to the team?", True),
        ("친구 생일 축하 메시지 짧게 써줘", True),
        ("동시 하나 지어 줘", True),
        ("What did I write in the card?", True),  # the verb is there: the cue, not this, decides it points back
        ("Where is the writing desk?", False),
        ("글씨 써도 돼?", False),  # 써도 is "may I write", no request to write something
        ("What's the capital of Australia?", False),
    ],
)
def test_a_request_to_write_something_new_is_told(message: str, writes: bool):
    assert asks_to_write(message) is writes


@pytest.mark.parametrize(
    "message",
    [
        "Why do we hear thunder after we see a flash?",  # a why-question's "we" is anyone
        "Why do I always yawn in meetings?",
        "I'm thinking about a tattoo, any advice?",  # advice asks for something new
        "Can you recommend a podcast for my commute?",
        "Any ideas for my sister's birthday?",
        "My nephew is getting married in June. What's a good present?",
        "나 기타 배워 볼까?",  # "should I ...?" in Korean asks for advice
        "우리 저녁 뭐 먹을까?",
    ],
)
def test_the_first_person_of_a_why_question_or_an_advice_question_is_no_cue(message: str):
    assert back_reference(message, holding) is None


def test_a_past_question_about_us_is_a_cue_even_asking_why_or_for_advice():
    assert back_reference("Why did we pick that one?", holding) == Cue("past question", "did we")
    assert back_reference("What did you recommend for my back?", holding) == Cue("past question", "did you")
