"""How a request was built, by reference: which stored turns went verbatim, which summary version rode in the system
message, which turns recall brought back, and the limit that shortened older tool results. No text is copied: the
turns are in the session, and every summary a request sent is kept in ``Conversation.summaries`` (a ``/summary
redo`` or ``clear`` replaces the summary, never the versions sent before it).

:func:`refs` makes the record where the request is built (it rides in each stored turn's ``sent`` record);
:class:`Built` reads it back, and :func:`rebuild` gives the very messages the model saw, so ``/context at N`` and
``/diff`` can show a past request.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from chatbot.engine import recall
from chatbot.engine.parts import Parts
from chatbot.engine.summary_prompt import summary_section
from chatbot.engine.system_carry import carry_system
from chatbot.engine.tool_results import sent_messages, turn_cost
from chatbot.engine.turn import Message, Turn
from chatbot.engine.usage import prompt_figure

if TYPE_CHECKING:
    from chatbot.engine.conversation import Conversation
    from chatbot.engine.folds import RollingSummary

#: the key of the record inside a turn's ``sent`` record
REFS = "refs"


def summary_number(conv: Conversation, text: str) -> int:
    """The 1-based number of the summary ``text`` among the summaries requests sent (``conv.summaries``), or the
    number it gets when it is new (the next). A summary restored after a failed redo keeps the number it had."""
    for number in range(len(conv.summaries), 0, -1):
        if conv.summaries[number - 1] == text:
            return number
    return len(conv.summaries) + 1


def summary_version(conv: Conversation) -> int:
    """The number of ``conv.summary`` (:func:`summary_number`), added to ``conv.summaries`` when it is new."""
    number = summary_number(conv, conv.summary)
    if number > len(conv.summaries):
        conv.summaries.append(conv.summary)
    return number


def refs(
    conv: Conversation,
    first: int,
    summary: RollingSummary | None,
    recalled: tuple[int, ...],
    head: int = 0,
    *,
    carried: bool = False,
) -> dict[str, Any]:
    """The record of a request for a new message after ``conv.turns``, sending ``turns[:head]`` and ``turns[first:]``
    verbatim, ``summary`` (None: none) and the ``recalled`` turns (1-based); ``carried``: the system text rode at the
    head of the first user message (:mod:`chatbot.engine.system_carry`). Pure: the summary's number is the one it
    has, or gets once the request is sent (:meth:`~chatbot.engine.conversation.Conversation.keep_sent`)."""
    sent = summary if summary is not None and summary.text else None
    record: dict[str, Any] = {
        "turns": len(conv.turns),
        "verbatim_from": first + 1,
        "summary": summary_number(conv, sent.text) if sent else 0,
        "summary_covers": sent.covers if sent else 0,
        "recalled": list(recalled),
        "result_limit": conv.memory.tool_result_tokens,
        "system": system_mark(conv.system),
    }
    # the marks only a few requests have are left out of the others' records (as of records kept before they existed)
    return ({"head": head} if head else {}) | ({"carried": True} if carried else {}) | record


def system_mark(system: str) -> str:
    """A short fingerprint of the system message: a rebuilt request can tell whether ``/system`` changed it since (the
    text itself is not copied into every turn)."""
    return hashlib.sha256(system.encode("utf-8", "surrogatepass")).hexdigest()[:12]


@dataclass(frozen=True)
class Built:
    """How one request was built: for the new message after ``turns`` stored turns, turns ``verbatim_from`` to
    ``turns`` sent verbatim (1-based), summary version ``summary`` (0: none) covering ``summary_covers`` turns,
    ``recalled`` turns in the system message, older tool results shortened to ``result_limit`` tokens."""

    turns: int
    verbatim_from: int
    summary: int
    summary_covers: int
    recalled: tuple[int, ...]
    result_limit: int | None
    parts: Parts = Parts()
    tools: int = 0
    system: str = ""  # the system message's fingerprint ("" in a record made before it was kept)
    head: int = 0  # turns 1 to ``head`` sent verbatim too, before a gap (first-last memory)
    provider: int | None = None  # the provider's own count of the request (None: it sent none, or not sent yet)
    carried: bool = False  # the system text rode at the head of the first user message (engine/system_carry.py)

    @property
    def tokens(self) -> RequestTokens:
        """The request's prompt tokens, as every view of it shows them (:class:`RequestTokens`)."""
        return RequestTokens.of(self.parts, self.tools, self.provider)

    @property
    def number(self) -> int:
        """The turn this request was (or will be) for."""
        return self.turns + 1

    @property
    def verbatim(self) -> range | tuple[int, ...]:
        """The turns sent verbatim (1-based)."""
        tail = range(self.verbatim_from, self.turns + 1)
        return (*range(1, self.head + 1), *tail) if self.head else tail

    @classmethod
    def from_refs(
        cls, data: dict[str, Any], parts: Parts | None = None, tools: int = 0, provider: int | None = None
    ) -> Built:
        """From :func:`refs`' record."""
        limit = data.get("result_limit")
        return cls(
            int(data["turns"]),
            int(data["verbatim_from"]),
            int(data.get("summary") or 0),
            int(data.get("summary_covers") or 0),
            tuple(int(n) for n in data.get("recalled") or ()),
            None if limit is None else int(limit),
            parts or Parts(),
            tools,
            str(data.get("system") or ""),
            int(data.get("head") or 0),
            provider,
            data.get("carried") is True,
        )


