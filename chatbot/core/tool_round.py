"""One round of tool calls inside a turn: each call run (after asking, with ``--confirm-tools``) and answered.

A model can ask for any number of calls in one reply (2,000 have been seen). At most :data:`MAX_CALLS_PER_ROUND`
run; every other call still gets a ``tool`` message saying it was not run, so the next request stays valid, and
the user is told once.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator

from chatbot.attachments.attach import Content
from chatbot.core.events import ChatEvent, Notice, ToolFinished, ToolStarted
from chatbot.core.rounds import TurnSoFar
from chatbot.engine.tokens import TokenCounter
from chatbot.engine.turn import TOOL_LINE, content_text
from chatbot.providers.base import ToolCall
from chatbot.tools.base import ToolOutcome
from chatbot.tools.registry import Registry

#: calls run from one model reply; the rest are answered without running
MAX_CALLS_PER_ROUND = 32
#: the result of a call past the cap
NOT_RUN_OVER_CAP = (
    f"Error: not run: more than {MAX_CALLS_PER_ROUND} calls in one round; ask again for the ones you still need."
)


def tool_notices(tools: Registry | None, counter: TokenCounter, budget: int) -> Iterator[Notice]:
    """What the user hears about the tools before a turn: servers that stopped, tools that do not fit (each once)."""
    if tools is None:
        return
    for source in tools.gone():
        yield Notice(f"MCP server {source} stopped; its tools are gone (the chat goes on without them)", True)
    left_out = tools.left_out_notice(counter, budget)
    if left_out:
        yield Notice(left_out, True)


def tool_line_notice(tools: Registry | None, text: Content) -> Notice | None:
    """What a message with an ``@tool NAME {...}`` line hears when no tool is attached: how to attach one. (The
    ``echo`` provider calls a tool for such a line; without tools it goes to the model as plain text.)"""
    if (tools is not None and tools.specs()) or not TOOL_LINE.search(content_text(text)):
        return None
    return Notice(
        "no tool is attached, so the @tool line is sent as plain text: start chatbot with --functions FILE.py or "
        "--mcp SERVER to give the model tools (/tools lists them)"
    )


def run_round(
    tools: Registry,
    confirm: Callable[[ToolCall], bool] | None,
    calls: list[ToolCall],
    progress: TurnSoFar,
) -> Generator[ChatEvent, None, None]:
    """Record ``calls`` as the model's round in ``progress``, run up to the cap and answer every one."""
    calls = progress.open_round(calls)
    run, over = calls[:MAX_CALLS_PER_ROUND], calls[MAX_CALLS_PER_ROUND:]
    if over:
        yield Notice(
            f"the model asked for {len(calls)} tool calls in one round: the first {len(run)} ran, the other "
            f"{len(over)} were not run (at most {MAX_CALLS_PER_ROUND} a round)",
            True,
        )
    for call in run:
        yield from _run_call(tools, confirm, call, progress)
    for call in over:
        progress.add_result(call, NOT_RUN_OVER_CAP)


def _run_call(
    tools: Registry, confirm: Callable[[ToolCall], bool] | None, call: ToolCall, progress: TurnSoFar
) -> Generator[ChatEvent, None, None]:
    """Run one call (after asking, with --confirm-tools) and add its result to ``progress``."""
    yield ToolStarted(call)
    if confirm is not None and not confirm(call):
        outcome = ToolOutcome(call.name, "Error: the user refused this tool call.", error=True)
    else:
        outcome = tools.call(call.name, call.arguments)
    progress.add_result(call, outcome.text)
    yield ToolFinished(call, outcome.text, outcome.error)
    if outcome.notice:
        yield Notice(outcome.notice, True)
