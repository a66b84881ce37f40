"""Quitting never waits for a summary being written in the background: the process ends at once, a slow summary
model or not (the summary is simply written again, when needed, next time)."""

from __future__ import annotations

import subprocess
import sys
import time

SCRIPT = """
import threading, time
from chatbot import Chat, MemoryConfig, TurnSettings
from chatbot.providers.echo import EchoProvider
from chatbot.storage.session import Session

started = threading.Event()

class SlowSummaries(EchoProvider):
    def complete(self, messages, **ask):
        started.set()
        time.sleep(120)
        return super().complete(messages, **ask)

memory = MemoryConfig(strategy="summary", summary_trigger=2, keep_turns=1)
run = TurnSettings(background_summaries=True)
chat = Chat(Session.new("s", system="sys", memory=memory), SlowSummaries(delay=0), run=run)
for text in ("one", "two", "three"):
    list(chat.send(text))
print("writing the summary ahead:", started.wait(20), flush=True)
"""


def test_quitting_does_not_wait_for_a_summary_being_written():
    began = time.monotonic()
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "writing the summary ahead: True\n"
    assert time.monotonic() - began < 50  # not the 120 s the summary model takes
