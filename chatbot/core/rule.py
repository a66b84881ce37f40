"""A session's memory rule: the settings that decide what its requests carry and how its summaries are written,
kept with the session so that continuing it keeps them, and where each one came from (``/context`` says).

For each setting, the first of these that has it wins:

1. a flag given on this run (``--window-turns 2``): it applies to every session opened, and each keeps it;
2. the session's own rule, as stored (a session continued keeps what it was made with);
3. the config file (``window_turns = 2``);
4. the built-in default.

So a config file shapes new sessions (and older ones that stored no rule), never one that has its own; a flag
changes the session it is given to. What applies is stored with the session, the next save on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from chatbot.core.turn_settings import TurnSettings
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.strategies import COUNTS
from chatbot.storage.session_format import RULE_FIELDS

#: the flag that sets each setting of the rule (its config-file key is the flag's name with underscores)
FLAGS = {
    "strategy": "--memory",
    **{name: count.flag for name, count in COUNTS.items()},  # window, first-last and summary settings
    "recall": "--recall",
    "max_input_tokens": "--max-input-tokens",
    "max_output_tokens": "--max-output-tokens",
    "recall_by": "--recall-by",
    "summary_model": "--summary-model",
    "summary_options": "--summary-option",
}
#: the settings of :class:`~chatbot.core.turn_settings.TurnSettings`; the others are :class:`MemoryConfig`'s
RUN_FIELDS = ("max_output_tokens", "summary_model", "summary_options")
#: where a setting came from, in the order they win
ORIGINS = ("flag", "session", "config", "default")


def flag_dest(setting: str) -> str:
    """The argparse ``dest`` (and config-file key) of ``setting``'s flag: ``strategy`` -> ``memory``."""
    return FLAGS[setting][2:].replace("-", "_")


def values_of(memory: MemoryConfig, run: TurnSettings) -> dict[str, Any]:
    """The rule's settings as ``memory`` and ``run`` hold them, JSON-ready (what a session stores)."""
    values = {key: getattr(run if key in RUN_FIELDS else memory, key) for key in RULE_FIELDS}
    values["summary_options"] = dict(values["summary_options"])
    return values


@dataclass(frozen=True)
class Rule:
    """The rule a session runs by: its memory, how its turns run, and where each setting came from."""

    memory: MemoryConfig
    run: TurnSettings
    origins: Mapping[str, str]  # setting -> "flag", "session", "config" or "default"
    #: the settings a flag changed from what the session had stored, as "--flag new (was old)": kept from now on
    changed: tuple[str, ...] = ()

    def stored(self) -> dict[str, Any]:
        """What the session keeps."""
        return values_of(self.memory, self.run)

    def describe(self) -> list[str]:
        """Lines for ``/context``: each setting's value, grouped by where it came from."""
        values = self.stored()
        lines = ["memory rule, kept with the session (a flag beats the session's own, which beats the config file):"]
        for origin in ORIGINS:
            shown = [f"{FLAGS[k]} {_shown(values[k])}" for k in RULE_FIELDS if self.origins.get(k) == origin]
            if shown:
                lines.append(f"  {origin}: {', '.join(shown)}")
        return lines


def resolve(stored: Mapping[str, Any], memory: MemoryConfig, run: TurnSettings, origins: Mapping[str, str]) -> Rule:
    """The rule of a session that stored ``stored``, opened with ``memory`` and ``run`` (the command line's values
    after the config file and defaults), whose settings came from ``origins`` ("flag", "config" or "default"; a
    setting not named there counts as a flag: a library's :class:`~chatbot.core.app.App` applies what it is given).

    Raises :class:`~chatbot.errors.UsageError` when the settings do not go together (``--keep-turns`` given on the
    command line is not smaller than the session's ``--summary-trigger``, say).
    """
    values = values_of(memory, run)
    chosen = {}
    for key in RULE_FIELDS:
        origin = origins.get(key, "flag")
        if origin != "flag" and key in stored:
            values[key], origin = stored[key], "session"
        chosen[key] = origin
    values["summary_options"] = dict(values["summary_options"])
    new_memory = replace(memory, **{k: values[k] for k in RULE_FIELDS if k not in RUN_FIELDS})
    new_run = replace(run, **{k: values[k] for k in RUN_FIELDS})
    changed = tuple(
        f"{FLAGS[k]} {_shown(values[k])} (was {_shown(stored[k])})"
        for k in RULE_FIELDS
        if chosen[k] == "flag" and k in stored and stored[k] != values[k]
    )
    return Rule(new_memory, new_run, chosen, changed)


def _shown(value: Any) -> str:
    if value is None or value == {}:
        return "(none)"
    return json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else str(value)
