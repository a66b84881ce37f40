"""A turn in progress: the tool rounds made so far and the reply being streamed (used by :mod:`chatbot.core.chat`).

A turn that uses tools is several model calls. Whatever stops it (the answer, Ctrl-C, an error), what it has
produced must be storable as ONE well-formed turn: every assistant ``tool_calls`` message followed by one ``tool``
message per call. :class:`TurnSoFar` keeps that true.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterable
from dataclasses import replace
from typing import Any

from chatbot.core.budget import message_budget, retry_budget, round_retry_budget, window_notice
from chatbot.core.events import Asking, ChatEvent, Notice, request_notices
from chatbot.engine import memory
from chatbot.engine.conversation import Conversation
from chatbot.engine.folds import Summarizer, fold
from chatbot.engine.fresh_round import fresh_results_request
from chatbot.engine.memory import Folds, Request
from chatbot.engine.parts import sent_record
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.tool_results import rounds_cost
from chatbot.engine.turn import Message, Turn
from chatbot.errors import BudgetError, ContextLengthError
from chatbot.providers.base import ReasoningDelta, StreamEnd, TextDelta, ToolCall, Usage

INTERRUPTED_MARK = "[interrupted by the user]"
INCOMPLETE_MARK = "[incomplete: the server stopped without finishing the reply]"
#: the result stored for a call the user interrupted before it ran or finished
NOT_RUN = "Error: not run; the user interrupted the turn."


class TurnSoFar:
    """What a turn has produced so far: finished tool rounds (assistant calls, tool results) and the reply streaming.

    Interrupted at any point, :meth:`closed_messages` still pairs every call with a result.
    """

    def __init__(self, started_at: float, earlier: Iterable[Turn] = ()) -> None:
        self.started_at = started_at
        # every call id of the session so far (``earlier`` turns): a repeated id would pair a result with the wrong
        # call in later requests, so a new call never reuses one
        self._ids = {c.get("id") for t in earlier for m in t.messages for c in m.get("tool_calls") or ()}
        self.messages: list[Message] = []  # assistant messages with tool_calls and their tool results, in order
        self.parts: list[str] = []  # text of the reply being streamed
        self.open: dict[str, ToolCall] = {}  # calls of the last round that have no result yet
        self.reasoned = False
        self.usage: Usage | None = None  # summed over the turn's model calls
        self.finish_reason: str | None = None
        self.rounds = 0  # model calls made
        self.estimated_prompt = 0  # summed over the turn's model calls
        # the first call's request and its usage: the one call of a turn whose request is the turn's request alone
        # (later ones also re-send the tool rounds), so the one the calibration learns from, tools called or not
        self.first_call: tuple[Request, Usage] | None = None
        self.first_request: Request | None = None  # the first call's request, the one the turn keeps a record of

    def started(self) -> bool:
        """Whether anything worth keeping has happened (answer text, or tool calls)."""
        return bool("".join(self.parts).strip() or self.messages)

    def take(self, delta: TextDelta | ReasoningDelta) -> None:
        """A piece of the reply streaming: its answer text kept; reasoning only noted (it is not stored)."""
        if isinstance(delta, TextDelta):
            self.parts.append(delta.text)
        else:
            self.reasoned = True

    def end_round(self, end: StreamEnd, estimated_prompt: int, request: Request | None = None) -> None:
        """A model call of ``request`` (and the tool rounds so far) ended: add up what it cost."""
        self.rounds += 1
        if self.rounds == 1 and request is not None:
            self.first_request = request
            if end.usage is not None:
                self.first_call = (request, end.usage)
        self.estimated_prompt += estimated_prompt
        self.finish_reason = end.finish_reason
        if end.usage is not None:
            self.usage = _add(self.usage, end.usage) if self.usage else end.usage

    def open_round(self, calls: list[ToolCall]) -> list[ToolCall]:
        """The reply asked for ``calls``: store it as an assistant message; return the calls with ids unique in the
        session (a repeated id gets the first free suffix ``_N``, from N = the call's place in the round)."""
        unique = []
        for n, call in enumerate(calls):
            new_id = call.id
            while new_id in self._ids:
                new_id, n = f"{call.id}_{n}", n + 1
            self._ids.add(new_id)
            unique.append(replace(call, id=new_id) if new_id != call.id else call)
        text = "".join(self.parts)
        self.messages.append(
            {"role": "assistant", "content": text or None, "tool_calls": [c.to_message_dict() for c in unique]}
        )
        self.parts = []
        self.open = {c.id: c for c in unique}
        return unique

    def add_result(self, call: ToolCall, text: str) -> None:
        """A call's result, as the ``tool`` message the model reads next."""
        self.messages.append({"role": "tool", "tool_call_id": call.id, "name": call.name, "content": text})
        self.open.pop(call.id, None)

    def closed_messages(self) -> list[Message]:
        """The tool rounds so far, with a "not run" result for every call still open."""
        missing = [
            {"role": "tool", "tool_call_id": c.id, "name": c.name, "content": NOT_RUN} for c in self.open.values()
        ]
        return [*self.messages, *missing]

    def to_turn(
        self,
        message: Message,
        estimated_prompt: int,
        counter: TokenCounter,
        *,
        mark: str = "",
        sent: dict[str, Any] | None = None,
        model: str | None = None,
    ) -> Turn:
        """The whole exchange as one stored turn: ``message``, the tool rounds (every call paired), the answer.

        ``mark`` ends the answer of a turn that did not finish; ``estimated_prompt`` is the request's own estimate,
        used when no model call finished. The turn's usage holds the provider's counts and the estimates; ``sent``
        is its request's record (:meth:`record`); ``model`` the model that served the turn.
        """
        answer = self.answer(mark)
        usage = self.usage
        turn_usage: dict[str, Any] = {
            "prompt_tokens": usage.prompt_tokens if usage else None,
            "completion_tokens": usage.completion_tokens if usage else None,
            "total_tokens": usage.total_tokens if usage else None,
            "cached_tokens": usage.cached_tokens if usage else None,
            "estimated_prompt_tokens": self.estimated_prompt or estimated_prompt,
            "estimated_completion_tokens": counter.count(answer) + self.call_tokens(counter),
            "source": "provider" if usage else "estimate",
        }
        if self.rounds > 1:
            turn_usage["model_calls"] = self.rounds
        messages = [dict(message), *self.closed_messages(), {"role": "assistant", "content": answer}]
        latency = round(time.monotonic() - self.started_at, 3)
        return Turn(messages, usage=turn_usage, latency=latency, interrupted=bool(mark), sent=sent, model=model)

    def record(self, request: Request, tools: int) -> dict[str, Any]:
        """What the stored turn keeps of its request (:func:`~chatbot.engine.parts.sent_record`): the first call's
        (later rounds re-send this turn's tool rounds too; ``request`` when no call ended), sent with tool definitions
        of ``tools`` tokens, with the provider's count of it when the server sent one."""
        provider = self.first_call[1].prompt_tokens if self.first_call else None
        return sent_record(self.first_request or request, tools, provider)

    def answer(self, mark: str = "") -> str:
        """The final answer text, with ``mark`` appended when the turn did not finish."""
        text = "".join(self.parts)
        return f"{text.rstrip()}\n\n{mark}".lstrip() if mark else text

    def call_tokens(self, counter: TokenCounter) -> int:
        """Tokens the model wrote as tool calls (completion side)."""
        return sum(counter.count_message(m) for m in self.messages if m.get("role") == "assistant")


def turn_request(
    conv: Conversation,
    message: Message,
    budget: int,
    summarizer: Summarizer,
    tools: int = 0,
    out: int | None = None,
    extra: int = 0,
) -> Generator[ChatEvent, None, Request]:
    """The request for ``message`` in ``budget`` less ``extra`` (this turn's tool rounds), the memory rule's three
    steps in the open: :func:`~chatbot.engine.memory.plan`; while the plan finds a fold due,
    :func:`~chatbot.engine.folds.fold` through ``summarizer`` (the one step that calls out), kept by ``conv``, what it
    said told, and plan again; :func:`~chatbot.engine.memory.assemble`.

    A fold whose request was refused naming the model's window teaches it: the budget falls under the window
    (``tools``: the definitions' tokens; ``out``: ``--max-output-tokens``) and the plan starts again there.
    """
    folds = Folds(conv.rolling)
    while (plan := memory.plan(conv, message, budget - extra, folds)).fold is not None:
        window = conv.counter.calibration.context
        yield Asking("summary")  # (or waits for the one written in the background)
        folded = fold(conv, plan.fold, summarizer, folds.summary)
        conv.take_fold(folded)
        folds = folds.after(plan.fold, folded)
        if (learned := conv.counter.calibration.context) and learned != window:
            # told first: a summary request taught it, and what the fold then did happened under it
            yield Notice(window_notice(learned, out), True)
            budget = min(budget, message_budget(conv, tools, out))
            folds = Folds(conv.rolling, summarized=folds.summarized)  # (the turns folded so far are told too)
        yield from (Notice(text, True) for text in folded.notices)
    request = memory.assemble(conv, message, plan)
    conv.keep_sent(request)
    return request


def fit_round(
    conv: Conversation, request: Request, message: Message, rounds: list[Message], summarizer: Summarizer
) -> Generator[ChatEvent, None, tuple[Request, list[Message]]]:
    """What a later round of ``message``'s turn sends: (the request, this turn's ``rounds`` as sent) within
    ``request.budget``.

    The rounds re-send the turn so far. When that is over the budget, the request is made again beside them (older
    turns folded or dropped by the memory rule: :func:`turn_request`); when even the system message and the user's
    alone leave too little, the results of this turn are sent shortened
    (:func:`~chatbot.engine.fresh_round.fresh_results_request`). Notices say what changed.
    """
    extra = rounds_cost(rounds, conv.counter)
    if request.tokens + extra <= request.budget:  # (the first round always fits: it was built to)
        return request, rounds
    try:
        smaller = yield from turn_request(conv, message, request.budget, summarizer, extra=extra)
    except BudgetError:  # the results leave too little for the system message and the user's: shorten them
        smaller, rounds = fresh_results_request(conv, message, rounds, request.budget)
    yield from request_notices(smaller)
    return replace(smaller, budget=request.budget), rounds


def retry_request(
    conv: Conversation,
    message: Message,
    request: Request,
    exc: ContextLengthError,
    summarizer: Summarizer,
    tools: int = 0,
    out: int | None = None,
) -> Generator[ChatEvent, None, Request]:
    """The one retry of ``message`` after the server refused its first ``request`` for its length: made again
    (:func:`turn_request`) under the window the server named (learned), or with half the request; told."""
    retry, told = retry_budget(conv, request, exc, tools, out)
    yield from (Notice(text, True) for text in told)
    if retry is None:
        raise ContextLengthError(
            f"{exc.message}; the request holds only the system message and yours, so there is nothing to "
            "drop: shorten the message or use a model with a larger context"
        ) from None
    request = yield from turn_request(conv, message, retry, summarizer, tools, out)
    yield Notice(f"{exc.message}; retrying once with a smaller request ({request.tokens} tokens)", True)
    yield from request_notices(request)
    return request


def refit_round(
    conv: Conversation, request: Request, rounds: list[Message], exc: ContextLengthError, tools: int, out: int | None
) -> Generator[ChatEvent, None, Request]:
    """``request`` with the budget a later round of its turn is fit to again after the server refused the round
    for its length (``tools``: the definitions' tokens; ``out``: ``--max-output-tokens``), the change told."""
    budget, told = round_retry_budget(conv, request, rounds_cost(rounds, conv.counter), exc, tools, out)
    yield from (Notice(text, True) for text in told)
    yield Notice(f"{exc.message}; sending this round again, smaller ({budget} tokens)", True)
    return replace(request, budget=budget)


def _add(a: Usage, b: Usage) -> Usage:
    """The usage of two model calls of one turn, added up (cached tokens only when both reported them)."""
    cached = a.cached_tokens + b.cached_tokens if a.cached_tokens is not None and b.cached_tokens is not None else None
    prompt, completion = a.prompt_tokens + b.prompt_tokens, a.completion_tokens + b.completion_tokens
    return Usage(prompt, completion, a.total_tokens + b.total_tokens, cached)
