"""The stored conversation: the system message, every turn, the rolling summary and how many turns it covers.

The model is stateless, so every request re-sends the conversation. :class:`Conversation` keeps everything and
builds each request from it by the memory rule (:mod:`chatbot.engine.memory`). Compression changes only what is
sent, never what is stored. This module knows nothing of terminals, files or SDKs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from chatbot.engine import memory, recall_meaning
from chatbot.engine.backoff import SummaryBackoff
from chatbot.engine.memory import MemoryConfig, Request, Summarizer
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
        self._system_count: tuple[object, int] = (None, 0)
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
        old = self.summary, self.summary_covers
        self.summary, self.summary_covers = "", 0
        done, problems = memory.fold_now(self, summarizer)
        if not done:
            self.summary, self.summary_covers = old
        return done, problems

    def set_summary(self, text: str, covers: int) -> None:
        """Replace the rolling summary with ``text``, which covers turns 1 to ``covers``."""
        self.summary = text
        self.summary_covers = max(0, min(covers, len(self.turns)))

    # --- building requests ------------------------------------------------------------------------------------

    def system_message(self, with_summary: bool) -> Message:
        """The single system message; with the rolling summary appended under a clear heading, quoted line by line
        (:func:`~chatbot.engine.summary_prompt.summary_section`).

        The summary goes inside the one system message rather than as a separate message: a second system
        message, or a made-up user/assistant pair, breaks chat templates that require exactly one leading system
        message and strict user/assistant alternation (Gemma's and Llama's, for instance), and an invented
        assistant message would put words in the model's mouth.
        """
        if not (with_summary and self.summary):
            return {"role": "system", "content": self.system}
        return {"role": "system", "content": f"{self.system}\n\n{summary_section(self.summary, self.summary_covers)}"}

    def system_tokens(self, with_summary: bool) -> int:
        """Raw token count of the system message (cached: a request counts it several times)."""
        message = self.system_message(with_summary)
        key = (self.counter.key, message["content"])
        if self._system_count[0] != key:
            self._system_count = (key, self.counter.count_message(message))
        return self._system_count[1]

    def build_request(
        self, user: str | Message, *, summarizer: Summarizer | None = None, budget: int | None = None
    ) -> Request:
        """Build the request for a new user message by the memory rule (:func:`chatbot.engine.memory.build_request`).

        May fold turns into the summary through ``summarizer``; raises BudgetError when even the system message and
        the new message do not fit.
        """
        return memory.build_request(self, user, summarizer, budget)

    def preview_request(self, user: str | Message = "", budget: int | None = None) -> Request:
        """The request ``user`` would send next (under ``budget``, default ``max_input_tokens``), without calling a
        model or changing anything stored.

        When a summary is due, a placeholder stands in for it (``Request.summarized`` says how many turns it folds);
        its size is only known once the model has written it.
        """
        dry_run = Conversation(
            self.system,
            self.memory,
            self.counter,
            turns=self.turns,
            summary=self.summary,
            summary_covers=self.summary_covers,
        )
        dry_run.backoff = replace(self.backoff)
        dry_run.summaries = list(self.summaries)  # a preview numbers a new summary as its request would
        dry_run.recall_index = self.recall_index  # the same turns: a preview grows the index, never rebuilds it
        return memory.build_request(dry_run, user, memory.placeholder_summarizer, budget)

    def shrink_budget(self, request: Request) -> int | None:
        """The budget for the one retry after a provider's context-length error (see :mod:`chatbot.engine.memory`)."""
        return memory.shrink_budget(self, request)
