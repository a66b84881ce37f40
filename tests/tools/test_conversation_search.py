"""The built-in search_conversation tool: bound to one conversation, offered beside the run's tools (never added to
them), counted in the budget like any tool, answering with the matching turns or saying none matches."""

from __future__ import annotations

from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.turn import Turn
from chatbot.tools.base import ToolSpec
from chatbot.tools.registry import Registry
from chatbot.tools.search import ConversationSearch, with_search
from tests.support.tool_fixtures import add, function_tools


def conversation(recall: int = 1) -> Conversation:
    conv = Conversation("sys", MemoryConfig(strategy="window", window_turns=1, recall=recall))
    for text in ("my gym locker code is 4711", "tomatoes on a balcony", "gothic arches"):
        conv.add_turn(Turn([{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}]))
    return conv


def test_it_finds_the_matching_turns_verbatim_with_their_numbers():
    tool = ConversationSearch(conversation())
    found = tool.run({"query": "gym locker"}, 1.0)
    assert found.startswith("Turn 1 of this conversation matches 'gym locker', the best first:")
    assert "--- turn 1 (score " in found and "\nUser:\n> my gym locker code is 4711\nAssistant:\n> Noted." in found
    assert tool.run({"query": "a poem about the sea"}, 1.0) == (
        "No earlier turn of this conversation matches 'a poem about the sea'."
    )


def test_it_is_offered_beside_the_runs_tools_and_only_with_them_and_recall_on():
    run = Registry(function_tools(add))
    joined = with_search(run, conversation())
    assert joined is not None and [s.name for s in joined.specs()] == ["add", "search_conversation"]
    assert [s.name for s in run.specs()] == ["add"]  # the run's registry, shared by every chat, is left alone
    assert joined.call("search_conversation", '{"query": "locker"}').text.startswith("Turn 1 ")
    assert with_search(None, conversation()) is None
    assert with_search(run, conversation(recall=0)) is run


def test_its_definition_is_counted_in_the_budget(make_tool_app):
    app = make_tool_app(function_tools(add), strategy="window", recall=1)
    chat = app.open("s")
    alone = Registry(function_tools(add)).definition_tokens(chat.conversation.counter)
    assert chat.tool_definition_tokens() > alone
    assert "search_conversation" in [t["function"]["name"] for t in chat.tools.openai_tools()]


def test_its_definition_tells_the_model_what_it_does_and_takes_one_required_query():
    spec = ConversationSearch(conversation()).spec
    assert spec == ToolSpec(
        "search_conversation",
        "Search the earlier turns of this conversation, including those no longer in your context, for words "
        "or a question; returns up to 3 matching turns verbatim with their turn numbers.",
        {
            "type": "object",
            "properties": {"query": {"type": "string", "description": "what to look for, in a few words"}},
            "required": ["query"],
        },
        source="built-in",
    )


def test_a_call_without_a_query_searches_for_nothing_and_says_none_matches():
    assert ConversationSearch(conversation()).run({}, 1.0) == "No earlier turn of this conversation matches ''."
