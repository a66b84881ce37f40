"""Summaries written ahead (chatbot/core/summaries.py through Chat): used when ready, waited for with a notice, Ctrl-C
stops the wait, failures fall back and back off, and nothing written ahead changes what a failed or cancelled
summary would have left. Script mode (background off) keeps its order of requests."""

from __future__ import annotations

import _thread
import os
import signal
import sys
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chatbot.core.app import App, AppSettings
from chatbot.core.events import Notice, TurnDone
from chatbot.core.summaries import SummaryAhead
from chatbot.core.turn_settings import TurnSettings
from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import SUMMARY_MAX_TOKENS, MemoryConfig, next_summary
from chatbot.engine.tokens import TokenCounter, rough_count
from chatbot.errors import BudgetError, ContextLengthError, ServerError, SummaryError
from chatbot.providers.base import CallOptions, Completion, Usage
from chatbot.providers.echo import EchoProvider
from chatbot.storage.json_store import JsonStore
from tests.conftest import WordCounter, make_turn

# trigger 2, keep 1: a summary is due before turns 4, 6, 8...
MEMORY = {"strategy": "summary", "summary_trigger": 2, "keep_turns": 1}


class GatedEcho(EchoProvider):
    """Echo whose summaries wait for ``gate`` (a slow summary model) and may fail; it logs every call in order."""

    def __init__(self, *, fail: bool = False, gated: bool = True) -> None:
        super().__init__(delay=0)
        self.fail = fail
        self.gate = threading.Event()
        if not gated:
            self.gate.set()
        self.calls: list[tuple[str, str]] = []  # (kind, thread name)
        self.summaries_done = threading.Event()

    def stream(self, messages, *, model=None, max_tokens=None):
        self.calls.append(("chat", threading.current_thread().name))
        yield from super().stream(messages, model=model, max_tokens=max_tokens)

    def complete(self, messages, *, model=None, max_tokens=None):
        self.calls.append(("summary", threading.current_thread().name))
        try:
            assert self.gate.wait(10), "the test never opened the gate"
            if self.fail:
                raise ServerError("the summary model is down")
            return super().complete(messages, model=model, max_tokens=max_tokens)
        finally:
            self.summaries_done.set()


@pytest.fixture
def open_chat(tmp_path):
    apps = []

    def build(provider, *, background: bool = True, name: str = "s", **run):
        run = TurnSettings(background_summaries=background, **run)
        settings = AppSettings("echo", None, MemoryConfig(**MEMORY), run=run)
        app = App(JsonStore(tmp_path / name), provider, settings, lambda model: TokenCounter())
        apps.append(app)
        return app.open(name)

    yield build
    for app in apps:
        app.close()


def send(chat, text):
    return list(chat.send(text))


def state(chat):
    """What memory left: the summary, the turns it covers, every stored turn's messages, the backoff."""
    conv = chat.conversation
    return conv.summary, conv.summary_covers, [t.messages for t in conv.turns], conv.backoff.failed_at


def test_a_summary_written_ahead_is_used_and_the_turn_does_not_wait(open_chat):
    provider = GatedEcho(gated=False)
    chat = open_chat(provider)
    for text in ("one", "two", "three"):
        send(chat, text)
    # after turn 3 the next request must fold turns 1-2: written ahead, on another thread, as soon as the reply ended
    assert provider.summaries_done.wait(5)
    assert provider.calls[-1] == ("summary", "summary-ahead")
    events = send(chat, "four")
    assert not any(isinstance(e, Notice) and "waiting" in e.text for e in events)
    assert [kind for kind, _ in provider.calls] == ["chat", "chat", "chat", "summary", "chat"]
    assert chat.conversation.summary_covers == 2
    assert 'turn 1: user: "one"' in chat.conversation.summary
    done = events[-1]
    assert isinstance(done, TurnDone) and done.request.summarized == 2 and done.request.summary_included


