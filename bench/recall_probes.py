# ruff: noqa: E501  (the Korean lines: each character is two columns wide)
"""The probe set of bench/bench_recall.py: three conversations (English, Korean, a mix of both) of 40 turns.

Each plants eight facts early (turns 1, 3, ..., 15) among long unrelated turns, talks about other things for 16
more turns, then asks for each fact in other words (turns 33-40), and, separately, asks six questions that ask for
no fact. A fact is proved present in a request by the words of its ``proof``; they never fall in the first four words
of the fact, which is all the bench's summarizer keeps of a turn.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fact:
    """A fact stated once, a question that asks for it in other words, and the words that prove it was sent."""

    said: str
    asked: str
    proof: str


EN_FACTS = [
    Fact("By the way, my gym locker code is 4711, I always forget it.",
         "Which numbers open my locker at the gym again?", "4711"),
    Fact("My sister Hannah's birthday is on the 14th of September.",
         "When should I send my sister a birthday card?", "14th of September"),
    Fact("The wifi password at the cabin is bluefjord88.",
         "What do I type to get online at the cabin?", "bluefjord88"),
    Fact("My flight to Osaka is JL 408, leaving at 11:20 from gate C7.",
         "Remind me of the flight number for the Osaka trip.", "JL 408"),
    Fact("Please note I am allergic to cashews, so keep them out of recipes.",
         "What was I allergic to again, for the dinner menu?", "cashews"),
    Fact("Our team's standup moved to 9:45 on Tuesdays in room Aurora.",
         "Where is the Tuesday standup held now?", "Aurora"),
    Fact("My car's licence plate is KX-219-PL.", "What's written on my car's plate?", "KX-219-PL"),
    Fact("Rent goes to my landlord Mr Okafor by the 3rd of each month.",
         "What's the name of the landlord I pay rent to?", "Okafor"),
]  # fmt: skip

KO_FACTS = [
    Fact("참고로 헬스장 사물함 비밀번호는 5820이에요.", "헬스장 사물함 번호가 뭐였죠?", "5820"),
    Fact("제 동생 지수 생일은 10월 3일이에요.", "지수 생일이 언제라고 했죠?", "10월 3일"),
    Fact("그리고 별장 와이파이 비밀번호는 hanok2024입니다.", "별장에서 인터넷 쓰려면 와이파이 암호가 뭐예요?", "hanok2024"),
    Fact("이번에 부산 가는 기차는 KTX 117호, 오전 8시 10분 출발이에요.", "부산행 열차 번호 좀 다시 알려줘요.", "117호"),
    Fact("혹시 몰라서 말씀드리면 저는 땅콩 알레르기가 있어요.", "제가 무슨 알레르기가 있다고 했었죠?", "땅콩"),
    Fact("팀 회의는 이제 매주 목요일 오후 2시, 회의실 한라에서 해요.", "목요일 회의는 어느 회의실에서 하죠?", "한라"),
    Fact("제 차 번호판은 12가 3456이에요.", "내 차 번호판이 뭐였더라?", "3456"),
    Fact("월세는 매달 5일까지 집주인 김민호 씨에게 보내요.", "집주인 이름이 뭐였죠?", "김민호"),
]  # fmt: skip

MIXED_FACTS = [
    Fact("내 laptop 비밀번호 힌트는 'purple tiger'야.", "laptop 힌트 뭐였지?", "purple tiger"),
    Fact("The Seoul office 주소는 강남구 테헤란로 152 입니다.", "Seoul office 주소 다시 알려줘.", "테헤란로 152"),
    Fact("우리 project의 codename은 Nightjar로 정했어요.", "What codename did we pick for the project?", "Nightjar"),
    Fact("My Korean teacher 박선생님 수업은 수요일 저녁 7시야.", "Korean 수업 몇 시였지?", "저녁 7시"),
    Fact("비상 연락처는 my brother Daniel, 010-4821-7733.", "비상 연락처 번호 알려줘.", "7733"),
    Fact("The server room door code는 2580#이야.", "server room 들어가는 code 뭐였지?", "2580"),
    Fact("다음 주 dentist appointment는 목요일 3:30 PM, 강남역 근처.", "When is my dentist appointment?", "3:30 PM"),
    Fact("내 favourite 커피 주문은 oat latte, extra shot.", "카페에서 내 커피 주문 뭐라고 하면 돼?", "oat latte"),
]  # fmt: skip

#: long unrelated turns: (question, first answer, answer to "tell me more")
EN_FILLER = [
    ("Why did the Roman Republic turn into an empire?",
     "The Republic's institutions were built for a city, not for a Mediterranean power. Generals with private "
     "armies, land disputes and a Senate unable to reform itself made one-man rule attractive to many citizens.",
     "Augustus kept the forms of the Republic while holding the real power. Magistrates were still elected and the "
     "Senate still met, but the legions answered to him, and that arrangement lasted for centuries."),
    ("How do I keep tomato plants healthy on a balcony?",
     "Give them the largest pots you can, at least twenty litres, and a spot with six hours of direct sun. Water "
     "deeply in the morning rather than a little every evening, so the leaves stay dry overnight.",
     "Feed them with a potassium-rich fertiliser once the first flowers appear. Pinch out side shoots on cordon "
     "varieties, and tie the main stem loosely to a cane as it grows."),
    ("What makes a star turn into a supernova?",
     "A massive star fuses heavier and heavier elements in its core until it reaches iron, which releases no energy "
     "when fused. The core then collapses in less than a second and the outer layers rebound outward.",
     "Smaller stars end differently: they shed their outer layers as a planetary nebula and leave a white dwarf. "
     "A white dwarf that takes matter from a companion can still explode, as a type Ia supernova."),
    ("Why does a minor key sound sad?",
     "Partly culture and partly acoustics: the minor third is a slightly narrower interval than the major third, and "
     "listeners brought up on Western music learn to link it with lament and seriousness.",
     "Plenty of music breaks the rule. Irish dance tunes in minor modes are cheerful, and many pop songs in major "
     "keys have heartbreaking lyrics, so context matters as much as the interval itself."),
    ("How does inflation affect savings?",
     "Money in an account paying less than the inflation rate loses purchasing power every year, even though the "
     "number on the statement grows. Real return is the interest rate minus inflation.",
     "That is why long-term savers spread money across assets that tend to keep pace with prices. A cash reserve "
     "still makes sense for emergencies, because it is available immediately."),
    ("What defines Gothic architecture?",
     "Pointed arches, ribbed vaults and flying buttresses let builders raise tall walls with large windows. The "
     "weight of the roof was carried outward to the buttresses instead of resting on thick walls.",
     "Stained glass filled those windows with coloured light and told stories to people who could not read. "
     "Chartres and Notre-Dame in Paris are the classic examples."),
    ("How do migratory birds find their way?",
     "They combine several compasses: the position of the sun, the pattern of stars around the celestial pole, and "
     "the Earth's magnetic field, which some birds seem to sense through proteins in their eyes.",
     "Young birds often migrate alone on their first journey, guided by an inherited direction and distance. "
     "Experienced adults also use landmarks such as coastlines and mountain ranges."),
    ("What is a good chess opening for beginners?",
     "The Italian Game teaches the principles well: control the centre with a pawn, develop knights and bishops "
     "quickly, and castle early so the king is safe.",
     "Avoid moving the same piece twice in the opening and do not bring the queen out too early. Learning ideas is "
     "worth more than memorising long lines."),
    ("How should green tea be brewed?",
     "Use water well below boiling, around seventy to eighty degrees, and steep for one to two minutes. Boiling "
     "water pulls out bitter compounds and hides the sweetness of good leaves.",
     "Japanese sencha suits short infusions, while Chinese pan-fired teas such as Longjing forgive a little more "
     "heat. The same leaves can usually be infused two or three times."),
    ("How are mountains formed?",
     "Most high ranges rise where tectonic plates collide. The Himalayas are still growing as the Indian plate "
     "pushes into Asia, folding and stacking layers of rock.",
     "Volcanic mountains form differently, from magma reaching the surface over hot spots or subduction zones. "
     "Erosion works against all of them, carving valleys with rivers and glaciers."),
    ("How do I start cycling longer distances?",
     "Increase your longest ride by about ten percent a week, keep most rides at a pace where you can still talk, "
     "and eat something every forty-five minutes once you ride longer than two hours.",
     "A proper bike fit prevents knee and back pain. Saddle height matters most, then reach to the handlebars, "
     "and padded shorts make a bigger difference than most people expect."),
    ("What did the Impressionists change in painting?",
     "They painted outdoors, in quick visible brushstrokes, to catch light and atmosphere at a particular moment "
     "rather than a polished studio scene.",
     "Critics mocked the first exhibition in 1874, but the movement opened the way for Post-Impressionists like "
     "Cézanne and van Gogh, and later for abstraction."),
]  # fmt: skip

KO_FILLER = [
    ("로마 공화정은 왜 제국이 되었나요?",
     "공화정의 제도는 도시 국가를 위해 만들어졌기 때문에 지중해 전체를 다스리기에는 부족했습니다. 개인 군대를 거느린 장군들과 "
     "토지 분쟁, 개혁하지 못한 원로원 때문에 한 사람의 통치가 매력적으로 보였습니다.",
     "아우구스투스는 공화정의 형식을 유지하면서 실제 권력을 쥐었습니다. 선거와 원로원은 계속되었지만 군단은 그에게 충성했고, 그 체제는 "
     "수백 년 동안 이어졌습니다."),
    ("베란다에서 토마토를 건강하게 키우려면 어떻게 해야 하나요?",
     "가능한 한 큰 화분을 쓰고 하루 여섯 시간 이상 직사광선이 드는 곳에 두세요. 저녁마다 조금씩 주기보다 아침에 흠뻑 물을 주는 편이 "
     "잎을 건조하게 유지해 줍니다.",
     "첫 꽃이 피면 칼륨이 많은 비료를 주세요. 곁순은 따 주고, 줄기가 자라면 지지대에 느슨하게 묶어 주면 됩니다."),
    ("별은 어떻게 초신성이 되나요?",
     "무거운 별은 중심핵에서 점점 더 무거운 원소를 융합하다가 철에 이르면 더 이상 에너지를 얻지 못합니다. 그러면 중심핵이 순식간에 "
     "붕괴하고 바깥층이 튕겨 나갑니다.",
     "작은 별은 행성상 성운을 남기고 백색왜성이 됩니다. 동반성에서 물질을 빨아들인 백색왜성은 Ia형 초신성으로 폭발하기도 합니다."),
    ("단조는 왜 슬프게 들릴까요?",
     "문화와 음향이 함께 작용합니다. 단3도는 장3도보다 조금 좁은 음정이고, 서양 음악을 듣고 자란 사람들은 그것을 슬픔과 진지함에 "
     "연결하도록 배웁니다.",
     "예외도 많습니다. 아일랜드 춤곡은 단조 선법이어도 경쾌하고, 장조 대중가요 중에도 가사가 슬픈 곡이 많으니 맥락이 중요합니다."),
    ("물가 상승은 저축에 어떤 영향을 주나요?",
     "물가 상승률보다 낮은 이자를 주는 계좌에 있는 돈은 통장 숫자가 늘어나도 매년 구매력을 잃습니다. 실질 수익률은 이자율에서 물가 "
     "상승률을 뺀 값입니다.",
     "그래서 장기 저축자는 물가를 따라가는 자산에 돈을 나눠 둡니다. 그래도 비상금은 바로 쓸 수 있어야 하므로 현금으로 두는 것이 "
     "좋습니다."),
    ("고딕 건축의 특징은 무엇인가요?",
     "뾰족한 아치와 리브 볼트, 플라잉 버트레스 덕분에 높은 벽과 큰 창을 만들 수 있었습니다. 지붕의 무게가 두꺼운 벽 대신 바깥의 "
     "버팀벽으로 전달되었습니다.",
     "스테인드글라스는 그 창을 색색의 빛으로 채우고 글을 모르는 사람들에게 이야기를 들려주었습니다. 샤르트르 대성당이 대표적입니다."),
    ("철새는 어떻게 길을 찾나요?",
     "여러 가지 나침반을 함께 씁니다. 태양의 위치, 천구의 북극 주변 별자리, 그리고 지구 자기장을 이용하는데, 일부 새는 눈 속 단백질로 "
     "자기장을 느끼는 것으로 보입니다.",
     "어린 새는 첫 이동을 혼자 하기도 하는데, 타고난 방향과 거리 감각을 따릅니다. 경험 많은 새는 해안선이나 산맥 같은 지형도 "
     "이용합니다."),
    ("초보자에게 좋은 체스 오프닝은 무엇인가요?",
     "이탈리안 게임은 원칙을 잘 가르쳐 줍니다. 폰으로 중앙을 장악하고, 나이트와 비숍을 빨리 전개하고, 일찍 캐슬링해서 킹을 "
     "안전하게 하세요.",
     "오프닝에서 같은 기물을 두 번 움직이지 말고 퀸을 너무 일찍 꺼내지 마세요. 긴 수순을 외우는 것보다 생각을 배우는 편이 낫습니다."),
    ("녹차는 어떻게 우려야 하나요?",
     "끓는 물보다 훨씬 낮은 칠십에서 팔십 도의 물로 일이 분 정도 우리세요. 끓는 물은 쓴맛을 끌어내고 좋은 찻잎의 단맛을 가립니다.",
     "일본 센차는 짧게 우리는 것이 좋고, 중국의 덖음차인 용정차는 조금 더 뜨거워도 괜찮습니다. 같은 잎으로 두세 번 우릴 수 "
     "있습니다."),
    ("산은 어떻게 만들어지나요?",
     "높은 산맥은 대부분 지각판이 충돌하는 곳에서 솟아오릅니다. 히말라야는 인도판이 아시아판을 밀어붙이면서 지금도 높아지고 있습니다.",
     "화산은 다르게 만들어집니다. 열점이나 섭입대에서 마그마가 지표로 올라와 쌓이지요. 침식은 강과 빙하로 골짜기를 깎으며 산을 "
     "낮춥니다."),
    ("자전거로 장거리를 타기 시작하려면 어떻게 해야 하나요?",
     "가장 긴 주행 거리를 일주일에 십 퍼센트 정도씩 늘리고, 대부분은 대화할 수 있는 속도로 타세요. 두 시간 넘게 탈 때는 사십오 분마다 "
     "무언가를 드세요.",
     "자전거 피팅을 제대로 하면 무릎과 허리 통증을 막을 수 있습니다. 안장 높이가 가장 중요하고, 패드가 든 바지도 생각보다 큰 "
     "차이를 만듭니다."),
    ("인상주의 화가들은 회화에서 무엇을 바꿨나요?",
     "그들은 야외에서 빠르고 눈에 보이는 붓질로 그림을 그려 특정한 순간의 빛과 분위기를 담았습니다.",
     "1874년 첫 전시회는 조롱을 받았지만, 이 운동은 세잔과 반 고흐 같은 후기 인상주의와 이후의 추상 미술로 가는 길을 열었습니다."),
]  # fmt: skip

EN_UNRELATED = [
    "Can you write a short poem about the sea?",
    "How do I reverse a list in Python?",
    "What's the capital of Australia?",
    "Explain how photosynthesis works in simple terms.",
    "Give me three tips for sleeping better.",
    "What is a good name for a bakery?",
]
KO_UNRELATED = [
    "바다에 대한 짧은 시를 써 줄래요?",
    "파이썬에서 리스트를 뒤집는 방법은?",
    "호주의 수도가 어디예요?",
    "광합성을 쉽게 설명해 주세요.",
    "잠을 잘 자는 팁 세 가지만 알려줘요.",
    "빵집 이름 좋은 거 추천해 줘요.",
]
MIXED_UNRELATED = [
    "바다에 대한 short poem 써줘.",
    "Python에서 list 뒤집는 법?",
    "호주 capital이 어디야?",
    "photosynthesis를 쉽게 설명해줘.",
    "sleep tips 세 가지만.",
    "bakery 이름 추천해줘.",
]

MORE = {"en": "Tell me more about that.", "ko": "그것에 대해 더 알려 주세요."}


@dataclass(frozen=True)
class Probe:
    """One language's conversation: turns 1-32 as (user, assistant), then the questions."""

    name: str
    turns: list[tuple[str, str]]
    facts: list[Fact]
    fact_turns: list[int]  # 1-based turn number of each fact
    unrelated: list[str]


