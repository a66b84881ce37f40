"""The chat loop: turns stored and saved, interruptions, failures, /retry, context-length retry, calibration."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from chatbot.core.events import Notice, TurnDone, unsent
from chatbot.core.rounds import INTERRUPTED_MARK
from chatbot.core.turn_settings import TurnSettings
from chatbot.errors import ContextLengthError, Interrupted, ServerError
from chatbot.providers.base import ReasoningDelta, StreamEnd, TextDelta, Usage
from chatbot.providers.echo import EchoProvider
from chatbot.text import quote_lines


def drain(events) -> list:
    return list(events)


class FlakyEcho(EchoProvider):
    """Echo that fails its first ``failures`` stream calls with ``error`` (a provider error at the boundary)."""

    def __init__(self, error: Exception, failures: int = 1, **kw) -> None:
        super().__init__(delay=0, **kw)
        self.error = error
        self.failures = failures
        self.requests: list[Sequence[dict]] = []

    def stream(self, messages, *, model=None, max_tokens=None, options=None) -> Iterator:
        self.requests.append(list(messages))
        if self.failures:
            self.failures -= 1
            raise self.error
        yield from super().stream(messages, model=model, max_tokens=max_tokens)


def test_a_turn_is_stored_with_usage_and_saved(make_app):
    app = make_app()
    chat = app.open("s1")
    events = drain(chat.send("hello"))
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    done = events[-1]
    assert isinstance(done, TurnDone) and "Last user message: hello" in text
    turn = chat.conversation.turns[-1]
    assert turn.messages == [{"role": "user", "content": "hello"}, {"role": "assistant", "content": text}]
    assert turn.usage["source"] == "provider" and turn.usage["prompt_tokens"] == done.usage.prompt_tokens
    assert turn.latency is not None
    assert chat.session.totals.requests == 1
    reloaded = app.store.load("s1")
    assert reloaded.conversation.turns[-1].messages == turn.messages


def test_the_stateless_model_gets_the_history_each_time(make_app):
    provider = FlakyEcho(ServerError("x"), failures=0)
    chat = make_app(provider, strategy="full").open("s")
    for q in ("one", "two", "three"):
        drain(chat.send(q))
    assert [m["content"] for m in provider.requests[-1] if m["role"] == "user"] == ["one", "two", "three"]


def test_interrupting_a_stream_keeps_the_partial_answer_marked(make_app):
    chat = make_app().open("s")
    events = chat.send("tell me")
    got = []
    for event in events:
        if isinstance(event, TextDelta):
            got.append(event.text)
            if len(got) == 5:
                break
    events.close()  # what the app does on Ctrl-C
    turn = chat.conversation.turns[-1]
    assert turn.interrupted and turn.messages[-1]["content"].endswith(INTERRUPTED_MARK)
    assert turn.messages[-1]["content"].startswith("".join(got).rstrip())
    assert turn.user_text == "tell me"  # the message is stored with its turn: nothing waits to be resent
    # the next request stays well-formed
    drain(chat.send("next"))
    assert len(chat.conversation.turns) == 2


def test_a_reply_stopped_by_a_signal_is_marked_with_its_reason(make_app):
    chat = make_app().open("s")
    events = chat.send("tell me")
    got = [next(e for e in events if isinstance(e, TextDelta))]
    with pytest.raises(Interrupted):
        events.throw(Interrupted("SIGTERM", 143))  # what the signal handler raises inside the stream
    turn = chat.conversation.turns[-1]
    assert got and turn.interrupted and turn.messages[-1]["content"].endswith("[interrupted: SIGTERM]")


def test_the_next_request_preview_holds_the_text_in_the_budget_a_send_would_have(make_app):
    chat = make_app(max_input_tokens=8000).open("s")
    chat.run = TurnSettings(max_output_tokens=500)
    chat.conversation.counter.calibration.context = 4000  # the server's window, learned earlier
    preview = chat.next_request("what comes next")
    assert preview.messages[-1] == {"role": "user", "content": "what comes next"}
    assert preview.budget == 4000 - 500 - 40  # the window less the reply's room and a hundredth, not --max-input-tokens


def test_the_output_reservation_comes_out_of_a_known_window_for_a_send(make_app):
    chat = make_app(max_input_tokens=8000).open("s")
    chat.run = TurnSettings(max_output_tokens=500)
    chat.conversation.counter.calibration.context = 4000  # the server's window, learned earlier
    done = drain(chat.send("hi"))[-1]
    assert isinstance(done, TurnDone)
    assert done.request.budget == 4000 - 500 - 40  # not a quarter of the window (1,000), as without the flag


def test_a_reply_limit_over_a_known_window_is_asked_as_the_room_the_budget_keeps_for_the_reply(make_app):
    # --max-output-tokens 2100 on a 2,048-token window: the budget keeps half the window for the reply, and the call
    # must ask for no more (prompt plus max_tokens over the window: vLLM refuses every turn)
    chat = make_app(max_input_tokens=8000).open("s")
    chat.run = TurnSettings(max_output_tokens=2100, show_request=lambda kind, body: sent.append(body))
    sent: list[dict] = []
    chat.conversation.counter.calibration.context = 2048
    drain(chat.send("hi"))
    assert sent[-1]["max_tokens"] == 1024 == chat.next_body("next")["max_tokens"]
    chat.conversation.counter.calibration.context = None  # no window known: the flag as given
    assert chat.next_body("next")["max_tokens"] == 2100


def test_a_context_error_naming_the_window_retries_within_it_less_the_output_reservation(make_app):
    provider = FlakyEcho(ContextLengthError("maximum context length is 3000 tokens", limit=3000), failures=0)
    chat = make_app(provider, strategy="full", max_input_tokens=100_000).open("s")
    chat.run = TurnSettings(max_output_tokens=500)
    for i in range(6):
        drain(chat.send(f"message {i} " + "word " * 300))
    provider.failures = 1
    events = drain(chat.send("last"))
    told = "the server's context is 3000 tokens: requests are kept under it from now on (2470 for the request, 500 "
    assert Notice(told + "for the reply, 30 to spare)", True) in events  # a warning, with the reservation's numbers
    done = events[-1]
    assert isinstance(done, TurnDone) and done.request.budget == 3000 - 500 - 30
    assert 0 < done.request.tokens <= 2470 and len(provider.requests[-1]) < len(provider.requests[-2])


def test_a_turn_without_a_measured_latency_reports_zero(make_app, monkeypatch):
    chat = make_app().open("s")
    monkeypatch.setattr("time.monotonic", lambda: 1000.0)  # a clock that does not move: the turn took no time
    done = drain(chat.send("hi"))[-1]
    assert isinstance(done, TurnDone) and done.turn.latency == 0.0 and done.latency == 0.0


def test_a_failed_turn_keeps_the_message_for_retry(make_app):
    provider = FlakyEcho(ServerError("the server failed"), failures=1)
    chat = make_app(provider).open("s")
    with pytest.raises(ServerError) as caught:
        drain(chat.send("important question"))
    kept = unsent(caught.value)
    assert chat.conversation.turns == [] and kept is not None and kept.content == "important question"
    assert kept.holds(chat.conversation.turns)
    drain(chat.send(kept.content))
    assert chat.conversation.turns[-1].user_text == "important question" and not kept.holds(chat.conversation.turns)


def test_retry_without_failure_resends_the_last_turn(make_app):
    chat = make_app().open("s")
    drain(chat.send("first"))
    drain(chat.send("second"))
    assert chat.retake().message == "second"
    assert [t.user_text for t in chat.conversation.turns] == ["first"]


def test_context_length_error_shrinks_and_retries_once(make_app):
    provider = FlakyEcho(ContextLengthError("the model's context window is full"), failures=1)
    chat = make_app(provider, strategy="full").open("s")
    provider.failures = 0
    for i in range(6):
        drain(chat.send(f"message {i} " + "word " * 30))
    provider.failures = 1
    events = drain(chat.send("last"))
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any("retrying once with a smaller request" in n for n in notices)
    assert isinstance(events[-1], TurnDone)
    first, retry = provider.requests[-2], provider.requests[-1]
    assert len(retry) < len(first) and retry[-1] == first[-1]


def test_a_context_length_retry_in_summary_memory_summarizes_instead_of_dropping(make_app):
    provider = FlakyEcho(ContextLengthError("the model's context window is full"), failures=0)
    chat = make_app(provider, strategy="summary", summary_trigger=50, keep_turns=1).open("s")
    for i in range(6):
        drain(chat.send(f"message {i} " + "word " * 30))
    assert chat.conversation.summary_covers == 0  # the trigger is far: nothing summarized yet
    provider.failures = 1
    events = drain(chat.send("last"))
    assert isinstance(events[-1], TurnDone)
    assert chat.conversation.summary_covers > 0 and chat.conversation.summary
    retry = provider.requests[-1]
    summary = "\n".join(quote_lines(chat.conversation.summary))  # it rides quoted in the system message
    assert summary in retry[0]["content"]  # what the retry left out went into the summary
    assert not [e for e in events if isinstance(e, Notice) and "no summarizer" in e.text]


def test_context_length_error_twice_is_reported(make_app):
    provider = FlakyEcho(ContextLengthError("still too long"), failures=0)
    chat = make_app(provider, strategy="full").open("s")
    for i in range(4):
        drain(chat.send(f"filler {i} " + "word " * 20))
    provider.failures = 2
    with pytest.raises(ContextLengthError) as caught:
        drain(chat.send("hi"))
    kept = unsent(caught.value)
    assert kept is not None and kept.content == "hi" and len(provider.requests) == 4 + 2


def test_context_length_error_with_nothing_to_drop_says_so(make_app):
    provider = FlakyEcho(ContextLengthError("too long"), failures=1)
    chat = make_app(provider).open("s")
    with pytest.raises(ContextLengthError, match="nothing to drop"):
        drain(chat.send("hi"))
    assert len(provider.requests) == 1


def test_summaries_go_through_the_provider_and_are_announced(make_app):
    chat = make_app(strategy="summary", summary_trigger=2, keep_turns=1).open("s")
    notices = []
    for i in range(4):
        notices += [e.text for e in chat.send(f"q{i}") if isinstance(e, Notice)]
    assert notices == ["summarized 2 earlier turn(s) into the rolling summary (it now covers turns 1-2)"]
    summary = chat.conversation.summary
    assert summary.startswith("Echo summary")
    kept = [line for line in summary.splitlines() if line.startswith("- ")]
    assert kept == ['- turn 1: user: "q0"', '- turn 2: user: "q1"']
    assert chat.conversation.summary_covers == 2
    assert chat.session.totals.summary_requests == 1


def test_failed_summary_warns_and_still_answers(make_app):
    class NoSummaries(EchoProvider):
        def complete(self, messages, *, model=None, max_tokens=None, options=None):
            raise ServerError("summary model is down")

    chat = make_app(NoSummaries(delay=0), strategy="summary", summary_trigger=2, keep_turns=1).open("s")
    events = []
    for i in range(4):
        events += drain(chat.send(f"q{i}"))
    warnings = [e.text for e in events if isinstance(e, Notice) and e.warning]
    assert any("summarizing failed" in w for w in warnings)
    assert chat.conversation.summary == "" and len(chat.conversation.turns) == 4


def test_calibration_is_learned_per_model_and_stored(make_app):
    class Counting(EchoProvider):
        def stream(self, messages, *, model=None, max_tokens=None, options=None):
            yield TextDelta("ok")
            yield StreamEnd(Usage(400, 1, 401), "stop")  # the server counts far more than the estimate

    app = make_app(Counting(delay=0))
    chat = app.open("s")
    counter = chat.conversation.counter
    for q in ("a fairly ordinary question " * 20, "and another one " * 20):
        drain(chat.send(q))
    assert counter.correction > 1.0
    stored = app.store.load("s").calibration["echo"]
    assert stored.turns == 2 and stored.factor == pytest.approx(counter.correction)


def test_cut_off_and_empty_replies_are_announced(make_app):
    class Reasoner(EchoProvider):
        def stream(self, messages, *, model=None, max_tokens=None, options=None):
            yield ReasoningDelta("thinking...")
            yield StreamEnd(None, "length")

    chat = make_app(Reasoner(delay=0)).open("s")
    events = drain(chat.send("hi"))
    warnings = [e.text for e in events if isinstance(e, Notice) and e.warning]
    assert any("cut off by the server" in w for w in warnings)
    assert any("no answer text (only reasoning came back" in w for w in warnings)
    done = events[-1]
    assert done.finish_reason == "length" and done.reasoned and done.usage is None
    assert chat.conversation.turns[-1].usage["source"] == "estimate"


def test_a_reply_without_reasoning_reports_reasoned_false_not_none(make_app):
    """``TurnDone.reasoned`` is a bool a library caller may compare or encode (``false`` in JSON): a turn whose
    reply held no reasoning says False, not a merely falsy None."""
    done = drain(make_app().open("s").send("hi"))[-1]
    assert isinstance(done, TurnDone) and done.reasoned is False


def test_a_summary_cut_at_the_length_limit_is_refused(make_app):
    from chatbot.providers.base import Completion

    class Rambler(EchoProvider):
        def complete(self, messages, *, model=None, max_tokens=None, options=None):
            return Completion("- the user said", None, "length")

    chat = make_app(Rambler(delay=0), strategy="summary", summary_trigger=2, keep_turns=1).open("s")
    events = []
    for i in range(4):
        events += drain(chat.send(f"q{i}"))
    assert any("cut off" in e.text for e in events if isinstance(e, Notice) and e.warning)
    assert chat.conversation.summary == ""
