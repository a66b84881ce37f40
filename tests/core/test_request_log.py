"""Timing and failures of a chat call as the user and the request log see them: the time to the first piece is when
the first piece came (not the last), a whole (--no-stream) reply has none, the turn's latency reaches the front end,
and a chat call that fails is one log line naming the failure. A call that asked for tools is a ``tool_call`` line;
without usage from the server a line still has the local counts."""

from __future__ import annotations

import contextlib
import json
import os
import time
from datetime import datetime

import pytest

from chatbot.core.app import App, AppSettings
from chatbot.core.events import Asking, TurnDone
from chatbot.core.request_log import RequestLog
from chatbot.core.turn_settings import TurnSettings
from chatbot.engine.memory import SUMMARY_MAX_TOKENS, MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.errors import ConfigError, ContextLengthError, ServerError
from chatbot.providers.base import Completion, StreamEnd, TextDelta, Usage
from chatbot.providers.echo import EchoProvider
from chatbot.storage.json_store import JsonStore
from chatbot.tools.registry import Registry
from tests.support.cli import one_error_line, run_chatbot
from tests.support.fake_server import FakeServer
from tests.support.hard_links import STORES, link_to_a_session, victim_loads
from tests.support.tool_fixtures import add, function_tools

PAUSE = 0.1


class Paused(EchoProvider):
    """Streams a first piece, pauses, then the rest; a whole reply takes the same pause."""

    def stream(self, messages, **ask):
        yield TextDelta("first")
        time.sleep(PAUSE)
        yield TextDelta(" second")
        yield StreamEnd(Usage(30, 2, 32), "stop")

    def complete(self, messages, **ask):
        time.sleep(PAUSE)
        return Completion("first second", Usage(30, 2, 32), "stop")


class Silent(EchoProvider):
    """Streams nothing but its end, after the pause: a reply with no piece at all."""

    def stream(self, messages, **ask):
        time.sleep(PAUSE)
        yield StreamEnd(Usage(30, 0, 30), "stop")


class Down(EchoProvider):
    def stream(self, messages, **ask):
        raise ServerError("the model is down")
        yield  # a generator, like a real provider's stream


@pytest.fixture
def logged(tmp_path):
    apps = []

    def build(provider, *, stream: bool = True):
        log = tmp_path / "requests.jsonl"
        settings = AppSettings(
            "echo", None, MemoryConfig(strategy="full"), run=TurnSettings(log=RequestLog(str(log), ()), stream=stream)
        )
        app = App(JsonStore(tmp_path / "s"), provider, settings, lambda model: TokenCounter())
        apps.append(app)
        return app.open("s"), log

    yield build
    for app in apps:
        app.close()


def lines(log):
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_the_time_to_the_first_piece_is_when_it_came_not_when_the_reply_ended(logged):
    chat, log = logged(Paused(delay=0))
    done = list(chat.send("hi"))[-1]
    (record,) = lines(log)
    assert record["ttft"] is not None and record["latency"] - record["ttft"] >= PAUSE - 0.001  # (each rounded to ms)
    # the turn's latency is what the front end shows ("· 0.1s")
    assert isinstance(done, TurnDone) and done.latency == done.turn.latency >= PAUSE


def test_a_whole_reply_has_no_time_to_a_first_piece(logged):
    chat, log = logged(Paused(delay=0), stream=False)
    assert list(chat.send("hi"))[-1].turn.answer_text == "first second"
    (record,) = lines(log)
    assert record["ttft"] is None and record["latency"] >= PAUSE


def test_a_streamed_reply_with_no_piece_has_no_time_to_a_first_piece(logged):
    chat, log = logged(Silent(delay=0))
    list(chat.send("hi"))
    (record,) = lines(log)
    assert record["ttft"] is None and record["latency"] >= PAUSE


def test_a_failed_chat_call_is_one_line_naming_the_failure(logged):
    chat, log = logged(Down(delay=0))
    with pytest.raises(ServerError):
        list(chat.send("hi"))
    (record,) = lines(log)
    assert (record["kind"], record["ok"], record["error"]) == ("chat", False, "ServerError")
    assert record["request_tokens"]["estimate"] > 0 and record["completion_tokens"]["estimate"] is None


# --- summary and interrupted calls in the log ------------------------------------------------------------


