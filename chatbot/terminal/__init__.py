"""The interactive screen only: the prompt (:mod:`~chatbot.terminal.repl`), streamed Markdown
(:mod:`~chatbot.terminal.render`, :mod:`~chatbot.terminal.blocks`),
signals (:mod:`~chatbot.terminal.safety`) and the clipboard. Slash commands live in
:mod:`chatbot.commands`; only :mod:`chatbot.cli` imports this room."""
