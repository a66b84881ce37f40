"""Storage: where sessions live.

- :mod:`~chatbot.storage.session`: the session document (the one owner of its fields, to and from JSON)
- :mod:`~chatbot.storage.schema`: checks of a decoded document
- :mod:`~chatbot.storage.base`: the :class:`SessionStore` protocol every backend implements
- :mod:`~chatbot.storage.json_store`: one crash-safe, locked, private JSON file per session
- :mod:`~chatbot.storage.export`: the Markdown transcript
"""

from __future__ import annotations

import os

from chatbot.storage.base import SessionStore


def open_store(location: str | os.PathLike[str]) -> SessionStore:
    """The store at ``location``: a directory path (or ``file://`` URL) is a JSON-file store."""
    from chatbot.storage.json_store import JsonStore

    text = os.fspath(location)
    if text.startswith("file://"):
        text = text[len("file://") :]
    return JsonStore(text)
