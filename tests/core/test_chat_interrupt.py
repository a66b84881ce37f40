"""Ctrl-C during a reply, against a real HTTP server: the connection is hung up at once (the server stops
generating, and billing, tokens nobody will read), not when the interrupted traceback is finally dropped."""

from __future__ import annotations

import time

from chatbot.core.events import Asking, stop_reply
from chatbot.core.rounds import INTERRUPTED_MARK
from chatbot.providers import make_provider
from chatbot.providers.base import TextDelta
from tests.support.fake_server import FakeServer


def test_ctrl_c_during_a_reply_hangs_up_on_the_server_at_once(make_app, clean_env):
    with FakeServer(reply="word " * 400, chunks=400, delay=0.01) as server:
        provider = make_provider("openai", model="m", base_url=server.base_url, max_retries=0)
        app = make_app(provider, strategy="full")
        chat = app.open("s")
        events = chat.send("hello")
        assert next(events) == Asking()  # the request goes out
        assert isinstance(next(events), TextDelta)
        ctrl_c = KeyboardInterrupt()
        stop_reply(events, ctrl_c)  # what the front ends do with Ctrl-C; they still hold it while they tell the user
        deadline = time.monotonic() + 10
        while server.record.disconnects == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert server.record.disconnects == 1
        assert ctrl_c.__traceback__ is not None  # (still held: the hang-up did not wait for it to go)
    turn = app.store.load("s").conversation.turns[-1]
    assert turn.interrupted and turn.answer_text.endswith(INTERRUPTED_MARK)
