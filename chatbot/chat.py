"""One session's chat loop, terminal-free: build the request, stream the reply, record the turn, save.

:meth:`Chat.send` is a generator of events (notices, text and reasoning deltas, and a final :class:`TurnDone`)
that any front end can render. Provider errors are raised as :mod:`chatbot.errors` types after the user's
message has been kept aside so that ``/retry`` can resend it.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass, replace
from typing import Any

from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import SUMMARY_MAX_TOKENS, Request, summary_request
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import Message, Turn
from chatbot.errors import (
    ChatbotError,
    ConnectionFailed,
    ContextLengthError,
    Interrupted,
    ProviderTimeout,
    RateLimitError,
    SaveFailed,
    ServerError,
    SummaryError,
    TokenRateLimitError,
    UsageError,
)
from chatbot.providers.base import ChatProvider, ReasoningDelta, StreamEnd, TextDelta, Usage
from chatbot.storage.base import SessionStore
from chatbot.storage.rescue import rescue
from chatbot.storage.session import Session

INTERRUPTED_MARK = "[interrupted by the user]"
INCOMPLETE_MARK = "[incomplete: the server stopped without finishing the reply]"
MAX_RETRY_WAIT = 60.0  # a server asking for a longer pause is not waited for: the user hears it and decides


def retry_wait(exc: ChatbotError, attempt: int) -> float | None:
    """Seconds to wait before retrying after ``exc`` (attempt 0 is the first retry), or None: do not retry."""
    if isinstance(exc, TokenRateLimitError):
        return None  # the request alone is over the per-minute limit: waiting does not help
    if isinstance(exc, RateLimitError) and exc.retry_after is not None:
        return max(exc.retry_after, 0.1) if exc.retry_after <= MAX_RETRY_WAIT else None
    return float(2**attempt)  # 1 s, 2 s, 4 s...


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


ChatEvent = Notice | TextDelta | ReasoningDelta | TurnDone


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
        retries: int = 0,
    ) -> None:
        self.session = session
        self.retries = retries
        self.provider = provider
        self.store = store
        self.max_output_tokens = max_output_tokens
        self.summary_model = summary_model
        # the user message of a turn that failed, kept for /retry
        self._pending: str | None = None
        self._began = False  # the reply in progress has shown something (then a failure is not retried)
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
        request = self.conversation.build_request(text, summarizer=self._summarize)
        yield from self._request_notices(request)
        try:
            done = yield from self._stream_retrying(request)
        except ContextLengthError as exc:
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
            done = yield from self._stream(request)
        self._pending = None
        if done.turn.interrupted:
            yield Notice(
                "the server ended the reply without saying it was finished; it is kept, marked incomplete", True
            )
        if done.finish_reason == "length":
            yield Notice("the reply was cut off at the output limit (--max-output-tokens)", True)
        if not done.turn.answer_text.strip():
            hint = " (only reasoning came back; --reasoning shows it)" if done.reasoned else ""
            yield Notice(f"the model sent no answer text{hint}", True)
        yield done

    def retry_text(self) -> str:
        """The message /retry resends: the failed one, else the last turn's (which is taken back first)."""
        if self._pending is not None:
            return self._pending
        turn = self.undo()
        if turn is None:
            raise UsageError("nothing to retry yet")
        return turn.user_text

    def _stream_retrying(self, request: Request) -> Generator[ChatEvent, None, TurnDone]:
        """:meth:`_stream`, tried again up to ``retries`` times (announced) when it failed before the reply began."""
        attempt = 0
        while True:
            self._began = False
            try:
                return (yield from self._stream(request))
            except (RateLimitError, ServerError, ProviderTimeout, ConnectionFailed) as exc:
                wait = retry_wait(exc, attempt)
                if self._began or attempt >= self.retries or wait is None:
                    raise  # a reply that began is not resent behind the user's back (it was shown in part)
                attempt += 1
                yield Notice(
                    f"{exc.message} — retrying in {wait:g}s ({attempt} of {self.retries}; Ctrl-C cancels)", True
                )
                time.sleep(wait)

    def _stream(self, request: Request) -> Generator[ChatEvent, None, TurnDone]:
        started = time.monotonic()
        parts: list[str] = []
        reasoned = False
        end: StreamEnd | None = None
        stream = self.provider.stream(request.messages, model=self.model, max_tokens=self.max_output_tokens)
        try:
            for event in stream:
                if isinstance(event, StreamEnd):
                    end = event
                    continue
                if isinstance(event, TextDelta):
                    parts.append(event.text)
                else:
                    reasoned = True
                self._began = True
                yield event
        except (KeyboardInterrupt, GeneratorExit) as exc:
            stream.close()  # the provider's generator closes its HTTP response
            if "".join(parts).strip():
                # keep the partial answer, marked, so the next request stays well-formed (user/assistant pairs)
                mark = f"[interrupted: {exc.reason}]" if isinstance(exc, Interrupted) else INTERRUPTED_MARK
                answer = "".join(parts).rstrip() + f"\n\n{mark}"
                self._record(request, answer, None, started, interrupted=True)
                self._pending = None
            raise
        if end is None or (end.finish_reason is None and "".join(parts).strip()):
            # the stream just ended (no finish reason): a reply cut short must not pass for a whole one
            answer = "".join(parts).rstrip() + f"\n\n{INCOMPLETE_MARK}"
            return self._record(request, answer, end.usage if end else None, started, interrupted=True)
        done = self._record(request, "".join(parts), end.usage if end else None, started)
        return replace(done, finish_reason=end.finish_reason if end else None, reasoned=reasoned)

    def _record(
        self, request: Request, answer: str, usage: Usage | None, started: float, *, interrupted: bool = False
    ) -> TurnDone:
        latency = time.monotonic() - started
        counter = self.conversation.counter
        est_completion = counter.count(answer)
        turn_usage: dict[str, Any] = {
            "prompt_tokens": usage.prompt_tokens if usage else None,
            "completion_tokens": usage.completion_tokens if usage else None,
            "total_tokens": usage.total_tokens if usage else None,
            "estimated_prompt_tokens": request.tokens,
            "estimated_completion_tokens": est_completion,
            "source": "provider" if usage else "estimate",
        }
        messages = [dict(request.messages[-1]), {"role": "assistant", "content": answer}]
        turn = Turn(messages, usage=turn_usage, latency=round(latency, 3), interrupted=interrupted)
        self.conversation.add_turn(turn)
        self.session.totals.add_request(
            request.tokens,
            est_completion,
            usage.prompt_tokens if usage else None,
            usage.completion_tokens if usage else None,
        )
        if usage and not interrupted:
            self._calibrate(request, usage)
        try:
            self.save()
        except SaveFailed:
            self._pending = None  # the turn is recorded (and rescued): /retry must not send it twice
            raise
        return TurnDone(turn, request, usage, request.tokens, est_completion, latency)

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
        counter = self.conversation.counter
        self.session.calibration[self.model] = counter.calibrate(request.uncorrected, usage.prompt_tokens)

    def _apply_calibration(self) -> None:
        # each model has its own correction; one never seen before starts uncorrected
        self.conversation.counter.correction = self.session.calibration.get(self.model, 1.0)

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
        """Write the session (atomically) when a store is attached.

        When that fails (a read-only directory, a full disk), the session is written to a rescue file instead and
        :class:`SaveFailed` says where, so a turn already shown is never lost.
        """
        if self.store is None:
            return
        try:
            self.store.save(self.session)
        except (OSError, ChatbotError) as exc:
            reason = exc.message if isinstance(exc, ChatbotError) else f"{exc.strerror or exc}"
            path, problem = rescue(self.session)
            where = (
                f"it was kept in {path} (copy it into the sessions directory as {self.session.id}.json to resume)"
                if path
                else f"it could not be kept anywhere either ({problem})"
            )
            raise SaveFailed(f"cannot save session {self.session.id}: {reason}; {where}") from None


def stop_reply(events: Generator[ChatEvent, None, None], exc: BaseException) -> None:
    """Stop a reply in progress because of ``exc`` (Ctrl-C, a signal, a closed output).

    The partial answer is stored, marked with the reason, before this returns; errors of that (a failed save) are
    raised, ``exc`` itself is not.
    """
    try:
        events.throw(exc)
    except StopIteration:
        pass
    except BaseException as raised:
        if raised is not exc:
            raise
