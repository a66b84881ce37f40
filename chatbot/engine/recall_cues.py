# ruff: noqa: E501  (the Korean lines: each character is two columns wide)
"""Whether a message points back at the conversation (:func:`back_reference`): the cue recall reads one shared word
by.

A question about something said before points back at the user's own world or at the conversation: "what was **my**
locker code **again**?", "**the** landlord **I** pay rent to", "지수 생일이 언제라고 **했죠**?", "**내** 차 번호판이
뭐**였더라**?". A question about nothing said before is general: "what's a good birthday gift for a coworker?",
"how do I clean a laptop keyboard?", "생일 선물 추천해줘". One word in common with a turn (birthday, laptop, 생일) is
then chance, not reference: recall asks more of it when the message carries no cue
(:mod:`~chatbot.engine.recall_rank`).

The cues, per language (compared lower-cased, word by word):

- **English**: first-person words (:data:`ENGLISH_SELF`) and recall words (:data:`ENGLISH_RECALL`: remember,
  again, earlier, told ...; "before" only ending its clause) outside a how-to (:data:`HOW_TO`: "how can I remember
  names?" and "remind me how to convert celsius" ask for something new), a past question about us ("did I", "was
  I", "did we", :data:`ENGLISH_PAST`), and a demonstrative right before a word at most two turns hold ("that
  restaurant": :data:`DEFINITE`), which presumes the thing is known. "The" is none: nearly every question has one
  before some word of a long session.
- **Korean**: first-person words (:data:`KOREAN_SELF`: 내, 제가, 우리 ...), recall words outside a how-to
  (:data:`KOREAN_RECALL`: 아까, 다시, 기억나 ...; 전에 only opening the message), "그" before a word at most two turns
  hold ("그 식당"), and the endings, ending a sentence, of a question about what was said that the speaker half
  remembers (:data:`KOREAN_PAST`: 뭐였지, 했죠, 였더라, 바뀌었지): a general question asks in the present (추천해줘,
  어디야) or about a general past (언제 죽었나요?).
- **A name** one or two turns hold (:data:`NAME_TURNS`), when nothing else points back: it says which turn is meant
  ("When does Okafor get paid?", "Daniel 번호 알려줘"), and is a cue for those turns only.

The first person, in either language, is a cue only in a message that asks or requests (:data:`ASKS`: "I'm so
tired", "저 다음 달에 이사 가요" tell), and not in a how-to or advice question (:data:`HOW_TO`, :data:`KOREAN_HOW_TO`:
"any advice?", "what's a good present?", "기타 배워 볼까?") nor a why-question ("why do we hear thunder ...?", whose
"we" is anyone). A request to write something new is told apart (:func:`asks_to_write`): with no cue, meaning alone
brings nothing back for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from chatbot.engine.recall_terms import words


def _words(text: str) -> list[str]:
    """A table written as its words, space-separated."""
    return text.split()


#: English first-person words: the user's own things and doings ("my", "we"), except in a how-to (:data:`HOW_TO`);
#: "me" is not one ("tell me a joke", "give me three tips" ask for something new)
ENGLISH_SELF = frozenset(_words("my mine myself our ours us we i i'm i've i'd we're we've"))
#: a how-to or advice question ("how do I make my battery last", "where do I start", "what should I name my
#: cat", "I'm thinking about a tattoo, any advice?", "what's a good present?"): it asks for something new about the
#: user's things, not for what was said of them
HOW_TO = re.compile(
    r"\b(?:(?:how|where) (?:do|can|should|would) i|(?:should|can|could) i|how to|tips? (?:to|for|on)|ways? to"
    r"|advice|recommend|suggest|ideas? (?:for|on)|what(?:'s| is| are) (?:a )?good)\b"
)
#: a why-question asks for an explanation, and its first person is anyone's ("why do we hear thunder after the
#: flash?", "why do I yawn?"): no cue by it (a past question about us still is one: "why did we pick that?")
WHY = re.compile(r"\bwhy\b")
#: English words that ask for something said before
ENGLISH_RECALL = frozenset(
    _words("remember remind reminded again earlier before previously mentioned told said already noted")
)
#: recall words that are also prepositions: a cue only where they end their clause ("what I said before?"), not
#: before what they govern ("what should I eat before a run?")
ENGLISH_RECALL_AT_END = frozenset(_words("before"))
#: "did I", "was I", "did we", "did you", "were we": a past question about the user or the conversation
ENGLISH_PAST = re.compile(r"\b(?:did|was|were|had) (?:i|we|you)\b")
#: articles and demonstratives that presume the listener knows the thing ("the cabin", "그 식당"): a cue when the
#: next word, or the one after it ("the blue suitcase"), is one few turns hold (:data:`DEFINITE_TURNS`)
DEFINITE = frozenset(_words("that this those these 그 그거"))
#: a definite reference points back only before a word at most this many turns hold: in a long session nearly
#: every "the" is followed by some word a turn holds ("what is the best way to learn Spanish?" and a turn on the best
#: chocolate), but "the cabin" of one turn is that turn's cabin
DEFINITE_TURNS = 2
#: Korean first-person words (a word by itself: 내 차, 제가, 우리 프로젝트)
KOREAN_SELF = frozenset(
    _words("내 내가 내게 나 나는 나도 나한테 나의 제 제가 저 저는 저도 저한테 저의 우리 우리가 우리는 우리의 우리집")
)
#: Korean words that ask for something said before, opening a word (아까, 말했던, 기억나, 기억이 안 나), outside a
#: how-to (:data:`KOREAN_HOW_TO`): 기억 only as remembering (기억나, 기억해), not 기억력 ("memory", the faculty)
KOREAN_RECALL = (
    "아까",
    "지난번",
    "그때",
    "말했",
    "말한",
    "얘기했",
    "얘기한",
    "이야기했",
    "기억나",
    "기억해",
    "기억하",
    "기억이",
    "다시",
)
#: 전에 ("before") asks back only standing alone at the start ("전에 말한 식당", "전에는 어디였지?"): "자기 전에"
#: ("before sleeping") and 충전에 ("for charging") are no "before now"
KOREAN_BEFORE = "전에"
#: a Korean how-to, advice or permission question ("설정하는 방법", "외우는 법", "우려도 돼?", "기타 배워 볼까?"):
#: its recall word and its first person ask for something new ("비밀번호 다시 설정하는 방법", "나 뭐 먹을까?")
KOREAN_HOW_TO = re.compile(r"방법|는 ?법|팁|어떻게|추천|(?:도|면) ?(?:돼|되|좋|괜찮)|(?:볼|할|갈|살|될|울|을)까")
#: the past syllables a half-remembered ending is made of (했, 였, 었 ...): not every syllable closing on ㅆ (나왔지,
#: 끝났죠, 일어났지): general questions ask the past with those as often ("임진왜란이 몇 년도에 일어났지?")
_KOREAN_PAST_SYLLABLES = "였었았했뒀렸웠셨"
#: the endings of a half-remembered past, ending a sentence ("뭐였지?", "했죠?", "했었죠?", "며칠이더라", "바뀌었지"):
#: a question about what was said or decided; not a past inside a clause ("오더라도", "키웠지만") nor a general past
#: question ("언제 죽었나요?", "태어나셨나요?"), and 었어 only asked ("뭐였어?", not "재밌었어")
KOREAN_PAST = re.compile(
    rf"[\uac00-\ud7a3]*(?:(?:[{_KOREAN_PAST_SYLLABLES}](?:었)?(?:지요|지|죠|더라)|더라)(?=\s*(?:[?.!~]|$))"
    r"|(?:였|었|았)어(?=\s*\?))"
)
#: a name held by at most this many turns is specific to them: "Okafor", "Nightjar" (a name every turn holds is the
#: conversation's subject, and says nothing about which turn is meant)
NAME_TURNS = 2
_CAPITALIZED = re.compile(r"(?<![A-Za-z0-9])[A-Z][A-Za-z0-9]+(?![A-Za-z0-9])")
_HANGUL_NEAR = re.compile(r"\s*[\uac00-\ud7a3]")
_WORD = re.compile(r"[^\W_]+(?:'[a-z]+)?")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_CLAUSE_GOES_ON = re.compile(r"[ \t]+[^\W_]")
#: a message that asks something, whose first person may point back: a question mark, a question word, a request
#: ("please keep my allergy in mind", "제 알레르기 생각해 주세요"), or a Korean word that asks ("I'm so tired",
#: "저 다음 달에 이사 가요" and "Thanks, I'm heading out" tell, and ask nothing)
ASKS = re.compile(
    r"\?|\b(?:what|which|where|when|who|whose|how|remind|tell|please)\b"
    r"|뭐|무슨|어디|어느|언제|누구|얼마|며칠|몇|알려|주세요|줘|줄래|주실"
)


#: a request to write something new ("write me a haiku", "draft an email", "메시지 써줘", "지어 줘"): with nothing
#: pointing back, its subject is new text, not an earlier turn however near its vector comes
WRITE = re.compile(
    r"\b(?:write|compose|draft|rewrite|translate)\b|(?:써|지어|작성해|만들어|번역해) ?(?:줘|주세요|줄래|볼래|봐)"
)


def asks_to_write(text: str) -> bool:
    """Whether ``text`` asks for something new to be written (:data:`WRITE`)."""
    return bool(WRITE.search(text.lower()))


#: the cues that point back in so many words (:attr:`Cue.firm`)
FIRM = frozenset(("first person", "recall word", "definite", "past question"))


@dataclass(frozen=True)
class Cue:
    """What in a message points back at the conversation: the kind of cue and the words that are it."""

    kind: str  # "first person", "recall word", "definite", "past question", "past ending", "name" (or "search")
    words: str

    @property
    def points_back(self) -> bool:
        """Whether the message itself points back (a name only says which turn, if a turn shares it)."""
        return self.kind != "name"

    @property
    def firm(self) -> bool:
        """Whether it points back in so many words ("my", "remember", "did I", "that cabin"): not only a Korean past
        ending, which asks general knowledge too ("임진왜란이 몇 년도에 일어났지?"), nor the model's search, which asks
        about whatever it is unsure of."""
        return self.kind in FIRM

    def __str__(self) -> str:
        return f"{self.kind} '{self.words}'"


def back_reference(text: str, holding: Callable[[str], int] = lambda term: 0) -> Cue | None:
    """The cue in ``text`` that it points back at the conversation (a name only when nothing else does), or None;
    ``holding`` tells how many turns hold a term (for a definite reference and a name)."""
    lower = text.lower()
    found = list(_WORD.finditer(lower))
    tokens = [m.group() for m in found]
    asks_new = HOW_TO.search(lower) or KOREAN_HOW_TO.search(lower)
    anyones = asks_new or WHY.search(lower)  # the first person of a how-to or a why-question is anyone's
    asks = ASKS.search(lower)  # the first person of a message that asks nothing tells, it does not ask back
    for i, token in enumerate(tokens):
        if (token in ENGLISH_SELF or token in KOREAN_SELF) and not anyones and asks:
            return Cue("first person", token)
        recall = None if asks_new else _recall_word(token, i, lower, found[i].end())
        if recall:
            return Cue("recall word", recall)
        if token in DEFINITE and any(0 < _holding(t, holding) <= DEFINITE_TURNS for t in tokens[i + 1 : i + 3]):
            return Cue("definite", " ".join(tokens[i : i + 3]))
    past = ENGLISH_PAST.search(lower)
    if past:
        return Cue("past question", past.group())
    ending = KOREAN_PAST.search(lower)
    if ending:
        return Cue("past ending", ending.group())
    name = next((n for n in _names(text) if 0 < _holding(n, holding) <= NAME_TURNS), None)
    return Cue("name", name) if name else None


def _recall_word(token: str, i: int, lower: str, end: int) -> str | None:
    """The recall word ``token`` (the ``i``-th word of the lower-cased message ``lower``, ending at ``end``) is, if it
    is one where it stands: "before" ending its clause, 전에 opening the message."""
    if token in ENGLISH_RECALL_AT_END:
        return None if _CLAUSE_GOES_ON.match(lower, end) else token
    if token in ENGLISH_RECALL:
        return token
    if token.startswith(KOREAN_BEFORE):
        return KOREAN_BEFORE if i == 0 else None
    if not token.startswith(KOREAN_RECALL):  # one call for the common case: no recall word at all
        return None
    return next(w for w in KOREAN_RECALL if token.startswith(w))


def _holding(word: str, holding: Callable[[str], int]) -> int:
    """How many turns hold ``word``'s terms (at most; 0: none holds any)."""
    return max((holding(t) for group in words(word) for t in group), default=0)


def _names(text: str) -> list[str]:
    """The words of ``text`` written as names: capitalized Latin words not opening an English sentence ("Okafor",
    "JL"), or next to Hangul ("Daniel 번호", "Nightjar는"), where a capital is chosen, not required."""
    out = []
    for m in _CAPITALIZED.finditer(text):
        j = m.start() - 1
        while j >= 0 and text[j].isspace():  # the whitespace before a word is walked once: linear in the text
            j -= 1
        before = text[j] if j >= 0 else ""
        mixed = _HANGUL_NEAR.match(text, m.end()) or (before and _HANGUL.match(before))
        if mixed or (before and before not in ".!?:"):
            out.append(m.group())
    return out
