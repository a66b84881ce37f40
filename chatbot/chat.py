"""One session's chat loop, terminal-free: build the request, stream the reply, record the turn, save.

:meth:`Chat.send` is a generator of events (notices, text and reasoning deltas, and a final :class:`TurnDone`)
that any front end can render. Provider errors are raised as :mod:`chatbot.errors` types after the user's
message has been kept aside so that ``/retry`` can resend it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, replace
from typing import Any

from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import SUMMARY_MAX_TOKENS, Request, summary_request
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import Message, Turn, validate_request
from chatbot.errors import BudgetError, ChatbotError, ContextLengthError, SummaryError, UsageError
from chatbot.providers.base import ChatProvider, ReasoningDelta, StreamEnd, TextDelta, ToolCall, Usage
from chatbot.rounds import INTERRUPTED_MARK, Progress
from chatbot.storage.base import SessionStore
from chatbot.storage.session import Session
from chatbot.tools.base import ToolOutcome
from chatbot.tools.registry import Registry

#: default cap on model calls answered by tool results within one turn
DEFAULT_TOOL_ROUNDS = 8


@dataclass(frozen=True)
class Notice:
    """Something the user should be told about this turn (summarized, dropped, retried, a warning)."""

    text: str
    warning: bool = False


@dataclass(frozen=True)
class TurnDone:
    """The end of a turn: what was stored and what it cost."""

    turn: Turn
    request: Request
    usage: Usage | None  # provider-reported; None when the server sent none
    estimated_prompt: int
    estimated_completion: int
    latency: float
    finish_reason: str | None = None
    reasoned: bool = False  # reasoning deltas arrived (gpt-oss), shown only with --reasoning


@dataclass(frozen=True)
class ToolStarted:
    """The model called a tool; it runs now."""

    call: ToolCall


@dataclass(frozen=True)
class ToolFinished:
    """A tool call's result (``text`` is exactly what the model is sent back)."""

    call: ToolCall
    text: str
    error: bool = False


ChatEvent = Notice | TextDelta | ReasoningDelta | ToolStarted | ToolFinished | TurnDone


