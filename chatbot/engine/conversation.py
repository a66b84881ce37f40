"""The stored conversation: the system message, every turn, the rolling summary and how many turns it covers.

The model is stateless, so every request re-sends the conversation. :class:`Conversation` keeps everything and
builds each request from it by the memory rule (:mod:`chatbot.engine.memory`). Compression changes only what is
sent, never what is stored. This module knows nothing of terminals, files or SDKs.
"""

from __future__ import annotations

from collections.abc import Sequence

from chatbot.engine import memory, recall_meaning, request_record
from chatbot.engine.backoff import SummaryBackoff
from chatbot.engine.folds import Folded, RollingSummary, Summarizer
from chatbot.engine.memory import MemoryConfig, Request
from chatbot.engine.recall import RecallIndex
from chatbot.engine.summary_prompt import summary_section
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import Message, Turn


class Conversation:
    """The stored conversation and the request builder.

    ``turns`` holds every turn ever made (read it; change it through the methods); ``summary`` covers
    ``turns[:summary_covers]``.
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
        #: every summary a request sent, oldest first: a stored turn names the one it sent by its number
        #: (:mod:`chatbot.engine.request_record`), so replacing the summary never loses what a past request held
        self.summaries: list[str] = []
        self._system_counts: dict[tuple[object, str], int] = {}
        #: when a failed summary is tried again (in memory only; see :class:`~chatbot.engine.backoff.SummaryBackoff`)
        self.backoff = SummaryBackoff()
        #: the turns' BM25 index for recall (built on first use from the stored turns, then grown turn by turn)
        self.recall_index = RecallIndex()

    # --- changing what is stored ------------------------------------------------------------------------------

    def add_turn(self, turn: Turn) -> None:
        """Store a finished turn (with its vector when recall goes by meaning: made now, after the reply was shown
        and before the next message, so the next answer does not wait for it, and saved with the turn)."""
        self.turns.append(turn)
        if self.memory.recall > 0 and self.memory.recall_by != "words" and recall_meaning.available():
            recall_meaning.embed_turn(turn)

    def undo(self) -> Turn | None:
        """Drop the last turn and return it (None when there is none)."""
        if not self.turns:
            return None
        turn = self.turns.pop()
        self.backoff.forget_after(len(self.turns))
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
        self.summaries = []
        self.backoff.succeeded()

    def clear_summary(self) -> None:
        """Forget the summary: the turns it covered are unsummarized again (sent as the budget allows, or folded
        afresh when the memory rule next folds); a failed summary's backoff starts over."""
        self.set_summary("", 0)
        self.backoff.succeeded()

    def redo_summary(self, summarizer: Summarizer) -> tuple[int, list[str]]:
        """Write the summary again from the stored turns alone (the old one is not shown to the summarizer): it folds
        every turn but the last ``keep_turns``. Kept only when that fold succeeds, else the old summary stays.

        Returns (turns folded, why none were).
        """
        return memory.fold_kept(self, summarizer, RollingSummary())

    def take_fold(self, folded: Folded) -> None:
        """Keep what a fold came to (:func:`chatbot.engine.folds.fold`): its summary when it kept one; a summarizer
        that was called moves the backoff (a failure starts or continues it, a success ends it); the server's counts
        of its summary requests teach the counter the count of requests without tool definitions."""
        for local, prompt in folded.counted:
            self.counter.calibrate(local, prompt, chat=False)
        if folded.kept:
            self.set_summary(folded.summary.text, folded.summary.covers)
        if folded.tried:
            if folded.problem:
                self.backoff.failed(len(self.turns))
            else:
                self.backoff.succeeded()

    def keep_sent(self, request: Request) -> None:
        """A request is sent: the summary it holds becomes a version stored turns can name
        (:func:`~chatbot.engine.request_record.summary_version`)."""
        if request.summary_included:
            request_record.summary_version(self)

    def set_summary(self, text: str, covers: int) -> None:
        """Replace the rolling summary with ``text``, which covers turns 1 to ``covers``."""
        self.summary = text
        self.summary_covers = max(0, min(covers, len(self.turns)))

    # --- building requests ------------------------------------------------------------------------------------

    @property
    def rolling(self) -> RollingSummary:
        """The stored summary as a value (what a request's plan starts from)."""
        return RollingSummary(self.summary, self.summary_covers)

    def system_message(self, with_summary: bool) -> Message:
        """The single system message; with the rolling summary appended under a clear heading, quoted line by line
        (:func:`~chatbot.engine.summary_prompt.summary_section`).

        The summary goes inside the one system message rather than as a separate message: a second system
        message, or a made-up user/assistant pair, breaks chat templates that require exactly one leading system
        message and strict user/assistant alternation (Gemma's and Llama's, for instance), and an invented
        assistant message would put words in the model's mouth.
        """
        return self.system_with(self.rolling if with_summary else None)

    def system_with(self, summary: RollingSummary | None) -> Message:
        """The system message with ``summary`` (None, or an empty one: the system message alone)."""
        if summary is None or not summary.text:
            return {"role": "system", "content": self.system}
        return {"role": "system", "content": f"{self.system}\n\n{summary_section(summary.text, summary.covers)}"}

    def system_tokens(self, with_summary: bool) -> int:
        """Raw token count of the system message (cached: a request counts it several times)."""
        return self.system_tokens_with(self.rolling if with_summary else None)

    def system_tokens_with(self, summary: RollingSummary | None) -> int:
        """Raw token count of the system message with ``summary`` (cached)."""
        return self.count_system(self.system_with(summary))

    def count_system(self, message: Message) -> int:
        """Raw token count of a system message (the last few counted are cached: a request counts it often, with the
        summary and without)."""
        key = (self.counter.key, message["content"])
        if key not in self._system_counts:
            if len(self._system_counts) >= 4:
                self._system_counts.clear()
            self._system_counts[key] = self.counter.count_message(message)
        return self._system_counts[key]

    def build_request(
        self, user: str | Message, *, summarizer: Summarizer | None = None, budget: int | None = None
    ) -> Request:
        """Build the request for a new user message by the memory rule (:func:`chatbot.engine.memory.build_request`:
        plan, fold, assemble).

        May fold turns into the summary through ``summarizer``; raises BudgetError when even the system message and
        the new message do not fit.
        """
        return memory.build_request(self, user, summarizer, budget)

    def preview_request(self, user: str | Message = "", budget: int | None = None) -> Request:
        """The request ``user`` would send next (under ``budget``, default ``max_input_tokens``), without calling a
        model or changing anything stored (:func:`chatbot.engine.memory.preview_request`).

        When a summary is due, a placeholder stands in for it (``Request.summarized`` says how many turns it folds);
        its size is only known once the model has written it.
        """
        return memory.preview_request(self, user, budget)

    def shrink_budget(self, request: Request) -> int | None:
        """The budget for the one retry after a provider's context-length error (see :mod:`chatbot.engine.memory`)."""
        return memory.shrink_budget(self, request)