def _conversation(
    facts: list[Fact], fillers: list[tuple[str, str, str, str]]
) -> tuple[list[tuple[str, str]], list[int]]:
    turns: list[tuple[str, str]] = []
    where = []
    pool = iter(fillers)
    for fact in facts:  # turns 1-16: a fact, then a long unrelated turn
        turns.append((fact.said, "Noted, I will keep that in mind."))
        where.append(len(turns))
        question, first, _more, _lang = next(pool)
        turns.append((question, first))
    for question, first, more, lang in pool:  # turns 17-32: unrelated talk, each topic followed up
        turns.append((question, first))
        turns.append((MORE[lang], more))
    return turns[:32], where


def _fillers(*sources: tuple[list[tuple[str, str, str]], str]) -> list[tuple[str, str, str, str]]:
    out: list[tuple[str, str, str, str]] = []
    for i in range(max(len(s) for s, _ in sources)):
        out += [(q, a, m, lang) for s, lang in sources for q, a, m in s[i : i + 1]]
    return out


def probes() -> list[Probe]:
    """The three probe conversations."""
    en = _fillers((EN_FILLER, "en"))
    ko = _fillers((KO_FILLER, "ko"))
    mixed = _fillers((EN_FILLER, "en"), (KO_FILLER, "ko"))
    out = []
    for name, facts, fillers, unrelated in (
        ("English", EN_FACTS, en, EN_UNRELATED),
        ("Korean", KO_FACTS, ko, KO_UNRELATED),
        ("mixed", MIXED_FACTS, mixed, MIXED_UNRELATED),
    ):
        turns, where = _conversation(facts, fillers * 2)
        out.append(Probe(name, turns, facts, where, unrelated))
    return out


