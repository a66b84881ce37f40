"""chatbot: a provider-agnostic terminal chatbot that shows how conversation memory works.

The model is stateless: every request re-sends the conversation, and this package decides what to keep. The
engine is usable without the terminal::

    from chatbot import Conversation, MemoryConfig, make_provider

    conv = Conversation("You are terse.", MemoryConfig(strategy="window", window_turns=4))
    provider = make_provider("echo")
    request = conv.build_request("hello")
    reply = provider.complete(request.messages)

The names below are the library's face; everything else is internal. They are imported on first use, so
``import chatbot`` (and ``chatbot --version``) stays fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = [
    "Chat",
    "ChatProvider",
    "Conversation",
    "MemoryConfig",
    "Request",
    "TurnSettings",
    "Turn",
    "__version__",
    "make_provider",
    "rough_count",
]

_HOMES = {
    "Chat": "chatbot.core.chat",
    "ChatProvider": "chatbot.providers.base",
    "Conversation": "chatbot.engine.conversation",
    "MemoryConfig": "chatbot.engine.memory",
    "Request": "chatbot.engine.memory",
    "TurnSettings": "chatbot.core.turn_settings",
    "Turn": "chatbot.engine.turn",
    "make_provider": "chatbot.providers",
    "rough_count": "chatbot.engine.tokens",
}

if TYPE_CHECKING:
    from chatbot.core.chat import Chat
    from chatbot.core.turn_settings import TurnSettings
    from chatbot.engine.conversation import Conversation
    from chatbot.engine.memory import MemoryConfig, Request
    from chatbot.engine.tokens import rough_count
    from chatbot.engine.turn import Turn
    from chatbot.providers import make_provider
    from chatbot.providers.base import ChatProvider


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'chatbot' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