class Logged(EchoProvider):
    def __init__(self, fail_summary: bool = False, window: int | None = None) -> None:
        super().__init__(delay=0)
        self.fail_summary = fail_summary
        self.window = window  # the first summary request is refused, naming this window

    def stream(self, messages, *, model=None, max_tokens=None, tools=None, options=None):
        yield TextDelta("an answer")
        yield StreamEnd(Usage(50, 2, 52), "stop")

    def complete(self, messages, *, model=None, max_tokens=None, tools=None, options=None):
        if self.fail_summary:
            raise ServerError("summary model down")
        if self.window:
            self.window, window = None, self.window
            raise ContextLengthError(f"maximum context length is {window} tokens", limit=window)
        return Completion("gist", Usage(20, 3, 23), "stop")


@pytest.fixture
def logged_app(tmp_path):
    apps = []

    def build(provider, **memory):
        log = tmp_path / "log.jsonl"
        settings = AppSettings(
            "echo", None, MemoryConfig(**memory), run=TurnSettings(log=RequestLog(str(log), ()), summary_model="small")
        )
        app = App(JsonStore(tmp_path / "s"), provider, settings, lambda model: TokenCounter())
        apps.append(app)
        return app, log

    yield build
    for app in apps:
        app.close()


def test_each_chat_and_summary_call_is_one_line_with_its_numbers(logged_app):
    app, log = logged_app(Logged(), summary_trigger=2, keep_turns=1)
    chat = app.open("l")
    for q in ("one", "two", "three", "four"):
        list(chat.send(q))
    records = lines(log)
    assert [r["kind"] for r in records] == ["chat", "chat", "chat", "summary", "chat"]
    first, summary, last = records[0], records[3], records[4]
    assert (first["session"], first["provider"], first["model"], first["strategy"]) == ("l", "echo", "echo", "summary")
    assert first["request_tokens"]["provider"] == 50 and first["request_tokens"]["estimate"] > 0
    assert first["completion_tokens"] == {"provider": 2, "estimate": 2}  # "an answer": two rough tokens
    assert first["ok"] is True and first["error"] is None and first["finish_reason"] == "stop"
    assert first["ttft"] is not None and first["ttft"] <= first["latency"]
    assert summary["model"] == "small" and summary["summarized"] == 2 and summary["request_tokens"]["provider"] == 20
    assert last["summarized"] == 2 and last["dropped"] == 0
    # the reply limit asked for: none without --max-output-tokens; a summary's cap (no window known: the most)
    assert first["max_tokens"] is None and summary["max_tokens"] == SUMMARY_MAX_TOKENS


def test_a_summary_request_refused_for_the_window_is_a_line_of_its_own_before_the_retry_under_it(logged_app):
    app, log = logged_app(Logged(window=1000), summary_trigger=2, keep_turns=1)
    chat = app.open("l")
    for q in ("one", "two", "three", "four"):
        list(chat.send(q))
    refused, retried = lines(log)[3:5]
    assert (refused["kind"], refused["error"], refused["max_tokens"]) == ("summary", "ContextLengthError", 2048)
    assert (retried["kind"], retried["ok"]) == ("summary", True) and retried["max_tokens"] < 1000


def test_a_failed_summary_is_logged_as_such(logged_app):
    app, log = logged_app(Logged(fail_summary=True), summary_trigger=2, keep_turns=1)
    chat = app.open("f")
    for q in ("one", "two", "three", "four"):
        list(chat.send(q))
    failed = next(r for r in lines(log) if r["kind"] == "summary")
    assert failed["ok"] is False and failed["error"] == "ServerError" and failed["request_tokens"]["provider"] is None


def test_an_interrupted_reply_is_logged_as_such(logged_app):
    app, log = logged_app(Logged(), strategy="full")
    events = app.open("i").send("hello")
    assert next(events) == Asking()
    assert isinstance(next(events), TextDelta)
    events.close()
    (interrupted,) = lines(log)
    assert interrupted["kind"] == "chat" and interrupted["error"] == "interrupted" and interrupted["ok"] is False
    assert interrupted["completion_tokens"]["estimate"] is None


class Unmetered(EchoProvider):
    """Echo whose server reports no usage."""

    def stream(self, messages, **ask):
        for event in super().stream(messages, **ask):
            yield StreamEnd(None, event.finish_reason) if isinstance(event, StreamEnd) else event


