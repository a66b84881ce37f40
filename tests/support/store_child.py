"""Child processes for the store tests (run as a script: ``python tests/support/store_child.py MODE DIR ID``).

- ``save-loop``: lock the session, load or create it, then add a ~1 kB turn and save, forever; prints ``ready``
  after the first save so the parent knows a kill now lands inside the loop.
- ``hold``: lock the session, print ``locked``, and sleep until killed.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from chatbot.engine.turn import Turn  # noqa: E402
from chatbot.storage.json_store import JsonStore  # noqa: E402

FILLER = "lorem ipsum dolor sit amet " * 40  # ~1 kB


def save_loop(directory: str, session_id: str) -> None:
    store = JsonStore(directory)
    store.acquire(session_id)
    if store.exists(session_id):
        session = store.load(session_id)
    else:
        session = store.create(session_id, system="test", provider="echo", model="m")
    n = len(session.conversation.turns)
    announced = False
    while True:
        n += 1
        session.conversation.add_turn(
            Turn([{"role": "user", "content": f"{n} {FILLER}"}, {"role": "assistant", "content": FILLER}])
        )
        session.totals.requests = n
        store.save(session)
        if not announced:
            print("ready", flush=True)
            announced = True


def hold(directory: str, session_id: str) -> None:
    store = JsonStore(directory)
    store.acquire(session_id)
    print("locked", flush=True)
    time.sleep(60)


if __name__ == "__main__":
    mode, directory, session_id = sys.argv[1:4]
    {"save-loop": save_loop, "hold": hold}[mode](directory, session_id)
