"""Checks of a decoded session document: what is wrong with it, named for the user, or "" when it is valid.

A document that does not pass is refused by name and never overwritten (see :mod:`chatbot.storage.json_store`).
The format itself is owned by :class:`chatbot.storage.session.Session`; ``docs/sessions.md`` describes it.
"""

from __future__ import annotations

import json
import os
from typing import Any

from chatbot.engine.calibration import check_stored
from chatbot.engine.options import option_problem
from chatbot.engine.strategies import COUNTS, RECALL_BY, STRATEGIES
from chatbot.engine.turn import validate_request
from chatbot.errors import InvalidRequest

#: 2: each turn may keep ``sent``, how its request was made up (version-1 documents have none and still load); its
#: ``refs`` and the document's ``summaries`` came later, optional (older documents without them load)
FORMAT_VERSION = 2
_ROLES = ("user", "assistant", "tool")
#: a session's optional ``endpoint`` mark: "" (its provider's own service), "custom" (another base URL), or
#: "unknown" (stored before the mark was kept: where it was served is not known)
ENDPOINTS = ("", "custom", "unknown")
_KINDS = {str: "a string", dict: "an object", list: "a list", bool: "true or false"}
_FIELDS = (
    ("id", str),
    ("title", str),
    ("created_at", str),
    ("updated_at", str),
    ("provider", str),
    ("model", str),
    ("system", str),
    ("summary", dict),
    ("turns", list),
    ("totals", dict),
    ("calibration", dict),
)


def _type_name(value: object) -> str:
    return "null" if value is None else type(value).__name__


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def decode_session(raw: bytes) -> tuple[dict[str, Any], str]:
    """Parse a session document's bytes: (data, "") when valid, else ({}, what is wrong)."""
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        return {}, f"it is not valid JSON ({exc})"
    problem = check_session_data(data)
    return (data, "") if not problem else ({}, problem)


def _no_constant(name: str) -> Any:
    # json accepts NaN and Infinity, which no session holds and which would break every later token count
    raise ValueError(f"{name} is not a number JSON allows")


def _version_problem(data: dict[str, Any]) -> str:
    """What is wrong with a session's ``version``: missing, not a positive integer, or newer than this chatbot reads."""
    version = data.get("version")
    if "version" not in data:
        return "the field 'version' is missing"
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        return f"'version' must be a positive integer, found {version!r}"
    if version > FORMAT_VERSION:
        return f"it has version {version}, written by a newer chatbot; this one reads version {FORMAT_VERSION}"
    return ""


def _summary_problem(summary: dict[str, Any], turns: int) -> str:
    """What is wrong with a session's ``summary``: its text a string, covering 0 to ``turns`` turns."""
    if not isinstance(summary.get("text"), str):
        return f"'summary.text' must be a string, found {_type_name(summary.get('text'))}"
    covers = summary.get("covers")
    if not isinstance(covers, int) or isinstance(covers, bool) or not 0 <= covers <= turns:
        return f"'summary.covers' must be an integer from 0 to {turns} (the number of turns), found {covers!r}"
    return ""


def check_session_data(data: object) -> str:
    """What is wrong with decoded session JSON, or "" when it is a valid session (of this version or an older one)."""
    if not isinstance(data, dict):
        return f"expected a JSON object, found {_type_name(data)}"
    problem = _version_problem(data)
    if problem:
        return problem
    for key, kind in _FIELDS:
        if key not in data:
            return f"the field '{key}' is missing"
        if not isinstance(data[key], kind):
            return f"'{key}' must be {_KINDS[kind]}, found {_type_name(data[key])}"
    problem = check_endpoint(data.get("endpoint", "")) or check_options(data.get("options", {}))
    problem = problem or check_tool_sources(data.get("tool_sources", {}))
    problem = problem or check_rule(data.get("rule", {})) or check_summaries(data.get("summaries", []))
    if problem:
        return problem
    after = data.get("rescued_after", 0)  # a small rescue file: the turns that follow the stored first ones
    if not isinstance(after, int) or isinstance(after, bool) or after < 0:
        return f"'rescued_after' must be a whole number of at least 0, found {after!r}"
    turns = data["turns"]
    for i, turn in enumerate(turns):
        problem = check_turn(turn)
        if problem:
            return f"turns[{i}]{problem}"
    problem = _summary_problem(data["summary"], len(turns))
    if problem:
        return problem
    for key, value in data["totals"].items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return f"'totals.{key}' must be a whole number of at least 0, found {value!r}"
    for model, value in data["calibration"].items():
        # bounded ratios: 0 or less would switch the budget off, a huge one would refuse every message
        problem = check_stored(value, f"calibration.{model}")
        if problem:
            return problem
    return ""


