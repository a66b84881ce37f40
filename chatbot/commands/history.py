"""Slash commands that change the history, the turns so far: /reset, /undo, /retry, /edit, /system and /summary."""

from __future__ import annotations

import re

from chatbot.attachments.attach import with_text
from chatbot.commands.base import Command, Confirm, Retry
from chatbot.commands.effects import Edit, Effects, Note, Send, Show
from chatbot.core.app import App
from chatbot.core.chat import Chat
from chatbot.core.events import Unsent
from chatbot.errors import BudgetError, ChatbotError, Interrupted, UsageError
from chatbot.text import preview

#: /edit where there is no prompt to edit in
IN_A_SCRIPT = "in a script, /edit takes the new text"


def _reset(app: App, arg: str, confirm: Confirm | None) -> Effects:
    chat = app.chat
    stored = len(chat.conversation.turns)
    # there is no way back from a reset, so a terminal asks first; a script's /reset is the line the user wrote
    question = f"Erase the {stored} stored turn(s) of session {chat.session.id} and its summary for good?"
    if stored and confirm is not None and not confirm(f"{question} (/new starts afresh and keeps them)"):
        return Note("not reset; nothing erased")
    count = chat.reset()
    return Note(f"erased {count} turn(s) and the summary of session {chat.session.id}; the system message stays")


def _undo(app: App, arg: str, confirm: Confirm | None) -> Effects:
    conv = app.chat.conversation
    covered = conv.summary_covers  # before: whether the summary was written from the turn being dropped
    turn = app.chat.undo()
    if turn is None:
        raise UsageError("nothing to undo")
    text = f"dropped the last turn ({preview(turn.user_text, 48)})"
    if conv.summary and covered > len(conv.turns):  # the summary keeps what it learnt from it, and is still sent
        text += (
            "; the summary was written from it and still tells the model of it: /summary redo rewrites it from the "
            "turns left, /summary clear forgets it"
        )
    return Note(text)


def _retry(app: App, arg: str, confirm: Confirm | None) -> Retry:
    return Retry()  # what it resends depends on what the front end kept (table.run)


def resend(app: App, unsent: Unsent | None) -> Send:
    """/retry: send ``unsent`` again (the message of a turn that stopped before anything was stored, as the front end
    kept it) while it still belongs to this conversation; else the last turn's message, replacing that turn."""
    chat = app.chat
    if unsent is not None and unsent.holds(chat.conversation.turns):
        return Send(unsent.content)
    taken = chat.retake()
    return Send(taken.message, replacing=taken)


def _system(app: App, arg: str, confirm: Confirm | None) -> Effects:
    chat = app.chat
    if not arg:
        return Show(f"system message:\n{chat.conversation.system}")
    chat.set_system(arg)
    return Note("system message set; it is sent first in every request from now on")


def _summary(app: App, arg: str, confirm: Confirm | None) -> Effects:
    if arg:
        return _summary_now(app, arg)
    conv = app.chat.conversation
    total = len(conv.turns)
    mem = conv.memory
    if not conv.summary:
        if not mem.summarizes:
            return Show(f"no summary: memory is '{mem.strategy}' (use --memory summary for a rolling summary)")
        return Show(
            f"no summary yet: {total} turn(s) stored; earlier turns are summarized when more than "
            f"{mem.summary_trigger} are unsummarized (the last {mem.keep_turns} stay verbatim)"
        )
    uncovered = total - conv.summary_covers
    head = f"Summary of turns 1-{conv.summary_covers} of {total} ({_later(app, uncovered)}):"
    note = "" if mem.summarizes else f"\n(memory is '{mem.strategy}': the summary is not sent now)"
    return Show(f"{head}\n{conv.summary}{note}")


def _later(app: App, uncovered: int) -> str:
    """What becomes of the ``uncovered`` turns after the summary, as the next request sends them (the budget may
    leave some out, as /context shows)."""
    try:
        request = app.chat.next_request(app.chat.next_message(""))  # with the files waiting, as /context counts
    except BudgetError:  # (not even the system message and those files fit: /context and sending say so)
        return f"{uncovered} later turn(s)"
    sent = len(app.chat.conversation.turns) - request.first_turn
    if request.summarized:  # the next request's summary is another one: this one and more turns, folded
        return f"{uncovered} later turn(s): the next request folds {request.summarized} of them in first (a model call)"
    if sent >= uncovered:
        return f"{uncovered} later turn(s) are sent verbatim"
    return f"{uncovered} later turn(s): the next request sends the last {sent} verbatim, the budget leaves the rest out"


