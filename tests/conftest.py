"""Shared fixtures: a word counter that makes budgets easy to reason about, and turn builders."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from typing import Any

import pytest

from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import ChatFormat, TokenCounter
from chatbot.engine.turn import Turn
from tests.support.mutation import prepare_for_mutmut


def pytest_configure(config: pytest.Config) -> None:
    prepare_for_mutmut()
    # a suite started in the background (``cmd &`` in a script, as a CI runner or mutmut may be) inherits Ctrl-C
    # ignored, and so would every chatbot child it starts: the Ctrl-C tests need it delivered as a user's would be
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


class WordCounter(TokenCounter):
    """One token per whitespace-separated word, one per message, none per request: exact arithmetic in tests."""

    name = "words"

    def __init__(self) -> None:
        super().__init__(ChatFormat(per_message=1, per_request=0))

    def count(self, text: str) -> int:
        return len(text.split())


def make_turn(i: int, words: int = 3, tool: bool = False) -> Turn:
    """Turn number ``i``: a user message and an answer, each ``words`` words (plus a tool round trip if asked)."""
    user = {"role": "user", "content": " ".join([f"u{i}"] * words)}
    msgs: list[dict[str, Any]] = [user]
    if tool:
        call = {"id": f"call{i}", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
        msgs.append({"role": "assistant", "content": None, "tool_calls": [call]})
        msgs.append({"role": "tool", "tool_call_id": f"call{i}", "content": f"result {i}"})
    msgs.append({"role": "assistant", "content": " ".join([f"a{i}"] * words)})
    return Turn(msgs)


@pytest.fixture
def counter() -> WordCounter:
    return WordCounter()


@pytest.fixture
def conv_factory(counter: WordCounter):
    """Build a Conversation with ``n`` stored turns and the given memory settings."""

    def build(n: int = 0, system: str = "sys", tool_every: int = 0, **memory: Any) -> Conversation:
        memory.setdefault("max_input_tokens", 100_000)
        conv = Conversation(system, MemoryConfig(**memory), counter)
        for i in range(1, n + 1):
            conv.add_turn(make_turn(i, tool=bool(tool_every) and i % tool_every == 0))
        return conv

    return build


class RecordingSummarizer:
    """A summarizer that records its calls and answers with one short line per folded turn."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int, int]] = []

    def __call__(self, previous: str, turns: list[list[dict[str, Any]]], first: int) -> str:
        self.calls.append((previous, first, len(turns)))
        lines = [previous] if previous else []
        lines += [f"t{first + k}" for k in range(len(turns))]
        return " ".join(lines)


@pytest.fixture
def summarizer() -> RecordingSummarizer:
    return RecordingSummarizer()


# --- app-level fixtures (echo provider, a private sessions dir) -------------------------------------------------


@pytest.fixture
def sessions_dir(tmp_path):
    return tmp_path / "sessions"


@pytest.fixture
def make_app(sessions_dir):
    """Build an App over the echo provider (or another provider) and a store in a temporary directory."""
    from chatbot.core.app import App, AppSettings
    from chatbot.providers.echo import EchoProvider
    from chatbot.storage.json_store import JsonStore

    apps = []

    def build(provider=None, **memory: Any):
        settings = AppSettings(provider_name="echo", model=None, memory=MemoryConfig(**memory))
        app = App(JsonStore(sessions_dir), provider or EchoProvider(delay=0), settings, lambda model: TokenCounter())
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.close()


ENV_VARS = ("GROQ_API_KEY", "OPENAI_API_KEY", "GROQ_BASE_URL", "OPENAI_BASE_URL", "CHATBOT_ECHO_DELAY")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """No provider keys or base URLs from the developer's shell leak into a test."""
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    yield monkeypatch


