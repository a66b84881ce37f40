"""The memory rule, in one place: which earlier turns a request carries, when turns are folded into the rolling
summary, and how the summary is asked for.

- ``full``: every earlier turn.
- ``window``: the last ``window_turns`` earlier turns; with ``window_step`` K its start moves K turns at a time (up
  to K-1 more turns), so the request's start, which providers cache, stays the same for K requests.
- ``summary``: when more than ``summary_trigger`` earlier turns are not covered by the summary, all of them but the
  last ``keep_turns`` are folded into it; the request carries the summary and the uncovered turns.
- ``first-last``: the first ``first_turns`` earlier turns (how the conversation was set up), then the latest turns
  the budget has room for; the turns between are left out (the strategy's ``head``: :func:`_head`).

Then every strategy fits the request into the budget: over it, ``summary`` folds early (at most
``MAX_EARLY_FOLDS`` times), with headroom: the turns it keeps verbatim take at most ``FOLD_HEADROOM`` of the room
the budget leaves them, so that the next turns fit without a summary each; the others drop their oldest turns. A fold
is transactional: only a non-empty summary shorter than what it replaces is kept. When no summary is made (it failed,
it is backing off, or there is no summarizer), the request sends every unsummarized turn the budget has room for
(the oldest dropped first) and says how many. After a failed fold, folds back off (:mod:`chatbot.engine.backoff`):
the summarizer is called again on the 1st, 2nd, 4th, 8th... turn after the first failure.

:func:`build_request` is the rule; :class:`~chatbot.engine.conversation.Conversation` holds the state it reads and
the summary it may change. :func:`next_summary` says, without calling anything, what the next request's fold will
ask the summarizer, so that it can be written ahead of time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from chatbot.engine import recall, request_record
from chatbot.engine.folds import Summarizer, fold, next_piece, summary_limit
from chatbot.engine.parts import Parts, request_parts
from chatbot.engine.strategies import COUNTS, DEFAULT_RECALL, DEFAULT_RECALL_BY, RECALL_BY, STRATEGIES
from chatbot.engine.tool_results import sent_messages, turn_cost
from chatbot.engine.turn import Message, validate_request
from chatbot.errors import BudgetError, UsageError

if TYPE_CHECKING:
    from chatbot.engine.conversation import Conversation

#: how many times one request may fold turns into the summary to meet the budget
MAX_EARLY_FOLDS = 3
#: A fold the budget forces keeps verbatim only the newest turns that take at most this share of the room the budget
#: leaves them (beside the system message, the summary and the new message). Folding just what does not fit made
#: room for one more turn only: long turns then cost a summary call on almost every turn.
FOLD_HEADROOM = 0.5
#: A summary is asked for in at most ~250 words. The cap leaves room for reasoning models (gpt-oss spends part of
#: max_tokens thinking) while stopping one that rambles; a summary cut off at the cap is refused, not kept.
SUMMARY_MAX_TOKENS = 2048


@dataclass(frozen=True)
class MemoryConfig:
    """How much of the past each request carries."""

    strategy: str = "summary"
    window_turns: int = COUNTS["window_turns"].default  # the strategies' counts: their defaults and least values there
    summary_trigger: int = COUNTS["summary_trigger"].default
    keep_turns: int = COUNTS["keep_turns"].default
    max_input_tokens: int = 6000
    #: tool results of earlier turns longer than this are sent shortened (None: always sent whole)
    tool_result_tokens: int | None = 400
    window_step: int = COUNTS["window_step"].default  # window: slide this many turns at a time (the start holds)
    recall: int = DEFAULT_RECALL  # earlier turns not sent verbatim brought back when relevant (engine/recall.py)
    recall_by: str = DEFAULT_RECALL_BY  # words, meaning or both (engine/recall_rank.py)
    first_turns: int = COUNTS["first_turns"].default  # first-last: the first turns every request sends

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise UsageError(f"unknown memory strategy {self.strategy!r}: choose one of {', '.join(STRATEGIES)}")
        if self.keep_turns < 0 or self.summary_trigger < 0:
            raise UsageError("--summary-trigger and --keep-turns must be 0 or more")
        for count in COUNTS.values():
            if getattr(self, count.name) < count.least:
                raise UsageError(
                    f"{count.flag} must be {'0 or more' if not count.least else f'at least {count.least}'}"
                )
        # a fold comes when more than summary_trigger turns are uncovered and keeps keep_turns of them: keep <= trigger
        # (trigger 1, keep 1: fold after every reply, the last turn kept word for word; 0 and 0: keep none)
        if self.summarizes and self.keep_turns > self.summary_trigger:  # keep matters only there
            raise UsageError(
                f"--keep-turns ({self.keep_turns}) must not be more than --summary-trigger ({self.summary_trigger})"
            )
        if self.max_input_tokens < 1:
            raise UsageError("--max-input-tokens must be positive")
        if self.recall < 0:
            raise UsageError("--recall must be 0 or more")
        if self.recall_by not in RECALL_BY:
            raise UsageError(f"unknown --recall-by {self.recall_by!r}: choose one of {', '.join(RECALL_BY)}")

    @property
    def summarizes(self) -> bool:
        """Whether the strategy folds earlier turns into a rolling summary and sends it."""
        return STRATEGIES[self.strategy].summarizes


@dataclass(frozen=True)
class Request:
    """The messages of one request and how they were chosen."""

    messages: list[Message]
    tokens: int  # by the counter in use, chat format and correction included
    uncorrected: int  # the same count without the calibration correction (what calibration compares)
    budget: int
    first_turn: int  # index of the first stored turn of the latest run sent verbatim
    summary_included: bool
    summary_covers: int  # turns covered by the summary (whether or not it is included)
    summarized: int  # turns newly folded into the summary while building this request
    dropped: int  # earlier turns neither sent verbatim nor covered by an included summary
    warnings: tuple[str, ...] = ()
    recalled: tuple[int, ...] = ()  # earlier turns (1-based) recalled into the system message (engine/recall.py)
    recall_tokens: int = 0  # raw tokens the recalled block adds to the system message (counted in ``tokens``)
    parts: Parts = Parts()  # tokens per part (system, summary, recalled, earlier, tool_results, new): sum == tokens
    refs: dict[str, Any] = field(default_factory=dict)  # how it was built, by reference (engine/request_record.py)

    @property
    def head(self) -> int:
        """How many first turns are sent verbatim before ``first_turn`` (a strategy's head: first-last), as its
        record says; ``turns[head:first_turn]`` are the gap, left out."""
        return int(self.refs.get("head", 0))


# --- the rule -------------------------------------------------------------------------------------------------------


def build_request(
    conv: Conversation, user: str | Message, summarizer: Summarizer | None = None, budget: int | None = None
) -> Request:
    """The request for a new user message under ``conv``'s memory settings (see the module docstring).

    May fold turns into ``conv``'s summary through ``summarizer``: the only change it makes to what is stored, and
    only when the summary succeeds and shrinks. Raises :class:`BudgetError` when even the system message and the
    new message do not fit.
    """
    user_msg = dict(user) if isinstance(user, dict) else {"role": "user", "content": user}
    budget = conv.memory.max_input_tokens if budget is None else budget
    counter = conv.counter
    warnings: list[str] = []
    user_tokens = counter.count_message(user_msg)

    bare = counter.total(conv.system_tokens(False) + user_tokens)
    if bare > budget:
        raise BudgetError(
            f"the system message and your message need {bare} tokens but the budget (--max-input-tokens) is "
            f"{budget}: shorten the message or raise the budget",
            needed=bare,
            budget=budget,
        )
    problems: list[str] = []  # why no summary was made, if one was due (warnings: what a fold shortened)
    start, summarized = _strategy_start(conv, summarizer, problems, warnings)
    start, head, pinned = _head(conv, start, user_tokens, budget)  # a rule's first turns: fixed, for the budget
    first, fixed, start, more = _fit_folding_early(conv, start, pinned, budget, summarizer, problems, warnings)
    summarized += more
    include_summary = conv.memory.summarizes and bool(conv.summary)
    if (
        include_summary and fixed is None and summarizer is not None and not problems
    ):  # the summary outgrew the budget: ask for a tighter one
        fold(conv, start, summarizer, problems, warnings, rewrite=True)
        first, fixed = _fit(conv, start, pinned, True, budget)
    if include_summary and fixed is None:
        warnings.append("the summary is too long for the budget and was left out of this request")
        include_summary = False
        first, fixed = _fit(conv, start, pinned, False, budget)
    assert fixed is not None  # the bare system + user fit, checked above
    if problems:
        warnings.insert(
            0, _without_summary(problems[0], len(conv.turns) - first, len(conv.turns) - conv.summary_covers)
        )
    messages, raw, recalled = _assemble(conv, user_msg, first, fixed, include_summary, budget, head)
    return Request(
        messages=messages,
        tokens=counter.total(raw),
        uncorrected=raw + counter.chat_format.per_request,
        budget=budget,
        first_turn=first,
        summary_included=include_summary,
        summary_covers=conv.summary_covers,
        summarized=summarized,
        dropped=max(0, first - head - (conv.summary_covers if include_summary else 0)),
        warnings=tuple(warnings),
        recalled=recalled[0],
        recall_tokens=recalled[1],
        parts=request_parts(conv, first, include_summary, user_tokens, recalled[1], head),
        refs=request_record.refs(conv, first, include_summary, recalled[0], head),
    )


def _assemble(
    conv: Conversation, user_msg: Message, first: int, fixed: int, with_summary: bool, budget: int, head: int = 0
) -> tuple[list[Message], int, tuple[tuple[int, ...], int]]:
    """The request's messages, their raw tokens and what was recalled: the system message (with the summary, and
    the turns recall brings back into the room left), turns[:head] and turns[first:] as sent (``fixed`` counts the
    head already), the new message."""
    counter, limit = conv.counter, conv.memory.tool_result_tokens
    raw = fixed + sum(turn_cost(t, counter, limit) for t in conv.turns[first:])
    system, recalled, extra = recall.attach(conv, with_summary, user_msg, first, budget, raw)
    messages: list[Message] = [system]
    for turn in [*conv.turns[:head], *conv.turns[first:]]:
        messages.extend(sent_messages(turn, counter, limit))
    messages.append(user_msg)
    validate_request(messages)
    return messages, raw + extra, (recalled, extra)


def _strategy_start(
    conv: Conversation, summarizer: Summarizer | None, problems: list[str], notes: list[str]
) -> tuple[int, int]:
    """The strategy's choice before the budget: (first earlier turn to send, turns folded into the summary now).

    ``summary`` folds when more than ``summary_trigger`` turns are uncovered; when that fold fails, every uncovered
    turn stays a candidate (the budget alone then decides what is sent).
    """
    cfg = conv.memory
    upto = _trigger_fold(conv)
    done = 0 if upto is None else fold(conv, upto, summarizer, problems, notes)
    return STRATEGIES[cfg.strategy].start(len(conv.turns), conv.summary_covers, cfg), done


def _head(conv: Conversation, start: int, user_tokens: int, budget: int) -> tuple[int, int, int]:
    """The strategy's ``head`` (0 for most): how many of the first turns it sends before any other, as many of them
    as fit beside the system message and the new message. Returns (where the run of latest turns may start, at
    ``start`` or after the head; the head; the raw tokens of the new message and the head, which the budget must
    hold whatever else is sent)."""
    rule = STRATEGIES[conv.memory.strategy]
    want = rule.head(len(conv.turns), conv.summary_covers, conv.memory) if rule.head else 0
    counter, limit = conv.counter, conv.memory.tool_result_tokens
    used, head = conv.system_tokens(conv.memory.summarizes) + user_tokens, 0
    while head < want and counter.total(used + turn_cost(conv.turns[head], counter, limit)) <= budget:
        used += turn_cost(conv.turns[head], counter, limit)
        head += 1
    return max(start, head), head, used - conv.system_tokens(conv.memory.summarizes)


def _fit_folding_early(
    conv: Conversation,
    start: int,
    user_tokens: int,
    budget: int,
    summarizer: Summarizer | None,
    problems: list[str],
    notes: list[str],
) -> tuple[int, int | None, int, int]:
    """Fit turns[start:] into the budget: (first turn sent, fixed tokens or None, new start, turns folded).

    Over budget, ``summary`` summarizes early instead of dropping, with headroom (:func:`_early_fold_end`). The
    grown summary can push one more turn out, so it folds again, a bounded number of times: each fold must shrink
    what it replaces, so this converges. After a failed fold in this request it tries no other.
    """
    use_summary = conv.memory.summarizes
    first, fixed = _fit(conv, start, user_tokens, use_summary, budget)
    summarized = 0
    for _ in range(MAX_EARLY_FOLDS):
        if not (use_summary and first > start and summarizer is not None and not problems):
            break
        done = fold(conv, _early_fold_end(conv, start, user_tokens, budget), summarizer, problems, notes)
        if not done:
            break
        summarized += done
        start = max(start, conv.summary_covers)
        first, fixed = _fit(conv, start, user_tokens, use_summary, budget)
    return first, fixed, start, summarized


def _early_fold_end(conv: Conversation, start: int, user_tokens: int, budget: int) -> int:
    """Where a fold the budget forces ends: it folds the uncovered turns but the newest that take at most
    ``FOLD_HEADROOM`` of the room the budget leaves beside the system message (with the summary) and the new
    message, and at least as much as the trigger would (all but the last ``keep_turns``).

    Measured before the fold, so the kept turns can take a little more once the summary has grown; what is left is
    the room the next turns fill before another fold is due.
    """
    fixed = conv.counter.total(conv.system_tokens(True) + user_tokens)
    room = max(0, budget - fixed)
    roomy, _ = _fit(conv, start, user_tokens, True, budget - room + int(room * FOLD_HEADROOM))
    return max(roomy, len(conv.turns) - conv.memory.keep_turns)


def _without_summary(problem: str, sent: int, unsummarized: int) -> str:
    """The warning of a request made without the summary that was due: why, and how many turns it sends instead."""
    if not unsummarized:  # a later piece of the fold was kept: no turn waits for it
        return problem
    if sent >= unsummarized:
        return f"{problem}: this request sends all {unsummarized} unsummarized turn(s) instead"
    if not sent:
        return f"{problem}: the budget has no room for any of the {unsummarized} unsummarized turn(s)"
    return (
        f"{problem}: this request sends the last {sent} of {unsummarized} unsummarized turn(s), as many as the "
        "budget has room for"
    )


def _trigger_fold(conv: Conversation) -> int | None:
    """Where the strategy's fold before the next request ends (it folds turns[summary_covers:upto]), or None."""
    cfg = conv.memory
    n = len(conv.turns)
    if not cfg.summarizes or n - conv.summary_covers <= cfg.summary_trigger:
        return None
    return n - cfg.keep_turns