def test_a_model_switch_forgets_the_summary_written_ahead_and_the_new_model_writes_it(open_chat):
    # the summary written ahead went to the model before: kept, its server's count would teach the new model's
    # calibration (a ratio of the old server's, recounted with the new model's counter)
    provider = GatedEcho(gated=False)
    chat = open_chat(provider)
    for text in ("one", "two", "three"):
        send(chat, text)
    assert provider.summaries_done.wait(5) and provider.calls[-1] == ("summary", "summary-ahead")
    chat.set_model("other")
    send(chat, "four")
    assert [kind for kind, _ in provider.calls] == ["chat", "chat", "chat", "summary", "summary", "chat"]
    assert provider.calls[-2][1] != "summary-ahead"  # written now, on the turn's own thread, by the model in use
    assert chat.conversation.summary_covers == 2


def test_the_result_is_the_same_as_a_summary_written_at_send_time(open_chat):
    ahead = open_chat(GatedEcho(gated=False), name="a")
    now = open_chat(GatedEcho(gated=False), background=False, name="b")
    for text in ("one", "two", "three", "four", "five", "six"):
        send(ahead, text)
        send(now, text)
    assert state(ahead) == state(now)


def test_a_turn_waits_with_a_notice_while_the_summary_is_still_being_written(open_chat):
    provider = GatedEcho()
    chat = open_chat(provider)
    for text in ("one", "two", "three"):
        send(chat, text)
    events = chat.send("four")
    first = next(events)
    assert isinstance(first, Notice) and "waiting for the summary" in first.text
    threading.Timer(0.2, provider.gate.set).start()
    rest = list(events)
    assert chat.conversation.summary_covers == 2
    assert isinstance(rest[-1], TurnDone) and rest[-1].request.summarized == 2
    assert [kind for kind, _ in provider.calls].count("summary") == 1  # the one written ahead, not a second


def test_ctrl_c_while_waiting_falls_back_like_a_failed_summary_and_the_late_result_is_never_used(open_chat):
    cancelled_provider, failed_provider = GatedEcho(), GatedEcho(fail=True, gated=False)
    cancelled = open_chat(cancelled_provider, name="cancelled")
    failed = open_chat(failed_provider, background=False, name="failed")
    for text in ("one", "two", "three"):
        send(cancelled, text)
        send(failed, text)

    events = cancelled.send("four")
    assert "waiting for the summary" in next(events).text
    threading.Timer(0.2, _thread.interrupt_main).start()  # a real KeyboardInterrupt in this (the main) thread
    rest = list(events)
    warnings = [e.text for e in rest if isinstance(e, Notice) and e.warning]
    assert any("you stopped waiting for the summary" in w for w in warnings)
    assert isinstance(rest[-1], TurnDone)  # the session goes on: the turn was answered
    send(failed, "four")
    assert state(cancelled) == state(failed)
    assert cancelled.conversation.summary == "" and cancelled.conversation.backoff.failed_at == 3

    cancelled_provider.gate.set()  # the summary written ahead finishes now, too late
    assert cancelled_provider.summaries_done.wait(5)
    assert state(cancelled) == state(failed)


def test_a_summary_that_fails_in_the_background_falls_back_and_backs_off(open_chat):
    ahead, now = GatedEcho(fail=True, gated=False), GatedEcho(fail=True, gated=False)
    chat_ahead, chat_now = open_chat(ahead, name="a"), open_chat(now, background=False, name="b")
    for text in ("one", "two", "three", "four", "five", "six", "seven", "eight"):
        events = send(chat_ahead, text)
        send(chat_now, text)
        assert state(chat_ahead) == state(chat_now), text
        if text == "seven":
            warnings = [e.text for e in events if isinstance(e, Notice) and e.warning]
            assert any("is tried again before turn 8" in w for w in warnings)
    # failed first before turn 4; tried again before turns 5, 6 and 8 (the 1st, 2nd and 4th turn after), never 7
    assert [kind for kind, _ in ahead.calls].count("summary") == 4
    assert [kind for kind, _ in now.calls].count("summary") == 4
    assert chat_ahead.conversation.summary == ""


def test_a_summary_written_for_turns_that_changed_is_not_used(open_chat):
    provider = GatedEcho(gated=False)
    chat = open_chat(provider)
    for text in ("one", "two", "three"):
        send(chat, text)
    assert provider.summaries_done.wait(5)
    chat.undo()
    chat.undo()  # turn 2, which the summary written ahead covers, is gone
    send(chat, "two again")
    send(chat, "three")
    send(chat, "four")
    summaries = [name for kind, name in provider.calls if kind == "summary"]
    # written ahead after the first "three" (never used) and after the second (for turns 1-2 as they are now)
    assert summaries == ["summary-ahead", "summary-ahead"]
    assert 'user: "two again"' in chat.conversation.summary and chat.conversation.summary_covers == 2


