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
#:
#: So may a request that offered tool definitions, whatever their share. A template may leave them out
#: (llama-cpp-python's Gemma format does): the server then counts the messages alone, and a ratio learned against
#: messages plus definitions runs low by their share. Requests that carry definitions stay safe under it (their
#: count holds what the server dropped), but one without them, a summary above all, was counted 8% under the
#: server's count and asked for a prompt plus max_tokens over the window (2,063 of 2,048). Where definitions are
#: counted, a count errs on their JSON otherwise than on prose too. Requests without them (summaries, turns with no
#: tools offered) teach a lower count.
SMALL_TOKENS = 400
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

    def learn(self, local_total: int, provider_prompt_tokens: int, fixed: int = 0, tools: int = 0) -> bool:
        """Learn from a request we counted as ``local_total`` (uncorrected) and the provider as its prompt tokens.

        ``fixed``: the chat format's tokens per request, which come off both counts: the ratio is the rate of the
        request's own tokens, and the correction applies to those alone. Tiny requests and absurd ratios are
        ignored (returns False; a provider count of 0 or less is an absurd ratio), and a small request, or one that
        offered tool definitions (``tools`` of the total), may only raise the count, never lower it (see
        ``SMALL_TOKENS``).
        """
        own = local_total - fixed
        if own < MIN_TOKENS:
            return False
        ratio = (provider_prompt_tokens - fixed) / own
        if not sane_ratio(ratio) or (ratio < 1 and (own < SMALL_TOKENS or tools > 0)):
            return False
        # rounded for a readable file, and kept within the bounds the validator checks (1/3 rounds below 1/3)
        stored = min(MAX_RATIO, max(1 / MAX_RATIO, round(ratio, 4)))
        self.ratios = [*self.ratios, stored][-WINDOW:]
        self.turns += 1
        return True

    @property
    def correction(self) -> float:
        """The median recent ratio provider/local (1.0 before anything is learned)."""
        return statistics.median(self.ratios) if self.ratios else 1.0

    @property
    def margin(self) -> float:
        """The safety margin on top of the correction, as a fraction (0.01 = 1%); 0 before anything is learned."""
        if not self.ratios:
            return 0.0
        if len(self.ratios) == 1:
            return FIRST_MARGIN
        middle = self.correction
        spread = statistics.median(abs(r - middle) for r in self.ratios) / middle
        return min(MAX_MARGIN, max(MIN_MARGIN, 2 * spread))

    @property
    def factor(self) -> float:
        """What an uncorrected count is multiplied by: correction with its margin."""
        return self.correction * (1 + self.margin)

    def describe(self) -> str:
        """One line for ``/tokens``: the correction, its margin and what it was learned from."""
        if not self.ratios:
            # a small request's count may only raise the estimate (SMALL_TOKENS): counts can come and teach nothing
            return (
                "x1.000 (nothing learned yet: no provider count, or only lower ones of small requests or of requests "
                "that offered tools; the estimate errs high)"
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
        """The JSON-ready form: ``{"ratios": [...], "turns": n}``, with ``"context": n`` once a server named it and
        ``"drops_system": true`` once it was seen to leave system messages out."""
        stored: dict[str, Any] = {"ratios": list(self.ratios), "turns": self.turns}
        if self.context:
            stored["context"] = self.context
        if self.drops_system:
            stored["drops_system"] = True
        return stored

    @classmethod
    def from_stored(cls, value: Any) -> Calibration:
        """Rebuild from :meth:`to_dict`, or from an older file's plain correction factor (one learned ratio)."""
        if isinstance(value, dict):
            ratios = [float(r) for r in value["ratios"]][-WINDOW:]
            turns = max(int(value["turns"]), len(ratios))
            return cls(ratios, turns, value.get("context"), bool(value.get("drops_system", False)))
        return cls([float(value)], 1)


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
    return ""