@pytest.fixture
def make_tool_app(sessions_dir):
    """Build an App whose model may call ``tools`` (a list of Tool objects), over echo or another provider."""
    from chatbot.core.app import App, AppSettings
    from chatbot.core.turn_settings import TurnSettings
    from chatbot.providers.echo import EchoProvider
    from chatbot.storage.json_store import JsonStore
    from chatbot.tools.registry import Registry

    apps = []

    def build(tools, provider=None, max_tool_rounds: int = 8, timeout: float = 5, **memory: Any):
        settings = AppSettings("echo", None, MemoryConfig(**memory), run=TurnSettings(max_tool_rounds=max_tool_rounds))
        registry = Registry(tools, timeout=timeout)
        provider = provider or EchoProvider(delay=0)
        app = App(JsonStore(sessions_dir), provider, settings, lambda model: TokenCounter(), tools=registry)
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.close()


# --- every session store (tests/storage/test_store_behaviour.py runs against each) ------------------------------


@pytest.fixture(params=["json", "sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    """Where a fresh, empty store lives: a JSON directory, a SQLite file, or a scratch schema on the test PostgreSQL."""
    from tests.support.stores import postgres_base_url, scratch_schema

    if request.param == "json":
        yield str(tmp_path / "sessions")
        return
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store' / 'chat.db'}"  # sqlite:////tmp/...: an absolute path, four slashes
        return
    with scratch_schema(postgres_base_url()) as url:
        yield url


@pytest.fixture
def open_test_store(store_url: str, tmp_path):
    """Open stores at ``store_url`` (closed at the end); PostgreSQL rescue files go under tmp_path."""
    from chatbot.storage import open_store

    stores = []

    def build():
        if store_url.startswith("postgresql://"):
            from chatbot.storage.postgres_store import PostgresStore

            store = PostgresStore(store_url, tmp_path / "rescue")
        else:
            store = open_store(store_url)
        stores.append(store)
        return store

    yield build
    for store in stores:
        store.close()


@pytest.fixture
def store(open_test_store):
    """One open store of each kind (the behaviour suite's subject)."""
    return open_test_store()


@pytest.fixture(autouse=True, scope="session")
def private_user_folders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No test reads or writes the developer's own sessions, rescue files, history or config: the user data and
    config folders (and every child process's) point into a temporary directory for the whole run."""
    import os

    home = tmp_path_factory.mktemp("user")
    saved = {k: os.environ.get(k) for k in ("XDG_DATA_HOME", "XDG_CONFIG_HOME")}
    os.environ["XDG_DATA_HOME"] = str(home / "data")
    os.environ["XDG_CONFIG_HOME"] = str(home / "config")
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture
def spawn(tmp_path):
    """Start ``chatbot ARGS`` in a pseudo-terminal in ``tmp_path`` (``env`` adds variables); closed after the test."""
    from tests.support.cli import spawn_chatbot

    children = []

    def start(*args: str, env: dict[str, str | None] | None = None):
        children.append(spawn_chatbot(*args, cwd=tmp_path, env=env))
        return children[-1]

    yield start
    for child in children:
        child.close(force=True)


# --- the PostgreSQL store alone (tests/storage/test_postgres_*.py) -----------------------------------------------


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh scratch schema on the test PostgreSQL (skipped without one, as the store's other tests)."""
    from tests.support.stores import postgres_base_url, scratch_schema

    with scratch_schema(postgres_base_url()) as url:
        yield url


@pytest.fixture
def open_pg(pg_url: str, tmp_path):
    """Open PostgreSQL stores on ``pg_url`` (or another URL); rescue files go under tmp_path/rescue; all closed at
    the end (a close that can only write a rescue file is not the test's subject there)."""
    import contextlib

    from chatbot.errors import StoreUnavailable
    from chatbot.storage.postgres_store import PostgresStore

    stores = []

    def build(url: str | None = None) -> PostgresStore:
        stores.append(PostgresStore(url or pg_url, tmp_path / "rescue"))
        return stores[-1]

    yield build
    for store in stores:
        with contextlib.suppress(StoreUnavailable):
            store.close()