def test_script_mode_keeps_its_order_summary_then_chat_on_one_thread(open_chat):
    provider = GatedEcho(gated=False)
    chat = open_chat(provider, background=False)
    for text in ("one", "two", "three", "four"):
        send(chat, text)
    assert provider.calls == [("chat", "MainThread")] * 3 + [("summary", "MainThread"), ("chat", "MainThread")]


def test_summary_now_uses_the_summary_written_ahead(open_chat):
    provider = GatedEcho(gated=False)
    chat = open_chat(provider)
    for text in ("one", "two", "three"):
        send(chat, text)
    assert provider.summaries_done.wait(5)
    assert chat.summarize_now() == (2, [])
    assert [kind for kind, _ in provider.calls].count("summary") == 1


@settings(max_examples=150, deadline=None)
@given(
    ops=st.lists(st.sampled_from(["turn", "turn", "long", "undo"]), max_size=30),
    failing=st.sets(st.integers(1, 30), max_size=6),
    trigger=st.integers(1, 4),
    keep=st.integers(0, 3),
    budget=st.sampled_from([40, 80, 100_000]),
)
def test_a_summary_written_ahead_changes_nothing_a_summary_written_now_would_not(ops, failing, trigger, keep, budget):
    """Whatever happens (failures, backoff, undo, early folds for the budget), memory ends up the same."""

    def write(previous, turns, first):
        if first in failing:
            raise RuntimeError("summary model down")
        return f"{previous} s{first}-{first + len(turns) - 1}".strip()

    memory = MemoryConfig(
        "summary", summary_trigger=trigger, keep_turns=min(keep, trigger - 1), max_input_tokens=budget
    )
    ahead_conv, now_conv = Conversation("sys", memory, WordCounter()), Conversation("sys", memory, WordCounter())
    ahead = SummaryAhead(write, enabled=True)
    for i, op in enumerate(ops, start=1):
        if op == "undo":
            ahead_conv.undo()
            now_conv.undo()
            continue
        try:
            with_ahead = ahead_conv.build_request(f"m{i}", summarizer=ahead.summarizer)
        except BudgetError:
            continue
        written_now = now_conv.build_request(f"m{i}", summarizer=write)
        assert with_ahead.messages == written_now.messages and with_ahead.warnings == written_now.warnings
        words = 12 if op == "long" else 3
        ahead_conv.add_turn(make_turn(i, words=words))
        now_conv.add_turn(make_turn(i, words=words))
        ahead.start(ahead_conv)
    assert (ahead_conv.summary, ahead_conv.summary_covers, ahead_conv.backoff) == (
        now_conv.summary,
        now_conv.summary_covers,
        now_conv.backoff,
    )


class NarrowSummaries(EchoProvider):
    """A server whose window is ``window`` tokens: a summary whose prompt and ``max_tokens`` exceed it is refused, with
    the window named (as vLLM and OpenAI word it)."""

    def __init__(self, window: int) -> None:
        super().__init__(delay=0)
        self.window = window
        self.named = window  # the window the error names
        self.caps: list[int] = []

    def complete(self, messages, **ask):
        self.caps.append(ask["max_tokens"])
        prompt = sum(rough_count(str(m["content"])) + 10 for m in messages)
        if prompt + ask["max_tokens"] > self.window:
            raise ContextLengthError("this model's maximum context length is exceeded", limit=self.named)
        return super().complete(messages, **ask)


def test_a_summarys_context_error_teaches_the_window_and_asks_once_more_within_it():
    from chatbot.core.summaries import SummaryCall
    from chatbot.storage.session import Session

    session = Session.new("s", system="sys", model="echo", memory=MemoryConfig(strategy="summary"))
    provider = NarrowSummaries(window=600)
    turns = [[{"role": "user", "content": "one"}, {"role": "assistant", "content": "answer one"}]]
    assert SummaryCall(session, provider, TurnSettings())("", turns, 1)
    assert session.context_for("echo") == 600 and len(provider.caps) == 2 and provider.caps[1] < 600
    # a server that refuses even within the window it names: that window is no news, so the error stands (asked once)
    stricter = NarrowSummaries(window=600)
    stricter.window = 300  # counts more than it says
    with pytest.raises(ContextLengthError):
        SummaryCall(session, stricter, TurnSettings())("", turns, 1)
    assert len(stricter.caps) == 1 and session.context_for("echo") == 600


