"""Tool results as a request carries them: shortened, with a marker naming their size; the session keeps them whole.

Two places shorten, with the one helper :func:`shorten_tool_result`:

- an earlier turn's results beyond ``MemoryConfig.tool_result_tokens`` (:func:`sent_messages`, :func:`turn_cost`):
  a 3,000-token search result matters to the turn that asked for it, not to every later request;
- this turn's fresh results, when they do not fit the budget even beside the system message and the user's alone
  (:func:`shorten_to_fit`): the turn goes on with the start of each result rather than stop.
"""

from __future__ import annotations

import math

from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import Message, Turn

#: how a shortened tool result ends in a request (the session keeps the whole result)
SHORTENED_MARK = (
    "[tool result shortened for this request: {kept} of about {total} tokens shown; the full result is stored]"
)


def shorten_tool_result(message: Message, counter: TokenCounter, limit: int | None) -> Message:
    """``message`` as a request sends it: a ``tool`` result over ``limit`` tokens is cut, with a marker.

    The start of it stays, and the marker says how much there was.
    """
    content = message.get("content")
    if not limit or message.get("role") != "tool" or not isinstance(content, str):
        return dict(message)
    total = counter.count(content)
    if total <= limit:
        return dict(message)
    keep = max(1, len(content) * limit // total)
    mark = SHORTENED_MARK.format(kept=limit, total=total)
    return {**message, "content": f"{content[:keep].rstrip()}\n{mark}"}


def sent_messages(turn: Turn, counter: TokenCounter, limit: int | None) -> list[Message]:
    """The messages of an earlier ``turn`` as a request carries them (tool results shortened beyond ``limit``)."""
    return [shorten_tool_result(m, counter, limit) for m in turn.messages]


def turn_cost(turn: Turn, counter: TokenCounter, limit: int | None) -> int:
    """Raw tokens of an earlier ``turn`` as sent (cached on the turn, like its whole count)."""
    if not limit or not turn.has_tool_calls:
        return turn.tokens(counter)
    return turn.cached_count(
        ("sent", counter.key, limit), lambda: sum(counter.count_message(m) for m in sent_messages(turn, counter, limit))
    )


def rounds_cost(messages: list[Message], counter: TokenCounter) -> int:
    """What a turn's tool rounds add to a request, corrected by the calibration like the rest of it."""
    return math.ceil(sum(counter.count_message(m) for m in messages) * counter.correction)


def shorten_to_fit(messages: list[Message], counter: TokenCounter, room: int) -> tuple[list[Message], int] | None:
    """A turn's tool rounds with every result longer than one common limit shortened to it, the largest limit whose
    rounds cost at most ``room`` (:func:`rounds_cost`); returns (the rounds, the limit).

    None when even a limit of one token does not fit (the calls and the markers alone are over).
    """
    sizes = [counter.count(m["content"]) for m in messages if m.get("role") == "tool" and isinstance(m["content"], str)]

    def cut(limit: int) -> list[Message]:
        return [shorten_tool_result(m, counter, limit) for m in messages]

    low, high = 0, max(sizes, default=0)  # a limit that fits (0: none found yet), one that may not
    while low < high:
        mid = (low + high + 1) // 2
        if rounds_cost(cut(mid), counter) <= room:
            low = mid
        else:
            high = mid - 1
    return (cut(low), low) if low else None
