"""Recall by meaning reads a turn's similarity less its hubness: a turn near many others (a short note) is near every
message too, so a message as near it as to a turn that is about it finds the turn about it. The hubness of a growing
session is worked out for its new turns only, and equals what the whole session's would be."""

from __future__ import annotations

import numpy as np

from chatbot.engine.recall_meaning import HUB_NEIGHBOURS, HUB_WEIGHT, hubness
from chatbot.engine.turn import Turn


def unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def turns(n: int) -> list[Turn]:
    return [Turn([{"role": "user", "content": f"turn {i}"}]) for i in range(n)]


def whole(matrix: np.ndarray) -> np.ndarray:
    sims = matrix @ matrix.T
    np.fill_diagonal(sims, -np.inf)
    k = min(HUB_NEIGHBOURS, len(matrix) - 1)
    return np.sort(sims, axis=1)[:, ::-1][:, :k].mean(axis=1)


def test_a_turn_near_every_other_loses_to_one_about_the_message_at_the_same_similarity():
    rng = np.random.default_rng(3)
    topics = unit(rng.normal(size=(12, 16)))
    hub = unit(topics.sum(axis=0, keepdims=True))  # near all of them
    about = unit(rng.normal(size=(1, 16)))
    matrix = np.concatenate([topics, hub, about])
    query = unit(hub + about)[0]  # as near the hub as the turn it is about
    raw = matrix @ query
    assert abs(raw[12] - raw[13]) < 0.05 and raw.argmax() == 12
    adjusted = raw - HUB_WEIGHT * hubness(turns(14), matrix)
    assert adjusted.argmax() == 13


def test_the_hubness_of_a_growing_session_is_the_whole_sessions_and_is_worked_out_again_after_an_undo():
    rng = np.random.default_rng(5)
    matrix = unit(rng.normal(size=(30, 16)))
    session = turns(30)
    for n in (1, 2, 4, 9, 10, 30):  # turn by turn and several at once
        assert np.allclose(hubness(session[:n], matrix[:n]), whole(matrix[:n]) if n > 1 else [0.0])
    assert np.allclose(hubness(session[:20], matrix[:20]), whole(matrix[:20]))  # turns taken back
    other = turns(8)
    assert np.allclose(hubness(other, matrix[:8]), whole(matrix[:8]))  # another session
