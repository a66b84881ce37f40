"""Usage totals of a session: what the provider reported and what the app estimated, added up over its requests."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass
class Totals:
    """A session's usage so far. Chat requests and summary requests are counted apart."""

    requests: int = 0  # chat requests answered (interrupted ones included)
    reported_requests: int = 0  # of those, how many the provider reported usage for
    prompt_tokens: int = 0  # provider-reported
    completion_tokens: int = 0  # provider-reported
    cached_tokens: int = 0  # provider-reported: of prompt_tokens, those served from the provider's prompt cache
    estimated_prompt_tokens: int = 0
    estimated_completion_tokens: int = 0
    summary_requests: int = 0
    summary_tokens: int = 0  # provider-reported total tokens of summary requests

    def add_request(
        self,
        estimated_prompt: int,
        estimated_completion: int,
        prompt: int | None = None,
        completion: int | None = None,
        cached: int | None = None,
    ) -> None:
        """Count one chat request; ``prompt``/``completion``/``cached`` are the provider's numbers when it sent them."""
        self.requests += 1
        self.estimated_prompt_tokens += estimated_prompt
        self.estimated_completion_tokens += estimated_completion
        if prompt is not None and completion is not None:
            self.prompt_tokens += prompt
            self.completion_tokens += completion
            self.reported_requests += 1
            self.cached_tokens += cached or 0

    def add_summary(self, total_tokens: int | None) -> None:
        """Count one summary request and, when reported, its total tokens."""
        self.summary_requests += 1
        if total_tokens is not None:
            self.summary_tokens += total_tokens

    def to_dict(self) -> dict[str, int]:
        """JSON-ready data."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Totals:
        """Rebuild from :meth:`to_dict` output; keys it does not know are ignored, missing ones are 0."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: int(v) for k, v in data.items() if k in known})


def prompt_figure(usage: Mapping[str, Any] | None) -> tuple[int, bool]:
    """The prompt tokens a stored turn's usage record gives, and whether they are estimated: the provider's count,
    else the app's estimate (``/cost`` and ``/timeline`` read a turn's figure alike)."""
    usage = usage or {}
    reported = usage.get("prompt_tokens")
    tokens = reported if reported is not None else usage.get("estimated_prompt_tokens")
    return int(tokens or 0), reported is None
