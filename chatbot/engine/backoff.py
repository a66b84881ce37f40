"""When a failed summary is tried again: the backoff schedule of the rolling summary."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SummaryBackoff:
    """When folding is tried again after a failed summary: on the 1st, 2nd, 4th, 8th... turn after the first failure.

    Turns are counted by how many earlier turns a request has. In between, requests send the unsummarized turns that
    fit instead of calling the summarizer; a success (or ``/summary now``) ends the backoff. Kept in memory only: a
    resumed session tries again at once.
    """

    failed_at: int | None = None  # earlier turns of the request whose summary failed first

    def due(self, turns: int) -> bool:
        """Whether a request with ``turns`` earlier turns may call the summarizer."""
        if self.failed_at is None:
            return True
        gap = turns - self.failed_at
        return gap > 0 and gap & (gap - 1) == 0  # a power of two

    def next_try(self, turns: int) -> int:
        """The earlier-turn count of the first request after ``turns`` that may call the summarizer."""
        later = turns + 1
        while not self.due(later):
            later += 1
        return later

    def failed(self, turns: int) -> None:
        """A summary failed in a request with ``turns`` earlier turns (the schedule counts from the first failure)."""
        if self.failed_at is None:
            self.failed_at = turns

    def forget_after(self, turns: int) -> None:
        """Turns were taken back (``/undo``) to ``turns``: a failure in a request that no longer exists is forgotten."""
        if self.failed_at is not None and self.failed_at > turns:
            self.failed_at = None

    def succeeded(self) -> None:
        """A summary was kept: fold normally again."""
        self.failed_at = None