# The tuning set in the held-out set's shape (bench/recall_drive.py drives both): each question asked alone as turn
# 33 of its conversation. Written after recall's 100% on the questions above, to have something left to tune on:
# the same facts asked in other words (no content word shared with the fact: :func:`shares_no_term` holds it),
# look-alike facts planted at turns 17-27 in place of unrelated questions, and unrelated questions of every kind
# (greetings, thanks, small talk, general knowledge, one-word Korean replies).

#: each fact of EN_FACTS, KO_FACTS, MIXED_FACTS asked in other words: no term shared with the fact
OTHER_WORDS = {
    "English": [
        "What digits get me into the storage box where I work out?",
        "When was my sibling born? I'd like to post a card on the right day.",
        "How do I connect to the internet at our little house in the woods?",
        "Which plane am I taking to Japan?",
        "Which nuts must I avoid eating?",
        "Where does our morning status meeting take place these days?",
        "What's the registration of my vehicle?",
        "Who owns the flat I live in?",
    ],
    "Korean": [
        "운동하러 가서 짐 넣는 칸 여는 숫자 기억나?",
        "우리 막내 태어난 날이 언제지?",
        "시골집에서 인터넷 연결하려면 뭘 입력해야 돼?",
        "남쪽 바닷가 도시로 타고 갈 열차 편명이 뭐였지?",
        "내가 못 먹는 견과류가 뭐였지?",
        "주간 미팅 장소가 어디로 바뀌었지?",
        "내 자동차 등록 숫자 알려줄래?",
        "내가 사는 집 소유자 성함이 어떻게 돼?",
    ],
    "mixed": [
        "내 notebook computer 로그인 clue 뭐였더라?",
        "서울 사무실 location 어디였지?",
        "우리 프로젝트 secret name 뭐로 했지?",
        "한국어 lesson 시간 언제야?",
        "급한 일 생기면 누구한테 전화하라고 했지?",
        "서버실 잠금 비번 뭐였지?",
        "치과 예약 언제로 잡았지?",
        "What drink do I usually get at the cafe?",
    ],
}