def check_endpoint(endpoint: object) -> str:
    """What is wrong with a document's optional ``endpoint`` mark, or "" (absent in documents written before it)."""
    if endpoint in ENDPOINTS:
        return ""
    return f"'endpoint' must be one of {', '.join(map(repr, ENDPOINTS))}, found {endpoint!r}"


def check_summaries(summaries: object) -> str:
    """What is wrong with a document's optional ``summaries`` (every summary a request sent, oldest first), or ""."""
    if not isinstance(summaries, list) or not all(isinstance(s, str) for s in summaries):
        return f"'summaries' must be a list of strings, found {_type_name(summaries)}"
    return ""


def check_options(options: object) -> str:
    """What is wrong with a document's optional ``options`` (model options: name -> JSON value), or "".

    The rule is the one every option met before it was stored (:func:`~chatbot.engine.options.option_problem`).
    """
    if not isinstance(options, dict):
        return f"'options' must be an object, found {_type_name(options)}"
    for key, value in options.items():
        problem = option_problem(key, value)
        if problem:
            return f"'options.{key}': {problem}"
    return ""


#: the memory rule a session keeps (``rule``): each setting's name (a field of ``MemoryConfig`` or ``TurnSettings``) and
#: its least whole number (None: the setting is not a count; "or null": it may be unset)
RULE_COUNTS = {name: count.least for name, count in COUNTS.items()}  # window, first-last and summary settings
RULE_COUNTS |= {"recall": 0, "max_input_tokens": 1, "max_output_tokens": 1}
RULE_FIELDS = ("strategy", *RULE_COUNTS, "recall_by", "summary_model", "summary_options")


def check_rule(rule: object) -> str:
    """What is wrong with a document's optional ``rule`` (the memory rule the session keeps), or "".

    Files written before it existed have none; a setting it lacks takes today's default when the session is continued.
    A setting this version does not know (a newer chatbot's) is left alone.
    """
    if not isinstance(rule, dict):
        return f"'rule' must be an object, found {_type_name(rule)}"
    if "strategy" in rule and rule["strategy"] not in STRATEGIES:
        return f"'rule.strategy' must be one of {', '.join(STRATEGIES)}, found {rule['strategy']!r}"
    if "recall_by" in rule and rule["recall_by"] not in RECALL_BY:
        return f"'rule.recall_by' must be one of {', '.join(RECALL_BY)}, found {rule['recall_by']!r}"
    counts = _rule_counts_problem(rule)
    if counts:
        return counts
    model = rule.get("summary_model")
    if model is not None and not (isinstance(model, str) and model.strip()):
        return f"'rule.summary_model' must be a model's name or null, found {model!r}"
    problem = check_options(rule.get("summary_options", {}))
    return problem.replace("'options", "'rule.summary_options") if problem else ""


def _rule_counts_problem(rule: dict[str, Any]) -> str:
    """What is wrong with a rule's counts (each a whole number of at least its least; the turns a summary keeps
    no more than its trigger, as the memory rule itself refuses), or ""."""
    for key, least in RULE_COUNTS.items():
        value = rule.get(key, least)
        if (value is not None or key != "max_output_tokens") and not (_is_count(value) and value >= least):
            return f"'rule.{key}' must be a whole number of at least {least}, found {value!r}"
    # as the memory rule refuses it (a setting missing takes the config file's or today's default when the session
    # is continued: not known here, so only a rule that holds all three is judged)
    keep, trigger, strategy = (
        rule.get("keep_turns"),
        rule.get("summary_trigger"),
        STRATEGIES.get(str(rule.get("strategy"))),
    )
    if keep is not None and trigger is not None and strategy is not None and strategy.summarizes and keep > trigger:
        return f"'rule.keep_turns' ({keep}) must not be more than 'rule.summary_trigger' ({trigger})"
    return ""


def check_tool_sources(sources: object) -> str:
    """What is wrong with a document's optional ``tool_sources`` (``functions`` paths, ``mcp`` specs, the ``folder``
    they were given in), or ""."""
    if not isinstance(sources, dict):
        return f"'tool_sources' must be an object, found {_type_name(sources)}"
    for key in ("functions", "mcp"):
        items = sources.get(key, [])
        if not isinstance(items, list) or not all(isinstance(i, str) and i.strip() and "\x00" not in i for i in items):
            return f"'tool_sources.{key}' must be a list of non-empty strings, found {items!r}"
    folder = sources.get("folder", "")
    if not isinstance(folder, str) or "\x00" in folder or (folder and not os.path.isabs(folder)):
        return f"'tool_sources.folder' must be an absolute path, found {folder!r}"
    if not isinstance(sources.get("imported", False), bool):
        return f"'tool_sources.imported' must be true or false, found {sources['imported']!r}"
    return ""


