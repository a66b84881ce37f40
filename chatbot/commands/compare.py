"""``chatbot --compare-memory ID``: one stored conversation replayed under several memory rules, offline.

For each turn, the request each rule would have sent for that turn's message, built from the turns before it by the
same code that builds a real request (:func:`chatbot.engine.memory.build_request`), with no model call: a summary a
rule needs comes from the session where it kept one covering the same turns, else from the echo provider's
deterministic (lossy) summary, and the table says which. The replies stay the stored ones: a different rule would
have had different replies, which no offline replay can know.

Each request is built within the budget a real one had: ``--max-input-tokens``, or less once the session's server
named the model's window (:func:`chatbot.core.budget.input_budget`: the window less the reply's room), less the tool
definitions that turn's request carried (its ``sent`` record keeps their tokens): a replay offers no tools, but its
messages get no more room than the real request's had.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from chatbot.core.budget import input_budget
from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.request_record import built_of, summary_text
from chatbot.engine.summary_prompt import summary_request
from chatbot.engine.turn import Message, Turn
from chatbot.providers.echo import echo_summary
from chatbot.storage.session import Session

#: the rules compared: a name and what it changes in the session's own rule
RULES: tuple[tuple[str, dict[str, object]], ...] = (
    ("full", {"strategy": "full", "recall": 0}),
    ("window", {"strategy": "window", "recall": 0}),
    ("window+R1", {"strategy": "window", "recall": 1}),
    ("summary", {"strategy": "summary", "recall": 0}),
    ("summary+R1", {"strategy": "summary", "recall": 1}),
)


@dataclass
class Replay:
    """One rule's requests: tokens per turn, and how many summaries came from the session or from echo."""

    name: str
    tokens: list[int]
    from_session: int = 0
    from_echo: int = 0


def stored_summaries(session: Session) -> dict[int, str]:
    """The summaries the session's requests sent, by how many turns each covers."""
    conv = session.conversation
    found: dict[int, str] = {}
    for turn in conv.turns:
        built = built_of(turn)
        if built is not None and built.summary:
            found.setdefault(built.summary_covers, summary_text(conv, built))
    if conv.summary:
        found.setdefault(conv.summary_covers, conv.summary)
    return {covers: text for covers, text in found.items() if text}


def budget(session: Session) -> int:
    """What a request of ``session`` may count: its rule's budget, under the window its server named (if any)."""
    memory = session.conversation.memory
    context = session.context_for(session.model)
    return input_budget(memory.max_input_tokens, context, session.rule.get("max_output_tokens"))


def replay(session: Session, name: str, changes: dict[str, object]) -> Replay:
    """The requests ``session``'s turns would have sent under its rule with ``changes``, within :func:`budget`."""
    source = session.conversation
    memory = replace(source.memory, **changes, max_input_tokens=budget(session))  # type: ignore[arg-type]
    if memory.keep_turns > memory.summary_trigger:
        memory = replace(memory, keep_turns=memory.summary_trigger)
    conv = Conversation(source.system, memory, source.counter)
    known = stored_summaries(session)
    result = Replay(name, [])

    def summarize(previous: str, turns: list[list[Message]], first: int) -> str:
        covers = first + len(turns) - 1
        if covers in known:
            result.from_session += 1
            return known[covers]
        result.from_echo += 1
        return echo_summary(str(summary_request(previous, turns, first)[-1]["content"]))

    for turn in source.turns:
        room = memory.max_input_tokens - _definitions(turn)
        request = conv.build_request(turn.messages[0], summarizer=summarize, budget=room)
        result.tokens.append(request.tokens)
        conv.add_turn(turn)
    return result


def _definitions(turn: Turn) -> int:
    """Tokens of the tool definitions ``turn``'s request carried beside its messages (0: none, or not recorded)."""
    tools = (turn.sent or {}).get("tools")
    return tools if isinstance(tools, int) else 0


def compare(session: Session) -> list[Replay]:
    """Every rule of :data:`RULES` replayed on ``session``."""
    return [replay(session, name, changes) for name, changes in RULES]


def plain(session: Session, replays: list[Replay], memory: MemoryConfig) -> str:
    """A table: per turn the tokens each rule's request holds, then the totals and where summaries came from."""
    width = max(11, *(len(r.name) + 1 for r in replays))
    lines = [
        f"Session {session.id} replayed under each memory rule (offline, no model call): the prompt tokens of each "
        f"turn's request, budget {_budget_words(session, memory)}, window {memory.window_turns}, summary after "
        f"{memory.summary_trigger} keeping {memory.keep_turns}",
        "turn" + "".join(f"{r.name:>{width}}" for r in replays),
    ]
    for i in range(len(session.conversation.turns)):
        lines.append(f"{i + 1:>4}" + "".join(f"{r.tokens[i]:>{width}}" for r in replays))
    lines.append("sum " + "".join(f"{sum(r.tokens):>{width}}" for r in replays))
    full = sum(replays[0].tokens) or 1
    lines.append("    " + "".join(f"{f'{sum(r.tokens) / full:.0%}':>{width}}" for r in replays) + "  of full memory")
    for r in replays:
        if r.from_session or r.from_echo:
            lines.append(
                f"{r.name}: {r.from_session} summar{'y' if r.from_session == 1 else 'ies'} from the session, "
                f"{r.from_echo} written by echo's deterministic summary (lossy: short extracts, no model)"
            )
    lines.append("The replies are the stored ones: under another rule the model might have answered otherwise.")
    return "\n".join(lines)


def _budget_words(session: Session, memory: MemoryConfig) -> str:
    """The budget the replay keeps to, and where a window the server named made it smaller."""
    kept, context = budget(session), session.context_for(session.model)
    tools = max(map(_definitions, session.conversation.turns), default=0)
    less = f", less the tool definitions a turn's request carried (up to {tools})" if tools else ""
    if kept < memory.max_input_tokens and context:
        return f"{kept} (the server's window of {context} tokens less the reply's room{less})"
    return f"{kept}{f' ({less[2:]})' if less else ''}"
