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

A request is made in three steps. :func:`plan` (pure) reads the conversation, the new message, the budget and what
this request's folds came to so far (:class:`Folds`): it returns either the fold due next (a
:class:`~chatbot.engine.folds.FoldStep`) or how the budget splits (a :class:`Plan`). The fold
(:func:`chatbot.engine.folds.fold`) is the only step that calls anything: the summarizer; what it came to is a value
the conversation takes, and the plan is made again. :func:`assemble` (pure) makes the messages of a finished plan.
A chat turn runs the steps itself (``core/rounds.turn_request``); :func:`build_request` runs them in one call for the
library, and :func:`preview_request` with a placeholder summary, keeping nothing (``/context``).
:func:`next_summary` says, without calling anything, what the next request's fold will ask the summarizer, so that
it can be written ahead of time.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from chatbot.engine import recall, request_record
from chatbot.engine.folds import (
    Folded,
    FoldStep,
    RollingSummary,
    Summarizer,
    fold,
    next_piece,
    placeholder_summarizer,
    summary_limit,
)
from chatbot.engine.parts import Parts, request_parts
from chatbot.engine.strategies import COUNTS, DEFAULT_RECALL, DEFAULT_RECALL_BY, RECALL_BY, STRATEGIES
from chatbot.engine.system_carry import carry_system
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
#: max_tokens thinking) while stopping one that rambles; a summary cut off at the cap is kept up to its last full
#: sentence or line (:func:`chatbot.engine.folds.whole_part`), and refused when that leaves nothing.
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
    #: the system text rides at the head of the first user message: the server leaves system messages out
    #: (engine/system_carry.py); ``messages`` are as sent, the parts count it as the system message still
    system_in_user: bool = False
    new_tokens: int = 0  # raw tokens of the new message alone (the last of ``messages`` may carry the system text)

    @property
    def head(self) -> int:
        """How many first turns are sent verbatim before ``first_turn`` (a strategy's head: first-last), as its
        record says; ``turns[head:first_turn]`` are the gap, left out."""
        return int(self.refs.get("head", 0))


# --- the rule: plan (pure), fold (the one call out), assemble (pure) ---------------------------------------------


@dataclass(frozen=True)
class Folds:
    """What the folds of one request came to so far, which its next :func:`plan` reads: the summary they leave, the
    turns they folded, why one failed (``problems``), what they shortened (``notes``), how many the budget forced
    (``early``; ``stalled``: the last of them folded nothing), and whether the trigger's and a rewrite were tried."""

    summary: RollingSummary
    summarized: int = 0
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    early: int = 0
    stalled: bool = False
    trigger_tried: bool = False
    rewrite_tried: bool = False

    def after(self, step: FoldStep, folded: Folded) -> Folds:
        """These folds and ``folded``, the outcome of ``step``."""
        forced = not (step.trigger or step.rewrite)
        return replace(
            self,
            summary=folded.summary,
            summarized=self.summarized + folded.folded,
            problems=(*self.problems, folded.problem) if folded.problem else self.problems,
            notes=self.notes + folded.notes,
            early=self.early + forced,
            stalled=forced and not folded.folded,
            trigger_tried=self.trigger_tried or step.trigger,
            rewrite_tried=self.rewrite_tried or step.rewrite,
        )


@dataclass(frozen=True)
class Plan:
    """How the request for a new message is made, decided without calling anything (:func:`plan`): a fold due first
    (``fold``: fold, then plan again), or how the budget splits: the first earlier turn sent verbatim, the raw tokens
    of the fixed part (the system message, with ``summary`` when it is sent, and the new message), and warnings."""

    budget: int
    folds: Folds
    fold: FoldStep | None = None
    first: int = 0
    fixed: int = 0
    summary: RollingSummary | None = None
    warnings: tuple[str, ...] = ()
    new: int = 0  # raw tokens of the new message
    head: int = 0  # the first turns sent before a gap (a strategy's head: first-last); ``fixed`` counts them