def _summary_now(app: App, arg: str) -> Effects:
    action = arg.lower()
    if action == "clear":
        return _summary_clear(app)
    if action not in ("now", "redo"):
        raise UsageError(
            "usage: /summary (show it), /summary now (summarize the earlier turns now), /summary clear (forget it) or "
            "/summary redo (write it again from the stored turns)"
        )
    chat = app.chat
    before = chat.conversation.summary_covers
    try:
        done, warnings = chat.summarize_now(redo=action == "redo")
    except Interrupted:
        raise  # SIGTERM, SIGHUP: the process ends
    except KeyboardInterrupt:  # Ctrl-C stops this command, not the app; a fold is kept only whole
        raise ChatbotError(f"/summary {action} stopped; the summary is unchanged") from None
    covers = chat.conversation.summary_covers
    if done and action == "redo":
        was = f" (the old one covered turns 1-{before})" if before else ""
        return Note(f"rewrote the summary from the stored turns: it covers turns 1-{covers}{was}")
    if done:
        return Note(f"summarized {done} earlier turn(s); the summary now covers turns 1-{covers}")
    conv = chat.conversation
    outside = len(conv.turns) - conv.summary_covers  # the turns the summary does not cover yet
    reason = "; ".join(warnings) or (
        f"nothing to summarize: {outside} turn(s) outside the summary, and the last {conv.memory.keep_turns} stay "
        "verbatim"
    )
    raise ChatbotError(f"no summary written: {reason}" + ("; the summary is unchanged" if action == "redo" else ""))


def _summary_clear(app: App) -> Effects:
    chat = app.chat
    if not chat.conversation.summary:
        raise UsageError("there is no summary to clear")
    _, covers = chat.clear_summary()
    return Note(f"forgot the summary of turns 1-{covers}; {_what_next(chat)}")


def _what_next(chat: Chat) -> str:
    """What the next request does with the turns a cleared summary covered."""
    conv = chat.conversation
    if not conv.memory.summarizes:
        return f"memory is '{conv.memory.strategy}', so it was not sent anyway"
    request = chat.next_request("")
    if request.summarized:
        return (
            f"the next request folds turns 1-{request.summary_covers} into a new summary first (one model call); "
            "/summary redo writes it now"
        )
    sent = len(conv.turns) - request.first_turn
    left = f", {request.dropped} left out for the budget" if request.dropped else ""
    return f"the next request sends the last {sent} turn(s) verbatim{left}; /summary redo writes a new summary now"


def _edit(app: App, arg: str, confirm: Confirm | None) -> Effects:
    turns = app.chat.conversation.turns
    if not turns:
        raise UsageError("nothing to edit yet")
    numbered = re.fullmatch(r"([0-9]+)(?:\s+(.*))?", arg, re.DOTALL)
    if numbered:
        return edit_at(app, int(numbered[1]), (numbered[2] or "").strip() or None)
    if not arg:
        # the message back in the prompt: what is sent replaces its turn
        return Edit(turns[-1].user_text, f"{IN_A_SCRIPT}: /edit NEW MESSAGE", lambda text: _replace_last(app, text))
    return _replace_last(app, arg)


def _replace_last(app: App, text: str) -> Send:
    """/edit TEXT: send ``text`` (with the images the last message carried) in place of the last turn."""
    message, taken = app.chat.take_back_for_edit(text)
    return Send(message, replacing=taken)


def edit_at(app: App, number: int, text: str | None) -> Effects:
    """/edit N [TEXT]: a new session holding turns 1..N-1 of this one, where ``text`` is sent as message N (the images
    message N carried stay with it); the session in use becomes the branch and the original stays as it was.
    Without ``text``, message N to edit in the prompt first, then sent the same way.
    """
    turns = app.chat.conversation.turns
    if not 1 <= number <= len(turns):
        raise UsageError(f"no turn {number}: this session has {len(turns)} turn(s) (/edit N TEXT resends turn N)")
    old = turns[number - 1]
    if text is None:
        return Edit(
            old.user_text, f"{IN_A_SCRIPT}: /edit {number} NEW MESSAGE", lambda edited: edit_at(app, number, edited)
        )
    source = app.chat.session.id
    message = with_text(old.messages[0].get("content"), text)
    chat = app.fork(None, number - 1)
    said = f"branched {source} before turn {number} into {chat.session.id}, which sends the edited message; "
    return Note(f"{said}{source} stays as it was"), Send(message)


COMMANDS: dict[str, Command] = {
    "/undo": Command("/undo", "drop the last turn", _undo),
    "/retry": Command("/retry", "resend the last (or failed) message", _retry),
    "/edit": Command(
        "/edit [N] [TEXT]",
        "change the last message and resend it (replaces that turn); with N: resend message N in a new branch",
        _edit,
    ),
    "/reset": Command(
        "/reset", "erase this session's turns and summary, asking first (keeps the system message)", _reset
    ),
    "/system": Command("/system [TEXT]", "show or set the system message", _system),
    "/summary": Command(
        "/summary [now|clear|redo]",
        "show the rolling summary; now: summarize now, clear: forget it, redo: rewrite it",
        _summary,
    ),
}
