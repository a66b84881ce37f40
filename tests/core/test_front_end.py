"""The one way a front end runs a turn: every kind of event reaches the front end's own sink, in order."""

from __future__ import annotations

import threading
import time

from chatbot.core.events import Asking, Notice, ToolFinished, ToolStarted
from chatbot.core.front_end import run_turn
from chatbot.providers.base import Completion, ReasoningDelta, StreamEnd, TextDelta, Usage
from chatbot.providers.echo import EchoProvider


class Thinking(EchoProvider):
    """Reasons, then answers in two pieces and says the reply was cut at the output limit."""

    def __init__(self) -> None:
        super().__init__(delay=0)

    def stream(self, messages, *, model=None, max_tokens=None, tools=None, options=None):
        yield ReasoningDelta("hmm")
        yield TextDelta("half ")
        yield TextDelta("an answer")
        yield StreamEnd(Usage(10, 3, 13), "length")

    def complete(self, messages, *, model=None, max_tokens=None, tools=None, options=None):
        return Completion("the gist", Usage(5, 5, 10), "stop")


class Shown:
    """A front end that keeps what it is shown, in order (the terminal's and script mode's sinks print it)."""

    output = "a list"

    def __init__(self) -> None:
        self.seen: list[tuple[str, object]] = []

    def text(self, text: str) -> None:
        self.seen.append(("text", text))

    def reasoning(self, text: str) -> None:
        self.seen.append(("reasoning", text))

    def notice(self, notice: Notice) -> None:
        self.seen.append(("notice", notice.text))

    def tool(self, event: ToolStarted | ToolFinished) -> None:
        self.seen.append(("tool", event))

    def waiting(self, last: object) -> None:
        self.seen.append(("waiting", last))

    def finish(self) -> None:
        self.seen.append(("finish", None))

    def stop(self, exc: BaseException) -> None:
        self.seen.append(("stop", exc))


def test_each_event_of_a_turn_reaches_the_sinks_own_method_in_order(make_app):
    chat = make_app(Thinking()).open("s")
    sink = Shown()
    done = run_turn(chat, "q", sink)
    assert done is not None and done.turn.answer_text == "half an answer"
    assert sink.seen == [
        ("reasoning", "hmm"),
        ("text", "half "),
        ("text", "an answer"),
        ("notice", "the reply was cut off by the server (its own reply limit, or the model's context window was full)"),
        ("finish", None),
    ]


class Pieces(EchoProvider):
    """Answers in 5,000 pieces, as a long reply streams token by token; the first after ``first`` seconds."""

    def __init__(self, first: float = 0.0) -> None:
        super().__init__(delay=0)
        self.first = first

    def stream(self, messages, *, model=None, max_tokens=None, tools=None, options=None):
        time.sleep(self.first)
        for _ in range(5000):
            yield TextDelta("word ")
        yield StreamEnd(Usage(10, 5000, 5010), "stop")


def test_a_reply_of_thousands_of_pieces_is_watched_by_one_thread_not_one_a_piece(make_app, monkeypatch):
    started: list[threading.Thread] = []
    start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda self: (started.append(self), start(self))[1])
    chat = make_app(Pieces()).open("s")
    sink = Shown()
    done = run_turn(chat, "q", sink)
    assert done is not None and done.turn.answer_text == "word " * 5000
    assert len(started) == 1  # the watch (it told nothing: no piece was slow)
    assert not [seen for seen in sink.seen if seen[0] == "waiting"]


def test_a_slow_first_piece_is_told_once_as_the_servers_wait(make_app, monkeypatch):
    monkeypatch.setattr("chatbot.core.front_end.WAIT_DELAY", 0.2)
    chat = make_app(Pieces(first=0.6)).open("s")
    sink = Shown()
    run_turn(chat, "q", sink)
    assert [seen for seen in sink.seen if seen[0] == "waiting"] == [("waiting", Asking())]
