"""The words recall matches turns by (:func:`terms`): English stems without stop words, and Hangul (and kana and
CJK ideographs) as single characters beside character bigrams.

- **English** words are lower-cased, stop words (question framing, greetings, fillers: :data:`STOP_WORDS`) left out,
  and stemmed with the Snowball English stemmer (PyStemmer), so ``parked`` meets ``park`` and ``flights`` meets
  ``flight``.
- **Korean** words carry their particles and endings (``번호는``, ``번호가``): a run of Hangul becomes its
  character bigrams (``번호`` is shared), and a one-syllable word is also itself, bare or with its particle
  (``차를`` meets ``차는`` through ``차``; the ``호`` of ``번호`` is no word of its own), leaving out the
  particles, endings and question words that say nothing about what is asked (:data:`KOREAN_STOP`: ``뭐야``,
  ``였죠``, ``는``, ``를`` ...).
"""

from __future__ import annotations

import re
import threading
from functools import cache

_SCRIPT_RUN = re.compile(r"[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u9fff\uac00-\ud7a3]+")
_WORD = re.compile(r"[^\W_]+")
_ENGLISH = """a about after again all also am an and any are as at be been before but by can could did do does doing
done for from had has have he her here him his how i if in into is it its just know let like me mine my no not now
of on once one or our out please remember remind said say she so some tell than that the their them then there these
they this those to told too up us was we were what when where which who why will with would yes you your yours
earlier gave give given hi hello hey good morning evening afternoon night thanks thank ok okay sure great nice
should shall may might must get got go going want need think mean again anyway actually really very much many more
most thing things something anything bit lot kind sort way today tomorrow yesterday usually often always sometimes
never lol haha bye cool fine alright help helps helped helpful"""
#: English words that say nothing about what is asked for (compared before stemming)
STOP_WORDS = frozenset(_ENGLISH.split())
_KOREAN = """내 제 좀 거 것 뭐 왜 수 더 다 또 그 이 저 뭐였 였죠 였지 였더 더라 했죠 했지
했었 었죠 었지 라고 다고 알려 려줘 줘요 려주 주세 세요 예요 에요 이에 이야 니다 습니
해요 하죠 해줘 어요 아요 에서 하면 려면 에게 한테 으로 그리 리고 다시 무슨 어느 언제
제가 저는 나는 내가 우리 있어 있다 없어 름이 했던 었던 였던 뭐야 뭐예 뭐지 뭐죠 뭐라 어때 할까
어떻 떻게 어디 디야 디예 누구 구야 얼마 마야 인가 인지 나요 까요 는데 은데 니까 해서 해야 하고
있지 있 없 했어 하지 할 갈 볼 안녕 하세 녕하 세요 고마 마워 감사 사합 합니 좋은 아침 오늘 내일 어제 그냥 정말 진짜
은 는 이 가 을 를 에 의 도 로 와 과 요 죠 지 야 다 고 서 게 해 한 했 줘 요 나 네 데 면 니 까 라 며
하 된 될 던 든 께 만 랑 여 였 었 았 습 세 시 어 아 잖 거 걸 건 엔 엘 죠 래 뭘 왜 어 음 응 자
좋아 그래 넵 네네 알겠 겠어 겠습 ㅋㅋ ㅎㅎ ㅇㅋ ㅇㅇ ㅠㅠ ㅜㅜ
이거 그거 저거 이건 그건 저건 이게 그게 저게
었어 았어 였어 었다 았다 였다 었고 았고 었는 았는 가는 오는 하는 되는 있는 없는 가서 와서"""
#: Korean particles, endings, question words and greetings as the bigrams and syllables they become: asking
#: "뭐였죠?" ("what was it?") says nothing about what was said
KOREAN_STOP = frozenset(_KOREAN.split())
#: the particles a noun takes: a run ending in one is its noun and the particle, so the bigram across them is no word
#: (``호주의`` is ``호주`` and ``의``: its ``주의`` must not meet ``인상주의``), and a one-syllable word with one is
#: that word (``차를`` is ``차``; ``대한`` is no ``대``)
PARTICLES = frozenset("은는이가을를에의도로와과만랑께엔")

_lock = threading.Lock()


@cache
def _stemmer() -> object:
    import Stemmer  # PyStemmer: imported on first use

    return Stemmer.Stemmer("english")


@cache
def stem(word: str) -> str:
    """The Snowball English stem of a lower-cased word (cached: a conversation repeats its words)."""
    with _lock:  # a Stemmer object is not safe to share between threads
        return str(_stemmer().stemWord(word))  # type: ignore[attr-defined]


def terms(text: str) -> list[str]:
    """The terms ``text`` is indexed and searched by: lower-cased English stems without stop words (or one-character
    words), and Hangul, kana and CJK runs as character bigrams (a one-syllable word also as itself), without
    particles and endings."""
    return [t for word in words(text) for t in word]


def words(text: str) -> list[list[str]]:
    """The terms of ``text`` word by word (a word that says nothing has none and is left out): a question's words,
    to tell how many of them a turn shares."""
    out: list[list[str]] = []
    for word in _WORD.findall(text.lower()):
        found: list[str] = []
        start = 0
        for run in _SCRIPT_RUN.finditer(word):
            found += _plain(word[start : run.start()])
            s = run.group()
            grams = [s[i : i + 2] for i in range(len(s) - 1)]
            if len(s) > 2 and s[-1] in PARTICLES:
                grams.pop()  # the bigram across the noun and its particle: 호주의's 주의
            if len(s) == 1 or (len(s) == 2 and s[1] in PARTICLES):
                grams.append(s[0])  # a one-syllable word, bare or with its particle: 차, 차를, 차는
            found += [g for g in grams if g not in KOREAN_STOP]
            start = run.end()
        found += _plain(word[start:])
        if found:
            out.append(found)
    return out


def _plain(word: str) -> list[str]:
    if not word or word in STOP_WORDS or len(word) == 1:  # a lone letter or digit ("3 더하기 4") names nothing
        return []
    return [stem(word) if word.isascii() and word.isalpha() else word]
