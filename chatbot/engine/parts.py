"""What a request is made of, in tokens: the system message, the summary, recalled turns, the earlier turns, their
tool results and the new message. :func:`request_parts` counts them where the request is built
(:func:`chatbot.engine.memory.build_request`), so ``/timeline`` can show how each request grew, slid and shrank.

The parts add up to the request's own estimate exactly (:attr:`Request.tokens
<chatbot.engine.memory.Request.tokens>`): the calibration's correction is spread over them, and the chat format's
fixed cost of a request is counted with the system message.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from chatbot.engine.tool_results import sent_messages, turn_cost

if TYPE_CHECKING:
    from chatbot.engine.conversation import Conversation
    from chatbot.engine.folds import RollingSummary
    from chatbot.engine.memory import Request

#: the parts, in the order a request holds them (and a ``/timeline`` bar draws them)
PART_NAMES = ("system", "summary", "recalled", "earlier", "tool_results", "new")


@dataclass(frozen=True)
class Parts:
    """Tokens per part of one request (corrected like the request's estimate; they add up to it)."""

    system: int = 0
    summary: int = 0
    recalled: int = 0  # earlier turns brought back by recall into the system message (engine/recall.py)
    earlier: int = 0  # the earlier turns sent verbatim, but their tool results
    tool_results: int = 0  # the tool results of those turns, shortened as sent
    new: int = 0  # the new user message

    @property
    def total(self) -> int:
        """The whole request, as estimated."""
        return sum(asdict(self).values())

    def to_dict(self) -> dict[str, int]:
        """JSON-ready, one key per part."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Parts:
        """From :meth:`to_dict` (a part missing is 0: a part added later reads as absent from an older record)."""
        return cls(**{name: int(data.get(name) or 0) for name in PART_NAMES})


def request_parts(
    conv: Conversation, first: int, summary: RollingSummary | None, user_tokens: int, recalled: int = 0, head: int = 0
) -> Parts:
    """The parts of a request that sends ``conv.turns[:head]`` and ``conv.turns[first:]``, ``summary`` (None: none),
    the turns recall brought back into the system message (``recalled`` raw tokens) and a new message of
    ``user_tokens`` (raw) tokens."""
    counter = conv.counter
    limit = conv.memory.tool_result_tokens
    system = conv.system_tokens(False)
    raw = {
        "system": system,
        "summary": conv.system_tokens_with(summary) - system,
        "recalled": recalled,
        "earlier": 0,
        "tool_results": 0,
        "new": user_tokens,
    }
    for turn in [*conv.turns[:head], *conv.turns[first:]]:
        results = _tool_result_tokens(turn, conv) if turn.has_tool_calls else 0
        raw["earlier"] += turn_cost(turn, counter, limit) - results
        raw["tool_results"] += results
    return _corrected(raw, counter.correction, counter.chat_format.per_request)


def _tool_result_tokens(turn: Any, conv: Conversation) -> int:
    """Raw tokens of ``turn``'s tool results as sent (cached on the turn, as its whole cost is)."""
    counter, limit = conv.counter, conv.memory.tool_result_tokens
    return int(
        turn.cached_count(
            ("tool results", counter.key, limit),
            lambda: sum(counter.count_message(m) for m in sent_messages(turn, counter, limit) if m["role"] == "tool"),
        )
    )


def _corrected(raw: dict[str, int], correction: float, per_request: int) -> Parts:
    """``raw`` parts scaled by ``correction`` so that they add up to ``per_request + ceil(sum * correction)``, the
    counter's total: each part gets the growth of the rounded running sum (no token lost or made up by rounding)."""
    out: dict[str, int] = {}
    running, shown = 0, 0
    for name in PART_NAMES:
        running += raw[name]
        upto = math.ceil(running * correction)
        out[name], shown = upto - shown, upto
    out["system"] += per_request
    return Parts(**out)


def sent_record(request: Request, tools: int, provider: int | None) -> dict[str, Any]:
    """What a stored turn keeps of its request, for ``/timeline``: the budget of its messages, the tool definitions
    sent beside them (``tools`` tokens, estimated), its parts, the turns it folded into the summary or left out, and
    the provider's own count of it (``provider``; None when the server sent none)."""
    return {
        "budget": request.budget,
        "tools": tools,
        "parts": request.parts.to_dict(),
        "summarized": request.summarized,
        "summary_covers": request.summary_covers,
        "dropped": request.dropped,
        "provider": provider,
        "refs": request.refs,  # which turns, summary version and recalled turns (engine/request_record.py)
    }
