"""The session document: a conversation and what goes with it, and its one encoding to and from JSON.

:class:`Session` is the only code that writes or reads the document's fields (``docs/sessions.md`` shows them);
stores move its bytes (:mod:`chatbot.storage.json_store`) and check them (:mod:`chatbot.storage.session_format`).
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from chatbot.engine.calibration import Calibration
from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import Turn, content_text, json_bytes, now_iso
from chatbot.engine.usage import Totals
from chatbot.errors import InvalidSessionId
from chatbot.storage.session_format import FORMAT_VERSION
from chatbot.text import clean, preview

ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
ID_RULE = "1-64 characters: letters, digits, '.', '_' or '-', starting with a letter or digit"


def validate_id(session_id: object) -> str:
    """Return ``session_id`` if it is a valid id, else raise :class:`InvalidSessionId` naming the rule.

    The rule keeps every session file inside its directory: no '/', no leading '.', no '..', no NUL.
    """
    if not isinstance(session_id, str) or not ID_PATTERN.fullmatch(session_id):
        shown = repr(session_id)
        if len(shown) > 80:
            shown = shown[:77] + "..."
        raise InvalidSessionId(f"invalid session id {shown}: an id is {ID_RULE}")
    return session_id


@dataclass(frozen=True)
class ToolSources:
    """Where a session's tools came from: ``--functions`` files (absolute paths) and ``--mcp`` server specs (as
    typed: a URL, or a stdio command line). Kept with the session so that continuing it can attach them again.

    ``folder``: the working folder the ``--mcp`` commands were given in (absolute); a remembered stdio command starts
    there, so a relative path in it (``python examples/mcp_server.py``) means the file it meant then, wherever the
    session is continued. "" in sessions stored before it was kept: their stdio commands are not started (nobody
    knows which folder they belonged to).

    ``imported``: they came in a file ``--import-sessions`` copied, which anyone can hand over, so they run code
    nobody here chose; they are not attached until the user names them on the command line once.
    """

    functions: tuple[str, ...] = ()
    mcp: tuple[str, ...] = ()
    folder: str = ""
    imported: bool = False

    def __bool__(self) -> bool:
        return bool(self.functions or self.mcp)

    def to_dict(self) -> dict[str, Any]:
        """The document's ``tool_sources`` field (``folder`` only when kept, ``imported`` only when they were)."""
        folder = {"folder": self.folder} if self.folder else {}
        imported = {"imported": True} if self.imported else {}
        return {"functions": list(self.functions), "mcp": list(self.mcp), **folder, **imported}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> ToolSources:
        """From a checked ``tool_sources`` field (absent in files written before it existed: none)."""
        data = data or {}
        functions, mcp = tuple(data.get("functions") or ()), tuple(data.get("mcp") or ())
        return cls(functions, mcp, str(data.get("folder") or ""), data.get("imported") is True)

    def same_tools(self, other: ToolSources) -> bool:
        """Whether ``other`` names the same files and servers, started in the same folder (trusted or not)."""
        return (self.functions, self.mcp, self.folder) == (other.functions, other.mcp, other.folder)

    def as_flags(self) -> str:
        """The command-line flags that attach these tools (``--functions /a/tools.py --mcp 'python server.py'``)."""
        flags = [
            *(f"--functions {shlex.quote(f)}" for f in self.functions),
            *(f"--mcp {shlex.quote(s)}" for s in self.mcp),
        ]
        return " ".join(flags)