def test_a_window_a_summary_learned_is_told_once_and_the_turn_is_built_under_it(open_chat):
    provider = NarrowSummaries(window=900)
    chat = open_chat(provider, background=False)
    turns = [send(chat, f"question {n} " * 40) for n in range(7)]
    told = [
        (n, e) for n, events in enumerate(turns) for e in events if isinstance(e, Notice) and "context is" in e.text
    ]
    assert len(told) == 1, told  # told once, by the turn whose summary met the window
    n, notice = told[0]
    assert notice.warning and "900 tokens" in notice.text and provider.caps[0] == SUMMARY_MAX_TOKENS
    assert chat.session.context_for(chat.model) == 900
    done = [e for e in turns[n] if isinstance(e, TurnDone)][-1]
    assert done.request.budget <= 900 - 225  # that very turn was rebuilt under the window, less the reply's quarter


class NarrowCutSummaries(NarrowSummaries):
    """As :class:`NarrowSummaries`, and every summary it writes within the window is cut at its cap."""

    def complete(self, messages, **ask):
        done = super().complete(messages, **ask)
        return Completion("The user asked questions. Each was numbered. The last one was", done.usage, "length")


def test_a_window_a_summary_learned_is_told_before_what_the_fold_then_did(open_chat):
    # the summary request taught the window, and the summary asked again under it was cut: the window is told
    # first, as it happened (told after, the cut read as the reason for a window the user had not heard of)
    chat = open_chat(NarrowCutSummaries(window=900), background=False)
    turns = [send(chat, f"question {n} " * 40) for n in range(7)]
    n = next(
        n for n, events in enumerate(turns) if any(isinstance(e, Notice) and "context is" in e.text for e in events)
    )
    told = [e.text for e in turns[n] if isinstance(e, Notice)]
    cut = next(i for i, text in enumerate(told) if "the summary was cut off" in text)
    assert "context is 900 tokens" in told[0] and cut > 0, told


def test_the_turn_rebuilt_under_a_window_a_summary_learned_keeps_the_output_reservation_and_summarizes(open_chat):
    provider = NarrowSummaries(window=900)
    chat = open_chat(provider, background=False, max_output_tokens=400)
    turns = [send(chat, f"question {n} " * 40) for n in range(7)]
    (n,) = [n for n, events in enumerate(turns) for e in events if isinstance(e, Notice) and "context is" in e.text]
    told = "the server's context is 900 tokens: requests are kept under it from now on (491 for the request, 400 "
    assert Notice(told + "for the reply, 9 to spare)", True) in turns[n]
    done = turns[n][-1]
    assert isinstance(done, TurnDone) and done.request.budget == 900 - 400 - 9
    assert done.request.messages[-1] == {"role": "user", "content": f"question {n} " * 40}  # the rebuild sent it
    # the rebuilt request had to fold one more turn: summarized (not dropped), and the turn tells every fold it made,
    # the two of the summary that met the window as well
    assert (done.request.summarized, done.request.dropped, done.request.summary_covers) == (3, 0, 3)
    assert Notice("summarized 3 earlier turn(s) into the rolling summary (it now covers turns 1-3)") in turns[n]


class SummaryModel(EchoProvider):
    """Echo that notes each summary call's model and cap; ``errors`` are raised by the first calls, in order."""

    def __init__(self, *errors: Exception) -> None:
        super().__init__(delay=0)
        self.errors = list(errors)
        self.asked: list[tuple[str | None, int]] = []

    def complete(self, messages, **ask):
        self.asked.append((ask["model"], ask["max_tokens"]))
        if self.errors:
            raise self.errors.pop(0)
        return super().complete(messages, **ask)


TURNS = [
    [{"role": "user", "content": "one"}, {"role": "assistant", "content": "answer one"}],
    [{"role": "user", "content": "two"}, {"role": "assistant", "content": "answer two"}],
]


