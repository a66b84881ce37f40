"""Recall: earlier turns that are not sent verbatim come back when the new message is about them.

A window drops old turns and a summary loses details, yet the session keeps every turn whole. Before each request
the turns the memory rule leaves out (dropped by the window, folded into the summary, or left out for the budget)
are ranked against the new message with BM25, and up to ``MemoryConfig.recall`` of them that score above a
threshold go back into the request, verbatim, in one block inside the system message under a heading that names
their turn numbers (:func:`recall_block`), within the budget. A message about nothing earlier recalls nothing.

- **The block is quoted**: recalled text is anything a model, a tool or a web page once wrote, so each message is a
  label line (``User:``, ``Assistant:``, ``Tool result (name):``) followed by its text with every line quoted
  (``> ``), and the block ends with :data:`RECALL_END`. No recalled line can open a heading, a turn, a message or
  the end of the block (a reply holding ``## Operator note`` or ``--- turn 7`` stays a quoted line of its turn).

- **Terms** (:func:`terms`): lower-cased words, English stop words left out; Hangul (and kana and CJK ideographs)
  as character bigrams, so a Korean word with its particle ("번호는", "번호가") shares the bigram "번호" with the
  bare word. Measured against the ``kiwipiepy`` tokenizer in ``bench/bench_recall.py`` (``docs/memory.md``): as
  many facts recalled, no false pulls, without a model to load.
- **The index** (:class:`RecallIndex`) grows with the session: each turn is turned into terms once, when it is first
  seen; postings and lengths are kept, so a query costs what its terms' postings cost. (``bm25s`` rebuilds its
  matrix for each added document: 51 ms at 1,000 turns, ten times the budget of a turn.)
- **The score** is BM25 as ``bm25s`` computes it (its Lucene variant, ``k1`` 1.5, ``b`` 0.75); a turn is recalled
  when its score is at least ``MIN_SHARE`` of what a turn of average length holding each of the query's terms once
  would score (a term no turn has counts as the rarest), so one shared word of a longer message pulls nothing in.

Pure and screen-free: the memory rule calls :func:`recall_block`; ``/recall`` and the ``search_conversation`` tool
call :func:`search`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from chatbot.engine.text import QUOTE, quote_lines
from chatbot.engine.tool_results import sent_messages
from chatbot.engine.turn import Message, Turn, content_text

if TYPE_CHECKING:
    from chatbot.engine.conversation import Conversation

#: the heading under which recalled turns ride in the system message
RECALL_HEADING = "Earlier turns recalled for this message"
#: how each recalled turn is introduced in the block
RECALL_TURN_MARKER = "--- turn "
#: the last line of the block: recalled text is quoted, so no line of it can be this one
RECALL_END = "--- end of the recalled turns"
#: the built-in tool the model searches the conversation with (its results are not indexed again)
SEARCH_TOOL = "search_conversation"
#: BM25 parameters (``bm25s``'s defaults)
K1, B = 1.5, 0.75
#: a turn is recalled when its score is at least this share of what a turn of average length holding each of the
#: query's terms once would score (chosen on bench/bench_recall.py: see docs/memory.md)
MIN_SHARE = 0.26
#: ... and at least this share of the best turn's score: a close second comes too, a distant one does not
NEAR_BEST = 0.5

_SCRIPT_RUN = re.compile(r"[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u9fff\uac00-\ud7a3]+")
_WORD = re.compile(r"[^\W_]+")
_ENGLISH = """a about after again all also am an and any are as at be been before but by can could did do does doing
done for from had has have he her here him his how i if in into is it its just know let like me mine my no not now
of on once one or our out please remember remind said say she so some tell than that the their them then there these
they this those to told too up us was we were what when where which who why will with would yes you your yours
earlier gave give given"""
#: English words that say nothing about what is asked for
STOP_WORDS = frozenset(_ENGLISH.split())
_KOREAN = """내 제 좀 거 것 뭐 왜 수 더 다 또 그 이 저 뭐였 였죠 였지 였더 더라 했죠 했지
했었 었죠 었지 라고 다고 알려 려줘 줘요 려주 주세 세요 예요 에요 이에 이야 니다 습니
해요 하죠 해줘 어요 아요 에서 하면 려면 에게 한테 으로 그리 리고 다시 무슨 어느 언제
제가 저는 나는 내가 우리 있어 있다 없어 름이 했던 었던 였던"""
#: Korean question endings, particles and fillers as the bigrams (or single syllables) they become: the Korean
#: "what was ... again" (asking "뭐였죠?" says nothing about what was said)
KOREAN_STOP = frozenset(_KOREAN.split())


def terms(text: str) -> list[str]:
    """The terms ``text`` is indexed and searched by: lower-cased words without stop words (or one-letter words),
    and Hangul, kana and CJK runs as character bigrams (a one-character run as itself)."""
    out: list[str] = []
    for word in _WORD.findall(text.lower()):
        start = 0
        for run in _SCRIPT_RUN.finditer(word):
            out += _plain(word[start : run.start()])
            s = run.group()
            grams = [s] if len(s) == 1 else [s[i : i + 2] for i in range(len(s) - 1)]
            out += [g for g in grams if g not in KOREAN_STOP]
            start = run.end()
        out += _plain(word[start:])
    return out


def _plain(word: str) -> list[str]:
    return [word] if word and (len(word) > 1 or word.isdigit()) and word not in STOP_WORDS else []


def turn_text(turn: Turn) -> str:
    """What a turn is searched by: its user text, assistant text, tool calls and tool results (not a search's)."""
    parts = []
    for m in turn.messages:
        if m.get("role") == "tool" and m.get("name") == SEARCH_TOOL:
            continue
        parts.append(content_text(m.get("content")))
        parts += [str(c.get("function", {}).get("arguments", "")) for c in m.get("tool_calls") or []]
    return "\n".join(parts)


@cache
def _bm25() -> tuple[Callable[..., float], Callable[..., Any]]:
    # imported on first use: bm25s loads numpy and takes ~0.15 s, which a chat without recall never pays
    from bm25s.scoring import _score_idf_lucene, _score_tfc_lucene

    return _score_idf_lucene, _score_tfc_lucene


class RecallIndex:
    """BM25 postings over a conversation's turns, grown as turns are added; each turn is turned into terms once.

    :meth:`sync` follows the stored turns by identity: new turns are added, and after ``/undo``, ``/retry`` or
    ``/reset`` the turns that are gone are taken out (from their kept term counts, not by reading them again).
    """

    def __init__(self, tokenize: Callable[[str], list[str]] = terms) -> None:
        self.tokenize = tokenize
        self._turns: list[Turn] = []
        self._counts: list[Counter[str]] = []
        self._lengths: list[int] = []
        self._postings: dict[str, list[tuple[int, int]]] = {}
        self._total = 0

    def __len__(self) -> int:
        return len(self._turns)

    def sync(self, turns: Sequence[Turn]) -> None:
        """Make the index hold exactly ``turns``: cheap when it holds them already, or all but new ones."""
        mine = self._turns
        keep = len(mine)
        if keep > len(turns) or (mine and turns[keep - 1] is not mine[-1]):  # turns were taken back or replaced
            same = zip(mine, turns, strict=False)  # up to the shorter of the two
            keep = next((i for i, (a, b) in enumerate(same) if a is not b), min(keep, len(turns)))
        while len(mine) > keep:
            self._remove_last()
        for turn in turns[keep:]:
            self._add(turn)

    def _add(self, turn: Turn) -> None:
        counts = Counter(self.tokenize(turn_text(turn)))
        doc = len(self._turns)
        for term, tf in counts.items():
            self._postings.setdefault(term, []).append((doc, tf))
        self._turns.append(turn)
        self._counts.append(counts)
        self._lengths.append(sum(counts.values()))
        self._total += self._lengths[-1]

    def _remove_last(self) -> None:
        counts = self._counts.pop()
        self._turns.pop()
        self._total -= self._lengths.pop()
        for term in counts:
            postings = self._postings[term]
            postings.pop()  # the last document's posting is the last of each of its terms
            if not postings:
                del self._postings[term]

    def scores(self, query: str, among: Iterable[int] | None = None) -> tuple[dict[int, float], float]:
        """BM25 scores of the turns (by index; only ``among`` when given) that share a term with ``query``, and the
        query's weight (the sum of its distinct terms' idf; a term no turn has counts as the rarest)."""
        n = len(self._turns)
        words = set(self.tokenize(query))
        if not n or not words:
            return {}, 0.0
        idf_of, tfc_of = _bm25()
        allowed = None if among is None else set(among)
        average = max(1.0, self._total / n)
        scores: dict[int, float] = {}
        weight = 0.0
        for word in words:
            postings = self._postings.get(word, ())
            idf = idf_of(len(postings), n)
            weight += idf
            for doc, tf in postings:
                if allowed is None or doc in allowed:
                    tfc = float(tfc_of(tf, self._lengths[doc], average, K1, B))
                    scores[doc] = scores.get(doc, 0.0) + idf * tfc
        return scores, weight


@dataclass(frozen=True)
class Hit:
    """One earlier turn a search found: its 1-based number, its BM25 score, and that score as a share of what a turn
    of average length holding each of the query's terms once would score (recalled from ``MIN_SHARE`` on)."""

    number: int
    score: float
    share: float

    @property
    def relevant(self) -> bool:
        """Whether the turn is relevant enough to be recalled."""
        return self.share >= MIN_SHARE


def search(conv: Conversation, query: str, among: Iterable[int] | None = None) -> list[Hit]:
    """The turns of ``conv`` (by 0-based index; only ``among`` when given) that share a term with ``query``, the
    best first; ``relevant`` when the score clears the threshold (see the module docstring)."""
    index = conv.recall_index
    index.sync(conv.turns)
    scores, weight = index.scores(query, among)
    full = weight / (1 + K1)  # a turn of average length holding every query term once
    hits = [Hit(doc + 1, s, s / full if full else 0.0) for doc, s in scores.items()]
    return sorted(hits, key=lambda h: (-h.score, -h.number))


def render_turn(number: int, turn: Turn, conv: Conversation, note: str = "") -> str:
    """One recalled turn as the block carries it: its marker line (``note`` after the number), then every message,
    older tool results shortened as in a request, each a label line and its text quoted."""
    lines = [f"{RECALL_TURN_MARKER}{number}{note}"]
    for m in sent_messages(turn, conv.counter, conv.memory.tool_result_tokens):
        lines += _message_lines(m)
    return "\n".join(lines)


def _label(value: object) -> str:
    return " ".join(str(value).split())  # a name on a label line: one line, whatever it held


def _message_lines(m: Message) -> list[str]:
    role, text = m.get("role"), content_text(m.get("content"))
    if role == "user":
        return ["User:", *quote_lines(text)]
    if role == "tool":
        return [f"Tool result ({_label(m.get('name') or m.get('tool_call_id'))}):", *quote_lines(text)]
    lines = ["Assistant:", *quote_lines(text)] if text else []
    for call in m.get("tool_calls") or []:
        function = call.get("function", {})
        arguments = str(function.get("arguments") or "")
        called = f"Assistant called tool {_label(function.get('name'))}"
        lines += [f"{called} with:", *quote_lines(arguments)] if arguments else [called]
    return lines


def recall_heading(numbers: Sequence[int]) -> str:
    """The heading line of a block that carries the turns ``numbers`` (1-based)."""
    which = f"turn{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}"
    return (
        f"{RECALL_HEADING} ({which}, verbatim from the stored conversation: every line of their text is quoted with "
        f"'{QUOTE.strip()}', up to the line '{RECALL_END}')"
    )


def recall_block(numbers: Sequence[int], conv: Conversation) -> str:
    """The block appended to the system message: the heading, each turn in the order it happened, the end line."""
    ordered = sorted(numbers)
    turns = [render_turn(n, conv.turns[n - 1], conv) for n in ordered]
    return "\n\n".join([f"## {recall_heading(ordered)}", *turns, RECALL_END])


def choose(conv: Conversation, query: str, candidates: int, fits: Callable[[tuple[int, ...]], bool]) -> tuple[int, ...]:
    """Up to ``conv.memory.recall`` of the turns ``turns[:candidates]`` relevant to ``query`` whose block ``fits``,
    the best first (a turn that does not fit is passed over for a smaller one); in the order they happened."""
    k = conv.memory.recall
    if k <= 0 or candidates <= 0:
        return ()
    chosen: tuple[int, ...] = ()
    hits = search(conv, query, range(candidates))
    for hit in hits:
        if len(chosen) >= k or not hit.relevant or hit.score < NEAR_BEST * hits[0].score:
            break
        trial = tuple(sorted((*chosen, hit.number)))
        if fits(trial):
            chosen = trial
    return chosen


def split_recalled(system: str) -> tuple[str, str]:
    """``(system message before the block, the block)``; the block is empty when the message carries none.

    The block is always last, and ends with :data:`RECALL_END`: its heading is the last one at the start of a line
    (a heading quoted inside recalled text starts with ``> ``)."""
    heading = f"## {RECALL_HEADING}"
    at = system.rfind(f"\n{heading}") + 1  # 0: not after a line break, so only at the very start
    if not system.endswith(f"\n{RECALL_END}") or (at == 0 and not system.startswith(heading)):
        return system, ""
    return system[:at].rstrip(), system[at:]


def with_recalled(system: Message, numbers: Sequence[int], conv: Conversation) -> Message:
    """The system message with the block of ``numbers`` appended (as is when there are none)."""
    if not numbers:
        return system
    return {**system, "content": f"{system['content']}\n\n{recall_block(numbers, conv)}"}


def attach(
    conv: Conversation, with_summary: bool, user: Message, first: int, budget: int, raw: int
) -> tuple[Message, tuple[int, ...], int]:
    """The memory rule's hook: the system message (``with_summary`` or not) with the turns recalled for ``user`` from
    ``turns[:first]`` (those not sent verbatim), in the room ``budget`` leaves beside ``raw`` tokens; the turns, and
    the raw tokens added."""
    counter = conv.counter
    system = conv.system_message(with_summary)
    if conv.memory.recall <= 0 or first <= 0 or counter.total(raw) >= budget:
        return system, (), 0  # nothing left out, or no room: not even counted
    base = conv.system_tokens(with_summary)

    def extra(numbers: tuple[int, ...]) -> int:
        return counter.count_message(with_recalled(system, numbers, conv)) - base if numbers else 0

    numbers = choose(conv, content_text(user.get("content")), first, lambda n: counter.total(raw + extra(n)) <= budget)
    return with_recalled(system, numbers, conv), numbers, extra(numbers)


#: turns the search tool returns at most
SEARCH_RESULTS = 3


def search_report(conv: Conversation, query: str) -> str:
    """What ``search_conversation(query)`` answers the model: the best relevant turns of the whole conversation
    (the same search as recall), verbatim with their numbers and scores; or that none matches."""
    hits = [h for h in search(conv, query) if h.relevant][:SEARCH_RESULTS]
    if not hits:
        return f"No earlier turn of this conversation matches {query!r}."
    found = ", ".join(str(h.number) for h in hits)
    blocks = [render_turn(h.number, conv.turns[h.number - 1], conv, f" (score {h.score:.2f})") for h in hits]
    head = (
        f"Turn {found} of this conversation matches" if len(hits) == 1 else f"Turns {found} of this conversation match"
    )
    return f"{head} {query!r}, the best first:\n\n" + "\n\n".join(blocks)
