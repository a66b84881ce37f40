"""``/diff [N]`` and ``/context at N``: a past request, as the model saw it, and what changed from one request to the
next.

The model is stateless: every request re-sends the conversation, and the memory rule decides what changes. Each
stored turn records how its request was built (:mod:`chatbot.engine.request_record`): which turns went verbatim,
which summary, which turns were recalled. From that record ``/context at N`` rebuilds request N message by message,
and ``/diff N`` compares request N with request N-1 by parts: the turns added, those dropped by the window or the
budget, those folded into the summary (and how the summary changed), the turns recalled, the tool results
shortened, with their tokens.
"""

from __future__ import annotations

import difflib

from chatbot.commands.base import Confirm
from chatbot.commands.effects import Effects, Show
from chatbot.core.app import App
from chatbot.engine.conversation import Conversation
from chatbot.engine.parts import PART_NAMES
from chatbot.engine.request_record import (
    Built,
    built_of,
    rebuild,
    shortened,
    summary_text,
    system_changed,
    turn_tokens,
)
from chatbot.engine.turn import Message, content_text, images_in
from chatbot.errors import UsageError
from chatbot.text import json_shown, preview

PREVIEW = 48
#: summary lines ``/diff`` shows of what a new summary added or dropped, at most
SUMMARY_LINES = 8

DIFF_USAGE = "usage: /diff [N]: request N (default: the next one) against the request before it, by parts"
AT_USAGE = "usage: /context at N [json]: the request of turn N as the model saw it (json: its exact messages)"


def _number(arg: str, last: int) -> int:
    """``/diff``'s request number: 1 to ``last``, the next request (before the user's message)."""
    try:
        number = int(arg)
    except ValueError:
        raise UsageError(DIFF_USAGE) from None
    if not 1 <= number <= last:
        has = f"requests 1 to {last}" if last > 1 else "only request 1"
        raise UsageError(f"there is no request {number}: this session has {has} ({last}: the next one, not sent yet)")
    return number


def _turn_number(arg: str, turns: int) -> int:
    """``/context at``'s turn number: 1 to ``turns``, the stored turns (``/context`` shows the next request)."""
    has = f"{turns} turn{'s' * (turns != 1)}" if turns else "no turns yet"
    which = f"/context at 1 to /context at {turns}" if turns > 1 else "/context at 1" if turns else ""
    hint = f" ({which}; /context shows the next request)" if which else " (/context shows the next request)"
    try:
        number = int(arg)
    except ValueError:
        raise UsageError(f"{arg!r} is not a turn number: the session has {has}{hint}") from None
    if not 1 <= number <= turns:
        raise UsageError(f"no turn {number}: the session has {has}{hint}")
    return number


def built(app: App, number: int) -> Built | None:
    """How request ``number`` was built: a stored turn's record (None when it kept none), or the next request's."""
    conv = app.chat.conversation
    if number <= len(conv.turns):
        return built_of(conv.turns[number - 1])
    request = app.chat.next_request("")
    tools = app.chat.tool_definition_tokens() if app.chat.run.max_tool_rounds else 0  # offered, as a turn keeps it
    return Built.from_refs(request.refs, request.parts, tools)


def _not_recorded(number: int) -> str:
    return (
        f"request {number} was stored before chatbot kept how each request was built (which turns, which summary): "
        "its size is all that is known (/timeline shows it)"
    )


# --- /context at N ----------------------------------------------------------------------------------------------


def context_at(app: App, arg: str) -> Effects:
    """``/context at N [json]``: request N rebuilt from its record, a row per message (or its messages as JSON)."""
    conv = app.chat.conversation
    words = arg.split()
    if not words or len(words) > 2 or (len(words) == 2 and words[1].lower() != "json"):
        raise UsageError(AT_USAGE)
    number = _turn_number(words[0], len(conv.turns))
    record = built_of(conv.turns[number - 1])
    if record is None:
        return Show(_not_recorded(number))
    messages = rebuild(conv, record, conv.turns[number - 1].messages[0])
    if len(words) == 2:
        return Show(json_shown(messages))
    counter = conv.counter
    which = _which(number, len(conv.turns))
    lines = [f"Request {which}, as the model saw it (rebuilt from the turns, summary and recall it named):"]
    lines.append(f"{'#':>3}  {'role':<10} {'tokens':>6}  preview")
    carrier = carrier_row(messages, record.carried)
    for i, message in enumerate(messages, start=1):
        role = "user+sys" if i == carrier else _role(message, record) if i == 1 else message["role"]
        text = message_preview(message)
        lines.append(f"{i:>3}  {role:<10} {counter.count_message(message):>6}  {preview(text, PREVIEW)}")
    rows = "" if record.tokens.estimated else ", the rows estimated"
    lines.append(f"total {_counted(record)}{rows} (budget {_budget(app, number)})")
    lines += _what_it_held(conv, record)
    return Show("\n".join(lines))


