"""Model options (``-o KEY VALUE``, ``/set``, a session's ``options``): the one rule of what they may be.

An option is sent as a field of the request body, as given: a number, true/false, a string, a list, or a JSON
object (``response_format = {"type": "json_object"}``, a JSON schema), nested as deep as :data:`MAX_DEPTH`. The same
rule is applied where an option enters (the flag, the command, the config file) and where a stored session is read,
so nothing is stored that the reader would refuse.
"""

from __future__ import annotations

import math
import re

#: fields the app itself writes in every request: an option may not replace them
RESERVED_OPTIONS = frozenset({"model", "messages", "stream", "stream_options", "tools", "tool_choice", "n"})
#: how deeply lists and objects may nest in one option's value (a JSON schema needs a handful)
MAX_DEPTH = 32
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")


def option_problem(key: object, value: object) -> str:
    """What is wrong with model option ``key: value`` for the user to read, or "" when it may be sent and stored.

    The key: letters, digits and '_', not a field chatbot sets itself. The value: not null (null means "remove"),
    else JSON: a string, a finite number, true/false, a list or an object of such values (null allowed inside). Not
    NaN or infinity, in any case, as a number or as text (JSON has no such numbers: the file could not be read back),
    and no text a store cannot keep: a NUL character or a lone surrogate (PostgreSQL's jsonb refuses both), in a value
    or an object's key.
    """
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        return f"option name {key!r} must be letters, digits and '_' (e.g. temperature, top_p, seed)"
    if key in RESERVED_OPTIONS:
        return f"{key!r} is set by chatbot itself and cannot be an option"
    if value is None:
        return f"option {key} needs a value: a number, true/false, a string, a list or a JSON object"
    problem = _non_finite_text(value) or _value_problem(value, 0)
    return f"option {key}: {problem}" if problem else ""


def _non_finite_text(value: object) -> str:
    """A whole value written as NaN or infinity in any case (``nan``, ``Inf``, ``-infinity``): JSON reads only
    ``NaN`` and ``Infinity`` as numbers (refused below), and the rest would be sent as a string no server takes for a
    number; refused alike, whatever the case. (Inside a list or an object a string stays a string: ``stop``.)"""
    if not isinstance(value, str):
        return ""
    try:
        number = float(value.strip())
    except ValueError:
        return ""
    return "" if math.isfinite(number) else f"must be a finite number, found {value.strip()}"


def _value_problem(value: object, depth: int) -> str:
    if depth > MAX_DEPTH:
        return f"nested deeper than {MAX_DEPTH} levels"
    if value is None or isinstance(value, (bool, int)):
        return ""
    if isinstance(value, str):
        return _text_problem(value)
    if isinstance(value, float):
        # NaN and Infinity are not JSON: the server would refuse them, and the session reader too
        return "" if math.isfinite(value) else f"must be a finite number, found {value!r}"
    if isinstance(value, list):
        return next((p for p in (_value_problem(v, depth + 1) for v in value) if p), "")
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            return "an object's keys must be strings"
        problems = (_text_problem(k) or _value_problem(v, depth + 1) for k, v in value.items())
        return next((p for p in problems if p), "")
    return f"{type(value).__name__} is not a JSON value"


def _text_problem(text: str) -> str:
    if "\x00" in text:
        return "must not contain a NUL character (\\u0000)"
    if any("\ud800" <= c <= "\udfff" for c in text):
        return "must not contain a lone surrogate (\\ud800-\\udfff)"
    return ""
