"""One turn and the session in use: :mod:`~chatbot.core.chat` runs a turn as events, :mod:`~chatbot.core.app`
holds the session in use and its lock. No screen and no command-line code here."""
