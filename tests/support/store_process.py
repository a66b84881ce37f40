"""A second chatbot process for the behaviour suite of every store: ``python -m tests.support.store_process MODE
URL SID`` (URL: a directory, a sqlite: URL or a postgresql:// URL; tests/support/store_child.py is the JSON store's
own).

hold       take the session's lock, print "ready", and keep it until killed
save-loop  take the lock, then add and save numbered turns as fast as it can (printing "ready" after the first)
writer     take the lock (waiting), add turns N..N+19 to the stored session one save each, print "done"
"""

from __future__ import annotations

import sys
import time

from chatbot.engine.turn import Turn
from chatbot.storage import open_store


def add(session, i: int) -> None:  # type: ignore[no-untyped-def]
    session.conversation.add_turn(
        Turn([{"role": "user", "content": f"{i} turn"}, {"role": "assistant", "content": "x" * 500}])
    )
    session.totals.requests += 1


def main(mode: str, url: str, sid: str, *extra: str) -> None:
    store = open_store(url)
    lock = store.acquire(sid, timeout=60 if mode == "writer" else 0)
    if mode == "hold":
        print("ready", flush=True)
        while lock.held:
            time.sleep(0.1)
        return
    session = store.load(sid) if store.exists(sid) else store.create(sid, system="s")
    if mode == "writer":
        first = int(extra[0])
        for i in range(first, first + 20):
            add(session, i)
            store.save(session)
        store.close()
        print("done", flush=True)
        return
    first = i = len(session.conversation.turns) + 1
    while True:
        add(session, i)
        store.save(session)
        if i == first:
            print("ready", flush=True)
        i += 1


if __name__ == "__main__":
    main(*sys.argv[1:])