@dataclass(frozen=True)
class TwinPair:
    """Two look-alike facts and a question for each: (said, question, proof) twice."""

    one: tuple[str, str, str]
    other: tuple[str, str, str]


TWINS = {
    "English": [
        TwinPair(("My work laptop's PIN is 2468.", "What's the PIN of the laptop at work?", "2468"),
                 ("My home laptop's PIN is 1357.", "What's the PIN of my laptop at home?", "1357")),
        TwinPair(("My mother's phone number is 555-0142.", "What is my mother's phone number?", "0142"),
                 ("My father's phone number is 555-0199.", "What is my father's phone number?", "0199")),
        TwinPair(("I packed the passports in the blue suitcase.", "What did I put in the blue suitcase?", "passports"),
                 ("I packed the chargers in the red suitcase.", "What did I put in the red suitcase?", "chargers")),
    ],
    "Korean": [
        TwinPair(("회사 노트북 비밀번호는 2468이에요.", "회사 노트북 비밀번호가 뭐였죠?", "2468"),
                 ("집 노트북 비밀번호는 1357이에요.", "집 노트북 비밀번호 알려줘요.", "1357")),
        TwinPair(("엄마 전화번호는 010-1111-2222예요.", "엄마 전화번호가 뭐였지?", "2222"),
                 ("아빠 전화번호는 010-3333-4444예요.", "아빠 전화번호 좀 알려줘.", "4444")),
        TwinPair(("파란 가방에는 여권을 넣었어요.", "파란 가방에 뭐 넣었지?", "여권"),
                 ("빨간 가방에는 충전기를 넣었어요.", "빨간 가방에 뭘 넣었더라?", "충전기")),
    ],
    "mixed": [
        TwinPair(("회사 laptop PIN은 2468이야.", "회사 laptop PIN 뭐였지?", "2468"),
                 ("집 laptop PIN은 1357이야.", "집 laptop PIN 알려줘.", "1357")),
        TwinPair(("엄마 phone number는 010-1111-2222야.", "엄마 phone number 뭐였지?", "2222"),
                 ("아빠 phone number는 010-3333-4444야.", "아빠 phone number 알려줘.", "4444")),
        TwinPair(("blue 캐리어에는 passports 넣었어.", "blue 캐리어에 뭐 넣었지?", "passports"),
                 ("red 캐리어에는 chargers 넣었어.", "red 캐리어에 뭐 넣었더라?", "chargers")),
    ],
}  # fmt: skip