def as_message(user: str | Message) -> Message:
    """The new user message (a text is made one)."""
    return dict(user) if isinstance(user, dict) else {"role": "user", "content": user}


def _over(conv: Conversation, budget: int) -> str:
    """What a message too long for ``budget`` is over, and what to do: raising --max-input-tokens helps only when it
    is what sets the budget, not the model's window or the tool definitions beside the messages."""
    if budget >= conv.memory.max_input_tokens:
        return f"but the budget (--max-input-tokens) is {budget}: shorten the message or raise the budget"
    window = conv.counter.calibration.context
    beside = f"the model's {window}-token window less room for the reply" if window else "the tool definitions"
    return f"but {budget} is all a request can take ({beside}): shorten the message or attach less"


def plan(conv: Conversation, message: Message, budget: int, folds: Folds) -> Plan:
    """The plan of the request for ``message`` under ``conv``'s memory settings, with what this request's ``folds``
    came to so far (see the module docstring). Pure: a fold it finds due is returned, not made.

    Raises :class:`BudgetError` when even the system message and the new message do not fit.
    """
    cfg, counter, summary = conv.memory, conv.counter, folds.summary
    user_tokens = counter.count_message(message)
    bare = counter.total(conv.system_tokens(False) + user_tokens)
    if bare > budget:
        told = f"the system message and your message need {bare} tokens {_over(conv, budget)}"
        raise BudgetError(told, needed=bare, budget=budget)
    if not folds.trigger_tried and (upto := _trigger_fold(conv, summary.covers)) is not None:
        return Plan(budget, folds, FoldStep(upto, trigger=True))
    rule, stored = STRATEGIES[cfg.strategy], len(conv.turns)
    start = rule.start(stored, summary.covers, cfg)
    want = rule.head(stored, summary.covers, cfg) if rule.head else 0  # a rule's first turns, sent before a gap
    kept = summary if cfg.summarizes else None
    start, head, pinned = _head(conv, start, want, user_tokens, kept, budget)  # fixed, for the budget
    first, fixed = _fit(conv, start, pinned, kept, budget)
    calm = not (folds.problems or folds.rewrite_tried)  # after a failed fold (or a rewrite), no other in this request
    if kept and first > start and calm and not folds.stalled and folds.early < MAX_EARLY_FOLDS:
        # over budget: fold early instead of dropping, with headroom; the grown summary may push a turn out: again
        return Plan(budget, folds, FoldStep(_early_fold_end(conv, summary, start, pinned, budget)))
    sent = kept if kept and summary.text else None
    if sent and fixed is None and calm:  # the summary outgrew the budget: ask for a tighter one
        return Plan(budget, folds, FoldStep(start, rewrite=True))
    warnings = list(folds.notes)
    if sent and fixed is None:
        warnings.append("the summary is too long for the budget and was left out of this request")
        sent = None
        first, fixed = _fit(conv, start, pinned, None, budget)
    assert fixed is not None  # the bare system + user fit, checked above
    if folds.problems:
        n = len(conv.turns)
        warnings.insert(0, _without_summary(folds.problems[0], n - first, n - summary.covers))
    return Plan(budget, folds, None, first, fixed, sent, tuple(warnings), user_tokens, head)


