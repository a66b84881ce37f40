"""How recall ranks the turns left out of a request and decides which are about the new message (:func:`rank`).

Two signals, each read against evidence that separates a real match from a chance one:

- **Words** (BM25, :mod:`~chatbot.engine.recall_index`): a turn's ``share`` is its score against what a turn of
  average length holding each known query term once would score, and its ``cover`` the share of the message's
  words (those some turn has) it holds. One common word shared with a long question is not a match: words agree
  when the share and the cover both clear their levels (:data:`MIN_SHARE`, :data:`MIN_COVER`). A turn that shares a
  single word of the question needs the message to mean it: a cue that it points back at the conversation or names
  something (:mod:`~chatbot.engine.recall_cues`: "what was **my** ...", "뭐**였지**?", "Okafor"), or the word being
  all the message says; with meaning there, also half the question (:data:`ONE_WORD_COVER`), unless meaning puts
  the turn well ahead of the next (:data:`ONE_WORD_LEAD`). One everyday noun in common ("a good birthday gift for a
  coworker?" and a note of a sister's birthday) is how unrelated questions found turns.
- **Meaning** (cosine similarity of sentence vectors, :mod:`~chatbot.engine.recall_meaning`): similarities have no
  level that means "nothing relevant" (an unrelated question's best match scores as high as a true one), so a
  turn's ``standing`` is how many standard deviations its similarity stands above the session's mean for this
  message. A true match stands out from the session; an unrelated question's best match does not.

By ``recall_by``: ``words`` ranks by BM25 and recalls what words agree on; ``meaning`` ranks by similarity and recalls a
turn that stands out by :data:`MEANING_ALONE`; ``both`` ranks by reciprocal rank fusion (each turn's ``1/(60 + rank)``
summed over the two rankings) and recalls a turn that words agree on and meaning does not contradict
(:data:`MEANING_AGREES`), or that meaning alone makes stand out. A question that asks back ("what was my ...?",
"뭐였지?") is about some earlier turn: its nearest turns by meaning need less; asked back in so many words ("my",
"did I": a firm cue), its :data:`NEAREST` from :data:`MEANING_NEAREST`, recalled together when meaning's guess is all
the evidence; by a Korean past ending alone, which general questions use too, or by the model's search, its
:data:`NEAREST_WEAK` from :data:`MEANING_NEAREST_WEAK`. A message that does not point back at the
conversation (a general question) needs more of meaning (:data:`MEANING_AGREES_UNCUED`, :data:`MEANING_ALONE_UNCUED`),
and one asking for something new to be written ("write me a haiku about ...") gets nothing by meaning alone. A message
with no word that says anything (greetings, thanks, "ok", "응": all stop words) recalls nothing, whatever its vector is
near.

**Look-alikes**: the turn after the best is recalled with it, even past ``--recall``, when it is relevant too and
competes closely (:func:`look_alike`): the model then sees both and can tell which was asked for, rather than getting
the wrong one alone. Likewise the guesses of a question asking back (:func:`comes_with`).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

from chatbot.engine.recall_cues import Cue
from chatbot.engine.recall_index import K1, Scores

#: words agree on a turn whose BM25 score is at least this share of what a turn of average length holding each
#: known query term once would score ... (tuned on bench/recall_probes.py: see docs/memory.md)
MIN_SHARE = 0.3
#: ... and that holds at least this share of the message's known words
MIN_COVER = 0.3
#: ... and, when it shares only one word, the message means it (a cue, or nothing else said: :attr:`Hit.meant`);
#: with meaning there, that word is also at least this share of the message's words, or meaning puts the turn first,
#: this many standard deviations ahead of the next (:data:`ONE_WORD_LEAD`): one everyday noun in common ("a good
#: birthday gift for a coworker?" and a note of a sister's birthday) is no evidence, one that is half a question
#: asking back ("집주인 이름이 뭐였죠?") is. On the tuning set the one-word matches of unrelated questions led the next
#: turn by 1.14 sd at most, those of keyword questions by 1.71 and more. By words alone, without a cue, one shared
#: word pulled a turn for 12 of 84 unrelated questions of the tuning set and was needed by no keyword question.
ONE_WORD_COVER = 0.5
ONE_WORD_LEAD = 1.4
#: ... or this many when the message does not point back at all: held-out sets 1 and 2 (tuning once set 3 was
#: written) and the tuning set had four unrelated questions pull a turn by one shared word led by 1.7-2.6 sd ("is
#: bamboo actually a grass?" and a turn on bamboo shoots in the yard, "how do I get better at chess?")
ONE_WORD_LEAD_UNCUED = 2.7
#: meaning alone recalls a turn whose similarity stands this many standard deviations above the session's mean
MEANING_ALONE = 2.6
#: ... or, when the message points back at the conversation, one of its :data:`NEAREST` turns by meaning standing
#: this many: a question asking back ("what was my ...", "뭐였지?") is about some earlier turn, and e5-small puts the
#: fact among the first three for three in five questions in other words. Such a turn is a guess (:attr:`Hit.guessed`),
#: and the other guesses come with it (:func:`comes_with`): the model sees the three and can tell which was asked for.
#: Tuned on held-out sets 1 to 5 once set 6 was written: 2 nearest from +1.9 recalled 119 of their 240 questions in
#: other words, 3 nearest from +1.6 129, from +1.5 132 (4 nearest: 132), with the same 9 of 200 unrelated questions
#: pulling a turn (2 of the 200 point back at all). Only a message that points back in so many words (a firm cue:
#: "my", "remember", "did I", "that cabin"): a Korean past ending asks general knowledge as often ("임진왜란이 몇
#: 년도에 일어났지?"), and the model's search asks of whatever it is unsure of; those keep :data:`NEAREST_WEAK` (with
#: guesses for every cue, 378 of 380 general questions that look like asking back pulled a turn, 162 before; now 164,
#: for 126 of the 240 questions in other words: docs/memory.md)
MEANING_NEAREST = 1.5
NEAREST = 3
#: ... or, when the message points back by a Korean past ending only or is the model's search, one of its this many
#: nearest turns standing :data:`MEANING_NEAREST_WEAK`, each on its own merit (no guesses come together)
NEAREST_WEAK = 2
MEANING_NEAREST_WEAK = 1.9
#: ... or this many when the message does not point back at the conversation: unrelated questions stood up to +3.2 on
#: the tuning set (water, a desk, tips to learn words), and up to +4.6 on held-out sets 1 and 2 ("write me a haiku
#: about autumn leaves" and a turn on autumn colours); their uncued questions in other words from +3.7
MEANING_ALONE_UNCUED = 4.0
#: with words agreeing, meaning must not put the turn below this many standard deviations (1.0 let one chance word
#: of an unrelated question through, "3 더하기 4"; the tuning set's keyword questions stand at +2.1 and more)
MEANING_AGREES = 1.5
#: ... or this many when the message does not point back (the tuning set's uncued keyword questions stand at +2.3
#: and more; "물 하루에 얼마나 마셔야 돼?" shared two words with a turn on watering tomatoes, at +1.9)
MEANING_AGREES_UNCUED = 2.0
#: two relevant turns are look-alikes when the second scores at least this share of the best's BM25 score (0.75
#: recalled 111 turns in bench_memory.py's 100-turn conversation at --recall 1, +18% prompt tokens; 0.85: 96, +16%) ...
TWIN_SHARE = 0.85
#: ... or stands within this many standard deviations of the best by meaning
TWIN_STANDING = 0.5
#: reciprocal rank fusion's constant
RRF_K = 60


@dataclass(frozen=True)
class Hit:
    """One earlier turn a search found: its 1-based number, the evidence, and whether it is relevant and why."""

    number: int
    score: float  # BM25 (0 when no word is shared)
    share: float  # of what a turn of average length holding each known query term once would score
    cover: float  # share of the message's known words the turn holds
    similarity: float | None = None  # cosine similarity by meaning (None: no vector, or recall goes by words)
    standing: float | None = None  # that similarity in standard deviations above the session's mean
    fused: float = 0.0  # the ranking score: BM25, similarity, or reciprocal rank fusion of both
    relevant: bool = False
    by: str = "words"  # the rule it was judged by
    shared: int = 0  # the message's words the turn holds
    lead: float | None = None  # by meaning, standard deviations ahead of the best other turn (behind it: negative)
    place: int | None = None  # by meaning, how many turns are nearer (0: the nearest; None: no vector)
    cue: Cue | None = None  # what in the message points back at the conversation
    writes: bool = False  # the message asks for something new to be written ("write me a haiku about ...")

    @property
    def why(self) -> str:
        """The evidence that decided whether the turn is relevant, against the levels (``/recall`` shows it)."""
        words = f"words: share {self.share:.2f} of {MIN_SHARE}, cover {self.cover:.2f} of {MIN_COVER}"
        if self.shared == 1:
            need = "a cue or the whole message"
            if self.lead is not None:
                lead = f"meaning {self.lead:+.1f} sd ahead of the next turn, of {ONE_WORD_LEAD}"
                need += f", cover {ONE_WORD_COVER}; or {lead}"
            words += f" (one word: {need})"
        if self.by == "words":
            return words
        if self.standing is None:
            return f"{words}; no vector"
        meaning = f"meaning: {self.standing:+.1f} sd (similarity less hubness {self.similarity:.2f})"
        alone = f"{self.alone_level:+.1f}" if self.alone_level < math.inf else "never (a request to write something)"
        if self.near:
            count, level = self.nearest
            alone += f", or {level:+.1f} as one of the {count} nearest turns of a message that points back"
            alone += " (a guess)" if self.guessed else ""
        if self.by == "meaning":
            return f"{meaning}, recalled from {alone}"
        return f"{words}; {meaning} (agree from {self.agree_level:+.1f}, alone {alone})"

    @property
    def meant(self) -> bool:
        """Whether the message means its one shared word: it points back at the conversation, names something, or
        says nothing but that word ("Okafor?")."""
        return self.cue is not None or self.cover >= 1

    @property
    def alone_level(self) -> float:
        """The standing meaning alone needs: :data:`MEANING_ALONE`, or :data:`MEANING_ALONE_UNCUED` when the message
        does not point back (a name says which turn only when a turn shares it: words judge that); none for a
        request to write something that does not point back (its subject is new text, whatever its vector is near)."""
        if self.cue is not None and self.cue.points_back:
            return MEANING_ALONE
        return math.inf if self.writes else MEANING_ALONE_UNCUED

    @property
    def nearest(self) -> tuple[int, float]:
        """How many of its nearest turns by meaning a message that points back may bring, and from what standing:
        :data:`NEAREST` from :data:`MEANING_NEAREST` with a firm cue, :data:`NEAREST_WEAK` from
        :data:`MEANING_NEAREST_WEAK` otherwise."""
        firm = self.cue is not None and self.cue.firm
        return (NEAREST, MEANING_NEAREST) if firm else (NEAREST_WEAK, MEANING_NEAREST_WEAK)

    @property
    def near(self) -> bool:
        """Whether the message points back and the turn is one of its :attr:`nearest` by meaning."""
        cue = self.cue
        return cue is not None and cue.points_back and self.place is not None and self.place < self.nearest[0]

    @property
    def guessed(self) -> bool:
        """Whether the turn is relevant only as one of the nearest turns of a message that points back firmly (neither
        the words nor meaning alone would have it): a guess, which the other guesses come with (:func:`comes_with`)."""
        firm = self.cue is not None and self.cue.firm
        if not (firm and self.relevant and self.near) or self.standing is None or self.standing >= self.alone_level:
            return False
        return not (self.by == "both" and self.words_agree and self.standing >= self.agree_level)

    @property
    def stands_out(self) -> bool:
        """Whether meaning alone makes the turn relevant (:attr:`alone_level`, or the :attr:`nearest` level when
        :attr:`near`)."""
        if self.standing is None:
            return False
        return self.standing >= (self.nearest[1] if self.near else self.alone_level)

    @property
    def agree_level(self) -> float:
        """The standing meaning needs when words agree: :data:`MEANING_AGREES`, more without a cue."""
        return MEANING_AGREES if self.cue is not None else MEANING_AGREES_UNCUED

    @property
    def words_agree(self) -> bool:
        """Whether the words make the turn a match: share and cover; one word alone only when the message means it
        (:attr:`meant`), and with meaning there, also is half of it (:data:`ONE_WORD_COVER`), or when meaning puts
        the turn well ahead of the next (:data:`ONE_WORD_LEAD`)."""
        agree = self.share >= MIN_SHARE and self.cover >= MIN_COVER
        if not agree or self.shared != 1:
            return agree
        if self.lead is None:  # by words alone, the one word and the cue are all the evidence there is
            return self.meant
        lead = ONE_WORD_LEAD if self.cue is not None else ONE_WORD_LEAD_UNCUED
        return (self.meant and self.cover >= ONE_WORD_COVER) or self.lead >= lead


def rank(
    scores: Scores, numbers: Sequence[int], similarity: dict[int, float], everything: Sequence[float], by: str
) -> list[Hit]:
    """The turns (by 0-based index, among ``numbers``) with any evidence, the best first, each judged relevant or
    not: ``scores`` by words, ``similarity`` by meaning with ``everything`` the session's similarities."""
    full = scores.weight / (1 + K1)
    known = max(1, scores.words)
    mean = statistics.fmean(everything) if everything else 0.0
    spread = statistics.pstdev(everything) if len(everything) > 1 else 0.0
    by_words = sorted(scores.by_turn, key=lambda d: (-scores.by_turn[d], -d))
    by_meaning = sorted(similarity, key=lambda d: (-similarity[d], -d)) if by != "words" else []
    fused: dict[int, float] = {}
    if by in ("words", "both"):
        for place, doc in enumerate(by_words):
            fused[doc] = scores.by_turn[doc] if by == "words" else 1 / (RRF_K + place + 1)
    for place, doc in enumerate(by_meaning[:50]):  # past the first 50, meaning adds nothing to the ranking
        fused[doc] = similarity[doc] if by == "meaning" else fused.get(doc, 0.0) + 1 / (RRF_K + place + 1)
    first, second = ([similarity[d] for d in by_meaning[:2]] + [mean, mean])[:2]
    places = {doc: place for place, doc in enumerate(by_meaning)}
    hits = []
    for doc, value in fused.items():
        sim = similarity.get(doc)
        standing = (sim - mean) / spread if sim is not None and spread > 0 else None
        lead = None
        if sim is not None and standing is not None and by_meaning:  # by words, meaning vouches for no word
            lead = (sim - (second if doc == by_meaning[0] else first)) / spread
        score = scores.by_turn.get(doc, 0.0)
        shared = scores.shared.get(doc, 0)
        share, cover = score / full if full else 0.0, shared / known
        cue = scores.cue if scores.cue is None or scores.cue.points_back or doc in scores.named else None
        hit = Hit(
            doc + 1, score, share, cover, sim, standing, value, by=by, shared=shared, lead=lead, place=places.get(doc),
            cue=cue, writes=scores.writes,
        )  # fmt: skip
        # a message with no word that says anything ("ok", "고마워") is about no turn: its vector is noise that
        # stands out from the session as often as a real question's
        hits.append(replace(hit, relevant=bool(scores.words) and judge(hit, by)))
    allowed = set(numbers)
    return sorted((h for h in hits if h.number - 1 in allowed), key=lambda h: (-h.fused, -h.number))


def judge(hit: Hit, by: str) -> bool:
    """Whether a turn is relevant by ``by``'s rule (see the module docstring)."""
    if by == "words" or hit.standing is None:
        return hit.words_agree
    if by == "meaning":
        return hit.stands_out
    return hit.stands_out or (hit.words_agree and hit.standing >= hit.agree_level)


def comes_with(best: Hit, other: Hit, place: int) -> bool:
    """Whether ``other`` (the hit at ``place`` among the relevant ones) is recalled with ``best`` even past
    ``--recall``: the look-alike right after it, or, when the best is only a guess of meaning's, the other guesses."""
    return (place == 1 and look_alike(best, other)) or (best.guessed and other.guessed)


def look_alike(best: Hit, other: Hit) -> bool:
    """Whether ``other`` competes closely with ``best``: both relevant, and close by words or by meaning."""
    if not (best.relevant and other.relevant):
        return False
    close_words = best.score > 0 and other.score >= TWIN_SHARE * best.score
    close_meaning = (
        best.standing is not None and other.standing is not None and best.standing - other.standing <= TWIN_STANDING
    )
    return close_words or close_meaning
