"""The memory rule, in one place: which earlier turns a request carries, when turns are folded into the rolling
summary, and how the summary is asked for.

- ``full``: every earlier turn.
- ``window``: the last ``window_turns`` earlier turns.
- ``summary``: when more than ``summary_trigger`` earlier turns are not covered by the summary, all of them but the
  last ``keep_turns`` are folded into it; the request carries the summary and the uncovered turns.

Then every strategy fits the request into the budget: over it, ``summary`` folds early (at most
``MAX_EARLY_FOLDS`` times), the others drop their oldest turns. A fold is transactional: only a non-empty summary
shorter than what it replaces is kept. :func:`build_request` is the rule; :class:`~chatbot.engine.conversation.
Conversation` holds the state it reads and the summary it may change.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from chatbot.engine.turn import Message, validate_request
from chatbot.errors import BudgetError, ChatbotError, UsageError

if TYPE_CHECKING:
    from chatbot.engine.conversation import Conversation

STRATEGIES = ("full", "window", "summary")
#: how many times one request may fold turns into the summary to meet the budget
MAX_EARLY_FOLDS = 3
#: A summary is asked for in at most ~250 words. The cap leaves room for reasoning models (gpt-oss spends part of
#: max_tokens thinking) while stopping one that rambles; a summary cut off at the cap is refused, not kept.
SUMMARY_MAX_TOKENS = 2048

#: ``summarizer(previous_summary, turns_to_fold, number_of_first_folded_turn) -> new summary``
Summarizer = Callable[[str, list[list[Message]], int], str]


@dataclass(frozen=True)
class MemoryConfig:
    """How much of the past each request carries."""

    strategy: str = "summary"
    window_turns: int = 6
    summary_trigger: int = 8
    keep_turns: int = 4
    max_input_tokens: int = 6000

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise UsageError(f"unknown memory strategy {self.strategy!r}: choose one of {', '.join(STRATEGIES)}")
        if self.window_turns < 0:
            raise UsageError("--window-turns must be 0 or more")
        if self.keep_turns < 0 or self.summary_trigger < 1:
            raise UsageError("--summary-trigger must be at least 1 and --keep-turns at least 0")
        if self.strategy == "summary" and self.keep_turns >= self.summary_trigger:  # keep matters only there
            raise UsageError(
                f"--keep-turns ({self.keep_turns}) must be smaller than --summary-trigger ({self.summary_trigger})"
            )
        if self.max_input_tokens < 1:
            raise UsageError("--max-input-tokens must be positive")


@dataclass(frozen=True)
class Request:
    """The messages of one request and how they were chosen."""

    messages: list[Message]
    tokens: int  # by the counter in use, chat format and correction included
    uncorrected: int  # the same count without the calibration correction (what calibration compares)
    budget: int
    first_turn: int  # index of the first stored turn sent verbatim
    summary_included: bool
    summary_covers: int  # turns covered by the summary (whether or not it is included)
    summarized: int  # turns newly folded into the summary while building this request
    dropped: int  # earlier turns neither sent verbatim nor covered by an included summary
    warnings: tuple[str, ...] = ()


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
    cfg = conv.memory
    budget = cfg.max_input_tokens if budget is None else budget
    counter = conv.counter
    warnings: list[str] = []
    summarized = 0
    n = len(conv.turns)
    user_tokens = counter.count_message(user_msg)

    bare = counter.total(conv.system_tokens(False) + user_tokens)
    if bare > budget:
        raise BudgetError(
            f"the system message and your message need {bare} tokens but the budget (--max-input-tokens) is "
            f"{budget}: shorten the message or raise the budget",
            needed=bare,
            budget=budget,
        )

    use_summary = cfg.strategy == "summary"
    if cfg.strategy == "full":
        start = 0
    elif cfg.strategy == "window":
        start = max(0, n - cfg.window_turns)
    else:
        start = conv.summary_covers
        if n - conv.summary_covers > cfg.summary_trigger:
            upto = n - cfg.keep_turns
            done = _fold(conv, upto, summarizer, warnings)
            if done:
                summarized += done
                start = conv.summary_covers
            else:
                # transactional fallback: send what would have been kept, drop what would have been folded
                start = upto

    first, fixed = _fit(conv, start, user_tokens, use_summary, budget)
    # Over budget: summarize early instead of dropping. Fold at least what does not fit and as much as the
    # trigger would (all but the last keep_turns). The grown summary can push one more turn out, so fold
    # again, a bounded number of times: each fold must shrink what it replaces, so this converges.
    for _ in range(MAX_EARLY_FOLDS):
        if not (use_summary and first > start and summarizer is not None and not warnings):
            break
        done = _fold(conv, max(first, n - cfg.keep_turns), summarizer, warnings)
        if not done:
            break
        summarized += done
        start = max(start, conv.summary_covers)
        first, fixed = _fit(conv, start, user_tokens, use_summary, budget)

    include_summary = use_summary and bool(conv.summary)
    if include_summary and fixed is None:
        warnings.append("the summary is too long for the budget and was left out of this request")
        include_summary = False
        first, fixed = _fit(conv, start, user_tokens, False, budget)
    assert fixed is not None  # the bare system + user fit, checked above

    messages: list[Message] = [conv.system_message(include_summary)]
    for turn in conv.turns[first:]:
        messages.extend(dict(m) for m in turn.messages)
    messages.append(user_msg)
    validate_request(messages)
    raw = fixed + sum(t.tokens(counter) for t in conv.turns[first:])
    covered = conv.summary_covers if include_summary else 0
    return Request(
        messages=messages,
        tokens=counter.total(raw),
        uncorrected=raw + counter.chat_format.per_request,
        budget=budget,
        first_turn=first,
        summary_included=include_summary,
        summary_covers=conv.summary_covers,
        summarized=summarized,
        dropped=max(0, first - covered),
        warnings=tuple(warnings),
    )


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
        cost = turns[first - 1].tokens(counter)
        if counter.total(used + cost) > budget:
            break
        used += cost
        first -= 1
    return first, fixed


def _fold(conv: Conversation, upto: int, summarizer: Summarizer | None, warnings: list[str]) -> int:
    """Fold turns[summary_covers:upto] into the summary. Returns how many turns were folded (0 on failure).

    Transactional: only a non-empty summary that is shorter than what it replaces is committed.
    """
    covers = conv.summary_covers
    if upto <= covers:
        return 0
    if summarizer is None:
        warnings.append("no summarizer available: the oldest turns were dropped instead")
        return 0
    folded = conv.turns[covers:upto]
    try:
        new = summarizer(conv.summary, [list(t.messages) for t in folded], covers + 1)
    except Exception as exc:  # a summarizer is user-pluggable; never let it lose the turn
        reason = exc.message if isinstance(exc, ChatbotError) else str(exc)
        warnings.append(f"summarizing failed ({reason}); the oldest turns were dropped from this request")
        return 0
    new = (new or "").strip()
    if not new:
        warnings.append("the summary came back empty; the oldest turns were dropped from this request")
        return 0
    counter = conv.counter
    before = counter.count(conv.summary) + sum(t.tokens(counter) for t in folded)
    if counter.count(new) >= before:
        warnings.append("the summary was not shorter than what it replaces; it was not kept")
        return 0
    conv.set_summary(new, upto)
    return upto - covers


# --- the summary prompt ---------------------------------------------------------------------------------------------

#: the heading under which the rolling summary rides in the system message
SUMMARY_HEADING = "Summary of the earlier conversation"
#: how a summary request's user message starts, and how each folded turn is introduced in it
PREVIOUS_SUMMARY_LABEL = "Previous summary:"
NEW_TURNS_LABEL = "New turns to merge:"
TURN_MARKER = "--- turn "
NO_SUMMARY_YET = "(none yet)"
USER_LINE = "User: "  # how a folded turn's user message starts in the summary request

SUMMARY_INSTRUCTIONS = """\
You keep the running summary of a conversation between a user and an assistant. Merge the previous summary \
and the new turns into one updated summary that lets the assistant continue without the original messages.
Keep: the user's goals; facts and decisions agreed on; the user's preferences (language, format, constraints); \
open questions and unfinished tasks; results of tool calls that still matter.
Copy names, numbers, ids, dates, file paths and code identifiers exactly as written.
Drop greetings, repetition and anything superseded. Write in the language the user writes in, as short \
bullet points, at most about 250 words. Output only the summary."""


def summary_heading(covers: int) -> str:
    """The heading line of a summary that covers turns 1 to ``covers``."""
    return f"{SUMMARY_HEADING} (turns 1-{covers}, written by the assistant's memory)"


def _render_turn_text(messages: Sequence[Message]) -> str:
    lines = []
    for m in messages:
        role = m.get("role")
        content = str(m.get("content") or "")
        if role == "user":
            lines.append(f"{USER_LINE}{content}")
        elif role == "assistant":
            if content:
                lines.append(f"Assistant: {content}")
            for call in m.get("tool_calls") or []:
                fn = call.get("function", {})
                lines.append(f"Assistant called tool {fn.get('name')}({fn.get('arguments', '')})")
        elif role == "tool":
            lines.append(f"Tool result ({m.get('name') or m.get('tool_call_id')}): {content}")
    return "\n".join(lines)


def summary_request(previous: str, turns: Sequence[Sequence[Message]], first_turn_number: int) -> list[dict[str, Any]]:
    """The messages that ask a model to fold ``turns`` into ``previous`` (incremental summarization)."""
    parts = [f"{PREVIOUS_SUMMARY_LABEL}\n{previous.strip() or NO_SUMMARY_YET}", NEW_TURNS_LABEL]
    for i, turn in enumerate(turns, start=first_turn_number):
        parts.append(f"{TURN_MARKER}{i}\n{_render_turn_text(turn)}")
    return [
        {"role": "system", "content": SUMMARY_INSTRUCTIONS},
        {"role": "user", "content": "\n\n".join(parts)},
    ]


def is_summary_request(messages: Sequence[Message]) -> bool:
    """Whether ``messages`` were built by :func:`summary_request`."""
    last = str(messages[-1].get("content") or "") if messages else ""
    return last.startswith(PREVIOUS_SUMMARY_LABEL) and TURN_MARKER in last
