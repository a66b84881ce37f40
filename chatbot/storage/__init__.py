"""Storage: where sessions live.

- :mod:`~chatbot.storage.session`: the session document (the one owner of its fields, to and from JSON)
- :mod:`~chatbot.storage.schema`: checks of a decoded document
- :mod:`~chatbot.storage.base`: the :class:`SessionStore` protocol every backend implements
- :mod:`~chatbot.storage.json_store`: one crash-safe, locked, private JSON file per session (the default)
- :mod:`~chatbot.storage.postgres_store`: sessions in PostgreSQL, shared by several machines (``postgres`` extra)
- :mod:`~chatbot.storage.transfer`: ``--import-sessions``, JSON files into any store
- :mod:`~chatbot.storage.export`: the Markdown transcript
"""

from __future__ import annotations

import os
from pathlib import Path

from chatbot.errors import ConfigError
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


def open_store(location: str | os.PathLike[str]) -> SessionStore:
    """The store at ``location``: ``postgresql://…`` (or ``postgres://…``, or libpq's ``host=… dbname=…``) is a
    PostgreSQL store; a directory path (or ``file://`` URL) is a JSON-file store."""
    from chatbot.storage import pg_address

    text = os.fspath(location)
    if pg_address.is_postgres(text):
        pg_address.check(text)
        try:
            from chatbot.storage.postgres_store import PostgresStore
        except ImportError:
            raise ConfigError(
                "a postgresql:// store needs psycopg 3: pip install 'chatbot[postgres]' (or 'psycopg[binary]')"
            ) from None
        return PostgresStore(text)
    if "://" in text and not text.startswith("file://"):
        scheme = text.split("://", 1)[0]
        raise ConfigError(f"unknown store {scheme}://…: use a directory, file://DIR or postgresql://USER@HOST/DB")
    from chatbot.storage.json_store import JsonStore

    if text.startswith("file://"):
        text = text[len("file://") :]
    return JsonStore(text)
