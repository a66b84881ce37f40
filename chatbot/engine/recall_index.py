"""Recall's BM25 index over a conversation's turns (:class:`RecallIndex`), grown turn by turn, and what a turn is
searched by (:func:`turn_text`).

Each turn is turned into terms once, when it is first seen (:mod:`~chatbot.engine.recall_terms`); postings and
lengths are kept, so a query costs what its terms' postings cost. (``bm25s`` rebuilds its matrix for each added
document: 51 ms at 1,000 turns, ten times the budget of a turn.) The score is BM25 as ``bm25s`` computes it (its
Lucene variant, ``k1`` 1.5, ``b`` 0.75), over the query's terms that some turn has: a word no turn has says nothing
about which turn is meant, so a question that mixes in words never said scores its known words as if alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from chatbot.engine.recall_cues import Cue, asks_to_write, back_reference
from chatbot.engine.recall_terms import words
from chatbot.engine.turn import Turn, content_text

#: the built-in tool the model searches the conversation with (its results are not indexed again)
SEARCH_TOOL = "search_conversation"
#: the characters of a turn its terms are read from: a pasted 10 MB file took ~20 s to read into terms, again in every
#: process that opens the session (a one-shot ``-p`` each time); its first 200,000 take ~0.4 s
INDEX_CHARS = 200_000
#: BM25 parameters (``bm25s``'s defaults)
K1, B = 1.5, 0.75


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


@dataclass
class Scores:
    """A query's BM25 scores: by turn index, the words of the query each turn shares, and the query's weight (the
    idf of its distinct terms some turn has), its words and how many of them some turn has; and its cue that it
    points back at the conversation (:func:`~chatbot.engine.recall_cues.back_reference`)."""

    by_turn: dict[int, float] = field(default_factory=dict)
    shared: dict[int, int] = field(default_factory=dict)
    weight: float = 0.0
    words: int = 0
    known_words: int = 0
    cue: Cue | None = None
    named: frozenset[int] = frozenset()  # with a name for cue, the turns that hold it: it says only they are meant
    writes: bool = False  # the query asks for something new to be written (:func:`asks_to_write`)


class RecallIndex:
    """BM25 postings over a conversation's turns, grown as turns are added; each turn is turned into terms once.

    :meth:`sync` follows the stored turns by identity: new turns are added, and after ``/undo``, ``/retry`` or
    ``/reset`` the turns that are gone are taken out (from their kept term counts, not by reading them again).
    ``split`` gives a text's terms word by word (:func:`~chatbot.engine.recall_terms.words`).
    """

    def __init__(self, split: Callable[[str], list[list[str]]] = words) -> None:
        self.split = split
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
        counts = Counter(t for word in self.split(turn_text(turn)[:INDEX_CHARS]) for t in word)
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

    def scores(self, query: str, among: Iterable[int] | None = None) -> Scores:
        """BM25 scores of the turns (by index; only ``among`` when given) that share a term with ``query``."""
        out = Scores()
        n = len(self._turns)
        groups = [set(w) for w in self.split(query[:INDEX_CHARS])]  # a pasted message as a turn is read
        out.words = len(groups)
        if not n or not groups:
            return out
        out.cue = back_reference(query, lambda term: len(self._postings.get(term, ())))
        out.writes = asks_to_write(query)
        if out.cue is not None and not out.cue.points_back:
            terms = {t for word in self.split(out.cue.words) for t in word}
            out.named = frozenset(doc for t in terms for doc, _tf in self._postings.get(t, ()))
        idf_of, tfc_of = _bm25()
        allowed = None if among is None else set(among)
        average = max(1.0, self._total / n)
        seen: set[str] = set()
        for group in groups:
            sharing: set[int] = set()
            known = False
            for term in group - seen:
                seen.add(term)
                postings = self._postings.get(term, ())
                if not postings:
                    continue  # a term no turn has says nothing about which turn is meant: left out of the score
                known = True
                idf = idf_of(len(postings), n)
                out.weight += idf
                for doc, tf in postings:
                    if allowed is None or doc in allowed:
                        tfc = float(tfc_of(tf, self._lengths[doc], average, K1, B))
                        out.by_turn[doc] = out.by_turn.get(doc, 0.0) + idf * tfc
                        sharing.add(doc)
            out.known_words += known
            for doc in sharing:
                out.shared[doc] = out.shared.get(doc, 0) + 1
        return out
