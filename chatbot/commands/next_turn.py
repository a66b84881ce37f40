"""Slash commands that shape the next request: /file, /editor, /set, /role and /model."""

from __future__ import annotations

import json
import os
import shlex

from chatbot.attachments.attach import repeats_line
from chatbot.attachments.sources import add_to, gather
from chatbot.commands.base import Command, Confirm
from chatbot.commands.effects import Compose, Effects, Note, Show
from chatbot.core.app import App, parse_option
from chatbot.errors import UsageError
from chatbot.text import preview


def _file(app: App, arg: str, confirm: Confirm | None) -> Effects:
    chat = app.chat
    if not arg:
        waiting = chat.outbox.items()
        if not waiting:
            return Show("no files attached; /file PATH attaches one to your next message")
        return Show("attached to your next message: " + ", ".join(a.describe() for a in waiting))
    added, repeats = add_to(chat.outbox, gather(unquoted(arg), allow_private_urls=app.settings.allow_private_urls))
    if not added.items:
        return Note(repeats_line(repeats))
    lines = added.describe().split("\n")
    lines[0] += "; it goes with your next message" if len(added.items) == 1 else "; they go with your next message"
    return Note("\n".join([*lines, repeats_line(repeats)] if repeats else lines))


def unquoted(arg: str) -> str:
    """/file's argument as the path it names: as typed when that exists (``my file.txt``, spaces and all), else
    unquoted as a shell would (``"my file.txt"``, ``'my file.txt'``, ``my\\ file.txt``: what a terminal pastes for a
    dropped file) when that makes one word; else as typed, for the error to name."""
    if os.path.lexists(os.path.expanduser(arg)):
        return arg
    try:
        words = shlex.split(arg)
    except ValueError:  # an unclosed quote: not shell quoting, perhaps a name with a quote in it
        return arg
    return words[0] if len(words) == 1 else arg


def _editor(app: App, arg: str, confirm: Confirm | None) -> Effects:
    return Compose(arg)  # the terminal opens the editor: a front end without one refuses


def _set(app: App, arg: str, confirm: Confirm | None) -> Effects:
    chat = app.chat
    if not arg:
        options = chat.options
        if not options:
            return Show("no model options set; /set KEY VALUE sets one (temperature, top_p, seed, ...)")
        return Show("\n".join(f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in sorted(options.items())))
    key, _, value = arg.partition(" ")
    if not value.strip():
        if key not in chat.options:
            raise UsageError(f"option {key} is not set; /set KEY VALUE sets it")
        chat.set_option(key, None)
        return Note(f"option {key} removed")
    key, parsed = parse_option(key, value.strip())
    chat.set_option(key, parsed)
    return Note(f"option {key} = {json.dumps(parsed, ensure_ascii=False)}, sent with every request")


def _role(app: App, arg: str, confirm: Confirm | None) -> Effects:
    roles, templates = app.settings.roles, app.settings.command_line_roles
    if not arg:
        if not roles and not templates:
            return Show("no roles: add a [roles] table to the config file (chatbot --config shows where)")
        lines = [f"{name}: {preview(text, 60)}" for name, text in sorted(roles.items())]
        lines += [
            f"{name}: (a template /role cannot set; /role {name} says how to run it)" for name in sorted(templates)
        ]
        return Show("\n".join(lines))
    if arg in templates:  # its variables have no value in a chat: said before "no role", which it is not
        raise UsageError(templates[arg])
    if arg not in roles:
        raise UsageError(f"no role {arg!r}; /role lists them")
    app.chat.set_system(roles[arg])
    return Note(f"system message set from role {arg}")


def _model(app: App, arg: str, confirm: Confirm | None) -> Effects:
    chat = app.chat
    if not arg:
        return Show(f"model: {chat.model} (provider {app.provider.name})")
    app.set_model(arg)
    return Note(f"model set to {arg}")


COMMANDS: dict[str, Command] = {
    "/file": Command(
        "/file [PATH|URL]", "attach a text file, PDF, PNG/JPEG, folder or web page to your next message", _file
    ),
    "/editor": Command("/editor [TEXT]", "write your next message in $EDITOR (an empty file sends nothing)", _editor),
    "/set": Command("/set [KEY [VALUE]]", "show, set or (no value) remove a model option", _set),
    "/role": Command("/role [NAME]", "list roles, or set the system message from one", _role),
    "/model": Command("/model [NAME]", "show or switch the model", _model),
}
