"""Messages and turns: the plain message dicts every layer passes around, and the rules a request follows.

A message is an OpenAI chat-completions dict (``role``, ``content``, and where present ``tool_calls``,
``tool_call_id``, ``name``). A :class:`Turn` is one user message and every assistant/tool message that answers it:
the unit memory keeps, drops and summarizes, so a tool call is never separated from its result.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from chatbot.engine.tokens import TokenCounter
from chatbot.errors import InvalidRequest

#: a line of a user's message that asks for a tool call, ``@tool NAME {json arguments}``: the echo provider makes the
#: call; with no tool attached, the chat tells the user how to attach one
TOOL_LINE = re.compile(r"^\s*@tool\s+(?P<name>[A-Za-z0-9_.-]+)[ \t]*(?P<arguments>.*?)\s*$", re.MULTILINE)

Message = dict[str, Any]


def json_bytes(data: Any) -> bytes:
    """Compact UTF-8 JSON. Lone surrogates (undecodable terminal input) are not UTF-8: JSON escapes them instead."""
    try:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(data, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def content_text(content: object) -> str:
    """The text of a message's content: a string as is; of a list of parts, the text parts joined by newlines."""
    if isinstance(content, list):
        return "\n".join(str(p.get("text") or "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return "" if content is None else str(content)


def images_in(content: object) -> int:
    """How many images a message's content carries (parts of type ``image_url``; a string carries none)."""
    if not isinstance(content, list):
        return 0
    return sum(isinstance(p, dict) and p.get("type") == "image_url" for p in content)


def now_iso() -> str:
    """The current UTC time as an ISO 8601 string."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass
class Turn:
    """One user message and every assistant/tool message that answers it, with what the reply cost."""

    messages: list[Message]
    usage: dict[str, Any] | None = None
    latency: float | None = None
    created_at: str = field(default_factory=now_iso)
    interrupted: bool = False
    #: how this turn's request was made up (``{"budget", "tools", "parts", "summarized", "dropped", "provider"}``,
    #: see :func:`chatbot.engine.parts.sent_record`); None in turns stored before it was kept
    sent: dict[str, Any] | None = None
    #: the turn's sentence vector for recall by meaning (``{"model", "int8"}``, see
    #: :mod:`chatbot.engine.recall_meaning`), made once and stored with the turn; None when recall goes by words
    recall_vector: dict[str, str] | None = None
    #: the model that served this turn (``/cost`` prices the turn at its price); None in turns stored before it was
    #: kept, which are priced at the session's model
    model: str | None = None
    # per-counter cache of this turn's token count: building a request costs O(kept turns), not O(all turns)
    _counts: dict[Any, int] = field(default_factory=dict, init=False, repr=False, compare=False)
    # cache of to_json(): saving a long session re-encodes only the turns that are new or changed
    _json: bytes | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.messages or self.messages[0].get("role") != "user":
            raise InvalidRequest("a turn starts with a user message")

    def __setattr__(self, name: str, value: Any) -> None:
        # Both caches assume a stored turn's messages are never changed in place (nothing does); assigning a
        # field is seen here and drops what depends on it.
        if name == "messages":
            object.__setattr__(self, "_counts", {})
        if name not in ("_json", "_counts"):
            object.__setattr__(self, "_json", None)
        object.__setattr__(self, name, value)

    @property
    def user_text(self) -> str:
        """The text of the turn's user message (its text parts, when it carries images)."""
        return content_text(self.messages[0].get("content"))

    @property
    def answer_text(self) -> str:
        """The text of the turn's last assistant message."""
        for m in reversed(self.messages):
            if m.get("role") == "assistant" and m.get("content"):
                return str(m["content"])
        return ""

    def tokens(self, counter: TokenCounter) -> int:
        """Raw token count of the turn's messages (cached per counter)."""
        key = counter.key
        n = self._counts.get(key)
        if n is None:
            n = sum(counter.count_message(m) for m in self.messages)
            self._counts[key] = n
        return n

    def cached_count(self, key: Any, compute: Callable[[], int]) -> int:
        """A token count that depends only on the messages (e.g. as sent, shortened), cached under ``key``."""
        n = self._counts.get(key)
        if n is None:
            n = self._counts[key] = compute()
        return n

    @property
    def has_tool_calls(self) -> bool:
        """Whether the model called tools in this turn."""
        return any(m.get("role") == "tool" for m in self.messages)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data. It shares the message dicts (no copy: saving a long session is one serialisation)."""
        data = {
            "messages": self.messages,
            "usage": self.usage,
            "latency": self.latency,
            "created_at": self.created_at,
            "interrupted": self.interrupted,
            "sent": self.sent,
        }
        if self.recall_vector is not None:  # only where recall by meaning made one: other turns are stored as before
            data["recall_vector"] = self.recall_vector
        if self.model is not None:  # absent in turns stored before it was kept (and in turns made outside a chat)
            data["model"] = self.model
        return data

    def to_json(self) -> bytes:
        """:meth:`to_dict` as compact UTF-8 JSON, cached (a session file joins these; see ``json_bytes``)."""
        if self._json is None:
            self._json = json_bytes(self.to_dict())
        return self._json

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Turn:
        """Rebuild a turn from :meth:`to_dict` output."""
        return cls(
            messages=list(data["messages"]),
            usage=data.get("usage"),
            latency=data.get("latency"),
            created_at=data.get("created_at") or now_iso(),
            interrupted=bool(data.get("interrupted", False)),
            sent=data.get("sent"),
            recall_vector=data.get("recall_vector"),
            model=data.get("model"),
        )


def validate_request(messages: Sequence[Message], *, in_turn: bool = False, carried: bool = False) -> None:
    """Check a request before it is sent: one system message first, a user message last, tool calls paired.

    ``in_turn``: a later round of a turn that uses tools, which ends with the results of the calls just made.
    ``carried``: the system text rides in the first user message (:mod:`chatbot.engine.system_carry`), which comes
    first. Raises :class:`InvalidRequest`.
    """
    if not messages or messages[0].get("role") != ("user" if carried else "system"):
        raise InvalidRequest(f"a request starts with the {'first user' if carried else 'system'} message")
    if messages[-1].get("role") != ("tool" if in_turn else "user"):
        what = "results of the tool calls" if in_turn else "new user message"
        raise InvalidRequest(f"a request ends with the {what}")
    pending: set[str] = set()
    for i, message in enumerate(messages):
        role = message.get("role")
        if role == "system" and i:
            raise InvalidRequest("a request holds exactly one system message")
        if role not in ("system", "user", "assistant", "tool"):
            raise InvalidRequest(f"message {i} has an unknown role {role!r}")
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in pending:
                raise InvalidRequest(f"message {i} answers a tool call that is not open ({call_id!r})")
            pending.discard(call_id)
            continue
        if pending:
            raise InvalidRequest(f"tool calls {sorted(pending)} have no result before message {i}")
        if role == "assistant" and message.get("tool_calls"):
            pending = {str(c.get("id")) for c in message["tool_calls"]}
    if pending:
        raise InvalidRequest(f"tool calls {sorted(pending)} have no result")
