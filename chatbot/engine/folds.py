"""A fold: turns folded into the rolling summary in pieces that fit a summary request, each piece folded into the
running summary in turn. :mod:`chatbot.engine.memory` decides when to fold and up to which turn; this module plans
the pieces and keeps what each summary call gives back. It calls the summarizer it is handed and nothing else.

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
- **Transactional, piece by piece**: a piece's summary is kept only when it is non-empty and shorter than what it
  replaces; a piece that fails ends the fold (the pieces kept before it stay) and starts the backoff.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from chatbot.engine.summary_prompt import SUMMARY_WORDS, summary_request
from chatbot.engine.tokens import rough_count
from chatbot.engine.turn import Message, content_text
from chatbot.errors import ChatbotError, ContextLengthError

if TYPE_CHECKING:
    from chatbot.engine.conversation import Conversation

#: ``summarizer(previous_summary, turns_to_fold, number_of_first_folded_turn) -> new summary``
Summarizer = Callable[[str, list[list[Message]], int], str]

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
    """What that summary request counts, calibrated as a chat request is."""
    counter = conv.counter
    raw = counter.count_request(summary_messages(conv, previous, turns, first)) - counter.chat_format.per_request
    return counter.total(raw)


def next_piece(conv: Conversation, start: int, upto: int, limit: int) -> tuple[list[list[Message]], bool]:
    """The turns from ``start`` (before ``upto``) that the next summary request folds into the summary: as many
    whole turns as fit ``limit``, or the first alone with its long texts shortened (then True). Pure."""
    previous, first = conv.summary, start + 1
    piece: list[list[Message]] = []
    for turn in conv.turns[start:upto]:
        candidate = [*piece, list(turn.messages)]
        if request_tokens(conv, previous, candidate, first) > limit:
            break
        piece = candidate
    if piece or start >= upto:
        return piece, False
    return [_shortened(conv, list(conv.turns[start].messages), first, limit)], True


def _shortened(conv: Conversation, messages: list[Message], first: int, limit: int) -> list[Message]:
    """``messages`` with their longest texts cut in half, again and again, until their summary request fits."""
    out = [dict(m) for m in messages]
    while request_tokens(conv, conv.summary, [out], first) > limit:
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


def fold(
    conv: Conversation,
    upto: int,
    summarizer: Summarizer | None,
    problems: list[str],
    notes: list[str],
    *,
    force: bool = False,
    rewrite: bool = False,
) -> int:
    """Fold turns[summary_covers:upto] into the summary, piece by piece; ``rewrite``: ask for a tighter summary even
    with no turn to fold. Returns how many turns were folded.

    Why no summary (or only part) was made goes to ``problems``, what was shortened to ``notes``. A failure starts
    (or continues) the backoff; while it lasts, no summarizer is called unless ``force``.
    """
    n = len(conv.turns)
    if upto <= conv.summary_covers and not rewrite:
        return 0
    if summarizer is None:
        problems.append("no summarizer available")
        return 0
    if not (force or conv.backoff.due(n)):
        next_try = conv.backoff.next_try(n) + 1
        problems.append(f"summarizing failed before and is tried again before turn {next_try} (/summary now forces it)")
        return 0
    done, limit, refusals = 0, summary_limit(conv), 0
    while conv.summary_covers < upto or (rewrite and not done):
        start = conv.summary_covers
        piece, short = next_piece(conv, start, upto, limit)
        window = conv.counter.calibration.context
        try:
            new = (summarizer(conv.summary, piece, start + 1) or "").strip()
        except ContextLengthError as exc:
            if refusals < CONTEXT_RETRIES:
                refusals += 1
                limit = _smaller(conv, window, limit, request_tokens(conv, conv.summary, piece, start + 1))
                continue
            new, problem = "", f"summarizing failed ({exc.message})"
        except Exception as exc:  # a summarizer is user-pluggable; never let it lose the turn
            new, problem = "", f"summarizing failed ({exc.message if isinstance(exc, ChatbotError) else exc})"
        else:
            problem = _refusal(conv, new, start, len(piece))
        if problem:
            problems.append(problem)
            conv.backoff.failed(n)
            return done
        if short:
            notes.append(f"turn {start + 1} is too long for a summary request: its long texts were shortened for it")
        conv.set_summary(new, start + len(piece))
        done, rewrite = done + len(piece), False
    conv.backoff.succeeded()
    return done


def _smaller(conv: Conversation, window: int | None, limit: int, refused: int) -> int:
    """The limit for the next try after a request of ``refused`` tokens was refused for its length: under the
    window the error taught (the summarizer kept it in the calibration), else half the refused request."""
    if conv.counter.calibration.context != window:
        return summary_limit(conv)
    return max(1, min(limit, refused // 2))


def _refusal(conv: Conversation, new: str, start: int, folded: int) -> str:
    """Why a summary that came back is not kept, or "": it must be non-empty and shorter than what it replaces."""
    counter = conv.counter
    if not new:
        return "the summary came back empty"
    replaced = counter.count(conv.summary) + sum(t.tokens(counter) for t in conv.turns[start : start + folded])
    if counter.count(new) >= replaced:
        return "the summary was not shorter than what it replaces, so it was not kept"
    return ""
