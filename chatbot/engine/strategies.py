"""The memory strategies, one table: what each sends before the budget, and whether it folds the rest into a summary.

The rule that applies them (the budget, folds, recall) is :mod:`chatbot.engine.memory`. Apart from it, and free of
imports, so that the flag table (``--memory``) can name them: ``chatbot --version`` and ``--help`` stay as fast as a
bare interpreter allows. A new strategy is a row here (its settings, if new, in ``MemoryConfig``).
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
