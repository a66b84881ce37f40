"""A session in one of the two file stores (a folder of JSON files, one SQLite file) and a hard link to the file that
holds it: what the tests of each door chatbot writes a named file through (/export, /timeline html, --html,
--log-requests) plant, to see that the session is never written through another of its names."""

from __future__ import annotations

import os
from pathlib import Path

from chatbot.storage.base import SessionStore
from chatbot.storage.json_store import JsonStore
from chatbot.storage.sqlite_store import SqliteStore

#: the file stores, by the flags that choose them for a ``chatbot`` run in the test's folder
STORES = {"json": (), "sqlite": ("--store", "chat.db")}


def open_store(cwd: Path, kind: str) -> SessionStore:
    """The store of ``kind`` that a ``chatbot`` run in ``cwd`` with ``STORES[kind]`` uses."""
    return JsonStore(cwd / "sessions") if kind == "json" else SqliteStore(cwd / "chat.db")


def link_to_a_session(cwd: Path, kind: str, name: str) -> Path:
    """Store a session ``victim`` in the store of ``kind``, then give the file that holds it (the session file, the
    SQLite file) a second name ``cwd/name``; that name."""
    store = open_store(cwd, kind)
    try:
        session = store.create("victim", system="keep me")
        with store.acquire("victim"):
            store.save(session)
        held = cwd / "sessions" / "victim.json" if kind == "json" else cwd / "chat.db"
        os.link(held, cwd / name)
    finally:
        store.close()
    return cwd / name


def victim_loads(cwd: Path, kind: str) -> bool:
    """Whether the session ``victim`` still loads, whole, from the store of ``kind``."""
    store = open_store(cwd, kind)
    try:
        return store.load("victim").conversation.system == "keep me"
    finally:
        store.close()