def check_turn(turn: object) -> str:
    """What is wrong with one stored turn (as a suffix to ``turns[i]``), or ""."""
    if not isinstance(turn, dict):
        return f" must be an object, found {_type_name(turn)}"
    messages = turn.get("messages")
    if not isinstance(messages, list) or not messages:
        found = "an empty list" if messages == [] else _type_name(messages)
        return f".messages must be a non-empty list, found {found}"
    for j, m in enumerate(messages):
        problem = _check_message(j, m)
        if problem:
            return problem
    try:  # tool calls paired with their results, as every request needs (a lone user message stands in around)
        validate_request([{"role": "system", "content": ""}, *messages, {"role": "user", "content": ""}])
    except InvalidRequest as exc:
        return f".messages: {exc.message}"
    usage = turn.get("usage")
    if usage is not None and not isinstance(usage, dict):
        return f".usage must be an object or null, found {_type_name(usage)}"
    latency = turn.get("latency")
    if latency is not None and not _is_number(latency):
        return f".latency must be a number or null, found {_type_name(latency)}"
    if "created_at" in turn and not isinstance(turn["created_at"], str):
        return f".created_at must be a string, found {_type_name(turn['created_at'])}"
    if "interrupted" in turn and not isinstance(turn["interrupted"], bool):
        return f".interrupted must be true or false, found {_type_name(turn['interrupted'])}"
    if "model" in turn and not (isinstance(turn["model"], str) and turn["model"]):
        return f".model must be a non-empty string, found {turn['model']!r}"
    return _check_sent(turn.get("sent"))


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check_sent(sent: object) -> str:
    """What is wrong with a turn's optional ``sent`` record (how its request was made up), or ""."""
    if sent is None:
        return ""
    if not isinstance(sent, dict):
        return f".sent must be an object or null, found {_type_name(sent)}"
    for key in ("budget", "tools", "summarized", "summary_covers", "dropped", "full"):
        if key in sent and not _is_count(sent[key]):
            return f".sent.{key} must be a whole number of at least 0, found {sent[key]!r}"
    if sent.get("provider") is not None and not _is_count(sent["provider"]):
        return f".sent.provider must be a whole number of at least 0 or null, found {sent['provider']!r}"
    parts = sent.get("parts")
    if not isinstance(parts, dict):
        return f".sent.parts must be an object, found {_type_name(parts)}"
    for name, value in parts.items():
        if not _is_count(value):
            return f".sent.parts.{name} must be a whole number of at least 0, found {value!r}"
    return _check_refs(sent.get("refs"))


def _check_refs(refs: object) -> str:
    """What is wrong with a ``sent`` record's optional ``refs`` (how the request was built, by reference), or ""."""
    if refs is None:
        return ""
    if not isinstance(refs, dict):
        return f".sent.refs must be an object, found {_type_name(refs)}"
    for key in ("turns", "verbatim_from", "summary", "summary_covers", "head"):
        if not _is_count(refs.get(key, 0)):
            return f".sent.refs.{key} must be a whole number of at least 0, found {refs[key]!r}"
    recalled = refs.get("recalled", [])
    if not isinstance(recalled, list) or not all(_is_count(n) for n in recalled):
        return f".sent.refs.recalled must be a list of turn numbers, found {recalled!r}"
    if not isinstance(refs.get("carried", False), bool):
        return f".sent.refs.carried must be true or false, found {refs['carried']!r}"
    if not isinstance(refs.get("system", ""), str):
        return f".sent.refs.system must be a string, found {_type_name(refs['system'])}"
    if refs.get("result_limit") is not None and not _is_count(refs["result_limit"]):
        return f".sent.refs.result_limit must be a whole number or null, found {refs['result_limit']!r}"
    return ""


def _check_message(j: int, m: object) -> str:
    where = f".messages[{j}]"
    if not isinstance(m, dict):
        return f"{where} must be an object, found {_type_name(m)}"
    role = m.get("role")
    if not isinstance(role, str):
        return f"{where}.role must be a string, found {_type_name(role)}"
    if role not in _ROLES:
        return f"{where}.role must be one of {', '.join(_ROLES)}, found {role!r}"
    if (j == 0) != (role == "user"):
        return f"{where}: a turn has exactly one user message, its first"
    content = m.get("content")
    if content is not None and not isinstance(content, (str, list)):
        return f"{where}.content must be a string, a list of parts or null, found {_type_name(content)}"
    calls = m.get("tool_calls")
    if calls is not None and not (isinstance(calls, list) and all(_is_tool_call(c) for c in calls)):
        return f"{where}.tool_calls must be a list of calls, each with a string id and a function name"
    for key in ("tool_call_id", "name"):
        if key in m and not isinstance(m[key], str):
            return f"{where}.{key} must be a string, found {_type_name(m[key])}"
    return ""


def _is_tool_call(call: object) -> bool:
    if not isinstance(call, dict) or not isinstance(call.get("id"), str):
        return False
    function = call.get("function")
    return isinstance(function, dict) and isinstance(function.get("name"), str)
