"""The tool loop inside one turn: calls run, results go back, the whole exchange is ONE stored turn.

Driven through Chat with the echo provider's ``@tool NAME {args}`` syntax and real function tools.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from chatbot.attachments.attach import Attachment, fence
from chatbot.core.budget import tools_estimate
from chatbot.core.events import Notice, ToolFinished, ToolStarted, TurnDone, unsent
from chatbot.core.rounds import INTERRUPTED_MARK, NOT_RUN
from chatbot.engine.tool_results import rounds_cost
from chatbot.engine.turn import validate_request
from chatbot.errors import ServerError
from chatbot.providers.base import TextDelta, ToolCall
from tests.support.tool_fixtures import LoopingModel, RecordingEcho, add, function_tools, interrupted, search


def roles(turn) -> list[str]:
    return [m["role"] for m in turn.messages]


def test_a_turn_with_tool_calls_is_one_stored_turn(make_tool_app):
    provider = RecordingEcho()
    app = make_tool_app(function_tools(add), provider)
    chat = app.open("t")
    events = list(chat.send('add please\n@tool add {"a": 2, "b": 40}\n@tool add {"a": 1, "b": 1}'))
    started = [e.call for e in events if isinstance(e, ToolStarted)]
    finished = [e.text for e in events if isinstance(e, ToolFinished)]
    assert started == [
        ToolCall("echo_call_1", "add", '{"a": 2, "b": 40}'),
        ToolCall("echo_call_2", "add", '{"a": 1, "b": 1}'),
    ]
    assert finished == ["42", "2"]
    assert isinstance(events[-1], TurnDone)
    turn = chat.conversation.turns[-1]
    assert roles(turn) == ["user", "assistant", "tool", "tool", "assistant"]
    assert turn.messages[1]["tool_calls"][0]["function"] == {"name": "add", "arguments": '{"a": 2, "b": 40}'}
    assert turn.messages[2] == {"role": "tool", "tool_call_id": "echo_call_1", "name": "add", "content": "42"}
    assert "result of add: 42" in turn.answer_text  # the second request carried the results
    assert turn.usage["model_calls"] == 2
    # the request offered the tools; the second one ended with the results
    assert [offered for _, offered in provider.requests] == [True, True]
    assert [m["role"] for m in provider.requests[1][0]][-3:] == ["assistant", "tool", "tool"]
    # saved as such, reloaded whole, and the next request is well-formed
    assert app.store.load("t").conversation.turns[-1].messages == turn.messages
    validate_request(chat.next_request("next").messages)
    # /undo removes the whole exchange
    assert chat.undo() is turn and chat.conversation.turns == []


def test_each_finished_call_names_its_call_with_its_result(make_tool_app):
    chat = make_tool_app(function_tools(add)).open("t")
    events = list(chat.send('@tool add {"a": 2, "b": 40}\n@tool nope {}'))
    finished = [(e.call, e.text, e.error) for e in events if isinstance(e, ToolFinished)]
    assert [(call.id, call.name, call.arguments) for call, _, _ in finished] == [
        ("echo_call_1", "add", '{"a": 2, "b": 40}'),
        ("echo_call_2", "nope", "{}"),
    ]
    assert [(text, error) for _, text, error in finished][0] == ("42", False) and finished[1][2]


def test_bad_calls_go_back_to_the_model(make_tool_app):
    chat = make_tool_app(function_tools(add)).open("t")
    events = list(chat.send('@tool nope {}\n@tool add {"a": 1}\n@tool add {bad'))
    results = [e for e in events if isinstance(e, ToolFinished)]
    assert all(r.error for r in results)
    assert "'nope' does not exist" in results[0].text
    assert "missing required argument 'b'" in results[1].text
    assert "not valid JSON" in results[2].text
    assert roles(chat.conversation.turns[-1]) == ["user", "assistant", "tool", "tool", "tool", "assistant"]


def test_ctrl_c_during_a_tool_call_keeps_a_valid_session(make_tool_app):
    app = make_tool_app(function_tools(add, interrupted))
    chat = app.open("t")
    with pytest.raises(KeyboardInterrupt) as caught:
        list(chat.send('@tool add {"a": 1, "b": 2}\n@tool interrupted {"query": "x"}'))
    turn = chat.conversation.turns[-1]
    assert turn.interrupted and roles(turn) == ["user", "assistant", "tool", "tool", "assistant"]
    assert turn.messages[2]["content"] == "3"
    assert turn.messages[3] == {
        "role": "tool",
        "tool_call_id": "echo_call_2",
        "name": "interrupted",
        "content": NOT_RUN,
    }
    assert turn.messages[-1]["content"] == INTERRUPTED_MARK
    assert unsent(caught.value) is None
    assert app.store.load("t").conversation.turns[-1].messages == turn.messages
    validate_request(chat.next_request("again").messages)
    list(chat.send("again"))  # and the next turn goes through


def test_ctrl_c_between_rounds_keeps_a_valid_session(make_tool_app):
    chat = make_tool_app(function_tools(add)).open("t")
    events = chat.send('@tool add {"a": 1, "b": 2}')
    for event in events:
        if isinstance(event, ToolFinished):
            break
    events.close()  # what the front end does on Ctrl-C
    turn = chat.conversation.turns[-1]
    assert turn.interrupted and roles(turn) == ["user", "assistant", "tool", "assistant"]
    validate_request(chat.next_request("more").messages)


def test_the_round_cap_asks_for_an_answer_without_tools(make_tool_app):
    provider = LoopingModel()
    chat = make_tool_app(function_tools(add), provider, max_tool_rounds=2).open("t")
    events = list(chat.send("loop forever"))
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any("in 2 rounds (--max-tool-rounds)" in n for n in notices)
    assert [offered for _, offered in provider.requests] == [True, True, False]
    turn = chat.conversation.turns[-1]
    assert roles(turn) == ["user", "assistant", "tool", "assistant", "tool", "assistant"]
    assert turn.answer_text and not turn.interrupted
    # the two rounds reused one call id; the stored turn keeps them apart, so every result pairs with its call
    validate_request(chat.next_request("x").messages)


def test_a_refused_call_tells_the_model(make_tool_app):
    app = make_tool_app(function_tools(add))
    asked: list[ToolCall] = []
    app.confirm_tool = lambda call: asked.append(call) or False
    chat = app.open("t")
    events = list(chat.send('@tool add {"a": 1, "b": 2}'))
    assert asked == [ToolCall("echo_call_1", "add", '{"a": 1, "b": 2}')]
    result = next(e for e in events if isinstance(e, ToolFinished))
    assert result.error and result.text == "Error: the user refused this tool call."


def test_a_failure_after_tools_ran_keeps_their_results(make_tool_app):
    class FailsSecond(RecordingEcho):
        def stream(self, messages, **kw):
            if messages[-1]["role"] == "tool":
                raise ServerError("the server fell over")
            yield from super().stream(messages, **kw)

    chat = make_tool_app(function_tools(add), FailsSecond()).open("t")
    with pytest.raises(ServerError) as caught:
        list(chat.send('@tool add {"a": 1, "b": 2}'))
    turn = chat.conversation.turns[-1]
    assert roles(turn) == ["user", "assistant", "tool", "assistant"]
    assert turn.answer_text == "[the turn stopped: the server fell over]"
    assert unsent(caught.value) is None  # stored, so /retry takes it back rather than sending it twice


def test_tool_definitions_count_in_the_budget(make_tool_app):
    chat = make_tool_app(function_tools(add, search)).open("t")
    assert chat.tool_definition_tokens() > 20
    done = list(chat.send("hi"))[-1]
    assert done.request.budget == 6000 - chat.tool_definition_tokens()


def test_a_huge_result_in_a_later_round_makes_older_turns_make_room(make_tool_app):
    provider = RecordingEcho()
    chat = make_tool_app(function_tools(search), provider, strategy="full", max_input_tokens=4800).open("t")
    for i in range(6):
        list(chat.send(f"question {i} " + "words " * 150))
    events = list(chat.send('@tool search {"query": "cats"}'))
    assert any(isinstance(e, Notice) and "not sent" in e.text for e in events)
    last_request = provider.requests[-1][0]
    assert last_request[-1]["role"] == "tool" and len(last_request[-1]["content"]) > 10_000
    sent = chat.conversation.counter.total(sum(chat.conversation.counter.count_message(m) for m in last_request))
    assert sent <= 4800
    assert isinstance(events[-1], TurnDone) and "".join(e.text for e in events if isinstance(e, TextDelta))


def test_the_next_body_is_the_body_a_send_would_post_with_files_tools_options_and_limits(make_tool_app):
    chat = make_tool_app(function_tools(add)).open("b")
    chat.run = replace(chat.run, max_output_tokens=500)
    chat.set_option("temperature", 0.5)
    chat.outbox.add(Attachment("notes.txt", "a note"))
    body = chat.next_body("hi")
    tools = body.pop("tools")
    assert "add" in [t["function"]["name"] for t in tools]
    assert body == {
        "model": chat.model,
        "messages": [
            *chat.next_request().messages[:-1],
            {"role": "user", "content": fence("notes.txt", "a note") + "\n\nhi"},
        ],
        "max_tokens": 500,
        "temperature": 0.5,
        "stream": True,
    }
    assert chat.next_request().messages[-1] == {"role": "user", "content": ""}  # no text given: an empty message
    assert chat.next_body()["messages"][-1] == {"role": "user", "content": fence("notes.txt", "a note") + "\n\n"}
    chat.run = replace(chat.run, max_tool_rounds=0, stream=False)  # no tools offered, the whole reply at once
    assert "tools" not in chat.next_body("hi") and "stream" not in chat.next_body("hi")


def test_a_call_id_an_earlier_turn_used_is_given_anew_so_every_result_pairs_with_its_call(make_tool_app):
    chat = make_tool_app(function_tools(add)).open("t")
    for _ in range(2):
        list(chat.send('@tool add {"a": 1, "b": 2}'))  # the echo model names every call echo_call_1
    ids = [c["id"] for t in chat.conversation.turns for m in t.messages for c in m.get("tool_calls") or ()]
    assert len(ids) == 2 and len(set(ids)) == 2
    validate_request(chat.next_request("x").messages)


def test_the_answer_asked_for_after_the_round_cap_is_estimated_without_the_tool_definitions(make_tool_app):
    """Tools are offered in the capped rounds only: the last request, sent without them, is not estimated with them
    (the server does not count what it was not sent)."""
    chat = make_tool_app(function_tools(add), LoopingModel(), max_tool_rounds=2).open("t")
    base = chat.next_request("loop forever").tokens
    offered = tools_estimate(chat.conversation, chat.tool_definition_tokens())
    list(chat.send("loop forever"))
    turn, counter = chat.conversation.turns[-1], chat.conversation.counter
    after_one, after_two = rounds_cost(turn.messages[1:3], counter), rounds_cost(turn.messages[1:5], counter)
    assert offered > 0 and turn.usage["model_calls"] == 3
    assert turn.usage["estimated_prompt_tokens"] == (base + offered) + (base + after_one + offered) + (base + after_two)


def test_a_tool_turn_to_a_server_that_drops_system_messages_carries_the_system_text_in_every_round(make_tool_app):
    provider = RecordingEcho()
    chat = make_tool_app(function_tools(add), provider).open("t")
    chat.conversation.counter.calibration.drops_system = True  # what the server's counts taught (core/budget.py)
    events = list(chat.send('add please\n@tool add {"a": 2, "b": 40}'))
    assert isinstance(events[-1], TurnDone) and "result of add: 42" in chat.conversation.turns[-1].answer_text
    system = chat.conversation.system
    for messages, _ in provider.requests:  # the first call and the one with the results
        assert messages[0]["role"] == "user" and messages[0]["content"].startswith(f"{system}\n\nadd please")
        assert all(m["role"] != "system" for m in messages)
    assert [m["role"] for m in provider.requests[1][0]] == ["user", "assistant", "tool"]
    assert chat.conversation.turns[-1].messages[0]["content"].startswith("add please")  # stored as the user wrote it
