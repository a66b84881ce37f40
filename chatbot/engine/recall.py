"""Recall: earlier turns that are not sent verbatim come back when the new message is about them.

A window drops old turns and a summary loses details, yet the session keeps every turn whole. Before each request
the turns the memory rule leaves out (dropped by the window, folded into the summary, or left out for the budget)
are ranked against the new message, and up to ``MemoryConfig.recall`` of the relevant ones (the best's close
look-alike with them) go back into the request, verbatim, in one block inside the system message under a heading
that names their turn numbers (:func:`recall_block`), within the budget. A message about nothing earlier recalls
nothing.

- **The block is quoted**: recalled text is anything a model, a tool or a web page once wrote, so each message is a
  label line (``User:``, ``Assistant:``, ``Tool result (name):``) followed by its text with every line quoted
  (``> ``), and the block ends with :data:`RECALL_END`. No recalled line can open a heading, a turn, a message or
  the end of the block (a reply holding ``## Operator note`` or ``--- turn 7`` stays a quoted line of its turn).
- **Finding the turns** is the work of the modules beside this one: :mod:`~chatbot.engine.recall_terms` (the words
  matched: stems, stop words, Korean bigrams), :mod:`~chatbot.engine.recall_index` (BM25 over them, grown turn by
  turn), :mod:`~chatbot.engine.recall_meaning` (sentence vectors, with the ``embed`` extra) and
  :mod:`~chatbot.engine.recall_rank` (which turns are relevant, by words, meaning or both: ``--recall-by``).

Pure and screen-free: the memory rule calls :func:`recall_block`; ``/recall`` and the ``search_conversation`` tool
call :func:`search`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from chatbot.engine import recall_meaning
from chatbot.engine.recall_cues import Cue
from chatbot.engine.recall_index import SEARCH_TOOL, RecallIndex, turn_text
from chatbot.engine.recall_rank import MIN_SHARE, Hit, comes_with, rank
from chatbot.engine.recall_terms import terms
from chatbot.engine.tool_results import sent_messages
from chatbot.engine.turn import Message, Turn, content_text
from chatbot.text import QUOTE, quote_lines

if TYPE_CHECKING:
    from chatbot.engine.conversation import Conversation

__all__ = ["MIN_SHARE", "SEARCH_TOOL", "Hit", "RecallIndex", "choose", "search", "terms", "turn_text"]

#: the heading under which recalled turns ride in the system message
RECALL_HEADING = "Earlier turns recalled for this message"
#: how each recalled turn is introduced in the block
RECALL_TURN_MARKER = "--- turn "
#: the last line of the block: recalled text is quoted, so no line of it can be this one
RECALL_END = "--- end of the recalled turns"


def search(conv: Conversation, query: str, among: Iterable[int] | None = None, tool: bool = False) -> list[Hit]:
    """The turns of ``conv`` (by 0-based index; only ``among`` when given) with evidence of being about ``query``,
    the best first, each ``relevant`` or not by the session's ``recall_by`` (:mod:`~chatbot.engine.recall_rank`);
    a ``tool`` query (the model's ``search_conversation``) points back at the conversation by being asked."""
    if not query.strip():
        return []  # the status line's preview of an empty message: nothing to embed or score
    index = conv.recall_index
    index.sync(conv.turns)
    numbers = range(len(conv.turns)) if among is None else list(among)
    scores = index.scores(query, numbers)
    if tool and scores.cue is None:
        scores.cue = Cue("search", SEARCH_TOOL)
    by = conv.memory.recall_by
    if by != "words" and recall_meaning.available():
        everything = recall_meaning.similarities(query, conv.turns)
        similarity = {d: everything[d] for d in numbers if d in everything}
    else:
        similarity, everything, by = {}, {}, "words"
    return rank(scores, numbers, similarity, list(everything.values()), by)


def render_turn(number: int, turn: Turn, conv: Conversation, note: str = "") -> str:
    """One recalled turn as the block carries it: its marker line (``note`` after the number), then every message,
    older tool results shortened as in a request, each a label line and its text quoted."""
    lines = [f"{RECALL_TURN_MARKER}{number}{note}"]
    for m in sent_messages(turn, conv.counter, conv.memory.tool_result_tokens):
        lines += _message_lines(m)
    return "\n".join(lines)


def _label(value: object) -> str:
    return " ".join(str(value).split())  # a name on a label line: one line, whatever it held


def _message_lines(m: Message) -> list[str]:
    role, text = m.get("role"), content_text(m.get("content"))
    if role == "user":
        return ["User:", *quote_lines(text)]
    if role == "tool":
        return [f"Tool result ({_label(m.get('name') or m.get('tool_call_id'))}):", *quote_lines(text)]
    lines = ["Assistant:", *quote_lines(text)] if text else []
    for call in m.get("tool_calls") or []:
        function = call.get("function", {})
        arguments = str(function.get("arguments") or "")
        called = f"Assistant called tool {_label(function.get('name'))}"
        lines += [f"{called} with:", *quote_lines(arguments)] if arguments else [called]
    return lines


def recall_heading(numbers: Sequence[int]) -> str:
    """The heading line of a block that carries the turns ``numbers`` (1-based)."""
    which = f"turn{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}"
    return (
        f"{RECALL_HEADING} ({which}, verbatim from the stored conversation: every line of their text is quoted with "
        f"'{QUOTE.strip()}', up to the line '{RECALL_END}')"
    )


def recall_block(numbers: Sequence[int], conv: Conversation) -> str:
    """The block appended to the system message: the heading, each turn in the order it happened, the end line."""
    ordered = sorted(numbers)
    turns = [render_turn(n, conv.turns[n - 1], conv) for n in ordered]
    return "\n\n".join([f"## {recall_heading(ordered)}", *turns, RECALL_END])


def choose(
    conv: Conversation, query: str, candidates: int, fits: Callable[[tuple[int, ...]], bool], sent: int = 0
) -> tuple[int, ...]:
    """Up to ``conv.memory.recall`` of the turns ``turns[sent:candidates]`` relevant to ``query`` whose block ``fits``,
    the best first (a turn that does not fit is passed over for a smaller one), and what comes with the best
    (:func:`~chatbot.engine.recall_rank.comes_with`: its look-alike, or meaning's other guesses); in the order they
    happened."""
    k = conv.memory.recall
    if k <= 0 or candidates <= 0:
        return ()
    chosen: tuple[int, ...] = ()
    hits = [h for h in search(conv, query, range(sent, candidates)) if h.relevant]
    for place, hit in enumerate(hits):
        if len(chosen) >= k and not comes_with(hits[0], hit, place):
            continue  # a guess further down may still come with a best that is one
        trial = tuple(sorted((*chosen, hit.number)))
        if fits(trial):
            chosen = trial
    return chosen


def split_recalled(system: str) -> tuple[str, str]:
    """``(system message before the block, the block)``; the block is empty when the message carries none.

    The block is always last, and ends with :data:`RECALL_END`: its heading is the last one at the start of a line
    (a heading quoted inside recalled text starts with ``> ``)."""
    heading = f"## {RECALL_HEADING}"
    at = system.rfind(f"\n{heading}") + 1  # 0: not after a line break, so only at the very start
    if not system.endswith(f"\n{RECALL_END}") or (at == 0 and not system.startswith(heading)):
        return system, ""
    return system[:at].rstrip(), system[at:]


def with_recalled(system: Message, numbers: Sequence[int], conv: Conversation) -> Message:
    """The system message with the block of ``numbers`` appended (as is when there are none)."""
    if not numbers:
        return system
    return {**system, "content": f"{system['content']}\n\n{recall_block(numbers, conv)}"}


def attach(
    conv: Conversation, system: Message, message: Message, first: int, budget: int, raw: int, head: int = 0
) -> tuple[Message, tuple[int, ...], int]:
    """The memory rule's hook: the ``system`` message (with the summary or not) with the turns recalled for ``message``
    from ``turns[head:first]`` (those not sent verbatim: a rule's first ``head`` turns are), in the room ``budget``
    leaves beside ``raw`` tokens; the turns, and the raw tokens added."""
    counter = conv.counter
    if conv.memory.recall <= 0 or first <= head or counter.total(raw) >= budget:
        return system, (), 0  # nothing left out, or no room: not even counted
    base = conv.count_system(system)

    def extra(numbers: tuple[int, ...]) -> int:
        return counter.count_message(with_recalled(system, numbers, conv)) - base if numbers else 0

    numbers = choose(
        conv, content_text(message.get("content")), first, lambda n: counter.total(raw + extra(n)) <= budget, head
    )
    return with_recalled(system, numbers, conv), numbers, extra(numbers)


#: turns the search tool returns at most
SEARCH_RESULTS = 3


def search_report(conv: Conversation, query: str) -> str:
    """What ``search_conversation(query)`` answers the model: the best relevant turns of the whole conversation
    (the same search as recall), verbatim with their numbers and scores; or that none matches."""
    hits = [h for h in search(conv, query, tool=True) if h.relevant][:SEARCH_RESULTS]
    if not hits:
        return f"No earlier turn of this conversation matches {query!r}."
    found = ", ".join(str(h.number) for h in hits)
    blocks = [render_turn(h.number, conv.turns[h.number - 1], conv, f" (score {h.fused:.2f})") for h in hits]
    head = (
        f"Turn {found} of this conversation matches" if len(hits) == 1 else f"Turns {found} of this conversation match"
    )
    return f"{head} {query!r}, the best first:\n\n" + "\n\n".join(blocks)
