"""Storage: where sessions live.

- :mod:`~chatbot.storage.session`: the session document (the one owner of its fields, to and from JSON)
- :mod:`~chatbot.storage.session_format`: checks of a decoded document
- :mod:`~chatbot.storage.base`: the :class:`SessionStore` protocol every backend implements
- :mod:`~chatbot.storage.json_store`: one crash-safe, locked, private JSON file per session (the default)
- :mod:`~chatbot.storage.postgres_store`: sessions in PostgreSQL, shared by several machines (``postgres`` extra)
- :mod:`~chatbot.storage.sqlite_store`: every session in one SQLite file, queryable with ``sqlite3`` or Datasette
- :data:`STORES`: the table that picks a store from ``--store`` (a new store is a module and a row there)
- :mod:`~chatbot.storage.transfer`: ``--import-sessions``, JSON files or another store into any store
- :mod:`~chatbot.storage.export`: the Markdown transcript
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chatbot.errors import ConfigError
from chatbot.storage import pg_address, sqlite_address
from chatbot.storage.base import SessionStore


def default_location() -> Path:
    """Where sessions live when nothing says: ``./sessions`` when the working directory has one (a checkout's own
    layout), else ``sessions`` in the user data directory, so that ``-c`` finds them from any folder."""
    here = Path("sessions")
    if here.is_dir():
        return here
    return user_location()


def user_location() -> Path:
    """The user's own sessions directory: ``sessions`` in the user data folder (``~/.local/share/chatbot/...``)."""
    import platformdirs

    return platformdirs.user_data_path("chatbot") / "sessions"


def is_this_folders(location: str) -> bool:
    """Whether ``location`` is this working directory's own ``./sessions``: a folder that came with what is here
    (a cloned repository can carry one), not the user's own store, unless it is also the user data folder."""
    if "://" in location and not location.startswith("file://"):
        return False
    path = Path(location.removeprefix("file://")).expanduser()
    try:
        return path.resolve() == Path("sessions").resolve() and path.resolve() != user_location().resolve()
    except OSError:
        return False


def elsewhere_hint(location: str) -> str:
    """For a message about this folder's ``./sessions``: where the user's other sessions are and how to reach them
    ("" for any other store, or when the user data folder holds none)."""
    if not is_this_folders(location):
        return ""
    mine = user_location()
    if not mine.is_dir() or not any(mine.glob("*.json")):
        return ""
    return (
        f"; {location} is this folder's own, used because it exists: your other sessions are in {mine} "
        f"(chatbot -c --sessions-dir {mine} continues the newest there)"
    )


@dataclass(frozen=True)
class StoreKind:
    """One kind of store in :data:`STORES`: the ``--store`` values it answers to and the class that opens them.

    ``claims`` says whether a location is this kind's (it reads no database: the store's module is imported only
    when one is opened); ``module`` and ``cls`` name the class, built with the location as
    ``prepare`` leaves it (checked, its scheme dropped where the class wants a path); ``needs`` is what to install
    when the module's own dependency is missing.
    """

    name: str
    example: str
    claims: Callable[[str], bool]
    module: str
    cls: str
    prepare: Callable[[str], Any] = str
    needs: str = ""


def _json_path(location: str) -> str:
    return location.removeprefix("file://")


#: every kind of store, tried in order: the first whose ``claims`` holds opens the location (the last takes any path)
STORES = (
    StoreKind(
        "postgresql",
        "postgresql://USER@HOST/DB",
        pg_address.is_postgres,
        "chatbot.storage.postgres_store",
        "PostgresStore",
        pg_address.checked,
        needs="psycopg 3: pip install 'chatbot[postgres]' (or 'psycopg[binary]')",
    ),
    StoreKind(
        "sqlite",
        "sqlite:///PATH.db",
        sqlite_address.claims,
        "chatbot.storage.sqlite_store",
        "SqliteStore",
    ),
    StoreKind(
        "json", "a directory or file://DIR", lambda text: True, "chatbot.storage.json_store", "JsonStore", _json_path
    ),
)


def store_kind(location: str | os.PathLike[str]) -> StoreKind:
    """The kind of store ``location`` names (refuses a URL scheme no store answers to, naming the ones that do)."""
    text = os.fspath(location)
    for kind in STORES:
        if kind.claims(text):
            if kind.name == "json" and "://" in text and not text.startswith("file://"):
                break
            return kind
    scheme = text.split("://", 1)[0]
    raise ConfigError(f"--store {scheme}://…: unknown store; use {', '.join(k.example for k in STORES[::-1])}")


def open_store(location: str | os.PathLike[str]) -> SessionStore:
    """The store at ``location``, of the kind :data:`STORES` picks for it."""
    kind = store_kind(location)
    target = kind.prepare(os.fspath(location))
    try:
        module = importlib.import_module(kind.module)
    except ImportError:
        raise ConfigError(f"a {kind.name}:// store needs {kind.needs}") from None
    store: SessionStore = getattr(module, kind.cls)(target)
    return store