class Chat:
    """Drives one session: the stateless model gets the whole request every time; this decides what it holds."""

    def __init__(
        self,
        session: Session,
        provider: ChatProvider,
        store: SessionStore | None = None,
        *,
        max_output_tokens: int | None = None,
        summary_model: str | None = None,
        tools: Registry | None = None,
        max_tool_rounds: int = DEFAULT_TOOL_ROUNDS,
        confirm_tool: Callable[[ToolCall], bool] | None = None,
    ) -> None:
        self.session = session
        self.tools = tools
        self.max_tool_rounds = max_tool_rounds
        # asked before each call (--confirm-tools); False refuses it and the model is told so
        self.confirm_tool = confirm_tool
        self.provider = provider
        self.store = store
        self.max_output_tokens = max_output_tokens
        self.summary_model = summary_model
        # the user message of a turn that failed, kept for /retry
        self._pending: str | None = None
        self._apply_calibration()

    @property
    def conversation(self) -> Conversation:
        """The session's conversation."""
        return self.session.conversation

    @property
    def model(self) -> str:
        """The chat model in use."""
        return self.session.model or self.provider.model

    @property
    def pending(self) -> str | None:
        """The message of a turn that failed before anything was stored (what ``/retry`` resends), or None."""
        return self._pending

    # --- turns ------------------------------------------------------------------------------------------------

    def next_request(self, text: str = "") -> Request:
        """The request ``text`` would send next, without calling the model or changing anything stored."""
        return self.conversation.preview_request(text)

    def send(self, text: str) -> Generator[ChatEvent, None, None]:
        """Send ``text`` as the next user message and stream the reply.

        The turn is stored and the session saved when the reply ends, or when it is interrupted (Ctrl-C closes
        this generator or raises inside it) with the partial answer marked as interrupted.
        """
        self._pending = text
        for source in self.tools.gone() if self.tools else []:
            yield Notice(f"MCP server {source} stopped; its tools are gone (the chat goes on without them)", True)
        request = self.conversation.build_request(text, summarizer=self._summarize, budget=self._message_budget())
        yield from self._request_notices(request)
        try:
            done = yield from self._turn(request)
        except ContextLengthError as exc:
            if self._pending is None:
                raise  # a later round failed after tools ran: that turn is stored, so it is not sent again
            # Not the end: shrink the request to half and retry once, telling the user.
            budget = self.conversation.shrink_budget(request)
            if budget is None:
                raise ContextLengthError(
                    f"{exc.message}; the request holds only the system message and yours, so there is nothing to "
                    "drop: shorten the message or use a model with a larger context"
                ) from None
            request = self.conversation.build_request(text, summarizer=self._summarize, budget=budget)
            yield Notice(f"{exc.message}; retrying once with a smaller request ({request.tokens} tokens)", True)
            yield from self._request_notices(request)
            done = yield from self._turn(request)
        self._pending = None
        if done.finish_reason == "length":
            yield Notice("the reply was cut off at the output limit (--max-output-tokens)", True)
        if not done.turn.answer_text.strip():
            hint = " (only reasoning came back; --reasoning shows it)" if done.reasoned else ""
            yield Notice(f"the model sent no answer text{hint}", True)
        yield done

    def tool_definition_tokens(self) -> int:
        """Tokens the tool definitions add to every request (they ride beside the messages)."""
        tools = self.tools.openai_tools() if self.tools else []
        return self.conversation.counter.count(json.dumps(tools)) if tools else 0

    def _message_budget(self) -> int | None:
        # the tool definitions are part of what the model reads, so they come out of the same budget
        extra = self.tool_definition_tokens()
        return self.conversation.memory.max_input_tokens - extra if extra else None

    def retry_text(self) -> str:
        """The message /retry resends: the failed one, else the last turn's (which is taken back first)."""
        if self._pending is not None:
            return self._pending
        turn = self.undo()
        if turn is None:
            raise UsageError("nothing to retry yet")
        return turn.user_text

    def _turn(self, request: Request) -> Generator[ChatEvent, None, TurnDone]:
        """One turn: ask the model; while it calls tools, run them and ask again; store the whole exchange."""
        progress = Progress(time.monotonic())
        offered = self.tools.openai_tools() if self.tools else []
        rounds = 0
        try:
            while True:
                final = not offered or rounds >= self.max_tool_rounds
                request = yield from self._fit_round(request, progress)
                calls = yield from self._reply(request, progress, [] if final else offered)
                if not calls or final:
                    break
                for call in progress.open_round(calls):
                    yield from self._run_call(call, progress)
                rounds += 1
                if rounds >= self.max_tool_rounds:
                    yield Notice(
                        f"the model used tools in {rounds} rounds (--max-tool-rounds); it is asked to answer "
                        "now, without tools",
                        True,
                    )
        except (KeyboardInterrupt, GeneratorExit):
            if progress.started():
                # keep what happened, marked, so the next request stays well-formed (every call has its result)
                self._record(request, progress, interrupted=True)
                self._pending = None
            raise
        except ChatbotError as exc:
            if progress.messages:  # tools already ran: keep their results rather than lose them
                self._record(request, progress, interrupted=True, mark=f"[the turn stopped: {exc.message}]")
                self._pending = None
            raise
        return self._record(request, progress)

    def _reply(
        self, request: Request, progress: Progress, tools: list[Message]
    ) -> Generator[ChatEvent, None, list[ToolCall]]:
        """Stream one model reply into ``progress``; return the tool calls it made."""
        calls: list[ToolCall] = []
        options: dict[str, Any] = {"tools": tools} if tools else {}
        messages = request.messages + progress.messages
        if progress.messages:
            validate_request(messages, in_turn=True)
        stream = self.provider.stream(messages, model=self.model, max_tokens=self.max_output_tokens, **options)
        try:
            for event in stream:
                if isinstance(event, StreamEnd):
                    progress.end_round(event, request.tokens + progress.tokens(self.conversation.counter))
                elif isinstance(event, ToolCall):
                    calls.append(event)
                else:
                    if isinstance(event, TextDelta):
                        progress.parts.append(event.text)
                    else:
                        progress.reasoned = True
                    yield event
        except (KeyboardInterrupt, GeneratorExit):
            stream.close()  # the provider's generator closes its HTTP response
            raise
        return calls

    def _run_call(self, call: ToolCall, progress: Progress) -> Generator[ChatEvent, None, None]:
        """Run one call (after asking, with --confirm-tools) and add its result to ``progress``."""
        assert self.tools is not None
        yield ToolStarted(call)
        if self.confirm_tool is not None and not self.confirm_tool(call):
            outcome = ToolOutcome(call.name, "Error: the user refused this tool call.", error=True)
        else:
            outcome = self.tools.call(call.name, call.arguments)
        progress.add_result(call, outcome.text)
        yield ToolFinished(call, outcome.text, outcome.error)
        if outcome.notice:
            yield Notice(outcome.notice, True)

    def _fit_round(self, request: Request, progress: Progress) -> Generator[ChatEvent, None, Request]:
        """A later round re-sends the turn so far: when that is over budget, older turns make room."""
        extra = progress.tokens(self.conversation.counter)
        if not extra or request.tokens + extra <= request.budget:
            return request
        budget = request.budget - extra
        if budget < 1:
            raise BudgetError(
                f"the tool results of this turn need {extra} tokens, more than the budget (--max-input-tokens) "
                f"of {request.budget}",
                needed=extra,
                budget=request.budget,
            )
        smaller = self.conversation.build_request(request.messages[-1], summarizer=self._summarize, budget=budget)
        yield from self._request_notices(smaller)
        return replace(smaller, budget=request.budget)

    def _record(
        self, request: Request, progress: Progress, *, interrupted: bool = False, mark: str = INTERRUPTED_MARK
    ) -> TurnDone:
        latency = time.monotonic() - progress.started_at
        counter = self.conversation.counter
        answer = progress.answer(mark if interrupted else "")
        est_completion = counter.count(answer) + progress.call_tokens(counter)
        usage = progress.usage
        estimated_prompt = progress.estimated_prompt or request.tokens
        turn_usage: dict[str, Any] = {
            "prompt_tokens": usage.prompt_tokens if usage else None,
            "completion_tokens": usage.completion_tokens if usage else None,
            "total_tokens": usage.total_tokens if usage else None,
            "estimated_prompt_tokens": estimated_prompt,
            "estimated_completion_tokens": est_completion,
            "source": "provider" if usage else "estimate",
        }
        if progress.rounds > 1:
            turn_usage["model_calls"] = progress.rounds
        messages = [dict(request.messages[-1]), *progress.closed_messages(), {"role": "assistant", "content": answer}]
        turn = Turn(messages, usage=turn_usage, latency=round(latency, 3), interrupted=interrupted)
        self.conversation.add_turn(turn)
        self.session.totals.add_request(
            estimated_prompt,
            est_completion,
            usage.prompt_tokens if usage else None,
            usage.completion_tokens if usage else None,
        )
        if usage and not interrupted and progress.rounds == 1:
            self._calibrate(request, usage)  # one call: the estimate and the reported count are of the same request
        self.save()
        done = TurnDone(turn, request, usage, estimated_prompt, est_completion, latency)
        return replace(done, finish_reason=progress.finish_reason, reasoned=progress.reasoned)

    @staticmethod
    def _request_notices(request: Request) -> Iterator[Notice]:
        for warning in request.warnings:
            yield Notice(warning, True)
        if request.summarized:
            yield Notice(
                f"summarized {request.summarized} earlier turn(s) into the rolling summary "
                f"(it now covers turns 1-{request.summary_covers})"
            )
        if request.dropped:
            yield Notice(f"{request.dropped} earlier turn(s) not sent (memory window / token budget)")

    # --- summaries --------------------------------------------------------------------------------------------

    def _summarize(self, previous: str, turns: list[list[Message]], first: int) -> str:
        completion = self.provider.complete(
            summary_request(previous, turns, first),
            model=self.summary_model or self.model,
            max_tokens=SUMMARY_MAX_TOKENS,
        )
        self.session.totals.add_summary(completion.usage.total_tokens if completion.usage else None)
        if completion.finish_reason == "length":
            # a summary cut mid-sentence would silently lose whatever came last
            raise SummaryError(f"the summary was cut off at {SUMMARY_MAX_TOKENS} tokens")
        return completion.text

    # --- accounting -------------------------------------------------------------------------------------------

    def _calibrate(self, request: Request, usage: Usage) -> None:
        # the counter learns into the session's calibration for this model (see _apply_calibration)
        self.conversation.counter.calibrate(request.uncorrected, usage.prompt_tokens)

    def _apply_calibration(self) -> None:
        # each model has its own calibration, stored in the session; one never seen before starts uncorrected
        self.conversation.counter.calibration = self.session.calibration_for(self.model)

    # --- session changes --------------------------------------------------------------------------------------

    def set_model(self, model: str, counter: TokenCounter | None = None) -> None:
        """Switch the chat model for the next turns; ``counter`` counts for it (its own calibration follows)."""
        if counter is not None:
            self.conversation.counter = counter
        self.session.model = model
        self._apply_calibration()
        self.save()

    def undo(self) -> Turn | None:
        """Drop the last stored turn and save; returns it (None when there is none)."""
        turn = self.conversation.undo()
        if turn is not None:
            self.save()
        return turn

    def reset(self) -> int:
        """Forget every turn and the summary (the system message stays) and save; returns how many turns went."""
        count = len(self.conversation.turns)
        self.conversation.reset()
        self._pending = None
        self.save()
        return count

    def set_system(self, text: str) -> None:
        """Replace the system message (sent first in every later request) and save."""
        self.conversation.system = text
        self.save()

    def rename(self, title: str) -> None:
        """Give the session a title and save."""
        self.session.title = title
        self.save()

    def save(self) -> None:
        """Write the session (atomically) when a store is attached."""
        if self.store is not None:
            self.store.save(self.session)
