"""Slash commands for what goes into the next turn and what comes out of the last one: /file, /set, /role,
/models, /fork, /edit and /copy. No terminal code: a front end acts on ``Result.edit`` and ``Result.clipboard``.
"""

from __future__ import annotations

import json

from chatbot.app import App, parse_option
from chatbot.attach import read_file
from chatbot.engine.text import clean
from chatbot.engine.turn import one_line
from chatbot.errors import UsageError
from chatbot.terminal.blocks import code_blocks
from chatbot.terminal.clipboard import MAX_BYTES
from chatbot.terminal.command_types import Command, Confirm, Result


def _file(app: App, arg: str, confirm: Confirm | None) -> Result:
    chat = app.chat
    if not arg:
        waiting = chat.outbox.items()
        if not waiting:
            return Result("no files attached; /file PATH attaches one to your next message")
        return Result("attached to your next message: " + ", ".join(a.describe() for a in waiting))
    attachment = read_file(arg)
    chat.outbox.add(attachment)
    return Result(f"attached {attachment.describe()}; it goes with your next message", notice=True)


def _set(app: App, arg: str, confirm: Confirm | None) -> Result:
    chat = app.chat
    if not arg:
        options = chat.options
        if not options:
            return Result("no model options set; /set KEY VALUE sets one (temperature, top_p, seed, ...)")
        return Result("\n".join(f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in sorted(options.items())))
    key, _, value = arg.partition(" ")
    if not value.strip():
        if key not in chat.options:
            raise UsageError(f"option {key} is not set; /set KEY VALUE sets it")
        chat.set_option(key, None)
        return Result(f"option {key} removed", notice=True)
    key, parsed = parse_option(key, value.strip())
    chat.set_option(key, parsed)
    return Result(f"option {key} = {json.dumps(parsed, ensure_ascii=False)}, sent with every request", notice=True)


def _role(app: App, arg: str, confirm: Confirm | None) -> Result:
    roles = app.settings.roles
    if not arg:
        if not roles:
            return Result("no roles: add a [roles] table to the config file (chatbot --config shows where)")
        return Result("\n".join(f"{name}: {one_line(text, 60)}" for name, text in sorted(roles.items())))
    if arg not in roles:
        raise UsageError(f"no role {arg!r}; /role lists them")
    app.chat.set_system(roles[arg])
    return Result(f"system message set from role {arg}", notice=True)


def _models(app: App, arg: str, confirm: Confirm | None) -> Result:
    from chatbot.terminal.commands import format_models

    return Result(format_models(app.provider))


def _fork(app: App, arg: str, confirm: Confirm | None) -> Result:
    old = app.chat.session.id
    chat = app.fork(arg or None)
    turns = len(chat.conversation.turns)
    return Result(f"forked {old} into {chat.session.id} ({turns} turn(s)); now in {chat.session.id}", notice=True)


def _edit(app: App, arg: str, confirm: Confirm | None) -> Result:
    turns = app.chat.conversation.turns
    if not turns:
        raise UsageError("nothing to edit yet")
    if not arg:
        return Result(edit=turns[-1].user_text)  # the terminal puts it back in the prompt; sending replaces the turn
    return Result(send=app.chat.take_back_for_edit(arg))


def _copy(app: App, arg: str, confirm: Confirm | None) -> Result:
    turns = app.chat.conversation.turns
    # what was shown, not what was stored: a sequence the screen dropped may hide a line ("curl … | sh") in between
    reply = clean(turns[-1].answer_text) if turns else ""
    if not reply:
        raise UsageError("no reply to copy yet")
    if arg not in ("", "code"):
        raise UsageError("usage: /copy (the last reply) or /copy code (its last code block)")
    if arg == "code":
        blocks = code_blocks(reply)
        if not blocks:
            raise UsageError("the last reply has no fenced code block")
        reply = blocks[-1]
    if len(reply.encode("utf-8")) > MAX_BYTES:
        raise UsageError(f"that is over {MAX_BYTES:,} bytes, more than terminals accept through OSC 52")
    return Result(clipboard=reply)


COMMANDS: dict[str, Command] = {
    "/file": Command("/file [PATH]", "attach a text file or PNG/JPEG to your next message", _file),
    "/set": Command("/set [KEY [VALUE]]", "show, set or (no value) remove a model option", _set),
    "/role": Command("/role [NAME]", "list roles, or set the system message from one", _role),
    "/models": Command("/models", "list the models the endpoint serves", _models),
    "/fork": Command("/fork [ID]", "copy this session into a new one and switch to it", _fork),
    "/edit": Command("/edit [TEXT]", "change the last message and resend it (replaces that turn)", _edit),
    "/copy": Command("/copy [code]", "copy the last reply (or its last code block) to the clipboard", _copy),
}
