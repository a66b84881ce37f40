"""Summaries: the model call that writes one (:class:`SummaryCall`), and summaries written ahead: as soon as a reply
ends, the summary the next request will need is written on a background thread, while the user reads and types, so
no turn waits for it.

The engine still decides everything: :func:`chatbot.engine.memory.next_summary` names the exact inputs of the next
request's fold, and the fold itself (the checks that a summary is non-empty and shorter than what it replaces, the
fallback, the backoff) stays in the engine, as does what a summary cut off at its cap keeps
(:func:`~chatbot.engine.folds.whole_part`). This module only runs the summarizer early and hands its result to that
fold when the fold asks for exactly the same inputs. So a summary written ahead is kept only when a synchronous one
with the same text would have been, and one that failed, or that the user stopped waiting for, leaves what a failed
synchronous summary leaves.

Script mode and ``-p`` do not write ahead (``enabled=False``): their requests stay in their exact order.
"""

from __future__ import annotations

import copy
import threading
import time
from typing import Any

from chatbot.core.budget import learn_window, summary_max_tokens
from chatbot.core.retry import RETRYABLE, retry_wait
from chatbot.core.rule import FLAGS
from chatbot.core.turn_settings import TurnSettings
from chatbot.engine.conversation import Conversation
from chatbot.engine.folds import Written, summary_messages, whole_part
from chatbot.engine.memory import Summarizer, next_summary
from chatbot.engine.turn import Message
from chatbot.errors import ChatbotError, ContextLengthError, Interrupted, ModelNotFoundError, SummaryError
from chatbot.providers.base import CallOptions, ChatProvider, Completion
from chatbot.storage.session import Session

Inputs = tuple[str, list[list[Message]], int]  # what a summarizer is called with: (previous, turns, first)

#: how often a wait checks whether the summary is done (short, so Ctrl-C is noticed at once)
POLL_SECONDS = 0.05


class SummaryCall:
    """The model call that writes a summary: a :data:`~chatbot.engine.memory.Summarizer` the engine's fold is given,
    so the engine calls this (below the chat), never the chat itself.

    In the terminal it runs on :class:`SummaryAhead`'s thread: it only calls the provider, logs and counts the
    summary's tokens; what is stored changes in the engine's fold, on the main thread.
    """

    def __init__(self, session: Session, provider: ChatProvider, run: TurnSettings) -> None:
        self.session = session
        self.provider = provider
        self.run = run

    def __call__(self, previous: str, turns: list[list[Message]], first: int) -> Written:
        """The summary, with the retries it took told (:class:`~chatbot.engine.folds.Written`); a failure raises,
        carrying those retries as its ``notices``."""
        conv = self.session.conversation
        messages = summary_messages(conv, previous, turns, first)
        model = self.run.summary_model or self.session.model or self.provider.model
        # counted only for the request log: on SummaryAhead's thread a count can race the main thread's use of the
        # same tokenizer (always counting here made tests/terminal/test_pty_summaries.py fail one run in three)
        estimate = conv.counter.count_request(messages) if self.run.log else 0
        started = time.monotonic()
        cap = summary_max_tokens(messages, self.session.context_for(model), conv.counter)
        told: list[str] = []
        try:
            try:
                completion = self._retrying(messages, model, cap, told)
            except ContextLengthError as exc:  # it names the model's window: keep it, and ask within it once more
                if not learn_window(self.session.calibration_for(model), exc):
                    raise  # no news: the fold asks again with a smaller request
                self._log(model, started, estimate, summarized=len(turns), max_tokens=cap, error=type(exc).__name__)
                started, cap = time.monotonic(), summary_max_tokens(messages, exc.limit, conv.counter)
                completion = self._retrying(messages, model, cap, told)
        except ChatbotError as exc:
            self._log(model, started, estimate, summarized=len(turns), max_tokens=cap, error=type(exc).__name__)
            exc.notices = tuple(told)  # type: ignore[attr-defined]  # the fold tells them with its failure
            raise
        finish = completion.finish_reason
        self._log(
            model,
            started,
            estimate,
            usage=completion.usage,
            summarized=len(turns),
            max_tokens=cap,
            finish_reason=finish,
        )
        self.session.totals.add_summary(completion.usage.total_tokens if completion.usage else None)
        # the server's count teaches the chat model's calibration: only when the summary went to that model
        same = model == (self.session.model or self.provider.model)
        prompt = completion.usage.prompt_tokens if completion.usage and same else None
        if finish == "length":
            return _cut_off(completion.text, cap, told, (prompt, tuple(messages)))
        return Written(completion.text, tuple(told), prompt, tuple(messages))

    def _retrying(self, messages: list[Message], model: str, cap: int, told: list[str]) -> Completion:
        """The summary, asked again after a failure that may pass (429, 5xx, a timeout): ``run.retries`` times at
        most, each retry announced (added to ``told``) and waited for as a chat request's is (:func:`retry_wait`)."""
        attempt = 0
        while True:
            try:
                return self._complete(messages, model, cap)
            except RETRYABLE as exc:
                wait = retry_wait(exc, attempt)
                if attempt >= self.run.retries or wait is None:
                    raise
                attempt += 1
                retry = f"retrying in {wait:g}s ({attempt} of {self.run.retries})"
                told.append(f"the summary request failed: {exc.message} — {retry}")
                time.sleep(wait)

    def _complete(self, messages: list[Message], model: str, cap: int) -> Completion:
        """One summary request (shown first with --show-requests, as its body goes out)."""
        # --summary-option: the summary's own (the chat's -o are never sent); only what is set goes, as for a chat.
        # Streamed as the chat is (not with --no-stream): a slow model writes a summary for minutes, and --timeout
        # bounds each pause of a stream, where it would bound the whole of an answer sent in one piece
        call = CallOptions(model, cap, options=self.run.summary_options, stream=self.run.stream)
        if self.run.show_request is not None:
            self.run.show_request("summary", self.provider.request_body(messages, call))
        try:
            return self.provider.whole(messages, call)
        except ModelNotFoundError as exc:
            if self.run.summary_model:  # --summary-model chose the model: the hint names that flag, not --model
                raise exc.for_flag(FLAGS["summary_model"]) from exc
            raise

    def _log(self, model: str, started: float, estimate: int, **more: Any) -> None:
        if self.run.log is not None:
            self.run.log.call(
                "summary",
                session=self.session.id,
                provider=self.provider.name,
                model=model,
                strategy=self.session.conversation.memory.strategy,
                started=started,
                estimate=(estimate, None),
                **more,
            )