def test_a_call_that_asked_for_tools_is_a_tool_call_line_and_its_answer_a_chat_line(tmp_path):
    log = tmp_path / "log.jsonl"
    settings = AppSettings("echo", None, MemoryConfig(strategy="full"), run=TurnSettings(log=RequestLog(str(log), ())))
    tools = Registry(function_tools(add))
    app = App(JsonStore(tmp_path / "s"), EchoProvider(delay=0), settings, lambda model: TokenCounter(), tools=tools)
    try:
        list(app.open("t").send('@tool add {"a": 2, "b": 3}'))
    finally:
        app.close()
    calling, answering = lines(log)
    assert (calling["kind"], calling["finish_reason"], calling["ok"]) == ("tool_call", "tool_calls", True)
    assert (answering["kind"], answering["finish_reason"]) == ("chat", "stop")


def test_without_usage_from_the_server_the_log_has_the_local_counts(logged):
    chat, log = logged(Unmetered(delay=0))
    done = list(chat.send("hello there"))[-1]
    (record,) = lines(log)
    answer = chat.conversation.counter.count(done.turn.answer_text)
    assert answer > 10  # (the echo model describes the request at length)
    assert record["completion_tokens"] == {"provider": None, "estimate": answer}
    assert record["request_tokens"] == {"provider": None, "estimate": done.estimated_prompt}


# --- the log through the real command --------------------------------------------------------------------


def test_request_log_has_one_line_per_call_and_never_the_text_or_key(tmp_path):
    log = tmp_path / "requests.jsonl"
    secret = "sk-test-never-logged-123"
    with FakeServer(reply="fine answer words") as server:
        for i in range(4):
            result = run_chatbot(
                "--provider", "openai", "--base-url", server.base_url, "--session", "lg", "--summary-trigger", "2",
                "--keep-turns", "1", "--log-requests", str(log), "-p", f"secret-question-{i}", cwd=tmp_path,
                env={"OPENAI_API_KEY": secret},
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
    raw = log.read_text()
    assert secret not in raw and "secret-question" not in raw and "fine answer" not in raw
    records = [json.loads(line) for line in raw.splitlines()]
    kinds = [r["kind"] for r in records]
    assert kinds == ["chat", "chat", "chat", "summary", "chat"]  # turn 4 folds turns 1-2 first
    chat, summary = records[0], records[3]
    assert chat["session"] == "lg" and chat["model"] == "gpt-4o-mini" and chat["strategy"] == "summary"
    assert chat["request_tokens"]["provider"] > 0 and chat["request_tokens"]["estimate"] > 0
    assert chat["completion_tokens"] == {"provider": 3, "estimate": chat["completion_tokens"]["estimate"]}
    assert chat["ttft"] is not None and chat["latency"] >= chat["ttft"] and chat["ok"] is True
    assert chat["finish_reason"] == "stop" and summary["request_tokens"]["estimate"] > 0
    assert summary["summarized"] == 2 and records[4]["summarized"] == 2 and records[4]["dropped"] == 0
    assert (log.stat().st_mode & 0o777) == 0o600


def test_request_log_records_a_failed_call(tmp_path):
    log = tmp_path / "log.jsonl"
    with FakeServer(error="auth") as server:
        result = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url, "--log-requests", str(log), "-p", "hi",
            cwd=tmp_path, env={"OPENAI_API_KEY": "k"},
        )  # fmt: skip
    assert result.returncode == 5
    (record,) = [json.loads(line) for line in log.read_text().splitlines()]
    assert (
        record["ok"] is False
        and record["error"] == "AuthenticationError"
        and record["request_tokens"]["provider"] is None
    )


def test_request_log_in_an_unwritable_place_is_one_line(tmp_path):
    result = run_chatbot("--provider", "echo", "--log-requests", str(tmp_path / "no" / "dir.jsonl"), "-p", "hi",
                         cwd=tmp_path)  # fmt: skip
    assert result.returncode == 2 and "cannot open the request log" in one_error_line(result)


