"""The terminal: the prompt (:mod:`~chatbot.terminal.repl`), streamed Markdown (:mod:`~chatbot.terminal.render`,
:mod:`~chatbot.terminal.blocks`) and slash commands (:mod:`~chatbot.terminal.commands`)."""