def carrier_row(messages: list[Message], carried: bool) -> int:
    """The row (1-based) of the user message that carried the system text (``carried``: the server leaves system
    messages out), the first; 0 when the request sent a system message. Both /context views mark it ``user+sys``."""
    if not carried:
        return 0
    return next(i for i, m in enumerate(messages, start=1) if m.get("role") == "user")


def message_preview(message: Message) -> str:
    """What a /context row shows of ``message`` before it is cut to the column: its text, after the images it
    carried and the tools it called (both views say them alike)."""
    text = content_text(message.get("content"))
    if images := images_in(message.get("content")):
        text = f"[{images} image(s)] {text}"
    if message.get("tool_calls"):
        names = ", ".join(c.get("function", {}).get("name", "?") for c in message["tool_calls"])
        text = f"[calls {names}] {text}"
    return text


def _role(first: Message, record: Built) -> str:
    """The role column of a request's first row: its system message marked with what it held (the summary, recall)."""
    if first.get("role") != "system" or not (record.summary or record.recalled):
        return str(first.get("role"))
    return "system+" + "S" * bool(record.summary) + "R" * bool(record.recalled)


def _which(number: int, turns: int) -> str:
    """``3, the last of 3``: where request ``number`` stands among the ``turns`` stored turns' requests."""
    if turns == 1:
        return f"{number}, the only one so far"
    edge = "the first" if number == 1 else "the last" if number == turns else ""
    return f"{number}, {edge} of {turns}" if edge else f"{number} of {turns}"


def _counted(record: Built) -> str:
    """A request's total as every view shows it (:class:`~chatbot.engine.request_record.RequestTokens`)."""
    tokens = record.tokens
    if tokens.estimated:
        return f"{tokens.total} tokens, estimated when it was sent"
    return f"{tokens.total} tokens as the provider counted them"


def _budget(app: App, number: int) -> str:
    sent = app.chat.conversation.turns[number - 1].sent or {}
    return str(sent.get("budget") or "?")


def _what_it_held(conv: Conversation, record: Built) -> list[str]:
    lines = []
    if system_changed(conv, record):
        lines.append("system: changed since (/system): shown as it is now, not as this request sent it")
    if record.carried:
        held = " with what it held (the summary, recalled turns)" if record.summary or record.recalled else ""
        lines.append(
            f"user+sys: the server left out system messages, so the system message{held} rode at the head of the "
            "first user message"
        )
    if record.verbatim:
        lines.append(f"verbatim: turn{_s(list(record.verbatim))} {_span(list(record.verbatim))}")
    if record.summary:
        newer = summary_text(conv, record) != conv.summary
        lines.append(
            f"system+S: summary version {record.summary} of turns 1-{record.summary_covers}"
            + (" (replaced since: this is the text it sent)" if newer else "")
        )
    if record.recalled:
        lines.append(f"system+R: turn{_s(list(record.recalled))} {_span(list(record.recalled))} recalled, verbatim")
    cut = shortened(conv, record)
    if cut:
        lines.append(
            f"shortened: the tool results of turn{_s(list(cut))} {_span(list(cut))} (over {record.result_limit} tokens)"
        )
    return lines


# --- /diff ------------------------------------------------------------------------------------------------------


def run_diff(app: App, arg: str, confirm: Confirm | None) -> Effects:
    """``/diff [N]``: request N (default: the next) against request N-1, by parts."""
    conv = app.chat.conversation
    last = len(conv.turns) + 1
    number = _number(arg, last) if arg else last
    after = built(app, number)
    if after is None:
        return Show(_not_recorded(number))
    if number == 1:
        return Show(f"request 1 is the first: it holds the system message and the first message ({_counted(after)})")
    before = built(app, number - 1)
    if before is None:
        return Show(_not_recorded(number - 1) + f"; /context at {number} shows request {number}")
    return Show("\n".join(diff_lines(conv, before, after, next_one=number == last)))


