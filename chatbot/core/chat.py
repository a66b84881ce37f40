"""One session's chat loop, terminal-free: build the request, stream the reply, record the turn, save; and the session
in use itself: every change a slash command makes (/undo, /retry, /system, /set ...) goes through a method of
:class:`Chat` and is saved at once (a save that fails rescues what the store does not hold: :mod:`chatbot.core.saving`).

:meth:`Chat.send` is a generator of events (notices, text and reasoning deltas, and a final :class:`TurnDone`)
that any front end can render. Provider errors are raised as :mod:`chatbot.errors` types after the user's
message has been kept aside so that ``/retry`` can resend it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from chatbot.attachments.attach import Content, Outbox, compose, with_text
from chatbot.core import saving
from chatbot.core.budget import learn_from_usage, message_budget, reply_room, tools_estimate
from chatbot.core.events import Asking, ChatEvent, Notice, Saving, TakenBack, TurnDone, Unsent, request_notices
from chatbot.core.retry import retrying
from chatbot.core.rounds import (
    INCOMPLETE_MARK,
    INTERRUPTED_MARK,
    TurnSoFar,
    fit_round,
    refit_round,
    retry_request,
    turn_request,
)
from chatbot.core.summaries import SummaryAhead, SummaryCall
from chatbot.core.tool_round import run_round, tool_line_notice, tool_notices
from chatbot.core.turn_settings import TurnSettings
from chatbot.engine.conversation import Conversation
from chatbot.engine.cost import full_memory_tokens
from chatbot.engine.memory import MemoryConfig, Request, fold_now
from chatbot.engine.options import option_problem
from chatbot.engine.reply_schema import check_reply
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.tool_results import rounds_cost
from chatbot.engine.turn import Message, Turn, validate_request
from chatbot.errors import ChatbotError, ContextLengthError, Interrupted, SaveFailed, StoreUnavailable, UsageError
from chatbot.providers.base import (
    CallOptions,
    ChatProvider,
    ProviderNote,
    Resent,
    StreamEnd,
    StreamEvent,
    ToolCall,
)
from chatbot.storage.base import SessionStore
from chatbot.storage.session import Session
from chatbot.tools.registry import Registry
from chatbot.tools.search import with_search


class Chat:
    """Drives one session: the stateless model gets the whole request every time; this decides what it holds.

    It owns the session in use: its turns (:attr:`conversation`), its edits (what a slash command changes) and its
    saving to :attr:`store`, with rescue when that fails.
    """

    def __init__(
        self,
        session: Session,
        provider: ChatProvider,
        store: SessionStore | None = None,
        run: TurnSettings | None = None,
        *,
        tools: Registry | None = None,
        confirm_tool: Callable[[ToolCall], bool] | None = None,
    ) -> None:
        #: the session in use, and the store it is saved to (None: nothing is saved: a library user's scratch chat)
        self.session = session
        self.store = store
        self._stored = saving.held(session)  # the turns the store holds (each turn's JSON as saved, by identity)
        self.run = run or TurnSettings()  # how every turn runs (frozen: the same for every chat the app opens)
        self.tools = tools
        # asked before each call (--confirm-tools); False refuses it and the model is told so
        self.confirm_tool = confirm_tool
        self.provider = provider
        #: files attached (/file, -f, piped stdin) to the next message
        self.outbox = Outbox()
        # whether the last save reached the store (a database can go away): "it is back" is told once
        self._store_away = False
        self._save_failed = False  # whether the last save failed (what it would have written is not in the store)
        # whether the user has heard that an @tool line calls nothing without a tool attached (told once)
        self._told_tool_lines = False
        # the memory settings under which the user heard that earlier turns are not sent (None: not told, or every
        # turn fitted since): told when turns start being left out, and again only when the settings change, not as
        # the window slides on every turn
        self._told_dropped: MemoryConfig | None = None
        # the model call that writes a summary, and the next one written while the user types (terminal mode only)
        self._summarize = SummaryCall(session, provider, self.run)
        self._ahead = SummaryAhead(self._summarize, enabled=self.run.background_summaries)
        self._apply_calibration()

    @property
    def tools(self) -> Registry | None:
        """The tools this chat offers: the run's, with the built-in search of this conversation beside them."""
        return self._tools

    @tools.setter
    def tools(self, tools: Registry | None) -> None:
        self._tools = with_search(tools, self.conversation)

    @property
    def conversation(self) -> Conversation:
        """The session's conversation."""
        return self.session.conversation

    @property
    def model(self) -> str:
        """The chat model in use."""
        return self.session.model or self.provider.model

    # --- turns ------------------------------------------------------------------------------------------------

    def next_request(self, text: Content = "") -> Request:
        """The request ``text`` would send next (in its budget), calling no model and changing nothing stored."""
        budget = message_budget(self.conversation, self._offered(), self.run.max_output_tokens)
        return self.conversation.preview_request({"role": "user", "content": text}, budget)

    def next_message(self, text: str = "") -> Content:
        """The content ``text`` would be sent as now: with the files waiting for the next message (``/file``)."""
        return compose(text, self.outbox.items())

    def next_body(self, text: str = "") -> dict[str, Any]:
        """The JSON body the next request sends for ``text`` (with the files waiting for it), built by the code that
        builds the body then sent. A summary due first stands as a placeholder (only the model can write it)."""
        request = self.next_request(self.next_message(text))
        first_call = self._tools_offered() if self.run.max_tool_rounds else []
        return self.provider.request_body(request.messages, self._call(first_call))

    def send(self, text: Content, *, replacing: TakenBack | None = None) -> Generator[ChatEvent, None, None]:
        """Send ``text`` (with any attached files) as the next user message and stream the reply.

        The turn is stored and saved when the reply ends, or when it is interrupted (Ctrl-C closes this generator or
        raises inside it), the partial answer marked. ``replacing``, the turn /retry or /edit took back, is put back
        unless this one is stored. An error that stops it before anything is stored carries the message to resend
        (:func:`~chatbot.core.events.unsent`)."""
        message = self._message(text)
        conv, limits = self.conversation, self._limits()
        before = len(turns := conv.turns)
        try:
            yield from self._notices_before(message)
            # plan, fold (the one step that calls out: the summary), assemble: core/rounds.turn_request runs the three
            budget = message_budget(conv, *limits)
            request = yield from turn_request(conv, message, budget, self._ahead.summarizer, *limits)
            yield from request_notices(request, dropped=self._told_dropped != conv.memory)
            self._told_dropped = conv.memory if request.dropped else None
            try:
                done, stored = yield from self._turn(request, message)
            except ContextLengthError as exc:
                if len(turns) > before:
                    raise  # a later round failed after tools ran: that turn is stored, so it is not sent again
                request = yield from retry_request(conv, message, request, exc, self._summarize, *limits)
                done, stored = yield from self._turn(request, message)
        except BaseException as exc:
            if len(turns) == before:  # nothing of this turn was stored
                if replacing is not None:
                    self.put_back(replacing)  # /retry takes it back again rather than add a copy
                elif isinstance(exc, (ChatbotError, KeyboardInterrupt)):
                    exc.unsent = Unsent(message["content"], turns, before)  # type: ignore[union-attr]
            raise
        yield from _incomplete_notice(done)  # told first: the turn is stored, but not whole
        yield from stored  # (the turn is stored from here on)
        self._ahead.start(conv)
        yield from self._notices_after(done, self._reply_limit())
        yield done

    def _message(self, text: Content) -> Message:
        """The next user message: ``text`` with the files waiting for it. The first message that carries files names
        an untitled session by what was typed: its content starts with the files, which a listing would show."""
        if self.outbox.items() and not self.conversation.turns and not self.session.title:
            self.session.title = self.outbox.title(text)
        return {"role": "user", "content": self.outbox.take(text)}

    def _notices_before(self, message: Message) -> Generator[ChatEvent, None, None]:
        """What the user hears before ``message``'s request is made: tools that do not fit, an @tool line that calls
        nothing, a summary still being written."""
        yield from tool_notices(self.tools, self.conversation.counter, self.conversation.memory.max_input_tokens)
        if not self._told_tool_lines and (attach := tool_line_notice(self.tools, message["content"])):
            self._told_tool_lines = True  # once a session: the user has heard how to attach a tool
            yield attach
        if self._ahead.waiting(self.conversation):
            yield Notice("waiting for the summary being written in the background (Ctrl-C: drop old turns instead)")

    @staticmethod
    def _notices_after(done: TurnDone, limit: int | None) -> list[Notice]:
        """What the user hears of a stored turn last: cut at the output limit, not the JSON asked for, no answer."""
        told = []
        if done.finish_reason == "length":
            told.append(Notice(cut_off_notice(limit), True))
        if done.json is not None and done.json.problem:  # every front end says it; the turn stays as written
            told.append(Notice(done.json.problem))
        if not done.turn.answer_text.strip():
            hint = " (only reasoning came back; --reasoning shows it)" if done.reasoned else ""
            told.append(Notice(f"the model sent no answer text{hint}", True))
        return told

    def tool_definition_tokens(self) -> int:
        """Tokens the tool definitions add to every request (they ride beside the messages)."""
        budget = self.conversation.memory.max_input_tokens
        return self.tools.definition_tokens(self.conversation.counter, budget) if self.tools else 0

    def _limits(self) -> tuple[int, int | None]:
        # what a request's budget is taken from beside the window: the tool definitions offered, the reply's room
        return self._offered(), self.run.max_output_tokens

    def _offered(self) -> int:
        # the tool definitions a turn's first call offers (none with --max-tool-rounds 0): they take budget
        return self.tool_definition_tokens() if self.run.max_tool_rounds else 0

    def _tools_offered(self) -> list[Message]:
        """The tool definitions a turn offers (those that fit the budget: the others are left out)."""
        budget = self.conversation.memory.max_input_tokens
        return self.tools.openai_tools(self.conversation.counter, budget) if self.tools else []

    def _call(self, tools: list[Message]) -> CallOptions:
        """What a model call asks for beside the messages (only what is set goes on the wire); the provider builds
        the request body from it."""
        return CallOptions(self.model, self._reply_limit(), tools, self.session.options, self.run.stream)

    def _reply_limit(self) -> int | None:
        """The reply limit a call asks for: ``--max-output-tokens``, held to the room the budget keeps for the reply
        once the model's window is known (a limit over it asks a server for more than its window: vLLM refuses)."""
        limit, context = self.run.max_output_tokens, self.conversation.counter.calibration.context
        return reply_room(context, limit) if limit and context else limit

    def _events(self, messages: list[Message], tools: list[Message]) -> Generator[StreamEvent, None, None]:
        """The provider's events for one model call: streamed, or (--no-stream) the whole reply at once."""
        call = self._call(tools)
        if self.run.show_request is not None:  # --show-requests: the body, built as the provider builds it to send
            self.run.show_request("chat", self.provider.request_body(messages, call))
        return self.provider.events(messages, call)

    def _turn(self, request: Request, message: Message) -> Generator[ChatEvent, None, tuple[TurnDone, list[Notice]]]:
        """One turn of the user's ``message``: ask the model; while it calls tools, run them and ask again; store the
        whole exchange. Returns it, with what the store said (told after the reply)."""
        progress = TurnSoFar(time.monotonic(), self.conversation.turns)
        offered = self._tools_offered()
        rounds = 0
        try:
            while True:
                final = not offered or rounds >= self.run.max_tool_rounds
                request, calls = yield from self._round(request, message, progress, [] if final else offered)
                if not calls or final:
                    break
                assert self.tools is not None  # (calls come back only when tools were offered)
                yield from run_round(self.tools, self.confirm_tool, calls, progress)
                rounds += 1
                yield from _last_round_notice(rounds, self.run.max_tool_rounds)
        except (KeyboardInterrupt, GeneratorExit, ChatbotError) as exc:
            if mark := _unfinished_mark(exc, progress):
                self._record(request, message, progress, interrupted=True, mark=mark)
            raise
        yield Saving()
        if progress.finish_reason is None and progress.answer().strip():
            # the stream just ended (no finish reason, no [DONE]): a reply cut short must not pass for a whole one
            return self._record(request, message, progress, interrupted=True, mark=INCOMPLETE_MARK)
        return self._record(request, message, progress)

    def _round(
        self, request: Request, message: Message, progress: TurnSoFar, tools: list[Message]
    ) -> Generator[ChatEvent, None, tuple[Request, list[ToolCall]]]:
        """One model call of ``message``'s turn, fit to ``request.budget`` with this turn's rounds so far; a later round
        the server refuses for its length (the window was not known when the results came) is fit again, once."""
        try:
            request, sent = yield from fit_round(
                self.conversation, request, message, progress.messages, self._summarize
            )
            return request, (yield from self._reply(request, sent, progress, tools))
        except ContextLengthError as exc:
            if not progress.messages:  # the first round: the caller fits the whole turn again
                raise
            out = self.run.max_output_tokens
            request = yield from refit_round(self.conversation, request, progress.messages, exc, self._offered(), out)
        request, sent = yield from fit_round(self.conversation, request, message, progress.messages, self._summarize)
        return request, (yield from self._reply(request, sent, progress, tools))

    def _reply(
        self, request: Request, rounds: list[Message], progress: TurnSoFar, tools: list[Message]
    ) -> Generator[ChatEvent, None, list[ToolCall]]:
        """Stream one model reply to ``request`` and this turn's ``rounds`` (as sent) into ``progress``; return the
        tool calls it made (one request-log line each)."""
        calls: list[ToolCall] = []
        messages = request.messages + rounds
        if rounds:
            validate_request(messages, in_turn=True, carried=request.system_in_user)
        estimate = self._estimate(request, rounds, tools)
        yield Asking()
        started, first = time.monotonic(), None
        stream = retrying(lambda: self._events(messages, tools), self.run.retries)
        try:
            for event in stream:
                if isinstance(event, (Notice, ProviderNote, Resent)):  # asides: told, or shown as sent
                    yield from self._aside(event)
                    continue
                first = _first_piece(first, event)
                if isinstance(event, StreamEnd):
                    progress.end_round(event, estimate, request)
                    self._log_round(event, request, progress, bool(calls), (started, first), estimate)
                elif isinstance(event, ToolCall):
                    calls.append(event)
                else:
                    progress.take(event)
                    yield event
        except (KeyboardInterrupt, GeneratorExit):
            stream.close()  # the provider's generator closes its HTTP response
            self._log("chat", self.model, started, (estimate, None), first=first, error="interrupted")
            raise
        except ChatbotError as exc:
            self._log("chat", self.model, started, (estimate, None), first=first, error=type(exc).__name__)
            raise
        return calls

    def _estimate(self, request: Request, rounds: list[Message], tools: list[Message]) -> int:
        """The tokens a model call sends: the request, this turn's rounds so far, the tool definitions offered (the
        server counts them too)."""
        offered = tools_estimate(self.conversation, self._offered()) if tools else 0
        return request.tokens + rounds_cost(rounds, self.conversation.counter) + offered

    def _log_round(
        self, end: StreamEnd, request: Request, progress: TurnSoFar, calls: bool, times: tuple[float, Any], sent: int
    ) -> None:
        """The request-log line of a model call that ended: a tool call or the chat reply, its estimate and usage,
        when it started and (streamed) when its first piece came."""
        started, first = times
        completion = self.conversation.counter.count("".join(progress.parts))
        self._log("tool_call" if calls else "chat", self.model, started, (sent, completion), usage=end.usage,
                  first=first if self.run.stream else None, finish_reason=end.finish_reason,
                  summarized=request.summarized, dropped=request.dropped)  # fmt: skip

    def _aside(self, event: Notice | ProviderNote | Resent) -> Iterator[Notice]:
        """What the user hears of an aside in the provider's events: a retry, or what the provider changed; a request
        sent again, changed, is shown as it went (--show-requests)."""
        if not isinstance(event, Resent):
            yield event if isinstance(event, Notice) else Notice(event.text, True)
        elif self.run.show_request is not None:
            self.run.show_request("chat", event.body, event.why)

    def _log(self, kind: str, model: str, started: float, estimate: tuple[int, int | None], **more: Any) -> None:
        """One line in the request log (--log-requests), when there is one."""
        if self.run.log is not None:
            self.run.log.call(kind, session=self.session.id, provider=self.provider.name, model=model,
                              strategy=self.conversation.memory.strategy, started=started, estimate=estimate,
                              max_tokens=self._reply_limit(), **more)  # fmt: skip

    def _record(
        self,
        request: Request,
        message: Message,
        progress: TurnSoFar,
        *,
        interrupted: bool = False,
        mark: str = INTERRUPTED_MARK,
    ) -> tuple[TurnDone, list[Notice]]:
        """Store the user's ``message`` and what ``progress`` produced as one turn, add up its cost, learn from it, and
        save. Returns the turn done and what the store said (a notice when it is away, or back)."""
        counter = self.conversation.counter
        sent = progress.record(request, tools_estimate(self.conversation, self._offered()))
        sent["full"] = full_memory_tokens(self.conversation, message)  # by this model's counter, kept for /cost
        mark = mark if interrupted else ""
        turn = progress.to_turn(message, request.tokens, counter, mark=mark, sent=sent, model=self.model)
        self.conversation.add_turn(turn)
        cost = turn.usage or {}
        estimated_prompt, est_completion = cost["estimated_prompt_tokens"], cost["estimated_completion_tokens"]
        usage = progress.usage
        self.session.totals.add_request(estimated_prompt, est_completion, usage.prompt_tokens if usage else None,
                                        usage.completion_tokens if usage else None,
                                        usage.cached_tokens if usage else None)  # fmt: skip
        # the first call's request was counted whole: learn from it (before the save, which keeps what was learned)
        counted = None if interrupted else progress.first_call
        learned = learn_from_usage(self.conversation, *counted, self._offered()) if counted else ""
        told = [Notice(learned, True)] if learned else []
        try:
            self.save()
        except StoreUnavailable as exc:  # the reply was seen: keep the turn, say so once the reply is done
            told.append(Notice(exc.message, True))
            self._store_away = True
        else:
            if self._store_away:
                told.append(Notice("the session store is back: every turn of this session is saved"))
            self._store_away = False
        done = TurnDone(turn, request, usage, estimated_prompt, est_completion, turn.latency or 0.0)
        checked = check_reply(self.session.options, turn.answer_text)  # JSON asked for (--schema): checked here
        return replace(done, finish_reason=progress.finish_reason, reasoned=progress.reasoned, json=checked), told

    # --- summaries --------------------------------------------------------------------------------------------

    def summarize_now(self, *, redo: bool = False) -> tuple[int, list[str]]:
        """``/summary now``: fold the uncovered turns but the last ``keep_turns`` at once, backoff or not, and save;
        ``redo`` (``/summary redo``): write the summary again from the stored turns alone.

        Returns (turns folded, warnings).
        """
        conv = self.conversation
        if not conv.memory.summarizes:
            raise UsageError(f"memory is '{conv.memory.strategy}': use --memory summary for a summary")
        summarizer = self._ahead.summarizer
        done, warnings = conv.redo_summary(summarizer) if redo else fold_now(conv, summarizer)
        if done:
            self.save()
        return done, warnings

    # --- accounting -------------------------------------------------------------------------------------------

    def _apply_calibration(self) -> None:
        # each model has its own calibration, stored in the session; one never seen before starts uncorrected
        self.conversation.counter.calibration = self.session.calibration_for(self.model)

    # --- the session's edits (each saved at once) --------------------------------------------------------------

    def reset(self) -> int:
        """Forget every turn and the summary (the system message stays) and save; returns how many turns went."""
        count = len(self.conversation.turns)
        self.conversation.reset()
        self.save()
        return count

    def clear_summary(self) -> tuple[str, int]:
        """Forget the summary and save; returns what it was (its text, and how many turns it covered)."""
        conv = self.conversation
        old = conv.summary, conv.summary_covers
        conv.clear_summary()
        self.save()
        return old

    def undo(self) -> Turn | None:
        """Drop the last stored turn and save; returns it (None when there is none)."""
        turn = self.conversation.undo()
        if turn is not None:
            self.save()
        return turn

    def take_back(self) -> TakenBack | None:
        """Take the last turn back to replace it (/retry, /edit); None when there is none.

        Unlike :meth:`undo` nothing is saved: the stored session keeps the turn until its replacement is stored; the
        send it is handed to puts it back if no replacement is (the server down, Ctrl-C before any answer).
        """
        conv = self.conversation
        summary, covers = conv.summary, conv.summary_covers
        turn = conv.undo()
        return TakenBack(turn, summary, covers) if turn is not None else None

    def retake(self) -> TakenBack:
        """/retry of the last turn: take it back (:meth:`take_back`); a usage error when there is none."""
        taken = self.take_back()
        if taken is None:
            raise UsageError("nothing to retry yet")
        return taken

    def put_back(self, taken: TakenBack) -> None:
        """Put a turn taken back in place again (its replacement was not stored), with the summary as it was."""
        self.conversation.add_turn(taken.turn)
        self.conversation.set_summary(taken.summary, taken.covers)

    def take_back_for_edit(self, text: str) -> tuple[Content, TakenBack | None]:
        """Take the last turn back (/edit): ``text`` as the message that replaces it, and the turn taken back. Images
        the old message carried stay with the new one (its text, fenced files included, is what was edited)."""
        taken = self.take_back()
        return with_text(taken.turn.messages[0].get("content") if taken else None, text), taken

    def set_option(self, key: str, value: Any) -> None:
        """Send ``key: value`` with every later chat request of this session (None removes it) and save.

        A value the session reader would refuse (NaN, a NUL character, ...) is refused here, before it is stored.
        """
        problem = option_problem(key, value) if value is not None else ""
        if problem:
            raise UsageError(problem)
        self.session.set_option(key, value)
        self.save()

    @property
    def options(self) -> dict[str, Any]:
        """The model options this session sends (a copy)."""
        return dict(self.session.options)

    def set_system(self, text: str) -> None:
        """Replace the system message (sent first in every later request) and save."""
        self.conversation.system = text
        self.save()

    def rename(self, title: str) -> None:
        """Give the session a title and save."""
        self.session.title = title
        self.save()

    def set_model(self, model: str, counter: TokenCounter | None = None) -> None:
        """Switch the chat model for the next turns; ``counter`` counts for it (its own calibration follows)."""
        if counter is not None:
            self.conversation.counter = counter
        self.session.model = model
        # a summary being written ahead went to the model before: its server's count would teach this one's
        # calibration (and the summary is the new model's to write)
        self._ahead.discard()
        self._apply_calibration()
        self.save()

    # --- saving -----------------------------------------------------------------------------------------------

    def save(self) -> None:
        """Write the session (atomically) when a store is attached; a failure rescues what the store does not hold
        (:func:`chatbot.core.saving.save`)."""
        if self.store is None:
            return
        try:
            self._stored = saving.save(self.session, self.store, self._stored)
        except SaveFailed:
            self._save_failed = True  # an edit (/rename, /undo) the store refused is unsaved too, not only turns
            raise
        self._save_failed = False

    @property
    def store_away(self) -> bool:
        """Whether the last save found the store away (a database): it keeps the turns to save, or rescue, as it
        closes."""
        return self._store_away

    def unsaved(self) -> bool:
        """Whether the store lacks this session as it is now because a save failed since (turns recorded, or an edit
        such as /rename; not counting a store that is away: :attr:`store_away`). A front end asks before it says
        "saved"."""
        if self.store is None or self._store_away:
            return False
        return self._save_failed or self.unsaved_turns()

    def unsaved_turns(self) -> bool:
        """Whether of what :meth:`unsaved` finds, turns are missing (not only an edit)."""
        return not saving.holds_all(self.session, self._stored)

    def rescue(self, reason: str) -> str:
        """Write what the store does not hold of this session to a rescue file and return the line that tells the
        user why (``reason``) and where, or why nowhere took it. Never raises: it is what a failing caller does last."""
        return saving.rescued(self.session, self._stored, reason)[1]

    def keep(self) -> tuple[Path | None, str]:
        """Write what the store does not hold of this session to a rescue file: (its path, "") or (None, why nowhere
        took it). Never raises."""
        return saving.keep(self.session, self._stored)