@dataclass
class Session:
    """A stored conversation and what goes with it.

    ``calibration`` maps a model name to what its provider counts taught the token counter (read it through
    :meth:`calibration_for`). Per-turn usage and latency live in each :class:`~chatbot.engine.turn.Turn`. A session
    never holds keys or headers.
    """

    id: str
    conversation: Conversation
    title: str = ""
    provider: str = ""
    model: str = ""
    #: "custom" when the session was made (or last served) against a base URL other than its provider's own service,
    #: "unknown" when it was stored before this mark was kept (either may be), else "". Only this mark is kept, never
    #: the URL: a session file must not be able to send a key to a server
    endpoint: str = ""
    created_at: str = field(default_factory=now_iso)
    updated_at: str = field(default_factory=now_iso)
    totals: Totals = field(default_factory=Totals)
    calibration: dict[str, Calibration] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)  # model options sent with every chat request (-o, /set)
    tool_sources: ToolSources = field(default_factory=ToolSources)  # re-attached when the session is continued
    #: the memory rule the session keeps (strategy, window, summary settings, budget, summary model and options),
    #: by setting name (``schema.RULE_FIELDS``); used again when it is continued (``core/rule.py`` says how a flag
    #: changes it). Empty for a session stored before it was kept: today's defaults apply
    rule: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def new(
        cls,
        session_id: str,
        *,
        system: str,
        provider: str = "",
        model: str = "",
        title: str = "",
        memory: MemoryConfig | None = None,
        counter: TokenCounter | None = None,
    ) -> Session:
        """A new, empty session (every store's ``create`` makes it once the id is known to be free)."""
        conversation = Conversation(system, memory, counter)
        return cls(id=session_id, conversation=conversation, title=title, provider=provider, model=model)

    def calibration_for(self, model: str) -> Calibration:
        """``model``'s calibration, the one the counter learns into (a new, empty one for a model never seen)."""
        return self.calibration.setdefault(model, Calibration())

    def context_for(self, model: str) -> int | None:
        """The context window a server named for ``model``, in tokens (None when none has); changes nothing."""
        calibration = self.calibration.get(model)
        return calibration.context if calibration else None

    # --- changes ----------------------------------------------------------------------------------------------

    def set_option(self, key: str, value: Any) -> None:
        """Send ``key: value`` with every later chat request (None removes it)."""
        if value is None:
            self.options.pop(key, None)
        else:
            self.options[key] = value

    def copy_as(self, session_id: str, turns: int | None = None) -> Session:
        """A copy of this session under ``session_id``: same turns (the first ``turns`` of them, when given),
        summary, model and options; new timestamps.

        A branch that ends before the last turn the summary covers leaves the summary out: it was written from turns
        the branch does not have (the very message an ``/edit N`` replaces, say), and would tell the model about
        them. The memory rule writes a new one from the branch's own turns when one is due. The copy shares no
        mutable state with this one (it is rebuilt from the document).
        """
        data = json.loads(self.to_json())
        if turns is not None:
            if not 0 <= turns <= len(data["turns"]):
                raise ValueError(f"a branch keeps 0 to {len(data['turns'])} turns, not {turns}")
            del data["turns"][turns:]
            if data["summary"]["covers"] > turns:
                data["summary"] = {"text": "", "covers": 0}
            # the summaries its turns sent, no later one (those were written from turns the branch does not have)
            sent = [int(((t.get("sent") or {}).get("refs") or {}).get("summary") or 0) for t in data["turns"]]
            data["summaries"] = data["summaries"][: max(sent, default=0)]
        copy = Session.from_dict(data, session_id, self.conversation.memory, self.conversation.counter)
        copy.created_at = copy.updated_at = now_iso()
        at = "" if turns is None else f" at turn {turns}"
        copy.title = f"fork of {self.id}{at}" + (f": {self.title}" if self.title else "")
        return copy

    # --- the document -----------------------------------------------------------------------------------------

    def _header(self) -> dict[str, Any]:
        """Every field of the document but the turns, in file order (the turns come between these and the totals)."""
        conv = self.conversation
        return {
            "version": FORMAT_VERSION,
            "id": self.id,
            "title": self.title,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "provider": self.provider,
            "model": self.model,
            "endpoint": self.endpoint,
            "options": self.options,
            "tool_sources": self.tool_sources.to_dict(),
            "rule": self.rule,
            "system": conv.system,
            "summary": {"text": conv.summary, "covers": conv.summary_covers},
            "summaries": conv.summaries,  # every summary a request sent: a turn's ``sent.refs`` names one by number
        }

    def _trailer(self) -> dict[str, Any]:
        # a model that has learned nothing yet is left out (its calibration is the default)
        calibration = {model: c.to_dict() for model, c in self.calibration.items() if c.learned}
        return {"totals": self.totals.to_dict(), "calibration": calibration}

    def fields(self) -> dict[str, Any]:
        """Every document field but the turns, JSON-ready (what a store with columns keeps beside its turn rows)."""
        return {**self._header(), **self._trailer()}

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready document."""
        turns = [t.to_dict() for t in self.conversation.turns]
        return {**self._header(), "turns": turns, **self._trailer()}

    def to_json(self) -> bytes:
        """The document as compact UTF-8 JSON: ``json_bytes(self.to_dict())`` byte for byte (a text with lone
        surrogates has them escaped in its own turn or header only; the decoded data is the same).

        Each turn's encoding is cached by the turn, so a save of a long session encodes only the new turns and
        joins the rest: one more turn costs the same at 10 or 1,000 stored turns, apart from writing the bytes.
        """
        head = json_bytes(self._header())  # '{"version":1,...,"summary":{...}}'
        tail = json_bytes(self._trailer())  # '{"totals":{...},"calibration":{...}}'
        parts = [head[:-1], b',"turns":[']
        for i, turn in enumerate(self.conversation.turns):
            parts += (b",", turn.to_json()) if i else (turn.to_json(),)
        parts += (b"],", tail[1:])
        return b"".join(parts)  # one join: a multi-megabyte intermediate would cost its page faults again

    def rescue_json(self, after: int) -> bytes:
        """A small rescue: this document with only the turns after the first ``after`` (those its store does not
        hold yet) and ``rescued_after: after``; the summary is left out (it covers turns that are not here)."""
        turns = [t.to_dict() for t in self.conversation.turns[after:]]
        header = {**self._header(), "summary": {"text": "", "covers": 0}, "rescued_after": after}
        return json_bytes({**header, "turns": turns, **self._trailer()})

    @classmethod
    def from_dict(
        cls,
        data: dict[str, Any],
        session_id: str,
        memory: MemoryConfig | None = None,
        counter: TokenCounter | None = None,
    ) -> Session:
        """Rebuild a session from a document that passed :func:`chatbot.storage.session_format.check_session_data`.

        ``session_id`` is where the store found it (the file name is the id, so a copied file is a new session).
        """
        summary = data["summary"]
        conversation = Conversation(
            data["system"],
            memory,
            counter,
            turns=[Turn.from_dict(t) for t in data["turns"]],
            summary=summary["text"],
            summary_covers=summary["covers"],
        )
        conversation.summaries = list(data.get("summaries") or [])  # absent in files written before it was kept
        return cls(
            id=session_id,
            conversation=conversation,
            title=data["title"],
            provider=data["provider"],
            model=data["model"],
            endpoint=data.get("endpoint", "unknown"),  # absent in files written before it was kept: not known
            created_at=data["created_at"],
            updated_at=data["updated_at"],
            totals=Totals.from_dict(data["totals"]),
            # older files store a plain correction factor per model: Calibration.from_stored reads both forms
            calibration={k: Calibration.from_stored(v) for k, v in data["calibration"].items()},
            options=dict(data.get("options") or {}),  # absent in files written before options existed
            tool_sources=ToolSources.from_dict(data.get("tool_sources")),
            rule=dict(data.get("rule") or {}),  # absent in files written before the rule was kept
        )


def document_title(data: dict[str, Any]) -> str:
    """A decoded document's title, or the start of its first user message for an untitled session."""
    if data["title"] or not data["turns"]:
        return str(data["title"])
    return preview(content_text(data["turns"][0]["messages"][0].get("content")), 50)


