"""Self-calibration of a token count against the provider's ``prompt_tokens``, per model.

Every reply that reports usage gives one ratio: what the provider counted for the request over what we counted
(without correction), both less the chat format's fixed tokens per request, so that the ratio is the rate of the
request's own tokens. :class:`Calibration` keeps the last ``WINDOW`` ratios and multiplies those counts by

    factor = correction * (1 + margin)

- ``correction`` is the median of the recent ratios: it learns in both directions (a rough estimate that runs 12%
  high converges on 0.88) and one odd turn (a pasted base64 blob, a server that counted something else once) moves
  a median of three or more by nothing.
- ``margin`` is the safety room that keeps the request within the budget by the provider's count. It comes from
  how much the ratio has varied: twice the median absolute deviation of the recent ratios, at least ``MIN_MARGIN``.
  With a single ratio learned it is ``FIRST_MARGIN``: nothing is known about the variation yet, and the first
  ratio is learned on the smallest request, where a chat-format mismatch (a fixed number of tokens) weighs most, so
  it overstates how far the next, larger request may be lowered.

With no provider count ever (servers that send no usage while streaming), nothing is learned: the factor stays 1.0
and the rough estimate keeps erring high, as it is built to.

The ratios of requests that offered no tool definitions (turns with no tools, and summary requests, which teach
nothing else) are kept apart too (``plain``), and a request without definitions is counted by them
(:attr:`Calibration.plain_factor`). A template may leave the definitions out (llama-cpp-python's Gemma format does):
the server then counts a chat request's messages alone, and its ratio, learned against messages plus definitions,
runs low by their share. That is right for the chat requests, which all carry the definitions; counted at it, a
summary request came out 8% under the server's count and asked for a prompt plus max_tokens over the window.

Beside the ratios it keeps what else a model's server taught: its context window, once an error named it, and
whether it leaves the system message out (``drops_system``: its counts showed it; the system text then rides in the
first user message, :mod:`chatbot.engine.system_carry`).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

#: how many recent ratios the median and the margin look at
WINDOW = 8
#: requests smaller than this (their own tokens, the chat format's fixed ones left out) teach nothing: a few tokens
#: of chat-format guesswork would swing the ratio
MIN_TOKENS = 50
#: requests smaller than this may raise the count but never lower it. On a small request a chat format that is not
#: the server's (a model name that misleads: 20 tokens of date preamble assumed and not sent) is most of the
#: difference, and a ratio of 0.72 learned from a greeting put the next, larger request 14% under the server's count.
SMALL_TOKENS = 400
#: and so may a request whose tool definitions are more than this share of its own tokens: a template writes them
#: as JSON, which a count errs on otherwise than on prose (the rough estimate runs ~6% higher on it), so a ratio
#: learned mostly from definitions put the prose of later requests under the server's count.
TOOLS_MOST = 0.5
#: a ratio outside [1/MAX_RATIO, MAX_RATIO] is a provider quirk or a bug, not a signal (also the stored bound)
MAX_RATIO = 3.0
#: the margin's floor and ceiling, and its value while only one ratio is known
MIN_MARGIN = 0.005
MAX_MARGIN = 0.05
FIRST_MARGIN = 0.05


def sane_ratio(value: object) -> bool:
    """Whether ``value`` is a number a calibration may hold: within [1/MAX_RATIO, MAX_RATIO]."""
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and 1 / MAX_RATIO - 1e-9 <= value <= MAX_RATIO + 1e-9
    )


@dataclass
class Calibration:
    """What one model's provider counts have taught: the recent provider/local ratios and how many were learned."""

    ratios: list[float] = field(default_factory=list)  # oldest first, at most WINDOW
    turns: int = 0  # provider counts learned from, in all
    #: the model's context window in tokens, as the server named it in a context-length error (None: never named)
    context: int | None = None
    #: the server leaves system messages out (its count showed it: :func:`chatbot.core.budget.left_out_system`)
    drops_system: bool = False
    #: the ratios of those requests that offered no tool definitions, oldest first, at most WINDOW
    plain: list[float] = field(default_factory=list)

    def learn(
        self, local_total: int, provider_prompt_tokens: int, fixed: int = 0, tools: int = 0, *, chat: bool = True
    ) -> bool:
        """Learn from a request we counted as ``local_total`` (uncorrected) and the provider as its prompt tokens.

        ``fixed``: the chat format's tokens per request, which come off both counts: the ratio is the rate of the
        request's own tokens, and the correction applies to those alone. Tiny requests and absurd ratios are
        ignored (returns False; a provider count of 0 or less is an absurd ratio), and a small request, or one made
        mostly of tool definitions (``tools`` of the total), may only raise the count, never lower it (see
        ``SMALL_TOKENS`` and ``TOOLS_MOST``). A request without tool definitions is kept in ``plain`` too; one that
        is not a chat request (``chat=False``: a summary request) only there, so the count of chat requests stays
        what chat requests taught.
        """
        own = local_total - fixed
        if own < MIN_TOKENS:
            return False
        ratio = (provider_prompt_tokens - fixed) / own
        if not sane_ratio(ratio) or (ratio < 1 and (own < SMALL_TOKENS or tools > own * TOOLS_MOST)):
            return False
        # rounded for a readable file, and kept within the bounds the validator checks (1/3 rounds below 1/3)
        stored = min(MAX_RATIO, max(1 / MAX_RATIO, round(ratio, 4)))
        if chat:
            self.ratios = [*self.ratios, stored][-WINDOW:]
        if not tools:
            self.plain = [*self.plain, stored][-WINDOW:]
        self.turns += 1
        return True

    @property
    def correction(self) -> float:
        """The median recent ratio provider/local (1.0 before anything is learned)."""
        return statistics.median(self.ratios) if self.ratios else 1.0

    @property
    def margin(self) -> float:
        """The safety margin on top of the correction, as a fraction (0.01 = 1%); 0 before anything is learned."""
        return _margin(self.ratios)

    @property
    def factor(self) -> float:
        """What an uncorrected count is multiplied by: correction with its margin."""
        return self.correction * (1 + self.margin)

    @property
    def plain_factor(self) -> float:
        """What the uncorrected count of a request without tool definitions is multiplied by: the median of the
        ``plain`` ratios with their margin; before any, :attr:`factor`, never below 1 (learned from requests with
        definitions, a low ratio may be their share a template left out)."""
        if not self.plain:
            return max(1.0, self.factor)
        return statistics.median(self.plain) * (1 + _margin(self.plain))

    def describe(self) -> str:
        """One line for ``/tokens``: the correction, its margin and what it was learned from."""
        if not self.ratios:
            # a small request's count may only raise the estimate (SMALL_TOKENS): counts can come and teach nothing
            return (
                "x1.000 (nothing learned yet: no provider count, or only lower ones of small requests; the estimate "
                "errs high)"
            )
        return (
            f"x{self.correction:.3f} + margin {self.margin:.1%} = x{self.factor:.3f} "
            f"(learned from {self.turns} provider count(s); the last {len(self.ratios)} decide)"
        )

    # --- the stored form (owned by chatbot.storage.session.Session, checked by chatbot.storage.session_format) --------

    @property
    def learned(self) -> bool:
        """Whether there is anything to keep: a provider count learned from, a context window named, or system
        messages seen left out."""
        return bool(self.turns or self.context or self.drops_system)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form: ``{"ratios": [...], "turns": n}``, with ``"context": n`` once a server named it,
        ``"drops_system": true`` once it was seen to leave system messages out and ``"plain": [...]`` when requests
        that offered tool definitions were learned from (absent, the plain ratios are the ratios)."""
        stored: dict[str, Any] = {"ratios": list(self.ratios), "turns": self.turns}
        if self.context:
            stored["context"] = self.context
        if self.drops_system:
            stored["drops_system"] = True
        if self.plain != self.ratios:  # left out when every request learned from offered no tools (most sessions)
            stored["plain"] = list(self.plain)
        return stored

    @classmethod
    def from_stored(cls, value: Any) -> Calibration:
        """Rebuild from :meth:`to_dict`, or from an older file's plain correction factor (one learned ratio)."""
        if isinstance(value, dict):
            ratios = [float(r) for r in value["ratios"]][-WINDOW:]
            turns = max(int(value["turns"]), len(ratios))
            plain = [float(r) for r in value.get("plain", ratios)][-WINDOW:]
            return cls(ratios, turns, value.get("context"), bool(value.get("drops_system", False)), plain)
        return cls([float(value)], 1, plain=[float(value)])


