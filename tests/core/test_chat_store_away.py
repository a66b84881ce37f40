"""A session store that goes away during a chat (a shared database out of reach): every turn the user saw is kept
in memory and a warning says so once per turn, after the reply; when the store is back, one note says everything is
saved and the store holds every turn. No PostgreSQL needed: the JSON store stands in, made unavailable."""

from __future__ import annotations

import pytest

from chatbot.core.app import App, AppSettings
from chatbot.core.events import Notice, TurnDone
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.providers.echo import EchoProvider
from tests.support.away_store import AwayStore

BACK = Notice("the session store is back: every turn of this session is saved")


@pytest.fixture
def away_app(tmp_path):
    app = App(
        AwayStore(tmp_path / "s"),
        EchoProvider(delay=0),
        AppSettings("echo", None, MemoryConfig()),
        lambda m: TokenCounter(),
    )
    yield app
    app.close()


def notices(chat, text: str) -> list[Notice]:
    events = list(chat.send(text))
    assert isinstance(events[-1], TurnDone)
    return [e for e in events if isinstance(e, Notice)]


def stored(app, sid: str) -> list[str]:
    return [t.user_text for t in AwayStore(app.store.directory).load(sid).conversation.turns]


def test_an_unavailable_store_keeps_each_turn_with_one_warning_per_turn_then_saves_all_when_back(away_app):
    app = away_app
    chat = app.open("s")
    assert notices(chat, "first") == []
    app.store.away = True
    away = Notice(f"lost the session store {app.store.location}; session s is kept here", True)
    assert notices(chat, "second") == [away]
    assert notices(chat, "third") == [away]  # told again for this turn, and only once
    assert [t.user_text for t in chat.conversation.turns] == ["first", "second", "third"]
    assert stored(app, "s") == ["first"]
    app.store.away = False
    assert notices(chat, "fourth") == [BACK]
    assert stored(app, "s") == ["first", "second", "third", "fourth"]
    assert notices(chat, "fifth") == []  # back is said once


def test_the_warning_comes_after_the_reply(away_app):
    chat = away_app.open("s")
    away_app.store.away = True
    events = list(chat.send("hello"))
    kinds = [type(e).__name__ for e in events]
    assert kinds[-2:] == ["Notice", "TurnDone"] and "TextDelta" in kinds[:-2]