def assemble(conv: Conversation, message: Message, plan: Plan) -> Request:
    """The request ``plan`` makes for ``message``: the system message (with the summary, and the turns recall brings
    back into the room left), the earlier turns as sent, the new message; checked (:func:`validate_request`). To a
    server seen to leave system messages out (the model's calibration says so), the system text rides at the head of
    the first user message instead (:func:`~chatbot.engine.system_carry.carry_system`). Pure."""
    assert plan.fold is None, "a fold is due first"
    counter, limit, first, summary = conv.counter, conv.memory.tool_result_tokens, plan.first, plan.summary
    raw = plan.fixed + sum(turn_cost(t, counter, limit) for t in conv.turns[first:])
    system, recalled, extra = recall.attach(
        conv, conv.system_with(summary), message, first, plan.budget, raw, plan.head
    )
    messages: list[Message] = [system]
    for turn in [*conv.turns[: plan.head], *conv.turns[first:]]:
        messages.extend(sent_messages(turn, counter, limit))
    messages.append(message)
    validate_request(messages)
    carried = conv.counter.calibration.drops_system
    covers = plan.folds.summary.covers
    return Request(
        messages=carry_system(messages) if carried else messages,
        tokens=counter.total(raw + extra),
        uncorrected=raw + extra + counter.chat_format.per_request,
        budget=plan.budget,
        first_turn=first,
        summary_included=summary is not None,
        summary_covers=covers,
        summarized=plan.folds.summarized,
        dropped=max(0, first - plan.head - (covers if summary else 0)),
        warnings=plan.warnings,
        recalled=recalled,
        recall_tokens=extra,
        parts=request_parts(conv, first, summary, plan.new, extra, plan.head),
        refs=request_record.refs(conv, first, summary, recalled, plan.head, carried=carried),
        system_in_user=carried,
        new_tokens=plan.new,
    )


def build_request(
    conv: Conversation, user: str | Message, summarizer: Summarizer | None = None, budget: int | None = None
) -> Request:
    """The request for a new user message, the three steps in one call: :func:`plan`; while it finds a fold due,
    :func:`~chatbot.engine.folds.fold` through ``summarizer`` (kept by ``conv``: the only change to what is stored,
    and only when the summary succeeds and shrinks) and plan again; :func:`assemble`. (A chat turn runs the steps
    itself, telling what each fold said.)"""
    message, budget = as_message(user), conv.memory.max_input_tokens if budget is None else budget
    folds = Folds(conv.rolling)
    while (planned := plan(conv, message, budget, folds)).fold is not None:
        folded = fold(conv, planned.fold, summarizer, folds.summary)
        conv.take_fold(folded)
        folds = folds.after(planned.fold, folded)
    request = assemble(conv, message, planned)
    conv.keep_sent(request)
    return request


def preview_request(conv: Conversation, user: str | Message, budget: int | None = None) -> Request:
    """The request ``user`` would send next, calling no model and changing nothing: the same steps, a fold due made by
    :func:`~chatbot.engine.folds.placeholder_summarizer` (``Request.summarized`` says how many turns it folds; the
    summary's size is only known once the model has written it) and kept by no one but the next plan."""
    message, budget = as_message(user), conv.memory.max_input_tokens if budget is None else budget
    folds = Folds(conv.rolling)
    while (planned := plan(conv, message, budget, folds)).fold is not None:
        folds = folds.after(planned.fold, fold(conv, planned.fold, placeholder_summarizer, folds.summary))
    return assemble(conv, message, planned)


def _head(
    conv: Conversation, start: int, want: int, user_tokens: int, summary: RollingSummary | None, budget: int
) -> tuple[int, int, int]:
    """The head: how many of the first ``want`` turns (the strategy's head; 0 for most) are sent before any other,
    as many of them as fit beside the system message (with ``summary``, when sent) and the new message. Returns
    (where the run of latest turns may start: at ``start`` or after the head, right after a head the budget cut short;
    the head; the raw tokens of the new message and the head, which the budget must hold whatever else is sent).
    Pure."""
    counter, limit = conv.counter, conv.memory.tool_result_tokens
    system = conv.system_tokens_with(summary)
    used, head = system + user_tokens, 0
    while head < want and counter.total(used + turn_cost(conv.turns[head], counter, limit)) <= budget:
        used += turn_cost(conv.turns[head], counter, limit)
        head += 1
    # a head cut short by the budget leaves no gap: the latest turns that fit may start right after it
    return (max(start, head) if head == want else head), head, used - system