#: more questions that ask for nothing said before, beside each language's six above
MORE_UNRELATED = {
    "English": [
        "Hi!", "good morning", "thanks, that helps", "ok", "lol", "what's up?", "How are you today?",
        "Tell me a joke.", "What's 17 times 23?", "Who wrote Hamlet?", "What's the weather usually like in spring?",
        "Can you recommend a good movie?",
    ],
    "Korean": [
        "응", "ㅋㅋ", "뭐해?", "고마워", "안녕하세요", "좋아", "그래", "배고파", "오늘 날씨 어때?", "재밌는 얘기 해줘",
        "셰익스피어는 누구야?", "영화 추천해줘",
    ],
    "mixed": [
        "ㅇㅋ thanks", "lol 웃기다", "오늘 뭐해?", "good night!", "movie 추천 좀", "3 더하기 4는?", "hi", "ㅎㅎ 고마워",
        "what time is it in London?", "넵 알겠어요", "응 ok", "뭐야 ㅋㅋ",
    ],
}  # fmt: skip

#: unrelated questions that share one everyday noun with some turn (a birthday, a laptop, a phone, a bag), asking
#: something else about it: one ordinary word in common is no evidence that a turn is meant
SHARED_NOUN_UNRELATED = {
    "English": [
        "What's a good birthday gift for a coworker?", "How do I clean a laptop keyboard?", "Any tips for a long flight?",
        "How do I make my phone battery last longer?", "Best way to pack a suitcase?", "What should I name my cat?",
        "How much water should I drink a day?", "Is a standing desk worth it for a home office?",
        "How do I get better at chess?", "Which car is cheapest to run?",
    ],
    "Korean": [
        "생일 선물 추천해줘", "노트북 화면 밝기 조절은 어떻게 해?", "고양이 이름 뭐로 지을까?", "전화번호 바뀌면 카톡은 어떻게 돼?",
        "회의 시간 줄이는 방법 있어?", "가방 브랜드 추천해 줄래?", "기차 여행 하기 좋은 곳 알려줘", "물 하루에 얼마나 마셔야 돼?",
        "여권 사진 규격이 어떻게 돼?", "회사 그만두고 싶어",
    ],
    "mixed": [
        "laptop 배터리 오래 쓰는 법?", "커피 하루에 몇 잔까지 괜찮아?", "phone 배경화면 바꾸는 법", "office 의자 추천해줘",
        "Korean 단어 외우는 팁 있어?", "캐리어 기내용 사이즈 몇 인치야?", "project 이름 좀 지어줘", "회사 점심 메뉴 추천",
        "서울 맛집 알려줘", "What time do most dentists open?",
    ],
}  # fmt: skip