def summary_call(tmp_path, provider, shown=None):
    from chatbot.core.request_log import RequestLog
    from chatbot.core.summaries import SummaryCall
    from chatbot.storage.session import Session

    session = Session.new("sid", system="sys", model="echo", memory=MemoryConfig(strategy="summary"))
    log = RequestLog(str(tmp_path / "requests.jsonl"), ())
    show = None if shown is None else (lambda kind, body: shown.append((kind, body)))
    run = TurnSettings(log=log, summary_model="small", show_request=show)
    return session, SummaryCall(session, provider, run), log


def logged(tmp_path):
    import json

    return [json.loads(line) for line in (tmp_path / "requests.jsonl").read_text().splitlines()]


def test_a_summary_call_shows_its_body_asks_the_summary_model_and_logs_its_numbers(tmp_path):
    from chatbot.engine.summary_prompt import summary_request

    provider, shown = SummaryModel(), []
    session, call, log = summary_call(tmp_path, provider, shown)
    assert call("", TURNS, 1)
    log.close()
    messages = summary_request("", TURNS, 1)
    body = provider.request_body(messages, CallOptions("small", SUMMARY_MAX_TOKENS))
    assert shown == [("summary", body)] and provider.asked == [("small", SUMMARY_MAX_TOKENS)]
    (record,) = logged(tmp_path)
    assert {k: record[k] for k in ("session", "provider", "model", "kind", "strategy", "summarized", "ok")} == {
        "session": "sid", "provider": provider.name, "model": "small", "kind": "summary", "strategy": "summary",
        "summarized": 2, "ok": True,
    }  # fmt: skip
    assert record["request_tokens"]["estimate"] == session.conversation.counter.count_request(messages) > 0


def test_a_failed_summary_call_asks_the_summary_model_again_within_a_named_window_and_logs_the_failure(tmp_path):
    from chatbot.engine.summary_prompt import summary_request

    provider = SummaryModel(ContextLengthError("too long", limit=900), ServerError("down"))
    session, call, log = summary_call(tmp_path, provider)
    with pytest.raises(ServerError):
        call("", TURNS, 1)
    log.close()
    assert [model for model, _ in provider.asked] == ["small", "small"] and provider.asked[1][1] < 900
    refused, record = logged(tmp_path)  # each call a line: the one refused for the window, then the one that failed
    assert (refused["error"], refused["max_tokens"]) == ("ContextLengthError", SUMMARY_MAX_TOKENS)
    estimate = session.conversation.counter.count_request(summary_request("", TURNS, 1))
    assert (record["model"], record["summarized"], record["error"], record["ok"]) == ("small", 2, "ServerError", False)
    assert record["request_tokens"] == {"provider": None, "estimate": estimate} and estimate > 0
    assert record["max_tokens"] == provider.asked[1][1]


def test_ctrl_c_while_a_fold_waits_for_the_summary_written_ahead_fails_that_summary_and_forgets_the_job():
    """The same Ctrl-C as above, without its timing: the signal comes once the main thread is seen waiting."""
    main = threading.main_thread().ident
    gate, calls = threading.Event(), []

    def waiting_for_it() -> bool:
        frame = sys._current_frames().get(main)
        names = []
        while frame is not None:
            names.append(frame.f_code.co_name)
            frame = frame.f_back
        # "in" each name: under mutmut the method runs as a renamed copy (``xǁSummaryAheadǁsummarizer__mutmut_orig``)
        return any("summarizer" in name for name in names) and names[0] == "wait"

    def write(previous, turns, first):
        calls.append(threading.current_thread().name)
        if len(calls) == 1:  # the job written ahead: Ctrl-C reaches the main thread while it waits for this
            deadline = time.monotonic() + 10
            while not waiting_for_it() and time.monotonic() < deadline:
                time.sleep(0.01)
            os.kill(os.getpid(), signal.SIGINT)
            gate.wait(10)
        return f"s{first}"

    conv, ahead, inputs = _due_fold_written_ahead_by(write)
    # Python's own Ctrl-C (KeyboardInterrupt), whatever the process running the tests set for it
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    ahead.start(conv)
    try:
        with pytest.raises(SummaryError) as stopped:
            ahead.summarizer(*inputs)
        assert stopped.value.message == "you stopped waiting for the summary"
        assert ahead.summarizer(*inputs) == "s1"  # the job is forgotten: asked again, the summary is written now
        assert calls == ["summary-ahead", "MainThread"]
    finally:
        gate.set()
        signal.signal(signal.SIGINT, previous)