def cut_off_notice(limit: int | None) -> str:
    """What a user hears of a reply the server ended for its length: at the limit they set, or at the server's own
    (a limit of its own, or the context window full: a local server with no reply limit writes until it is)."""
    if limit is not None:
        return f"the reply was cut off at the output limit (--max-output-tokens {limit})"
    return "the reply was cut off by the server (its own reply limit, or the model's context window was full)"


def _unfinished_mark(exc: BaseException, progress: TurnSoFar) -> str:
    """How a turn stopped by ``exc`` is marked when it is kept (empty: nothing worth keeping). Interrupted, what it
    has is kept so the next request stays well-formed (every call has its result); failed after tools ran, their
    results are kept rather than lost."""
    if isinstance(exc, ChatbotError):
        return f"[the turn stopped: {exc.message}]" if progress.messages else ""
    if not progress.started():
        return ""
    return f"[interrupted: {exc.reason}]" if isinstance(exc, Interrupted) else INTERRUPTED_MARK


def _last_round_notice(rounds: int, most: int) -> list[Notice]:
    """The notice when tool rounds reach ``most`` (--max-tool-rounds): the model must answer next."""
    if rounds < most:
        return []
    return [Notice(f"the model used tools in {rounds} rounds (--max-tool-rounds); it is asked to answer now, "
                   "without tools", True)]  # fmt: skip


def _first_piece(first: float | None, event: object) -> float | None:
    """When the reply's first piece came (its latency, when streamed): kept once set; an end alone is no piece (a
    reply with nothing in it has no first piece)."""
    if first is not None or isinstance(event, StreamEnd):
        return first
    return time.monotonic()


def _incomplete_notice(done: TurnDone) -> list[Notice]:
    """The notice of a turn stored unfinished: it comes back so only when the server cut it short (Ctrl-C raises)."""
    if not done.turn.interrupted:
        return []
    return [Notice("the server ended the reply without saying it was finished; it is kept, marked incomplete", True)]