def _early_fold_end(conv: Conversation, summary: RollingSummary, start: int, user_tokens: int, budget: int) -> int:
    """Where a fold the budget forces ends: it folds the uncovered turns but the newest that take at most
    ``FOLD_HEADROOM`` of the room the budget leaves beside the system message (with the summary) and the new
    message, and at least as much as the trigger would (all but the last ``keep_turns``).

    Measured before the fold, so the kept turns can take a little more once the summary has grown; what is left is
    the room the next turns fill before another fold is due.
    """
    fixed = conv.counter.total(conv.system_tokens_with(summary) + user_tokens)
    room = max(0, budget - fixed)
    roomy, _ = _fit(conv, start, user_tokens, summary, budget - room + int(room * FOLD_HEADROOM))
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


def _trigger_fold(conv: Conversation, covers: int) -> int | None:
    """Where the strategy's fold before the next request ends (it folds the turns after the ``covers`` the summary
    covers up to it), or None."""
    cfg = conv.memory
    n = len(conv.turns)
    if not cfg.summarizes or n - covers <= cfg.summary_trigger:
        return None
    return n - cfg.keep_turns


def next_summary(conv: Conversation) -> tuple[str, list[list[Message]], int] | None:
    """The summarizer's exact inputs ``(previous, turns, first)`` for the first piece of the fold the next request
    makes by the trigger (:func:`chatbot.engine.folds.next_piece`).

    None when no fold is due or the backoff skips it. Pure: a summary written ahead on these inputs is what that
    request's summarizer call would return. (Early folds for the budget depend on the new message: not predicted.)
    """
    upto = _trigger_fold(conv, conv.summary_covers)
    if upto is None or not conv.backoff.due(len(conv.turns)):
        return None
    piece, _ = next_piece(conv, conv.rolling, upto, summary_limit(conv))
    return conv.summary, piece, conv.summary_covers + 1


def fold_now(conv: Conversation, summarizer: Summarizer) -> tuple[int, list[str]]:
    """``/summary now``: fold every uncovered turn but the last ``keep_turns``, whatever the trigger or backoff says.

    Returns (turns folded, why none were); transactional like every fold.
    """
    return fold_kept(conv, summarizer, conv.rolling)


def fold_kept(conv: Conversation, summarizer: Summarizer, summary: RollingSummary) -> tuple[int, list[str]]:
    """Fold every turn after ``summary`` but the last ``keep_turns`` into it, whatever the backoff says, and keep
    what came of it in ``conv`` (a fold that kept nothing leaves the stored summary as it was).

    Returns (turns folded, why none were, and what the user hears of how it was written)."""
    folded = fold(conv, FoldStep(len(conv.turns) - conv.memory.keep_turns, force=True), summarizer, summary)
    conv.take_fold(folded)
    return folded.folded, [*([folded.problem] if folded.problem else []), *folded.notices]


def shrink_budget(conv: Conversation, request: Request) -> int | None:
    """The budget for the one retry after a provider's context-length error: half of what failed.

    Never below the bare system message plus the new message; None when the request held nothing else, so there is
    nothing to shrink.
    """
    counter = conv.counter
    new = request.new_tokens if request.system_in_user else counter.count_message(request.messages[-1])
    bare = counter.total(conv.system_tokens(False) + new)
    if request.tokens <= bare:
        return None
    return max(bare, request.tokens // 2)


def _fit(
    conv: Conversation, start: int, user_tokens: int, summary: RollingSummary | None, budget: int
) -> tuple[int, int | None]:
    """The first turn index >= start such that turns[first:] fit with the fixed messages (``summary`` in the system
    message, when not None).

    Returns (first, raw tokens of system + user), or (len(turns), None) when the fixed part alone is over.
    """
    counter = conv.counter
    turns = conv.turns
    fixed = conv.system_tokens_with(summary) + user_tokens
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