def check_stored(value: object, where: str = "calibration") -> str:
    """What is wrong with a stored calibration named ``where``, or "" (see :meth:`Calibration.to_dict`)."""
    bounds = f"from {1 / MAX_RATIO:.3f} to {MAX_RATIO:g}"
    if not isinstance(value, dict):  # an older file: one correction factor
        return "" if sane_ratio(value) else f"'{where}' must be a number {bounds} or an object, found {value!r}"
    ratios, turns = value.get("ratios"), value.get("turns")
    if not isinstance(ratios, list) or not all(sane_ratio(r) for r in ratios):
        return f"'{where}.ratios' must be a list of numbers {bounds}, found {ratios!r}"
    if not isinstance(turns, int) or isinstance(turns, bool) or turns < 0:
        return f"'{where}.turns' must be a whole number of at least 0, found {turns!r}"
    context = value.get("context", 1)
    if not isinstance(context, int) or isinstance(context, bool) or context < 1:
        return f"'{where}.context' must be a whole number of tokens of at least 1, found {context!r}"
    if not isinstance(value.get("drops_system", False), bool):
        return f"'{where}.drops_system' must be true or false, found {value['drops_system']!r}"
    plain = value.get("plain", [])
    if not isinstance(plain, list) or not all(sane_ratio(r) for r in plain):
        return f"'{where}.plain' must be a list of numbers {bounds}, found {plain!r}"
    return ""


def _margin(ratios: list[float]) -> float:
    """The safety margin for ``ratios`` (see the module's docstring); 0 for none."""
    if not ratios:
        return 0.0
    if len(ratios) == 1:
        return FIRST_MARGIN
    middle = statistics.median(ratios)
    spread = statistics.median(abs(r - middle) for r in ratios) / middle
    return min(MAX_MARGIN, max(MIN_MARGIN, 2 * spread))