def _due_fold_written_ahead_by(write):
    """Three turns whose next request folds (trigger 2, keep 1), a SummaryAhead writing with ``write``, and the
    inputs of that fold."""
    conv = Conversation("sys", MemoryConfig(**MEMORY), WordCounter())
    for i in (1, 2, 3):
        conv.add_turn(make_turn(i))
    inputs = next_summary(conv)
    assert inputs is not None
    return conv, SummaryAhead(write, enabled=True), inputs


def test_an_interrupt_that_wakes_no_system_call_still_stops_the_wait_within_a_poll():
    """``_thread.interrupt_main`` trips the interrupt without a real signal: a wait blocked in one call would see it
    only when the summary ends. The wait polls, so Ctrl-C is noticed within a poll whatever delivers it."""
    gate = threading.Event()

    def write(previous, turns, first):
        gate.wait(10)  # a slow summary model: ten seconds unless the test lets it go
        return f"s{first}"

    conv, ahead, inputs = _due_fold_written_ahead_by(write)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    ahead.start(conv)
    timer = threading.Timer(0.2, _thread.interrupt_main)
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(SummaryError, match="you stopped waiting for the summary"):
            ahead.summarizer(*inputs)
        assert time.monotonic() - started < 5  # the summary would have taken 10 s
    finally:
        timer.cancel()
        gate.set()
        signal.signal(signal.SIGINT, previous)


def test_a_summary_that_fails_for_a_passing_reason_is_retried_in_the_fold_and_announced(open_chat):
    from chatbot.core.summaries import SummaryCall
    from chatbot.storage.session import Session

    session = Session.new("s", system="sys", model="echo", memory=MemoryConfig(strategy="summary"))
    provider = SummaryModel(ServerError("the server had a hiccup"))
    call = SummaryCall(session, provider, TurnSettings(retries=2))
    written = call("", TURNS, 1)
    assert written.text  # the second try answered
    assert len(provider.asked) == 2
    assert written.notices == ("the summary request failed: the server had a hiccup — retrying in 1s (1 of 2)",)


def test_a_summary_retried_while_a_turn_is_built_is_shown_as_a_warning_of_that_turn(open_chat):
    chat = open_chat(SummaryModel(ServerError("the server had a hiccup")), background=False, retries=2)
    turns = [send(chat, f"question {n}") for n in range(4)]  # trigger 2, keep 1: the fourth request folds
    told = Notice("the summary request failed: the server had a hiccup — retrying in 1s (1 of 2)", True)
    assert [n for n, events in enumerate(turns) if told in events] == [3]
    done = turns[3][-1]
    assert isinstance(done, TurnDone) and done.request.summarized == 2 and not done.request.warnings


#: what a rambling summarizer writes: far more than the summary's cap (2,048 tokens, a word each on the fake server,
#: which cuts a reply into words joined by spaces: sentences, not lines, survive its cut)
RAMBLING = "".join(f"The user noted point {k} of the household budget. " for k in range(500))


def cut_summaries(tmp_path, monkeypatch, whole_reply: str) -> tuple[list[list[object]], object, list[str]]:
    """Four turns of long notes through the real chat against a server that drops system messages (as the gemma
    format does) and writes ``whole_reply`` for a summary, cut at its ``max_tokens``: (each turn's events, the
    conversation, how the server answered each summary request)."""
    from chatbot.providers import make_provider
    from chatbot.storage.json_store import JsonStore
    from tests.support.fake_server import FakeServer, is_summary

    with FakeServer(reply="Noted.", whole_reply=whole_reply, system_role=False) as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        provider = make_provider("openai", model="fake-model", base_url=server.base_url, max_retries=0)
        settings = AppSettings("openai", "fake-model", MemoryConfig(**MEMORY), run=TurnSettings(retries=0))
        app = App(JsonStore(tmp_path / "cut"), provider, settings, lambda model: TokenCounter())
        chat = app.open("cut")
        turns = [send(chat, f"Step {k}: " + "rent food transport savings insurance " * 300) for k in range(1, 5)]
        conv = chat.conversation
        answered = [o for b, o in zip(server.record.requests, server.record.outcomes, strict=True) if is_summary(b)]
        app.close()
    return turns, conv, answered


