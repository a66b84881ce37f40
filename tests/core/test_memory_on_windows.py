"""A long conversation at the default memory settings against a server with a small window, through the real chat
(the openai provider over HTTP): the scripted server honours ``max_tokens`` (a longer reply is cut,
``finish_reason: "length"``) and refuses a prompt plus ``max_tokens`` over its window, as vLLM does, naming it.

Before, with a 4,096 window every summary went out with ``max_tokens`` 1 or 30, was cut and refused, and by turn 65
the request held the last 3 turns: 61 dropped, none summarized. What must hold: after the first refusal (the window
is not known before it) every request, chat and summary, fits the window with its reply; summaries are kept again
and again and cover all but the last turns; no turn is ever dropped unsummarized; the summary stays within its share.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chatbot.core.app import App, AppSettings
from chatbot.core.events import TurnDone
from chatbot.core.turn_settings import TurnSettings
from chatbot.engine.folds import summary_share
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.summary_prompt import is_summary_request
from chatbot.engine.tokens import TokenCounter
from chatbot.providers import make_provider
from chatbot.storage.json_store import JsonStore
from tests.support.fake_server import FakeServer, prompt_count

TURNS = 40
REPLY_WORD = "The ledger plan keeps totals small at first and adds export rules once the bank agrees with them."
#: what the server writes for a summary: ~200 words, shorter than the turns it replaces
SUMMARY = " ".join(["- the user plans the ledger; totals first, export rules later, bank check agreed."] * 15)


def words(n: int) -> str:
    base = REPLY_WORD.split()
    return " ".join(base[i % len(base)] for i in range(n))


@pytest.mark.parametrize("window", [2048, 4096])
def test_a_long_conversation_keeps_its_summaries_and_every_request_inside_a_small_window(
    window: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with FakeServer(reply=words(window // 5), whole_reply=SUMMARY, context=window) as server:
        provider = make_provider("openai", model="fake-model", base_url=server.base_url, max_retries=0)
        settings = AppSettings("openai", "fake-model", MemoryConfig(), run=TurnSettings(retries=2))
        app = App(JsonStore(tmp_path / "sessions"), provider, settings, lambda m: TokenCounter())
        chat = app.open("long")
        dropped = []
        for k in range(TURNS):
            events = list(chat.send(f"Step {k + 1}: explain the next part of the ledger plan, every rule spelled out."))
            dropped.append([e for e in events if isinstance(e, TurnDone)][-1].request.dropped)
        conv = chat.conversation
        bodies = list(zip(server.record.requests, server.record.outcomes, strict=True))
        app.close()
    first_refusal = next(i for i, (_, outcome) in enumerate(bodies) if outcome == "context")
    later = bodies[first_refusal + 1 :]
    assert [o for _, o in later if o == "context"] == []
    for body, _ in later:  # by the server's count, with the reply's room asked for
        assert prompt_count(server.config, body) + (body.get("max_tokens") or 0) <= window
    summaries = [o for b, o in bodies if is_summary_request(b["messages"])]
    assert summaries.count("stop") >= 4 and "length" not in summaries  # written again and again, never cut
    assert conv.summary_covers >= TURNS - conv.memory.summary_trigger  # all but the turns kept word for word
    assert max(dropped) == 0  # no turn left out unsummarized
    assert conv.counter.count(conv.summary) <= summary_share(conv) * 1.1