#: each Korean and mixed fact asked with its Korean nouns under other particles and endings (written after the
#: one-shared-word rule, to check that it keeps them)
ENDINGS = {
    "Korean": [
        "헬스장 사물함을 열려는데 비밀번호가 기억이 안 나요.", "지수의 생일이 며칠이더라?",
        "별장의 와이파이에 접속하려는데 비밀번호를 모르겠어요.", "부산으로 가는 기차가 몇 호였지?",
        "저녁 메뉴 짤 때 제 알레르기를 꼭 생각해 주세요.", "팀 회의가 어느 회의실로 바뀌었죠?",
        "주차 등록하려는데 제 차의 번호판을 알려 줘요.", "월세를 누구에게 보내야 하죠?",
    ],
    "mixed": [
        "laptop의 비밀번호 힌트가 뭐였어?", "택배 보내려는데 Seoul office의 주소를 알려줘.", "project codename을 뭐로 정했더라?",
        "박선생님의 수업이 몇 시야?", "비상 연락처로 누구 번호를 적어 뒀지?", "server room의 door code를 까먹었어.",
        "dentist appointment가 몇 시였지?", "커피를 주문하려는데 내 favourite이 뭐였지?",
    ],
}  # fmt: skip


#: written with the cue of recall_cues.py (does the message point back at the conversation?), to test it both ways:
#: facts asked with no cue word at all (a name or the thing's words alone), as (question, proof) ...
BARE_KEYWORD = {
    "English": [("Hannah's birthday?", "14th of September"), ("cabin wifi password", "bluefjord88"),
                ("Which gate does JL 408 leave from?", "C7"), ("When does Okafor get paid?", "3rd of each month")],
    "Korean": [("김민호 씨한테 언제까지 보내면 돼?", "김민호"), ("한라 회의실은 무슨 요일이야?", "오후 2시"),
               ("KTX 117호 몇 시 출발?", "8시 10분")],
    "mixed": [("Daniel 번호 알려줘", "7733"), ("Nightjar는 무슨 이름이야?", "정했어요"),
              ("박선생님 수업 무슨 요일?", "수요일")],
}  # fmt: skip
#: ... and questions about nothing said before that carry a cue word anyway: the user's own life ("my back", "우리
#: 강아지"), a plan, a story of yesterday, or a definite article before a word the conversation holds
CUED_UNRELATED = {
    "English": [
        "What's a nice gift for my sister's graduation?", "My back hurts after long rides, any stretches?",
        "We're going to Japan next spring, what should we see?", "I'd like to learn the piano, where do I start?",
        "Tell me something interesting about the Roman Empire.", "I'm so tired today.",
    ],
    "Korean": [
        "우리 강아지가 자꾸 짖어요, 어떻게 해야 돼요?", "제가 요즘 잠을 잘 못 자요. 도움이 될 만한 거 있을까요?",
        "어제 본 영화 진짜 재밌었어", "내일 부산 가는데 맛집 추천해줘", "나 다음 달에 이사 가", "우리 엄마 생신 선물 뭐가 좋을까?",
    ],
    "mixed": [
        "내 laptop 너무 느려, 빨라지게 하는 법?", "우리 team 회식 장소 추천해줘", "my Korean is still bad ㅠㅠ 공부 팁 있어?",
        "I'm so tired 오늘", "제 coffee 너무 써요, 덜 쓰게 마시는 법?", "우리 office 근처 점심 뭐 먹지?",
    ],
}  # fmt: skip


