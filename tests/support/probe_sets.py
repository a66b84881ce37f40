"""The held-out recall probe sets under ``bench/`` (``probes_heldout.py`` ... ``probes_heldout8.py``), loaded by file
path: ``bench/`` is no package, and a set imports the first one by its bare name."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

BENCH = Path(__file__).resolve().parents[2] / "bench"
#: every held-out set, in the order they were written (each one's facts and people new against those before it)
SETS = (
    "probes_heldout",
    "probes_heldout2",
    "probes_heldout3",
    "probes_heldout4",
    "probes_heldout5",
    "probes_heldout6",
    "probes_heldout7",
    "probes_heldout8",
)
#: what a recall bench uses from a probe set, so it can take any of them
API = ("STYLES", "Turn", "Fact", "Twin", "Conversation", "Question", "questions", "conversations", "validate")


def load(name: str) -> ModuleType:
    """The probe set ``bench/{name}.py`` (once: later calls get the same module)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def everything(module: ModuleType, conv: Any) -> str:
    """All a conversation says: its turns and every question asked about it."""
    return "\n".join([t.text() for t in conv.turns] + [q.text for q in module.questions(conv)])
