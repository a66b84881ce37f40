"""The command line: the entry point (:mod:`~chatbot.cli.entry`), its flags and config file, and the plain-text
modes (script, one-shot, ``--json``, ``-x``). The only room that imports :mod:`chatbot.terminal`."""

from chatbot.cli.entry import main

__all__ = ["main"]