def next_summary(conv: Conversation) -> tuple[str, list[list[Message]], int] | None:
    """The summarizer's exact inputs ``(previous, turns, first)`` for the first piece of the fold the next request
    makes by the trigger (:func:`chatbot.engine.folds.next_piece`).

    None when no fold is due or the backoff skips it. Pure: a summary written ahead on these inputs is what that
    request's summarizer call would return. (Early folds for the budget depend on the new message: not predicted.)
    """
    upto = _trigger_fold(conv)
    if upto is None or not conv.backoff.due(len(conv.turns)):
        return None
    piece, _ = next_piece(conv, conv.summary_covers, upto, summary_limit(conv))
    return conv.summary, piece, conv.summary_covers + 1


def fold_now(conv: Conversation, summarizer: Summarizer) -> tuple[int, list[str]]:
    """``/summary now``: fold every uncovered turn but the last ``keep_turns``, whatever the trigger or backoff says.

    Returns (turns folded, why none were); transactional like every fold.
    """
    problems: list[str] = []
    return fold(conv, len(conv.turns) - conv.memory.keep_turns, summarizer, problems, [], force=True), problems


def shrink_budget(conv: Conversation, request: Request) -> int | None:
    """The budget for the one retry after a provider's context-length error: half of what failed.

    Never below the bare system message plus the new message; None when the request held nothing else, so there is
    nothing to shrink.
    """
    counter = conv.counter
    bare = counter.total(conv.system_tokens(False) + counter.count_message(request.messages[-1]))
    if request.tokens <= bare:
        return None
    return max(bare, request.tokens // 2)


def placeholder_summarizer(previous: str, turns: list[list[Message]], first: int) -> str:
    """Stands in for a summary that is due but not written yet (previews such as ``/context``; no model call)."""
    return f"{previous}\n(turns {first}-{first + len(turns) - 1}: summarized before sending)".strip()


def _fit(conv: Conversation, start: int, user_tokens: int, with_summary: bool, budget: int) -> tuple[int, int | None]:
    """The first turn index >= start such that turns[first:] fit with the fixed messages.

    Returns (first, raw tokens of system + user), or (len(turns), None) when the fixed part alone is over.
    """
    counter = conv.counter
    turns = conv.turns
    fixed = conv.system_tokens(with_summary) + user_tokens
    if counter.total(fixed) > budget:
        return len(turns), None
    used = fixed
    first = len(turns)
    while first > start:
        cost = turn_cost(turns[first - 1], counter, conv.memory.tool_result_tokens)
        if counter.total(used + cost) > budget:
            break
        used += cost
        first -= 1
    return first, fixed
