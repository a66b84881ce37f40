"""What the stores that keep sessions in tables (PostgreSQL, SQLite) share: a session document rebuilt from its rows,
which leading turns are stored already, the text a turn is searched by, and the title a listing shows.

The document's fields are owned by :class:`~chatbot.storage.session.Session`; a row's columns are named after them.
"""

from __future__ import annotations

from typing import Any

from chatbot.engine.turn import Turn, content_text
from chatbot.storage.session_format import check_session_data
from chatbot.text import preview


def shown_title(title: str, first_turn: object) -> str:
    """A session's title, or the start of its first user message (the first turn's decoded JSON, if any).

    The turn is decoded here rather than with ``->>`` in SQL: PostgreSQL cannot turn a JSON ``\\u0000`` into text.
    """
    if title or not isinstance(first_turn, dict):
        return title
    messages = first_turn.get("messages")
    if not (isinstance(messages, list) and messages and isinstance(messages[0], dict)):
        return ""
    return preview(content_text(messages[0].get("content")), 50)  # the text of a message with images too


def clean_text(text: str) -> str:
    """A string every store can keep in a text column: no NUL (PostgreSQL refuses one, SQLite's functions stop at
    one), no lone surrogate (not UTF-8); both become U+FFFD."""
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)
    return text


def kept_prefix(turns: list[Turn], stored: list[bytes]) -> int:
    """How many leading turns are stored as they are now.

    A turn's cached JSON is a new object whenever one of its fields is assigned, so a turn is stored as it is while
    its JSON is the very object stored. One identity check per turn: a fraction of a millisecond at 1,000 turns.
    """
    for n, (turn, encoded) in enumerate(zip(turns, stored, strict=False)):
        if turn.to_json() is not encoded:
            return n
    return min(len(turns), len(stored))


_SEARCHED = ("user", "assistant", "tool")


def searchable(messages: object) -> str:
    """A turn's text for search (its ``body`` column): each user, assistant and tool message's text, the text parts
    of a message with images too (:func:`~chatbot.engine.turn.content_text`, as the JSON store searches it), with
    runs of whitespace as one space. Any decoded JSON is taken: a damaged row gives what text it has."""
    if not isinstance(messages, list):
        return ""
    texts = [content_text(m.get("content")) for m in messages if isinstance(m, dict) and m.get("role") in _SEARCHED]
    return clean_text("\n".join(" ".join(t.split()) for t in texts))


class Undecodable:
    """What a JSON column or turn row that does not parse reads as (not None: a row that holds JSON ``null`` is
    damaged otherwise, and each is named for what it is)."""

    def __repr__(self) -> str:
        return "not valid JSON"


#: a column or turn row that is not valid JSON (:func:`session_document` names it)
UNDECODABLE = Undecodable()


def session_document(cols: dict[str, Any], turns: list[tuple[int, Any]]) -> tuple[dict[str, Any], str]:
    """The session document rebuilt from its session row (``cols``, by column name, JSON columns decoded) and its
    turn rows ((n, decoded JSON), in order): (data, "") when valid, else ({}, what is wrong)."""
    damaged = [f"turn row {n}" for n, turn in turns if turn is UNDECODABLE]
    damaged += [f"its {name} column" for name, value in cols.items() if value is UNDECODABLE]
    if damaged:
        return {}, f"{', '.join(damaged[:3])}{' …' if len(damaged) > 3 else ''} not valid JSON"
    numbers = [n for n, _ in turns]
    if numbers != list(range(1, len(turns) + 1)) or len(turns) != cols["turn_count"]:
        return (
            {},
            f"its turn rows are {numbers[:10]}{'…' if len(numbers) > 10 else ''}, expected 1 to {cols['turn_count']}",
        )
    data = {k: cols[k] for k in ("version", "id", "title", "created_at", "updated_at", "provider", "model", "system")}
    data["summary"] = {"text": cols["summary"], "covers": cols["summary_covers"]}
    data["turns"] = [t for _, t in turns]
    data["totals"], data["calibration"], data["options"] = cols["totals"], cols["calibration"], cols["options"]
    data["tool_sources"], data["rule"], data["summaries"] = cols["tool_sources"], cols["rule"], cols["summaries"]
    data["endpoint"] = cols["endpoint"]
    problem = check_session_data(data)
    return (data, "") if not problem else ({}, problem)