#: general questions that carry a cue the loose way (written for the cues' second pass): "the" before a word some
#: turn holds ("the sky blue" and a blue suitcase), a recall word inside a how-to ("before a run", "자기 전에",
#: "기억력"), and Korean questions about a general past ("언제 죽었나요", "태어나셨나요") or with a past inside a
#: clause ("비가 오더라도", "키웠지만")
LOOSE_CUE_UNRELATED = {
    "English": [
        "What is the best way to learn Spanish?", "Why is the sky blue?", "Who was the first Roman emperor?",
        "How hot is the sun?", "What's the tallest mountain in Africa?", "What should I eat before a run?",
        "What stretches should I do before a long ride?", "Any tips to remember a new password?",
        "How can I remember names better?", "Is the green tea at Starbucks any good?",
    ],
    "Korean": [
        "자기 전에 뭐 먹으면 좋아?", "기억력 높이는 방법 알려줘", "비밀번호 다시 설정하는 방법 알려줘", "세종대왕은 언제 죽었나요?",
        "아인슈타인은 어디서 태어나셨나요?", "로마 제국은 언제 멸망했나요?", "철새는 언제부터 이동했나요?",
        "비가 오더라도 자전거 타도 돼?", "토마토 키웠지만 다 죽었어, 이유가 뭘까?", "녹차 다시 우려도 돼?",
    ],
    "mixed": [
        "What's the best laptop for students?", "자기 전에 커피 마셔도 돼?", "password 기억력 좋게 하는 법?",
        "커피는 누가 처음 발견했나요?", "Who invented the phone?", "office 다시 꾸미는 방법 추천해줘",
        "laptop 처음 만든 회사는 어디였나요?", "비가 오더라도 dentist 가야 돼?", "Why is the sea salty?",
        "How do I stay awake before an exam?",
    ],
}  # fmt: skip


