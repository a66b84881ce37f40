"""Slash commands, grouped by what they act on, and their table; no screen code (a front end shows the results).

:mod:`~chatbot.commands.table` tells a command from a message and runs it; :mod:`~chatbot.commands.base` says what a
command is; :mod:`~chatbot.commands.effects` what it returns, and :func:`apply` does that on a front end.
"""

from chatbot.commands.effects import Front, apply
from chatbot.commands.inspecting import format_models
from chatbot.commands.sessions import LISTED, format_hits, format_sessions
from chatbot.commands.table import COMMANDS, QUIT_WORDS, as_message, is_command, is_known, run

__all__ = [
    "COMMANDS",
    "Front",
    "LISTED",
    "QUIT_WORDS",
    "apply",
    "as_message",
    "format_hits",
    "format_models",
    "format_sessions",
    "is_command",
    "is_known",
    "run",
]
