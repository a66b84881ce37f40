"""The memory strategies, one table: what each sends before the budget, and whether it folds the rest into a summary.

The rule that applies them (the budget, folds, recall) is :mod:`chatbot.engine.memory`. Apart from it, and free of
imports, so that the flag table (``--memory``) can name them: ``chatbot --version`` and ``--help`` stay as fast as a
bare interpreter allows. A new strategy is a row of :data:`STRATEGIES`; a new whole-number setting of it, a row of
:data:`COUNTS` (and its field in ``MemoryConfig``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable


class WindowSettings(Protocol):
    """The memory settings a strategy reads (a :class:`~chatbot.engine.memory.MemoryConfig`)."""

    @property
    def window_turns(self) -> int: ...
    @property
    def window_step(self) -> int: ...
    @property
    def first_turns(self) -> int: ...


class Strategy:
    """One memory strategy (a plain class, not a dataclass: ``--version`` and ``--help`` import no dataclasses).

    ``start(stored, covered, settings)`` is the first of ``stored`` earlier turns a request sends before the budget
    has its say, ``covered`` being how many the summary covers; ``summarizes``: the strategy folds earlier turns into
    the rolling summary (by ``summary_trigger`` and ``keep_turns``) and sends the summary with the turns after it.
    ``head(stored, covered, settings)``, when given, is how many of the *first* turns every request sends besides
    the run from ``start`` (as many of them as the budget holds, before any other): the turns between are left out.
    """

    __slots__ = ("head", "help", "name", "start", "summarizes")

    def __init__(
        self,
        name: str,
        help: str,
        start: Callable[[int, int, WindowSettings], int],
        *,
        summarizes: bool = False,
        head: Callable[[int, int, WindowSettings], int] | None = None,
    ) -> None:
        self.name = name
        self.help = help
        self.start = start
        self.summarizes = summarizes
        self.head = head

    def __repr__(self) -> str:
        return f"Strategy({self.name!r})"


def _window(stored: int, covered: int, settings: WindowSettings) -> int:
    # with a step K the start moves K turns at once: the request's prefix stays the same for K-1 requests
    step = settings.window_step
    return max(0, (stored - settings.window_turns) // step * step)


class Count:
    """A whole-number setting of the memory strategies (a plain class, as :class:`Strategy`): ``name`` is its field
    of :class:`~chatbot.engine.memory.MemoryConfig` and its config-file key, ``flag`` the flag that sets it, ``least``
    its least value (``MemoryConfig``, the flag and a stored session's rule all hold it to that), and ``default``,
    ``metavar`` and ``help`` what ``--help`` shows.
    """

    __slots__ = ("default", "flag", "help", "least", "metavar", "name")

    def __init__(self, name: str, flag: str, default: int, least: int, metavar: str, help: str) -> None:
        self.name = name
        self.flag = flag
        self.default = default
        self.least = least
        self.metavar = metavar
        self.help = help

    def __repr__(self) -> str:
        return f"Count({self.name!r})"


#: the strategies' whole-number settings by name, in the order ``--help`` lists them and a session keeps them: a new
#: one is a row here, a property of ``WindowSettings`` when a strategy reads it, and a field of ``MemoryConfig``
COUNTS: dict[str, Count] = {
    c.name: c
    for c in (
        Count("window_turns", "--window-turns", 6, 0, "N", "window: earlier turns kept"),
        Count(
            "window_step",
            "--window-step",
            1,
            1,
            "K",
            "window: slide K turns at a time, so the request's start (cached by providers) holds for K-1 requests",
        ),
        Count(
            "first_turns",
            "--first-turns",
            2,
            0,
            "N",
            "first-last: the first N turns every request sends (who you are, the task) before the latest that fit",
        ),
        Count(
            "summary_trigger",
            "--summary-trigger",
            8,
            0,
            "N",
            "summary: summarize when more than N earlier turns are unsummarized (0: after every reply)",
        ),
        Count(
            "keep_turns",
            "--keep-turns",
            4,
            0,
            "M",
            "summary: earlier turns kept verbatim after summarizing (M <= N; 1 and 1: fold after every reply, keep "
            "the last turn)",
        ),
    )
}

#: every strategy by name, in the order ``--help`` lists them
STRATEGIES: dict[str, Strategy] = {
    s.name: s
    for s in (
        Strategy("full", "every earlier turn", lambda stored, covered, settings: 0),
        Strategy("window", "the last --window-turns turns", _window),
        Strategy(
            "summary",
            "a rolling summary and the turns it does not cover",
            lambda stored, covered, settings: covered,
            summarizes=True,
        ),
        Strategy(
            "first-last",
            "the first --first-turns turns (who you are, the task) and the latest turns that fit",
            lambda stored, covered, settings: settings.first_turns,
            head=lambda stored, covered, settings: min(stored, settings.first_turns),
        ),
    )
}

#: earlier turns recall brings back at most, by default: one keeps a long conversation within 10% more prompt tokens
#: with window and summary memory and recalls every probed fact (bench/bench_recall.py, docs/memory.md)
DEFAULT_RECALL = 1

#: how recall finds earlier turns (``--recall-by``): by shared words (BM25), by meaning (sentence vectors of the
#: ``embed`` extra), or both fused; words by default (meaning needs the extra, and embeds each turn once)
RECALL_BY = ("words", "meaning", "both")
DEFAULT_RECALL_BY = "words"