@dataclass(frozen=True)
class TuningTurn:
    """One fixed turn of a tuning conversation."""

    user: str
    reply: str

    def messages(self, number: int) -> list[dict[str, str]]:
        """The turn's messages as stored."""
        return [{"role": "user", "content": self.user}, {"role": "assistant", "content": self.reply}]


@dataclass(frozen=True)
class TuningConversation:
    """A probe conversation with look-alike facts planted, and its questions."""

    name: str
    turns: list[TuningTurn]
    questions: list[TuningQuestion]


@dataclass(frozen=True)
class TuningQuestion:
    """A question asked alone after the conversation: its kind, text, proof (None: unrelated) and twin's proof."""

    kind: str
    text: str
    proof: str | None
    twin_proof: str | None = None


NOTED = "Noted, I will keep that in mind."


def tuning_set() -> list[TuningConversation]:
    """The three probe conversations with look-alikes at turns 17, 19, ... 27, and every question by kind:
    ``keyword`` (the questions above), ``paraphrase`` (other words), ``endings`` (Korean nouns under other
    particles), ``twin`` and ``unrelated``."""
    out = []
    for probe in probes():
        turns = [TuningTurn(u, a) for u, a in probe.turns]
        questions = [TuningQuestion("keyword", f.asked, f.proof) for f in probe.facts]
        questions += [
            TuningQuestion("paraphrase", q, f.proof) for f, q in zip(probe.facts, OTHER_WORDS[probe.name], strict=True)
        ]
        questions += [TuningQuestion("keyword", q, proof) for q, proof in BARE_KEYWORD[probe.name]]
        questions += [
            TuningQuestion("endings", q, f.proof)
            for f, q in zip(probe.facts, ENDINGS.get(probe.name, []), strict=False)
        ]
        for i, pair in enumerate(TWINS[probe.name]):
            for at, (said, asked, proof), (_s, _a, twin) in (
                (17 + 4 * i, pair.one, pair.other),
                (19 + 4 * i, pair.other, pair.one),
            ):
                turns[at - 1] = TuningTurn(said, NOTED)
                questions.append(TuningQuestion("twin", asked, proof, twin))
        unrelated = [
            *probe.unrelated,
            *MORE_UNRELATED[probe.name],
            *SHARED_NOUN_UNRELATED[probe.name],
            *CUED_UNRELATED[probe.name],
            *LOOSE_CUE_UNRELATED[probe.name],
        ]
        questions += [TuningQuestion("unrelated", q, None) for q in unrelated]
        out.append(TuningConversation(probe.name, turns, questions))
    return out


def shares_no_term(fact: str, question: str) -> bool:
    """Whether ``question`` holds no term of ``fact`` (the other-words questions must not)."""
    from chatbot.engine.recall_terms import terms

    return not set(terms(fact)) & set(terms(question))
