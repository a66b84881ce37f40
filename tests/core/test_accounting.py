"""Accounting over several turns: the session totals add up request by request, chat and summary apart, and come
back the same from the file; a reply without usage counts as a request but not as a reported one."""

from __future__ import annotations

from chatbot.core.events import TurnDone
from chatbot.providers.base import Completion, StreamEnd, TextDelta, Usage
from chatbot.providers.echo import EchoProvider


class Metered(EchoProvider):
    """Replies "ok" and reports fixed usage: chat (prompt 100 + 10 per call so far, completion 3, cached 5),
    summaries (total 40); ``silent`` turns report no usage at all."""

    def __init__(self, silent: set[int] = frozenset()) -> None:  # type: ignore[assignment]
        super().__init__(delay=0)
        self.silent = silent
        self.calls = 0

    def stream(self, messages, *, model=None, max_tokens=None, tools=None, options=None):
        self.calls += 1
        yield TextDelta("ok")
        usage = None if self.calls in self.silent else Usage(100 + 10 * self.calls, 3, 103 + 10 * self.calls, 5)
        yield StreamEnd(usage, "stop")

    def complete(self, messages, *, model=None, max_tokens=None, tools=None, options=None):
        return Completion("the gist", Usage(30, 10, 40), "stop")


def test_totals_add_up_across_turns_and_survive_a_reload(make_app):
    app = make_app(Metered(silent={3}), summary_trigger=2, keep_turns=1)
    chat = app.open("acc")
    done = [e for q in ("one", "two", "three", "four") for e in chat.send(q) if isinstance(e, TurnDone)]
    totals = chat.session.totals
    assert totals.requests == 4
    assert totals.reported_requests == 3  # the third reply came without usage
    assert totals.prompt_tokens == 110 + 120 + 140
    assert totals.completion_tokens == 3 * 3
    assert totals.cached_tokens == 3 * 5
    assert totals.estimated_prompt_tokens == sum(d.estimated_prompt for d in done)
    assert totals.estimated_completion_tokens == sum(d.estimated_completion for d in done)
    assert all(d.estimated_prompt > 0 and d.estimated_completion > 0 for d in done)
    # trigger 2, keep 1: the fourth request folded turns 1-2 into the summary (one summary call of 40 tokens)
    assert (totals.summary_requests, totals.summary_tokens) == (1, 40)
    assert chat.conversation.summary == "the gist" and chat.conversation.summary_covers == 2
    reloaded = app.store.load("acc")
    assert reloaded.totals == totals
    assert [t.usage["prompt_tokens"] for t in reloaded.conversation.turns] == [110, 120, None, 140]


def test_each_turn_stores_its_own_estimate_and_reported_usage(make_app):
    chat = make_app(Metered(), strategy="full").open("per-turn")
    events = list(chat.send("hello"))
    done = events[-1]
    assert isinstance(done, TurnDone)
    usage = chat.conversation.turns[-1].usage
    assert usage["source"] == "provider"
    assert (usage["prompt_tokens"], usage["completion_tokens"]) == (110, 3)
    assert usage["estimated_prompt_tokens"] == done.request.tokens == done.estimated_prompt
