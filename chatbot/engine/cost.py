"""What statelessness costs: the tokens each request re-sends, added up, and their price.

Every request re-sends what memory keeps, so the tokens sent grow with the conversation: with full memory turn ``n``
re-sends all ``n - 1`` turns before it, and the total sent over ``n`` turns grows with ``n²/2``. Summary and window
memory keep each request near a fixed size, so their total grows in a line (plus the summary calls). :func:`costs`
adds up what a session's turns sent and what full memory would have sent for the same turns; :class:`Price` turns
tokens into money for the models of :data:`PRICES` (or the config file's ``[prices]``); a model without a price shows
tokens only, never a guessed price.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from chatbot.engine.parts import Parts
from chatbot.engine.usage import prompt_figure

if TYPE_CHECKING:
    from chatbot.engine.conversation import Conversation
    from chatbot.engine.tokens import TokenCounter
    from chatbot.engine.turn import Message, Turn


@dataclass(frozen=True)
class Price:
    """A model's list price in US dollars per million tokens: prompt (``input``), the prompt tokens the provider
    served from its cache (``cached``; None: no cache discount) and the reply (``output``)."""

    input: float
    output: float
    cached: float | None = None

    def of(self, prompt: int, completion: int, cached: int = 0) -> float:
        """Dollars for one call's tokens."""
        cached_rate = self.input if self.cached is None else self.cached
        return ((prompt - cached) * self.input + cached * cached_rate + completion * self.output) / 1e6

    def saved(self, cached: int) -> float:
        """Dollars the cache saved on ``cached`` prompt tokens."""
        return 0.0 if self.cached is None else cached * (self.input - self.cached) / 1e6


#: list prices of a few well-known models (USD per million tokens: input, output, cached input) as their providers
#: publish them; prices change: the config file's ``[prices.MODEL]`` tables override and add to these
PRICES: dict[str, Price] = {
    "gpt-4o": Price(2.50, 10.00, 1.25),
    "gpt-4o-mini": Price(0.15, 0.60, 0.075),
    "gpt-4.1": Price(2.00, 8.00, 0.50),
    "gpt-4.1-mini": Price(0.40, 1.60, 0.10),
    "gpt-4.1-nano": Price(0.10, 0.40, 0.025),
    "llama-3.3-70b-versatile": Price(0.59, 0.79),
    "llama-3.1-8b-instant": Price(0.05, 0.08),
}


def price_of(model: str, overrides: dict[str, Price] | None = None, *, listed: bool = True) -> Price | None:
    """``model``'s price: the config file's, else the table's (unless not ``listed``: a model served at a base URL
    of the user's own, where the name is only what was sent and the provider's list price is not what it costs);
    None when none names it."""
    table = {**(PRICES if listed else {}), **(overrides or {})}
    return table.get(model) or table.get(model.rsplit("/", 1)[-1])


@dataclass(frozen=True)
class TurnCost:
    """One turn's request: tokens sent (the provider's count, else the estimate), the running total, the reply's
    tokens, the cached prompt tokens, whether it folded turns into the summary, and what full memory would have sent
    for it."""

    turn: int
    sent: int
    estimated: bool
    cumulative: int
    completion: int
    cached: int
    summarized: int
    full: int
    full_cumulative: int
    calls: int = 1  # the model calls the turn made (a turn that called tools asked again with their results)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return dict(self.__dict__)


def full_memory_tokens(conv: Conversation, message: Message) -> int:
    """What full memory would send for ``message`` after every stored turn: the system message, all the turns and
    the message, counted as one request is by the conversation's counter (the model's in use). A turn keeps it as
    ``sent["full"]`` when stored, so that its figure does not move when another model's counter comes in."""
    counter = conv.counter
    return _full_request(counter, conv.system_tokens(False) + sum(t.tokens(counter) for t in conv.turns), message)


def _full_request(counter: TokenCounter, earlier: int, message: Message) -> int:
    """Full memory's request for ``message`` after ``earlier`` raw tokens (the system message and every turn before
    it), counted as one request is."""
    return counter.total(earlier + counter.count_message(message))


def _as_sent(turn: Turn, sent: int, full: int, calls: int) -> int:
    """Full memory's figure for ``turn`` as its requests went: ``full`` is one request's messages, but a turn that
    offered tools sent their definitions beside them, and one that called tools asked again with this turn's rounds.
    Those go under any memory rule, so full memory would have sent what was sent, less the messages the memory rule
    chose in each call (the record's parts), plus its own."""
    record = turn.sent or {}
    chosen = Parts.from_dict(record.get("parts") or {}).total
    if (not record.get("tools") and calls == 1) or not chosen:  # messages alone (or a record kept before parts)
        return full
    return sent + calls * (full - chosen)


def costs(conv: Conversation) -> list[TurnCost]:
    """Each stored turn's cost, in order. What full memory would have sent is the figure the turn recorded when it
    was stored; a turn stored before it was kept is counted now, by the counter in use."""
    counter = conv.counter
    out: list[TurnCost] = []
    cumulative = full_cumulative = 0
    earlier = conv.system_tokens(False)  # full memory: the system message and every turn before (raw tokens)
    for number, turn in enumerate(conv.turns, start=1):
        usage = turn.usage or {}
        sent, estimated = prompt_figure(usage)
        completion = usage.get("completion_tokens")
        completion = int(completion if completion is not None else usage.get("estimated_completion_tokens") or 0)
        cumulative += sent
        recorded = (turn.sent or {}).get("full")
        full = int(recorded) if recorded is not None else _full_request(counter, earlier, turn.messages[0])
        calls = int(usage.get("model_calls") or 1)
        full = _as_sent(turn, sent, full, calls)
        full_cumulative += full
        earlier += turn.tokens(counter)  # (for the turns after it that recorded none)
        summarized = int((turn.sent or {}).get("summarized") or 0)
        cached = int(usage.get("cached_tokens") or 0)
        out.append(
            TurnCost(number, sent, estimated, cumulative, completion, cached, summarized, full, full_cumulative, calls)
        )
    return out
