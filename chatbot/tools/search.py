"""The built-in ``search_conversation(query)`` tool: the model searches its own conversation's earlier turns.

The same search as recall (:mod:`chatbot.engine.recall`), over every stored turn. The chat binds it to its own
conversation (passed down from :mod:`chatbot.core.chat`), and offers it beside the run's tools whenever there are
tools to offer and recall is on; its calls run and show like any other tool call.
"""

from __future__ import annotations

from typing import Any

from chatbot.engine.conversation import Conversation
from chatbot.engine.recall import SEARCH_RESULTS, SEARCH_TOOL, search_report
from chatbot.tools.base import Tool, ToolSpec
from chatbot.tools.registry import Registry

#: where the built-in tool comes from, as /tools names a source
BUILT_IN = "built-in"


class ConversationSearch(Tool):
    """Searches one conversation's stored turns for the model."""

    def __init__(self, conversation: Conversation) -> None:
        self.conversation = conversation
        self.spec = ToolSpec(
            SEARCH_TOOL,
            "Search the earlier turns of this conversation, including those no longer in your context, for words "
            f"or a question; returns up to {SEARCH_RESULTS} matching turns verbatim with their turn numbers.",
            {
                "type": "object",
                "properties": {"query": {"type": "string", "description": "what to look for, in a few words"}},
                "required": ["query"],
            },
            source=BUILT_IN,
        )

    def run(self, arguments: dict[str, Any], timeout: float) -> str:
        """The turns that match ``arguments["query"]`` (a search of memory: no timeout applies)."""
        return search_report(self.conversation, str(arguments.get("query", "")))


def with_search(tools: Registry | None, conversation: Conversation) -> Registry | None:
    """``tools`` with the search of ``conversation`` beside them; as they are when there are none to offer beside
    (``None``) or recall is off (``--recall 0``)."""
    if tools is None or conversation.memory.recall <= 0:
        return tools
    return tools.joined([ConversationSearch(conversation)])
