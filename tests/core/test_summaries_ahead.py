"""SummaryAhead on its own: a summary already being written is not started again, nothing starts when no summary is
due or when writing ahead is off, and the fold that asks for it gets the one written ahead."""

from __future__ import annotations

import threading
import time

from chatbot.core.summaries import SummaryAhead
from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig, next_summary
from tests.conftest import WordCounter, make_turn


class Writer:
    """A summarizer that notes each call and holds it until ``gate`` opens."""

    def __init__(self) -> None:
        self.calls: list[int] = []
        self.gate = threading.Event()

    def __call__(self, previous, turns, first):
        self.calls.append(first)
        assert self.gate.wait(10)
        return f"turns {first}-{first + len(turns) - 1}"


def conversation(turns: int) -> Conversation:
    conv = Conversation("sys", MemoryConfig("summary", summary_trigger=2, keep_turns=1), WordCounter())
    for i in range(1, turns + 1):
        conv.add_turn(make_turn(i))
    return conv


def test_a_summary_already_being_written_is_not_started_again():
    write, conv = Writer(), conversation(3)
    ahead = SummaryAhead(write, enabled=True)
    ahead.start(conv)
    ahead.start(conv)  # the same summary is due: the job under way answers for it
    deadline = time.monotonic() + 5
    while not write.calls and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)  # (room for a second job to begin, were there one)
    write.gate.set()
    assert ahead.summarizer(*next_summary(conv)) == "turns 1-2"
    assert write.calls == [1]


def test_nothing_is_written_ahead_when_no_summary_is_due_or_when_it_is_off():
    write = Writer()
    write.gate.set()
    SummaryAhead(write, enabled=True).start(conversation(2))  # two turns: not yet over the trigger
    off = SummaryAhead(write, enabled=False)
    off.start(conversation(3))
    time.sleep(0.2)
    assert write.calls == []
    assert off.summarizer(*next_summary(conversation(3))) == "turns 1-2"  # written when asked, then
    assert write.calls == [1]


def test_a_discarded_summary_is_never_used_and_its_thread_never_holds_the_exit():
    write, conv = Writer(), conversation(3)
    ahead = SummaryAhead(write, enabled=True)
    ahead.start(conv)
    threads = [t for t in threading.enumerate() if t.name == "summary-ahead"]
    assert threads and all(t.daemon for t in threads)  # a summary still being written never delays the exit
    ahead.discard()
    assert not ahead.waiting(conv)
    write.gate.set()
    assert ahead.summarizer(*next_summary(conv)) == "turns 1-2"  # written anew: the discarded one is not waited for
    for thread in threads:
        thread.join(5)
    assert write.calls == [1, 1]


def test_a_turn_edited_in_place_while_its_summary_is_written_gets_a_summary_of_the_edit():
    write, conv = Writer(), conversation(3)
    ahead = SummaryAhead(write, enabled=True)
    ahead.start(conv)
    threads = [t for t in threading.enumerate() if t.name == "summary-ahead"]
    conv.turns[0].messages[0]["content"] = "edited"  # the job answers for the turns as they were when it began
    write.gate.set()
    ahead.summarizer(*next_summary(conv))
    for thread in threads:
        thread.join(5)
    assert write.calls == [1, 1]
