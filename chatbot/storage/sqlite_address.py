"""Where a SQLite store is: which ``--store`` values name one, and the file they name.

``sqlite:///PATH`` reads as SQLAlchemy and LangGraph write it: ``sqlite:///checkpoint.db`` is ``checkpoint.db`` in the
working directory, ``sqlite:////home/me/chat.db`` (four slashes) an absolute path. ``sqlite:PATH`` is the path as
written (``sqlite:~/chat.db``, ``sqlite:/home/me/chat.db``). A plain path ending in ``.db``, ``.sqlite`` or ``.sqlite3``
is a SQLite file too: such a value never makes a folder of JSON sessions.

Kept apart from :mod:`~.sqlite_store` so that choosing a store (:mod:`chatbot.storage`) reads no SQLite at all.
"""

from __future__ import annotations

from pathlib import Path

from chatbot.errors import ConfigError

SUFFIXES = (".db", ".sqlite", ".sqlite3")
_FORMS = "sqlite:///relative/path.db, sqlite:////absolute/path.db or sqlite:PATH"


def claims(location: str) -> bool:
    """Whether ``location`` names a SQLite store: ``sqlite:…``, or a path (no URL scheme) ending in a SQLite suffix."""
    if location.startswith("sqlite:"):
        return True
    return "://" not in location and location.lower().endswith(SUFFIXES)


def path_of(location: str) -> Path:
    """The database file ``location`` names, made absolute; refuses a form that names none (with the forms that do)."""
    if location.startswith("sqlite://"):
        rest = location[len("sqlite://") :]
        if not rest.startswith("/"):
            raise ConfigError(f"--store {location}: a sqlite:// URL has no host; write {_FORMS}")
        text = rest[1:]  # sqlite:///x.db is x.db; sqlite:////abs.db is /abs.db
    else:
        text = location.removeprefix("sqlite:")
    if not text or text == ":memory:" or "\x00" in text:
        raise ConfigError(f"--store {location}: name the database file to keep sessions in ({_FORMS})")
    path = Path(text).expanduser()
    if path.is_dir():
        raise ConfigError(
            f"--store {location}: {path} is a folder, not a SQLite file; for JSON sessions in that folder use "
            f"--store file://{path}, for a SQLite file name one inside it (sqlite:{path / 'chat.db'})"
        )
    return path.absolute()


def looks_absolute(location: str) -> bool:
    """Whether ``location`` is ``sqlite:///a/b.db``: a relative path with folders, which reads like an absolute one
    (``sqlite:////a/b.db`` is ``/a/b.db``), so a new file made there is worth saying."""
    rest = location.removeprefix("sqlite:///")
    return rest != location and not rest.startswith("/") and "/" in rest