def test_a_summary_cut_at_its_cap_is_kept_up_to_its_last_full_sentence_and_the_user_told(tmp_path, monkeypatch):
    turns, conv, answered = cut_summaries(tmp_path, monkeypatch, RAMBLING)
    assert answered == ["length"]  # read as a summary request with no system message, and cut at its cap
    assert conv.summary_covers == 2 and RAMBLING.startswith(conv.summary + " ")
    assert len(conv.summary.split()) in range(SUMMARY_MAX_TOKENS - 9, SUMMARY_MAX_TOKENS)  # the unfinished end cut
    assert conv.summary.endswith("of the household budget.")
    said = [e.text for e in turns[3] if isinstance(e, Notice)]
    assert f"the summary was cut off at {SUMMARY_MAX_TOKENS} tokens; kept up to its last full sentence" in said


def test_a_summary_cut_at_its_cap_with_no_full_sentence_is_refused_and_the_turns_kept(tmp_path, monkeypatch):
    turns, conv, answered = cut_summaries(tmp_path, monkeypatch, "the user noted " * 1000)
    assert answered == ["length"] and (conv.summary, conv.summary_covers) == ("", 0)
    warnings = [e.text for e in turns[3] if isinstance(e, Notice) and e.warning]
    assert any(f"cut off at {SUMMARY_MAX_TOKENS} tokens with no full sentence to keep" in w for w in warnings)


def test_a_summary_call_cut_with_no_text_is_refused(tmp_path):
    # a reasoning model can spend the whole cap thinking: the cut leaves no text, and nothing passes for a summary
    class Thinking(SummaryModel):
        def complete(self, messages, **ask):
            super().complete(messages, **ask)
            return Completion("", Usage(50, SUMMARY_MAX_TOKENS, 50 + SUMMARY_MAX_TOKENS), "length")

    session, call, log = summary_call(tmp_path, Thinking())
    with pytest.raises(SummaryError, match="cut off at 2048 tokens with no full sentence to keep"):
        call("", TURNS, 1)
    log.close()
    assert session.totals.summary_requests == 1


def test_a_summary_by_the_chat_model_carries_the_servers_count_and_one_by_another_model_does_not(tmp_path):
    # the count teaches the chat model's calibration: a --summary-model's server counts with its own tokenizer
    from chatbot.core.summaries import SummaryCall
    from chatbot.storage.session import Session

    session = Session.new("sid", system="sys", model="echo", memory=MemoryConfig(strategy="summary"))
    own = SummaryCall(session, SummaryModel(), TurnSettings())("", TURNS, 1)
    assert own.prompt_tokens and own.prompt_tokens > 0
    other = SummaryCall(session, SummaryModel(), TurnSettings(summary_model="small"))("", TURNS, 1)
    assert other.text and other.prompt_tokens is None


def test_sigterm_while_the_summary_written_ahead_is_awaited_ends_the_wait_as_a_signal_not_as_ctrl_c():
    """A service manager's SIGTERM (or a closed terminal's SIGHUP) during the wait is not "you stopped waiting": it
    goes on up as :class:`Interrupted`, so the process ends (the terminal's handler raises it, terminal/safety.py)."""
    from chatbot.errors import Interrupted

    gate = threading.Event()

    def write(previous, turns, first):
        gate.wait(10)  # a slow summary model: ten seconds unless the test lets it go
        return f"s{first}"

    def as_the_app_does(signum, frame):
        raise Interrupted.by_signal(signum)

    conv, ahead, inputs = _due_fold_written_ahead_by(write)
    previous = signal.signal(signal.SIGTERM, as_the_app_does)
    ahead.start(conv)
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGTERM))
    timer.start()
    try:
        with pytest.raises(Interrupted) as stopped:
            ahead.summarizer(*inputs)
        assert stopped.value.exit_code == 143
    finally:
        timer.cancel()
        gate.set()
        signal.signal(signal.SIGTERM, previous)