def diff_lines(conv: Conversation, before: Built, after: Built, *, next_one: bool = False) -> list[str]:
    """Request ``after`` against ``before``: the parts' tokens, then each change with its tokens."""
    what = f"request {after.number}" + (" (the next one, before your message)" if next_one else "")
    old, new = before.tokens, after.tokens
    how = "estimated" if old.estimated or new.estimated else "as the provider counted them"
    lines = [
        f"{what[0].upper()}{what[1:]} against request {before.number}: {old.total} → {new.total} tokens "
        f"({new.total - old.total:+d}, {how}); the model gets each whole, the app chose what changed",
        f"  {'part':<13}{'before':>7}{'after':>7}{'change':>8}",
    ]
    for name in PART_NAMES:
        was, now = getattr(before.parts, name), getattr(after.parts, name)
        if was or now:
            lines.append(f"  {name.replace('_', ' '):<13}{was:>7}{now:>7}{now - was:>+8d}")
    if before.tools or after.tools:
        lines.append(f"  {'tools':<13}{before.tools:>7}{after.tools:>7}{after.tools - before.tools:>+8d}")
    if next_one:
        lines.append("  (new: your next message is not written yet)")
    return lines + _changes(conv, before, after)


def _changes(conv: Conversation, before: Built, after: Built) -> list[str]:
    was, now = set(before.verbatim), set(after.verbatim)
    tokens = lambda numbers: sum(turn_tokens(conv, after, n) for n in numbers)  # noqa: E731
    lines = []
    added = sorted(now - was)
    if added:
        last = " (the last exchange: its message and reply)" if added == [before.number] else ""
        lines.append(f"+ turn{_s(added)} {_span(added)} sent verbatim{last}: {tokens(added)} tokens")
    gone = sorted(was - now)
    folded = [n for n in gone if after.summary and n <= after.summary_covers]
    dropped = [n for n in gone if n not in folded]
    if folded:
        lines.append(
            f"- turn{_s(folded)} {_span(folded)} folded into the summary: {tokens(folded)} tokens no longer sent"
        )
    if dropped:
        lines.append(
            f"- turn{_s(dropped)} {_span(dropped)} dropped by the window or the budget: {tokens(dropped)} tokens "
            "(stored, not sent)"
        )
    if before.system and after.system and before.system != after.system:
        lines.append("* the system message changed (/system)")
    lines += _summary_change(conv, before, after)
    if before.recalled != after.recalled:  # the block's tokens: the turns quoted under their heading
        for sign, numbers, what in (
            ("+", sorted(set(after.recalled) - set(before.recalled)), "recalled into the system message"),
            ("-", sorted(set(before.recalled) - set(after.recalled)), "no longer recalled"),
        ):
            if numbers:
                lines.append(f"{sign} turn{_s(numbers)} {_span(numbers)} {what}")
        lines.append(f"  the recalled block: {before.parts.recalled} → {after.parts.recalled} tokens")
    cut = sorted(set(shortened(conv, after)) - set(shortened(conv, before)))
    if cut:
        lines.append(
            f"~ the tool results of turn{_s(cut)} {_span(cut)} sent shortened (to {after.result_limit} tokens)"
        )
    if not lines:
        lines.append("= the same earlier turns, summary and recalled turns: only the new message differs")
    return lines


def _summary_change(conv: Conversation, before: Built, after: Built) -> list[str]:
    if before.summary == after.summary:
        return []
    old, new = summary_text(conv, before), summary_text(conv, after)
    if not after.summary:
        return [
            f"- the summary (turns 1-{before.summary_covers}) left out of the request: {before.parts.summary} tokens"
        ]
    if after.summary > len(conv.summaries):  # the next request's: the summary now, unless a fold is due first
        if after.summary_covers != conv.summary_covers:
            return [f"* a new summary of turns 1-{after.summary_covers}, written by one model call before sending"]
        new = conv.summary
    head = "+ a summary" if not before.summary else "* the summary changed"
    covered = f"covers turns 1-{after.summary_covers}" + (f" (was 1-{before.summary_covers})" if before.summary else "")
    lines = [f"{head} (version {after.summary}): {covered}, {before.parts.summary} → {after.parts.summary} tokens"]
    delta = [
        line
        for line in difflib.ndiff(old.splitlines(), new.splitlines())
        if line[:2] in ("+ ", "- ") and line[2:].strip()
    ]
    lines += [f"    {line[0]} {preview(line[2:], 90)}" for line in delta[:SUMMARY_LINES]]
    if len(delta) > SUMMARY_LINES:
        lines.append(f"    … and {len(delta) - SUMMARY_LINES} more changed line(s) (/summary shows it whole)")
    return lines


def _s(numbers: list[int]) -> str:
    return "s" if len(numbers) > 1 else ""


def _span(numbers: list[int]) -> str:
    """``1-3, 5``: turn numbers, runs joined."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)