def built_of(turn: Turn) -> Built | None:
    """How ``turn``'s request was built; None for a turn stored before the record was kept."""
    sent = turn.sent or {}
    if not isinstance(sent.get(REFS), dict) or "turns" not in sent[REFS]:  # none kept, or an empty one
        return None
    return Built.from_refs(sent[REFS], *_figures(sent))


@dataclass(frozen=True)
class RequestTokens:
    """The prompt tokens of one request, the one figure ``/timeline``, ``/diff`` and ``/context at N`` show for it:
    the provider's own count when the server sent one, else (``estimated``) the estimate of its parts with the tool
    definitions offered beside them."""

    total: int
    estimated: bool

    @classmethod
    def of(cls, parts: Parts, tools: int, provider: int | None) -> RequestTokens:
        """The figure for a request of ``parts`` and ``tools`` tokens of definitions, ``provider`` its count."""
        return cls(parts.total + tools, True) if provider is None else cls(provider, False)


def request_tokens(turn: Turn) -> RequestTokens:
    """The prompt tokens of ``turn``'s request (its first, when it called tools): :class:`RequestTokens` from its
    ``sent`` record; a turn stored before that record was kept has its usage's figure."""
    sent = turn.sent
    if not sent:
        return RequestTokens(*prompt_figure(turn.usage))
    return RequestTokens.of(*_figures(sent))


def _figures(sent: dict[str, Any]) -> tuple[Parts, int, int | None]:
    # what a turn's ``sent`` record kept of its request's size: its parts, the tool definitions' tokens beside them,
    # the provider's own count (None: the server sent none)
    provider = sent.get("provider")
    return (
        Parts.from_dict(sent.get("parts") or {}),
        int(sent.get("tools") or 0),
        None if provider is None else int(provider),
    )


def summary_text(conv: Conversation, built: Built) -> str:
    """The summary ``built`` sent ("" when none)."""
    return conv.summaries[built.summary - 1] if 0 < built.summary <= len(conv.summaries) else ""


def shortened(conv: Conversation, built: Built) -> tuple[int, ...]:
    """The verbatim turns whose tool results went shortened."""
    counter = conv.counter
    return tuple(
        n
        for n in built.verbatim
        if conv.turns[n - 1].has_tool_calls
        and sent_messages(conv.turns[n - 1], counter, built.result_limit) != conv.turns[n - 1].messages
    )


def turn_tokens(conv: Conversation, built: Built, number: int) -> int:
    """Raw tokens turn ``number`` (1-based) takes as ``built`` sent it."""
    return turn_cost(conv.turns[number - 1], conv.counter, built.result_limit)


def system_changed(conv: Conversation, built: Built) -> bool:
    """Whether the system message is not the one ``built`` sent (``/system`` changed it since)."""
    return bool(built.system) and built.system != system_mark(conv.system)


def rebuild(conv: Conversation, built: Built, user: Message) -> list[Message]:
    """The messages of the request ``built`` records, for the new message ``user``: what the model saw (with today's
    system message when :func:`system_changed` says it is not that request's), the system text at the head of the
    first user message when the request carried it there."""
    system: Message = {"role": "system", "content": conv.system}
    text = summary_text(conv, built)
    if text:
        system = {"role": "system", "content": f"{conv.system}\n\n{summary_section(text, built.summary_covers)}"}
    system = recall.with_recalled(system, built.recalled, conv)
    messages = [system]
    for number in built.verbatim:
        messages += sent_messages(conv.turns[number - 1], conv.counter, built.result_limit)
    messages.append(dict(user))
    return carry_system(messages) if built.carried else messages
