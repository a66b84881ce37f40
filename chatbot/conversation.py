"""The conversation engine: what is stored, and what each request holds.

The model is stateless, so every request re-sends the conversation. :class:`Conversation` keeps everything
(the system message, every turn, the rolling summary and how many turns it covers) and builds each request from
it according to a :class:`~chatbot.memory.MemoryConfig`. Compression changes only what is sent, never what is
stored. This module knows nothing of terminals, files or SDKs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from chatbot.errors import BudgetError, ChatbotError, InvalidRequest
from chatbot.memory import MemoryConfig
from chatbot.tokens import TokenCounter

Message = dict[str, Any]

#: ``summarizer(previous_summary, turns_to_fold, number_of_first_folded_turn) -> new summary``
Summarizer = Callable[[str, list[list[Message]], int], str]

SUMMARY_HEADING = "Summary of the earlier conversation"
#: how many times one request may fold turns into the summary to meet the budget
MAX_EARLY_FOLDS = 3


def json_bytes(data: Any) -> bytes:
    """Compact UTF-8 JSON. Lone surrogates (undecodable terminal input) are not UTF-8: JSON escapes them instead."""
    try:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(data, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def one_line(text: str, width: int) -> str:
    """``text`` on one line, cut to at most ``width`` characters with an ellipsis (for previews and titles)."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def now_iso() -> str:
    """The current UTC time as an ISO 8601 string."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass
class Turn:
    """One user message and every assistant/tool message that answers it, with what the reply cost."""

    messages: list[Message]
    usage: dict[str, Any] | None = None
    latency: float | None = None
    created_at: str = field(default_factory=now_iso)
    interrupted: bool = False
    # per-counter cache of this turn's token count: building a request costs O(kept turns), not O(all turns)
    _counts: dict[tuple[str, int], int] = field(default_factory=dict, init=False, repr=False, compare=False)
    # cache of to_json(): saving a long session re-encodes only the turns that are new or changed
    _json: bytes | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.messages or self.messages[0].get("role") != "user":
            raise InvalidRequest("a turn starts with a user message")

    def __setattr__(self, name: str, value: Any) -> None:
        # Both caches assume a stored turn's messages are never changed in place (nothing does); assigning a
        # field is seen here and drops what depends on it.
        if name == "messages":
            object.__setattr__(self, "_counts", {})
        if name not in ("_json", "_counts"):
            object.__setattr__(self, "_json", None)
        object.__setattr__(self, name, value)

    @property
    def user_text(self) -> str:
        """The text of the turn's user message."""
        return str(self.messages[0].get("content") or "")

    @property
    def answer_text(self) -> str:
        """The text of the turn's last assistant message."""
        for m in reversed(self.messages):
            if m.get("role") == "assistant" and m.get("content"):
                return str(m["content"])
        return ""

    def tokens(self, counter: TokenCounter) -> int:
        """Raw token count of the turn's messages (cached per counter)."""
        key = counter.key
        n = self._counts.get(key)
        if n is None:
            n = sum(counter.count_message(m) for m in self.messages)
            self._counts[key] = n
        return n

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data. It shares the message dicts (no copy: saving a long session is one serialisation)."""
        return {
            "messages": self.messages,
            "usage": self.usage,
            "latency": self.latency,
            "created_at": self.created_at,
            "interrupted": self.interrupted,
        }

    def to_json(self) -> bytes:
        """:meth:`to_dict` as compact UTF-8 JSON, cached (a session file is these, joined; see ``json_bytes``)."""
        if self._json is None:
            self._json = json_bytes(self.to_dict())
        return self._json

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Turn:
        """Rebuild a turn from :meth:`to_dict` output."""
        return cls(
            messages=list(data["messages"]),
            usage=data.get("usage"),
            latency=data.get("latency"),
            created_at=data.get("created_at") or now_iso(),
            interrupted=bool(data.get("interrupted", False)),
        )


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


class Conversation:
    """The stored conversation and the request builder.

    ``turns`` holds every turn ever made; ``summary`` covers ``turns[:summary_covers]``.
    """

    def __init__(
        self,
        system: str,
        memory: MemoryConfig | None = None,
        counter: TokenCounter | None = None,
        *,
        turns: Sequence[Turn] = (),
        summary: str = "",
        summary_covers: int = 0,
    ) -> None:
        self.system = system
        self.memory = memory or MemoryConfig()
        self.counter = counter or TokenCounter()
        self.turns: list[Turn] = list(turns)
        self.summary = summary
        self.summary_covers = max(0, min(summary_covers, len(self.turns)))
        self._system_count: tuple[object, int] = (None, 0)

    # --- changing what is stored ------------------------------------------------------------------------------

    def add_turn(self, turn: Turn) -> None:
        """Store a finished turn."""
        self.turns.append(turn)

    def undo(self) -> Turn | None:
        """Drop the last turn and return it (None when there is none)."""
        if not self.turns:
            return None
        turn = self.turns.pop()
        # The summary cannot un-learn a turn; it simply stops claiming to cover one that is gone.
        self.summary_covers = min(self.summary_covers, len(self.turns))
        if not self.turns:
            self.summary, self.summary_covers = "", 0
        return turn

    def reset(self) -> None:
        """Forget every turn and the summary; keep the system message."""
        self.turns = []
        self.summary = ""
        self.summary_covers = 0

    # --- building requests ------------------------------------------------------------------------------------

    def system_message(self, with_summary: bool) -> Message:
        """The single system message; with the rolling summary appended under a clear heading.

        The summary goes inside the one system message rather than as a separate message: a second system
        message, or a made-up user/assistant pair, breaks chat templates that require exactly one leading system
        message and strict user/assistant alternation (Gemma's and Llama's, for instance), and an invented
        assistant message would put words in the model's mouth.
        """
        if not (with_summary and self.summary):
            return {"role": "system", "content": self.system}
        heading = f"{SUMMARY_HEADING} (turns 1-{self.summary_covers}, written by the assistant's memory)"
        return {"role": "system", "content": f"{self.system}\n\n## {heading}\n{self.summary}"}

    def build_request(
        self,
        user: str | Message,
        *,
        summarizer: Summarizer | None = None,
        budget: int | None = None,
    ) -> Request:
        """Build the request for a new user message.

        May fold turns into the summary (through ``summarizer``) as the memory strategy or the budget asks; that
        is the only change it makes to the stored conversation, and only when the summary succeeds and shrinks.
        Raises :class:`BudgetError` when even the system message and the new message do not fit.
        """
        user_msg = dict(user) if isinstance(user, dict) else {"role": "user", "content": user}
        cfg = self.memory
        budget = cfg.max_input_tokens if budget is None else budget
        counter = self.counter
        warnings: list[str] = []
        summarized = 0
        n = len(self.turns)
        user_tokens = counter.count_message(user_msg)

        bare = counter.total(self._count_system(False) + user_tokens)
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
            start = self.summary_covers
            if n - self.summary_covers > cfg.summary_trigger:
                upto = n - cfg.keep_turns
                done = self._fold(upto, summarizer, warnings)
                if done:
                    summarized += done
                    start = self.summary_covers
                else:
                    # transactional fallback: send what would have been kept, drop what would have been folded
                    start = upto

        first, fixed = self._fit(start, user_tokens, use_summary, budget)
        # Over budget: summarize early instead of dropping. Fold at least what does not fit and as much as the
        # trigger would (all but the last keep_turns). The grown summary can push one more turn out, so fold
        # again, a bounded number of times: each fold must shrink what it replaces, so this converges.
        for _ in range(MAX_EARLY_FOLDS):
            if not (use_summary and first > start and summarizer is not None and not warnings):
                break
            done = self._fold(max(first, n - cfg.keep_turns), summarizer, warnings)
            if not done:
                break
            summarized += done
            start = max(start, self.summary_covers)
            first, fixed = self._fit(start, user_tokens, use_summary, budget)

        include_summary = use_summary and bool(self.summary)
        if include_summary and fixed is None:
            warnings.append("the summary is too long for the budget and was left out of this request")
            include_summary = False
            first, fixed = self._fit(start, user_tokens, False, budget)
        assert fixed is not None  # the bare system + user fit, checked above

        sys_msg = self.system_message(include_summary)
        messages: list[Message] = [sys_msg]
        for turn in self.turns[first:]:
            messages.extend(dict(m) for m in turn.messages)
        messages.append(user_msg)
        validate_request(messages)
        raw = fixed + sum(t.tokens(counter) for t in self.turns[first:])
        covered = self.summary_covers if include_summary else 0
        return Request(
            messages=messages,
            tokens=counter.total(raw),
            uncorrected=raw + counter.chat_format.per_request,
            budget=budget,
            first_turn=first,
            summary_included=include_summary,
            summary_covers=self.summary_covers,
            summarized=summarized,
            dropped=max(0, first - covered),
            warnings=tuple(warnings),
        )

    def _count_system(self, with_summary: bool) -> int:
        """Token count of the system message (cached: it is counted several times per request)."""
        message = self.system_message(with_summary)
        key = (self.counter.key, message["content"])
        if self._system_count[0] != key:
            self._system_count = (key, self.counter.count_message(message))
        return self._system_count[1]

    def _fit(self, start: int, user_tokens: int, with_summary: bool, budget: int) -> tuple[int, int | None]:
        """The first turn index >= start such that turns[first:] fit with the fixed messages.

        Returns (first, raw tokens of system + user), or (len(turns), None) when the fixed part alone is over.
        """
        counter = self.counter
        fixed = self._count_system(with_summary) + user_tokens
        if counter.total(fixed) > budget:
            return len(self.turns), None
        used = fixed
        first = len(self.turns)
        while first > start:
            cost = self.turns[first - 1].tokens(counter)
            if counter.total(used + cost) > budget:
                break
            used += cost
            first -= 1
        return first, fixed

    def _fold(self, upto: int, summarizer: Summarizer | None, warnings: list[str]) -> int:
        """Fold turns[summary_covers:upto] into the summary. Returns how many turns were folded (0 on failure).

        Transactional: only a non-empty summary that is shorter than what it replaces is committed.
        """
        covers = self.summary_covers
        if upto <= covers:
            return 0
        if summarizer is None:
            warnings.append("no summarizer available: the oldest turns were dropped instead")
            return 0
        folded = self.turns[covers:upto]
        try:
            new = summarizer(self.summary, [list(t.messages) for t in folded], covers + 1)
        except Exception as exc:  # a summarizer is user-pluggable; never let it lose the turn
            reason = exc.message if isinstance(exc, ChatbotError) else str(exc)
            warnings.append(f"summarizing failed ({reason}); the oldest turns were dropped from this request")
            return 0
        new = (new or "").strip()
        if not new:
            warnings.append("the summary came back empty; the oldest turns were dropped from this request")
            return 0
        counter = self.counter
        before = counter.count(self.summary) + sum(t.tokens(counter) for t in folded)
        if counter.count(new) >= before:
            warnings.append("the summary was not shorter than what it replaces; it was not kept")
            return 0
        self.summary = new
        self.summary_covers = upto
        return upto - covers

    def shrink_budget(self, request: Request) -> int | None:
        """The budget for the one retry after a provider's context-length error: half of what failed.

        Never below the bare system message plus the new message; None when the request held nothing else, so
        there is nothing to shrink.
        """
        bare = self.counter.total(self._count_system(False) + self.counter.count_message(request.messages[-1]))
        if request.tokens <= bare:
            return None
        return max(bare, request.tokens // 2)

    # --- serialisation ----------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The stored state as JSON-ready data."""
        return {
            "system": self.system,
            "summary": {"text": self.summary, "covers": self.summary_covers},
            "turns": [t.to_dict() for t in self.turns],
        }

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], memory: MemoryConfig | None = None, counter: TokenCounter | None = None
    ) -> Conversation:
        """Rebuild from :meth:`to_dict` output."""
        summary = data.get("summary") or {}
        return cls(
            str(data["system"]),
            memory,
            counter,
            turns=[Turn.from_dict(t) for t in data.get("turns", [])],
            summary=str(summary.get("text") or ""),
            summary_covers=int(summary.get("covers") or 0),
        )


def validate_request(messages: Sequence[Message]) -> None:
    """Check a request before it is sent: one system message first, a user message last, tool calls paired.

    Raises :class:`InvalidRequest`.
    """
    if not messages or messages[0].get("role") != "system":
        raise InvalidRequest("a request starts with the system message")
    if messages[-1].get("role") != "user":
        raise InvalidRequest("a request ends with the new user message")
    pending: set[str] = set()
    for i, m in enumerate(messages):
        role = m.get("role")
        if role == "system" and i:
            raise InvalidRequest("a request holds exactly one system message")
        if role not in ("system", "user", "assistant", "tool"):
            raise InvalidRequest(f"message {i} has an unknown role {role!r}")
        if role == "tool":
            call_id = m.get("tool_call_id")
            if call_id not in pending:
                raise InvalidRequest(f"message {i} answers a tool call that is not open ({call_id!r})")
            pending.discard(call_id)
            continue
        if pending:
            raise InvalidRequest(f"tool calls {sorted(pending)} have no result before message {i}")
        if role == "assistant" and m.get("tool_calls"):
            pending = {str(c.get("id")) for c in m["tool_calls"]}
    if pending:
        raise InvalidRequest(f"tool calls {sorted(pending)} have no result")