@pytest.mark.parametrize("kind", STORES)
def test_request_log_never_appends_through_a_hard_link_to_the_stores_file(tmp_path, kind):
    """``--log-requests notes.log`` where notes.log is another name for a session file (or for the SQLite file) is
    refused before anything is sent: nothing is appended and the session still loads."""
    link = link_to_a_session(tmp_path, kind, "notes.log")
    before = link.read_bytes()
    refused = run_chatbot(*STORES[kind], "--provider", "echo", "--log-requests", "notes.log", "-p", "hi", cwd=tmp_path)
    assert refused.returncode == 2 and "notes.log is another name (a hard link)" in one_error_line(refused)
    assert link.read_bytes() == before and victim_loads(tmp_path, kind)


def test_request_log_appends_to_a_log_but_never_writes_into_a_session_or_through_a_symlink(tmp_path):
    """The log is appended to by design (each run adds its lines); a session file or a symbolic link is refused
    before anything is sent, and the session it named still loads and takes its turn."""
    run_chatbot("--provider", "echo", "--session", "other", stdin="x\n", cwd=tmp_path)
    session = tmp_path / "sessions" / "other.json"
    into = run_chatbot("--provider", "echo", "--session", "other", "--log-requests", str(session), "-p", "hi",
                       cwd=tmp_path)  # fmt: skip
    assert into.returncode == 2 and "inside the session store" in one_error_line(into)
    assert len(json.loads(session.read_text())["turns"]) == 1
    (tmp_path / "elsewhere.txt").write_text("keep")
    (tmp_path / "link.jsonl").symlink_to(tmp_path / "elsewhere.txt")
    linked = run_chatbot("--provider", "echo", "--log-requests", "link.jsonl", "-p", "hi", cwd=tmp_path)
    assert "symbolic link" in one_error_line(linked) and (tmp_path / "elsewhere.txt").read_text() == "keep"
    for _ in range(2):
        done = run_chatbot("--provider", "echo", "--session", "other", "--log-requests", "log.jsonl", "-p", "hi",
                           cwd=tmp_path)  # fmt: skip
        assert done.returncode == 0, done.stderr
    assert len((tmp_path / "log.jsonl").read_text().splitlines()) == 2
    assert len(json.loads(session.read_text())["turns"]) == 3


class BreaksAfterOnePiece(EchoProvider):
    """Streams one piece of a reply, then fails (a server error mid-stream)."""

    def stream(self, messages, *, model=None, max_tokens=None, options=None):
        yield TextDelta("Half an ")
        raise ServerError("the server went away")


@pytest.mark.parametrize("how", ["failed", "interrupted"])
def test_a_call_that_breaks_off_is_logged_with_its_model_and_time_to_first_token(make_app, tmp_path, how):
    chat = make_app(BreaksAfterOnePiece(delay=0)).open("s")
    chat.run = TurnSettings(log=RequestLog(str(tmp_path / "requests.jsonl"), ()))
    events = chat.send("hello")
    assert isinstance(next(e for e in events if isinstance(e, TextDelta)), TextDelta)
    if how == "failed":
        with pytest.raises(ServerError):
            next(events)
    else:
        events.close()  # Ctrl-C
    chat.run.log.close()
    line = json.loads((tmp_path / "requests.jsonl").read_text().splitlines()[-1])
    assert line["model"] == chat.model and line["kind"] == "chat" and line["ttft"] is not None
    assert line["error"] == ("ServerError" if how == "failed" else "interrupted") and line["ok"] is False


# --- the record itself ----------------------------------------------------------------------------------------


def test_a_call_record_is_one_compact_utf8_line_with_every_field_in_order(tmp_path, monkeypatch):
    path = tmp_path / "requests.jsonl"
    log = RequestLog(str(path), ())
    monkeypatch.setattr(time, "monotonic", lambda: 101.23456)  # the call ends 1.23456 s after it began
    log.call(
        "chat", session="café", provider="openai", model="gpt-é", strategy="full", started=100.0,
        estimate=(12, 3), usage=Usage(14, 4, 18), max_tokens=300, first=100.12345, finish_reason="stop",
    )  # fmt: skip
    log.close()
    raw = path.read_text(encoding="utf-8")
    stamp = json.loads(raw)["time"]
    assert raw == (
        '{"time":"' + stamp + '","session":"café","provider":"openai","model":"gpt-é","kind":"chat",'
        '"strategy":"full","request_tokens":{"provider":14,"estimate":12},"max_tokens":300,'
        '"completion_tokens":{"provider":4,"estimate":3},"latency":1.235,"ttft":0.123,"finish_reason":"stop",'
        '"summarized":0,"dropped":0,"ok":true,"error":null}\n'
    )
    assert datetime.fromisoformat(stamp).tzinfo is not None  # a real UTC stamp, not a null
    assert log.path == str(path)
    assert (path.stat().st_mode & 0o777) == 0o600  # the log is the user's alone