def _cut_off(text: str, cap: int, told: list[str], counted: tuple[int | None, tuple[Message, ...]]) -> Written:
    """A summary the server cut at its ``cap``: kept up to its last complete sentence or line, and said so (its
    unfinished end would otherwise pass for the summary's last point); refused when that leaves no real text."""
    kept, kind = whole_part(text)
    if not kept:
        error = SummaryError(f"the summary was cut off at {cap} tokens with no full sentence to keep")
        error.notices = tuple(told)  # type: ignore[attr-defined]
        raise error
    return Written(kept, (*told, f"the summary was cut off at {cap} tokens; kept up to its last full {kind}"), *counted)


class _Job:
    """One summary being written on a daemon thread."""

    def __init__(self, inputs: Inputs, write: Summarizer) -> None:
        self.inputs = inputs
        self.done = threading.Event()
        self.result: str | Written = ""
        self.error: Exception | None = None
        self._thread = threading.Thread(target=self._run, args=(write,), name="summary-ahead", daemon=True)
        self._thread.start()

    def _run(self, write: Summarizer) -> None:
        try:
            self.result = write(*self.inputs)
        except Exception as exc:  # handed to the fold that asks for it, which treats it as a failed summary
            self.error = exc
        finally:
            self.done.set()


class SummaryAhead:
    """Writes the next fold's summary in the background and hands it to that fold.

    ``write`` is the real (synchronous) summarizer; it runs on the background thread, so it must be safe to call
    from another thread (a provider call and a usage count). :meth:`summarizer` is what a turn's fold gets.
    """

    def __init__(self, write: Summarizer, *, enabled: bool) -> None:
        self._write = write
        self.enabled = enabled
        self._job: _Job | None = None

    def start(self, conv: Conversation) -> None:
        """Start writing the summary ``conv``'s next request will fold, if one is due (and not being written)."""
        if not self.enabled:
            return
        inputs = next_summary(conv)
        if inputs is None or (self._job is not None and self._job.inputs == inputs):
            return
        # a copy: the job must answer for the inputs as they were, whatever happens to the turns meanwhile
        self._job = _Job(copy.deepcopy(inputs), self._write)

    def waiting(self, conv: Conversation) -> bool:
        """Whether ``conv``'s next request will wait for a summary still being written (tell the user first)."""
        job = self._job
        return job is not None and not job.done.is_set() and job.inputs == next_summary(conv)

    def discard(self) -> None:
        """Forget the summary being written (its thread finishes on its own; its result is never used)."""
        self._job = None

    def summarizer(self, previous: str, turns: list[list[Message]], first: int) -> str | Written:
        """A :data:`~chatbot.engine.memory.Summarizer`: the summary written ahead when its inputs match exactly
        (waiting for it if needed), else one written now.

        Ctrl-C while waiting stops the wait, not the session: it is reported as a failed summary (the fold falls
        back to sending the unsummarized turns that fit), and the job is forgotten. SIGTERM or SIGHUP
        (:class:`~chatbot.errors.Interrupted`) is not a Ctrl-C: it goes on up, and the process ends.
        """
        job, self._job = self._job, None  # used once, whatever comes of it
        if job is None or job.inputs != (previous, turns, first):
            return self._write(previous, turns, first)
        try:
            while not job.done.wait(POLL_SECONDS):
                pass
        except Interrupted:
            raise  # SIGTERM, SIGHUP: the process ends (the turn stops as at any other moment), not just the wait
        except KeyboardInterrupt:
            raise SummaryError("you stopped waiting for the summary") from None
        if job.error is not None:
            raise job.error
        return job.result
