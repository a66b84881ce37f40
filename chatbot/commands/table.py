"""The table of slash commands, ``/help``, and how an input line is told apart from a message.

The commands themselves live by what they act on: :mod:`~chatbot.commands.sessions`,
:mod:`~chatbot.commands.inspecting`, :mod:`~chatbot.commands.history` and :mod:`~chatbot.commands.next_turn`.
Each takes the app and its argument and returns its effects (:mod:`~chatbot.commands.effects`), which the front end
hands to :func:`~chatbot.commands.effects.apply`; no terminal code here.
"""

from __future__ import annotations

from chatbot.commands import history, inspecting, next_turn, sessions
from chatbot.commands.base import Command, Confirm, Retry
from chatbot.commands.effects import Effects, Quit, Show
from chatbot.core.app import App
from chatbot.core.events import Unsent
from chatbot.errors import UsageError

#: bare words that quit like /quit (what people type without thinking), in any letter case
QUIT_WORDS = {"exit", "quit", "종료", "/quit", "/exit"}


def is_command(line: str) -> bool:
    """Whether an input line is a command rather than a message (``//`` starts a message that begins with ``/``)."""
    stripped = line.strip()
    return (stripped.startswith("/") and not stripped.startswith("//")) or stripped.lower() in QUIT_WORDS


def is_known(line: str) -> bool:
    """Whether a command line names a command there is (a pasted path, ``/usr/bin is ...``, names none)."""
    stripped = line.strip()
    return stripped.lower() in QUIT_WORDS or stripped.partition(" ")[0].lower() in COMMANDS


def as_message(line: str) -> str:
    """The message an input line that is not a command sends: ``//path ...`` sends ``/path ...``."""
    return line.lstrip()[1:] if line.lstrip().startswith("//") else line


def run(app: App, line: str, confirm: Confirm | None = None, unsent: Unsent | None = None) -> Effects:
    """Run one command line. ``confirm`` asks the user a yes/no question (None in script mode: no questions);
    ``unsent`` is what the front end kept of the last turn that stopped before anything was stored (/retry)."""
    stripped = line.strip()
    if stripped.lower() in QUIT_WORDS:  # EXIT, Quit: typed without thinking too
        return Quit()
    name, _, arg = stripped.partition(" ")
    command = COMMANDS.get(name.lower())
    if command is None:
        raise UsageError(f"unknown command {name}; /help lists the commands")
    effects = command.run(app, arg.strip(), confirm)
    return history.resend(app, unsent) if isinstance(effects, Retry) else effects


# --- the commands -----------------------------------------------------------------------------------------------


def _help(app: App, arg: str, confirm: Confirm | None) -> Effects:
    width = max(len(c.usage) for c in COMMANDS.values())
    lines = ["Commands (anything else is sent to the model as your message):"]
    seen = set()
    for cmd in COMMANDS.values():
        if cmd.usage in seen:
            continue
        seen.add(cmd.usage)
        lines.append(f"  {cmd.usage.ljust(width)}  {cmd.help}")
    lines.append("Alt-Enter (or Esc then Enter) inserts a newline; //text sends a message that starts with /.")
    lines.append("Ctrl-C cancels a reply; Ctrl-D quits.")
    return Show("\n".join(lines))


def _quit(app: App, arg: str, confirm: Confirm | None) -> Effects:
    return Quit()


#: every command, in the order /help lists them: a room's commands together (a new command goes in its room only)
COMMANDS: dict[str, Command] = {
    "/help": Command("/help", "show this help", _help),
    "/quit": Command("/quit, /exit", "leave (the session is saved)", _quit),
    "/exit": Command("/quit, /exit", "leave (the session is saved)", _quit),
    **sessions.COMMANDS,
    **history.COMMANDS,
    **next_turn.COMMANDS,
    **inspecting.COMMANDS,
}