def test_a_record_with_a_field_the_log_does_not_know_is_refused(tmp_path):
    log = RequestLog(str(tmp_path / "requests.jsonl"), ())
    with pytest.raises(ValueError, match=r"^not a request-log field: \['colour', 'text'\]$"):
        log.write(kind="chat", text="hello", colour="red")
    log.close()
    assert (tmp_path / "requests.jsonl").read_text() == ""


def test_a_full_disk_does_not_end_the_chat(tmp_path):
    log = RequestLog("/dev/full", ())  # every write fails with ENOSPC
    log.write(kind="chat", ok=True)
    log.close()


def test_a_log_that_cannot_be_opened_says_why_in_words(tmp_path):
    with pytest.raises(ConfigError) as caught:
        RequestLog(str(tmp_path / "gone" / "log.jsonl"), ())  # in a folder that is not there
    assert caught.value.message == f"cannot open the request log {tmp_path}/gone/log.jsonl: No such file or directory"


def test_closing_the_log_twice_closes_nothing_else(tmp_path):
    log = RequestLog(str(tmp_path / "log.jsonl"), ())
    log.close()
    reused = os.open(os.devnull, os.O_RDONLY)  # most likely the number the log's file had
    saved_stdout = os.dup(1)
    try:
        log.close()
        os.fstat(reused)
        os.fstat(1)
    finally:
        os.dup2(saved_stdout, 1)  # put back, should a second close have taken it
        os.close(saved_stdout)
        with contextlib.suppress(OSError):
            os.close(reused)


def test_closing_the_log_twice_closes_its_file_once_and_nothing_else(tmp_path, monkeypatch):
    from chatbot.core import request_log

    closed: list[int] = []
    real_close = os.close

    def close(fd: int) -> None:
        closed.append(fd)
        real_close(fd)

    log = RequestLog(str(tmp_path / "log.jsonl"), ())
    monkeypatch.setattr(request_log.os, "close", close)
    log.close()
    log.close()  # (an error path and the way out may both close it)
    assert len(closed) == 1 and closed[0] > 2  # never a standard stream


def test_a_log_opened_while_stdin_is_closed_is_descriptor_0_and_closing_releases_it(tmp_path):
    """With stdin closed (``chatbot ... <&-``, some service managers) the log's file takes descriptor 0: closing the
    log closes that descriptor too, as it does any other."""
    saved_stdin = os.dup(0)
    os.close(0)
    try:
        log = RequestLog(str(tmp_path / "log.jsonl"), ())
        assert os.fstat(0).st_ino == (tmp_path / "log.jsonl").stat().st_ino  # the lowest free descriptor
        log.close()
        with pytest.raises(OSError):
            os.fstat(0)  # released, not left open until the process ends
    finally:
        os.dup2(saved_stdin, 0)
        os.close(saved_stdin)


def test_lines_the_log_could_not_write_are_counted_and_the_run_says_so_at_its_end(tmp_path):
    log = RequestLog("/dev/full", [])  # every write fails: No space left on device
    log.write(kind="chat")
    log.write(kind="chat")
    assert log.lost == 2 and log.problem() == (
        "the request log /dev/full could not be written (No space left on device): 2 line(s) are not in it"
    )
    log.close()
    done = run_chatbot("--provider", "echo", "--log-requests", "/dev/full", "-p", "hi", cwd=tmp_path)
    assert done.returncode == 0  # the chat is not ended by its log
    assert "warning: the request log /dev/full could not be written (No space left on device): 1 line(s)" in (
        done.stderr
    )


def test_a_log_that_took_every_line_says_nothing(tmp_path):
    log = RequestLog(str(tmp_path / "requests.jsonl"), [])
    log.write(kind="chat")
    assert log.lost == 0 and log.problem() == ""
    log.close()
