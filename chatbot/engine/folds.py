"""A fold: turns folded into the rolling summary in pieces that fit a summary request, each piece folded into the
running summary in turn. :mod:`chatbot.engine.memory` decides when to fold and up to which turn; this module plans
the pieces and keeps what each summary call gives back. It calls the summarizer it is handed and nothing else,
and changes nothing: what a fold came to is a value (:class:`Folded`) that the conversation takes
(:meth:`~chatbot.engine.conversation.Conversation.take_fold`).

- **A summary request fits**: it counts at most :func:`summary_limit` tokens (calibrated): the model's window once a
  server named it, or ``--max-input-tokens``, whichever is smaller, less ``SUMMARY_REPLY_ROOM`` for the answer and a
  twentieth for safety. The
  turns to fold go in pieces that fit (:func:`next_piece`); a turn that does not fit alone is sent with its long
  texts (pasted files, long answers) shortened, and the request says so.
- **A refusal for length is tried again smaller**, within the fold (``CONTEXT_RETRIES`` times): under the window the
  error taught (the summarizer keeps it in the model's calibration), or half the size when it named none.
- **The summary stays small**: it is held to ``1/SUMMARY_SHARE`` of the summary request's limit
  (:func:`summary_share`), a quarter: room for the previous summary, the turns of a piece and the answer, and in a
  chat request three quarters left for the system message and the turns kept verbatim. A summary over its share is
  asked to be rewritten tighter (:func:`summary_ask`); asked for in words, about 3 words to 4 tokens.
- **Transactional, piece by piece**: a piece's summary is kept only when it is non-empty, does not repeat its
  request (a pretrained model continues the prompt instead of following it) and is shorter than what it replaces;
  a piece that fails ends the fold (the pieces kept before it stay) and starts the backoff.
- **A summary cut off at its cap** is kept up to its last complete sentence or line (:func:`whole_part`), the user
  told: a small model that rambles on past its summary loses its unfinished end, not the whole summary. A cut that
  leaves no real text (a reasoning model that spent the cap thinking, one sentence cut in its middle) is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chatbot.engine.summary_prompt import SUMMARY_WORDS, echoes_request, summary_request
from chatbot.engine.tokens import rough_count
from chatbot.engine.turn import Message, content_text
from chatbot.errors import ChatbotError, ContextLengthError

if TYPE_CHECKING:
    from chatbot.engine.conversation import Conversation


@dataclass(frozen=True)
class Written:
    """What a summarizer wrote: the summary, what the user hears of how it was written (a retry, for one), and the
    server's count of the summary request's prompt when it sent one (``prompt_tokens``), with the messages that
    request sent (``sent``: counted on the main thread, as sent, for calibration)."""

    text: str
    notices: tuple[str, ...] = ()
    prompt_tokens: int | None = None
    sent: tuple[Message, ...] = ()


#: ``summarizer(previous_summary, turns_to_fold, number_of_first_folded_turn) -> new summary`` (its text, or
#: :class:`Written` when it has something to tell; an exception it raises may carry ``notices`` too)
Summarizer = Callable[[str, list[list[Message]], int], "str | Written"]


@dataclass(frozen=True)
class RollingSummary:
    """The rolling summary as a value: its text, and how many of the first turns it covers."""

    text: str = ""
    covers: int = 0


@dataclass(frozen=True)
class FoldStep:
    """A fold the plan of a request found due: fold the turns after the summary up to ``upto`` (exclusive).

    ``trigger``: the strategy's own fold (more than ``summary_trigger`` turns uncovered), not one the budget forced;
    ``rewrite``: ask for a tighter summary even with no turn to fold; ``force``: whatever the backoff says."""

    upto: int
    trigger: bool = False
    rewrite: bool = False
    force: bool = False


@dataclass(frozen=True)
class Folded:
    """What a fold came to, as a value: the summary it leaves (the one it started from when it kept nothing), the
    turns it folded, whether a summarizer was called (its success or failure moves the backoff), why it made no
    summary or only part (``problem``), what it shortened (``notes``), what the user hears (``notices``) and, for
    each summary request the server counted, (its count uncorrected, the server's count): what calibration learns
    from (``counted``: the count of requests without tool definitions, which a summary request is)."""

    summary: RollingSummary
    folded: int = 0
    tried: bool = False
    problem: str = ""
    notes: tuple[str, ...] = ()
    notices: tuple[str, ...] = ()
    kept: bool = False  # at least one piece was kept: ``summary`` replaces the stored one
    counted: tuple[tuple[int, int], ...] = ()


#: tokens a summary request always leaves for its answer: a summary of ~250 words (~330 tokens) and some slack (a
#: quarter of the window when that is less: a window of 2,048 leaves 1,536 for the request)
SUMMARY_REPLY_ROOM = 512
#: a summary request is planned this fraction (1/20) of its size under it: the calibrated count runs a few percent
#: under some servers' (llama.cpp's Gemma template leaves tool definitions out, so chat requests teach too low a
#: count for a summary request without them: 1,596 tokens were sent for 1,536 planned, with 512 for the answer)
SAFETY = 20
#: the summary is held to this fraction (1/4) of a summary request's limit
SUMMARY_SHARE = 4
#: how often one fold tries a piece again smaller after the server refused it for its length
CONTEXT_RETRIES = 2
#: the fewest words a summary is asked for, however small the window
FEWEST_WORDS = 40
#: a text shorter than this (characters) is not shortened further to fit a summary request
SHORTEST_CUT = 200


#: where a sentence ends: a full stop, question or exclamation mark (closing quotes or brackets may follow) before a
#: space or a line break; one at the very end of a cut text may be mid-number ("3." of "3.5"), so it does not count
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*(?=\s)")


def whole_part(text: str) -> tuple[str, str]:
    """What a summary cut off at its cap keeps: (its text up to the last complete sentence or line, whichever ends
    later; "sentence" or "line"), or ("", "") when that leaves no real text: nothing with a letter or a digit, or
    less than half of what came (one long sentence cut in its middle would lose more than it keeps). Pure."""
    line = text.rfind("\n")
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    sentence = ends[-1] if ends else -1
    cut, kind = (sentence, "sentence") if sentence >= line else (line, "line")
    kept = text[: max(cut, 0)].strip()
    if not any(c.isalnum() for c in kept) or 2 * len(kept) < len(text.strip()):
        return "", ""
    return kept, kind


def reply_room(size: int) -> int:
    """Tokens a summary request of at most ``size`` tokens with its answer leaves for the answer:
    ``SUMMARY_REPLY_ROOM``, or a quarter of a smaller size."""
    return min(SUMMARY_REPLY_ROOM, size // 4)


def summary_limit(conv: Conversation) -> int:
    """The most a summary request may count (calibrated): min(window, ``--max-input-tokens``) less the reply room
    and a twentieth for safety (``SAFETY``)."""
    size = conv.memory.max_input_tokens
    if conv.counter.calibration.context:
        size = min(size, conv.counter.calibration.context)
    return max(1, size - reply_room(size) - size // SAFETY)


def summary_share(conv: Conversation) -> int:
    """Tokens the summary may take: ``1/SUMMARY_SHARE`` of :func:`summary_limit`."""
    return summary_limit(conv) // SUMMARY_SHARE


def summary_ask(conv: Conversation, previous: str) -> tuple[int, bool]:
    """(words asked for, whether a tighter rewrite is asked): the share in words, at most ``SUMMARY_WORDS``; half
    that and a tighter rewrite when ``previous`` has outgrown the share.

    Counted roughly, a pure function of the text: a summary written ahead, on another thread, asks the same.
    """
    share = summary_share(conv)
    words = max(FEWEST_WORDS, min(SUMMARY_WORDS, share * 3 // 4))
    if rough_count(previous) > share:
        return max(FEWEST_WORDS, words // 2), True
    return words, False


def summary_messages(conv: Conversation, previous: str, turns: list[list[Message]], first: int) -> list[Message]:
    """The messages of the summary request that folds ``turns`` (the first numbered ``first``) into ``previous``."""
    words, tighter = summary_ask(conv, previous)
    return summary_request(previous, turns, first, words=words, tighter=tighter)


def request_tokens(conv: Conversation, previous: str, turns: list[list[Message]], first: int) -> int:
    """What that summary request counts, calibrated as a request without tool definitions is."""
    counter = conv.counter
    raw = counter.count_request(summary_messages(conv, previous, turns, first)) - counter.chat_format.per_request
    return counter.plain_total(raw)


def next_piece(conv: Conversation, summary: RollingSummary, upto: int, limit: int) -> tuple[list[list[Message]], bool]:
    """The turns after ``summary`` (before ``upto``) that the next summary request folds into it: as many whole turns
    as fit ``limit``, or the first alone with its long texts shortened (then True). Pure."""
    previous, start = summary.text, summary.covers
    first = start + 1
    piece: list[list[Message]] = []
    for turn in conv.turns[start:upto]:
        candidate = [*piece, list(turn.messages)]
        if request_tokens(conv, previous, candidate, first) > limit:
            break
        piece = candidate
    if piece or start >= upto:
        return piece, False
    return [_shortened(conv, previous, list(conv.turns[start].messages), first, limit)], True


def _shortened(conv: Conversation, previous: str, messages: list[Message], first: int, limit: int) -> list[Message]:
    """``messages`` with their longest texts cut in half, again and again, until their summary request fits."""
    out = [dict(m) for m in messages]
    while request_tokens(conv, previous, [out], first) > limit:
        longest = max(range(len(out)), key=lambda i: len(content_text(out[i].get("content"))))
        text = content_text(out[longest].get("content"))
        if len(text) < SHORTEST_CUT:
            break  # what is left is the summary and the instructions: the server may still refuse (then retried)
        out[longest] = {**out[longest], "content": _cut(text, len(text) // 2)}
    return out


def _cut(text: str, keep: int) -> str:
    """``text`` cut to about ``keep`` characters: its start and its end, and how much was left out between."""
    head, tail = keep * 2 // 3, keep // 3
    left_out = f"[… {len(text) - head - tail:,} characters left out to fit the summary request …]"
    return f"{text[:head]}\n{left_out}\n{text[-tail:]}"


def fold(conv: Conversation, step: FoldStep, summarizer: Summarizer | None, summary: RollingSummary) -> Folded:
    """Fold the turns after ``summary`` up to ``step.upto`` into it, piece by piece (``step.rewrite``: ask for a
    tighter summary even with no turn to fold): the one step of building a request that calls anything.

    Changes nothing: what came of it is the value returned, which :meth:`Conversation.take_fold` keeps (a preview
    folds with :func:`placeholder_summarizer` and keeps nothing). While a failure's backoff lasts no summarizer is
    called unless ``step.force``; without a summarizer only a fold the trigger made due says so.
    """
    n = len(conv.turns)
    if step.upto <= summary.covers and not step.rewrite:
        return Folded(summary)
    if summarizer is None:
        return Folded(summary, problem="no summarizer available" if step.trigger else "")
    if not (step.force or conv.backoff.due(n)):
        next_try = conv.backoff.next_try(n) + 1
        return Folded(summary, problem=f"summarizing failed before and is tried again before turn {next_try} "
                                       "(/summary now forces it)")  # fmt: skip
    done, limit, refusals, rewrite, began = 0, summary_limit(conv), 0, step.rewrite, summary
    notes: list[str] = []
    told: list[str] = []
    counted: list[tuple[int, int]] = []
    while summary.covers < step.upto or (rewrite and not done):
        start = summary.covers
        piece, short = next_piece(conv, summary, step.upto, limit)
        window = conv.counter.calibration.context
        try:
            written = summarizer(summary.text, piece, start + 1)
        except ContextLengthError as exc:
            told.extend(getattr(exc, "notices", ()))
            if refusals < CONTEXT_RETRIES:
                refusals += 1
                limit = _smaller(conv, window, limit, request_tokens(conv, summary.text, piece, start + 1))
                continue
            new, problem = "", f"summarizing failed ({exc.message})"
        except Exception as exc:  # a summarizer is user-pluggable; never let it lose the turn
            told.extend(getattr(exc, "notices", ()))
            new, problem = "", f"summarizing failed ({exc.message if isinstance(exc, ChatbotError) else exc})"
        else:
            written = written if isinstance(written, Written) else Written(written)
            told.extend(written.notices)
            if written.prompt_tokens and written.sent:
                counted.append((conv.counter.count_request(written.sent), written.prompt_tokens))
            new = (written.text or "").strip()
            problem = _refusal(conv, summary, new, len(piece))
        if problem:
            return Folded(summary, done, True, problem, tuple(notes), tuple(told), summary is not began, tuple(counted))
        if short:
            notes.append(f"turn {start + 1} is too long for a summary request: its long texts were shortened for it")
        summary = RollingSummary(new, min(start + len(piece), n))
        done, rewrite = done + len(piece), False
    return Folded(summary, done, True, "", tuple(notes), tuple(told), True, tuple(counted))


def placeholder_summarizer(previous: str, turns: list[list[Message]], first: int) -> str:
    """Stands in for a summary that is due but not written yet (previews such as ``/context``; no model call)."""
    return f"{previous}\n(turns {first}-{first + len(turns) - 1}: summarized before sending)".strip()


def _smaller(conv: Conversation, window: int | None, limit: int, refused: int) -> int:
    """The limit for the next try after a request of ``refused`` tokens was refused for its length: under the
    window the error taught (the summarizer kept it in the calibration), else half the refused request."""
    if conv.counter.calibration.context != window:
        return summary_limit(conv)
    return max(1, min(limit, refused // 2))


def _refusal(conv: Conversation, summary: RollingSummary, new: str, folded: int) -> str:
    """Why a summary that came back is not kept, or "": it must be non-empty, not a repeat of its request
    (:func:`~chatbot.engine.summary_prompt.echoes_request`) and shorter than what it replaces."""
    counter = conv.counter
    if not new:
        return "the summary came back empty"
    if echoes_request(new):
        return "the summary repeats its request instead of summarizing it, so it was not kept"
    start = summary.covers
    replaced = counter.count(summary.text) + sum(t.tokens(counter) for t in conv.turns[start : start + folded])
    if counter.count(new) >= replaced:
        return "the summary was not shorter than what it replaces, so it was not kept"
    return ""