@dataclass(frozen=True)
class SessionInfo:
    """One line of a session listing. ``broken`` says why a session does not load ("" when it does)."""

    id: str
    title: str
    turns: int
    updated_at: str
    model: str
    broken: str = ""


@dataclass(frozen=True)
class SearchHit:
    """A stored turn that matches a search: where it is and a one-line snippet around the match."""

    session_id: str
    title: str
    turn: int  # 1-based turn number
    created_at: str
    snippet: str
    matches: int = 1  # how often the query occurs in the turn: the search's ranking


def snippet(text: str, query: str, width: int = 80) -> str:
    """A one-line extract of ``text`` around the first case-insensitive match of ``query`` ("" when none)."""
    flat = " ".join(clean(text).split())  # cleaned whole first: an extract cut inside a sequence would show its rest
    at = flat.lower().find(" ".join(query.split()).lower())
    if at < 0:
        return ""
    start = max(0, at - width // 3)
    cut = flat[start : start + width]
    return ("…" if start else "") + cut + ("…" if start + width < len(flat) else "")


def search_turns(session_id: str, title: str, turns: list[dict[str, Any]], query: str) -> list[SearchHit]:
    """The turns of one decoded session document whose user, assistant or tool text contains ``query``
    (case-insensitive, whitespace runs as one space), each with how often it occurs in the turn."""
    hits = []
    wanted = " ".join(query.split()).lower()
    first = wanted.split(" ", 1)[0]
    for number, turn in enumerate(turns, start=1):
        found, count = "", 0
        for message in turn["messages"]:
            if message.get("role") not in ("user", "assistant", "tool"):
                continue
            text = content_text(message.get("content"))
            if first and first not in text.lower():  # most messages lack the query: one look, not three
                continue
            count += " ".join(text.split()).lower().count(wanted) if wanted else 0
            found = found or snippet(text, query)
        if found:
            hits.append(SearchHit(session_id, title, number, str(turn.get("created_at", "")), found, count))
    return hits


# the only characters beyond ASCII whose lower() holds an ASCII letter: İ (to "i" and a dot) and the Kelvin sign
LOWER_TO_ASCII = ("\u0130".encode(), "\u212a".encode())


def may_hold(raw: bytes, query: str) -> bool:
    """False only when a session file's bytes cannot hold a turn :func:`search_turns` finds for ``query``: some word
    of the query is nowhere in them. A search skips decoding such a file (most files, for a rare word).

    Sound because a message's text stands in its JSON as it is, but for what JSON escapes: a word holding a quote or
    a backslash, and any file with a ``\\u`` escape (non-ASCII text written escaped), are not judged. A word with a
    sigma is not either: ``lower()`` makes a sigma final by its neighbours, and the ``n`` of an escaped newline
    before it is a letter where the searched text has a space. An ASCII word is looked for in the bytes with their
    ASCII letters lowered (no decoding), unless the file holds a character that lowers to ASCII."""
    words = query.lower().split()
    if not words or any(c in word for word in words for c in '"\\σς') or b"\\u" in raw:
        return True
    if all(word.isascii() for word in words) and not any(special in raw for special in LOWER_TO_ASCII):
        lowered = raw.lower()
        return all(word.encode() in lowered for word in words)
    try:
        text = raw.decode("utf-8").lower()
    except UnicodeDecodeError:
        return True  # a broken file: decoding it says why
    return all(word in text for word in words)


#: how many of the newest matching turns a search ranks: a query found in more turns than that (a common word in a
#: large store) ranks the newest of them, so its cost stays bounded
SEARCH_WINDOW = 1000


def ranked(hits: list[SearchHit]) -> list[SearchHit]:
    """Search hits in the order every store gives them: of the newest :data:`SEARCH_WINDOW` turns, those where the
    query occurs most first, then the newest (then by session id and turn number, so the order is total)."""
    hits = sorted(hits, key=lambda h: (h.session_id, h.turn))
    hits.sort(key=lambda h: h.created_at, reverse=True)
    del hits[SEARCH_WINDOW:]
    hits.sort(key=lambda h: h.matches, reverse=True)
    return hits
