"""Tool calls through both SDKs, streamed and whole, from real SSE bodies (openai: pytest-httpx2; groq: respx).

Streamed calls arrive as ``delta.tool_calls`` pieces keyed by ``index``: the first has the id and name, later ones
only argument fragments, and two calls can interleave. The provider yields each call whole, before StreamEnd.
"""

from __future__ import annotations

import json

import httpx
import pytest
import respx

from chatbot.providers import make_provider
from chatbot.providers.base import Completion, StreamEnd, TextDelta, ToolCall, Usage
from chatbot.providers.reading import StreamState
from tests.support.sse import DONE, MESSAGES, SSE_HEADERS, chunk, completion_body, end, sse, usage
from tests.support.tool_chunks import TOOLS, tool_message_body, tool_piece

OPENAI_URL = "http://llm.test/v1/chat/completions"
GROQ_ROOT = "http://groq.test"
GROQ_URL = f"{GROQ_ROOT}/openai/v1/chat/completions"

# two calls, interleaved, each with its arguments split mid-token, then the finish and the usage chunk
TWO_CALLS = sse(
    chunk("", finish=None),
    tool_piece(0, id_="call_a", name="get_weather"),
    tool_piece(1, id_="call_b", name="get_weather"),
    tool_piece(0, arguments='{"ci'),
    tool_piece(1, arguments='{"city": "Se'),
    tool_piece(0, arguments='ty": "Paris"}'),
    tool_piece(1, arguments='oul"}'),
    chunk(None, finish="tool_calls"),
    chunk(no_choices=True, usage=usage(40, 18)),
    DONE,
)
EXPECTED = [
    ToolCall("call_a", "get_weather", '{"city": "Paris"}'),
    ToolCall("call_b", "get_weather", '{"city": "Seoul"}'),
]


@pytest.fixture
def openai_provider(clean_env):
    clean_env.setenv("OPENAI_API_KEY", "sk-test")
    return make_provider("openai", model="gpt-4o-mini", base_url="http://llm.test/v1", max_retries=0)


@pytest.fixture
def groq_provider(clean_env):
    clean_env.setenv("GROQ_API_KEY", "gsk-test")
    return make_provider("groq", base_url=GROQ_ROOT, max_retries=0)


@pytest.fixture
def groq_mock():
    with respx.mock(assert_all_called=False) as router:
        yield router


def _calls(events: list) -> list[ToolCall]:
    return [e for e in events if isinstance(e, ToolCall)]


def test_openai_streamed_calls_are_assembled(httpx2_mock, openai_provider):
    route = httpx2_mock.post(OPENAI_URL).respond(200, content=TWO_CALLS, headers=SSE_HEADERS)
    events = list(openai_provider.stream(MESSAGES, tools=TOOLS))
    assert _calls(events) == EXPECTED
    assert end(events) == StreamEnd(Usage(40, 18, 58), "tool_calls")
    # the calls come after any text and before the end; the request carried the tools
    assert events.index(EXPECTED[0]) == len(events) - 3
    assert json.loads(route.calls[-1].request.content)["tools"] == TOOLS
    assert json.loads(EXPECTED[1].arguments) == {"city": "Seoul"}


def test_groq_streamed_calls_are_assembled(groq_mock, groq_provider):
    route = groq_mock.post(GROQ_URL).respond(200, content=TWO_CALLS, headers=SSE_HEADERS)
    events = list(groq_provider.stream(MESSAGES, tools=TOOLS))
    assert _calls(events) == EXPECTED
    assert end(events).finish_reason == "tool_calls"
    assert json.loads(route.calls[-1].request.content)["tools"] == TOOLS


def test_text_before_a_call_is_kept(httpx2_mock, openai_provider):
    body = sse(
        chunk("Let me check. "),
        tool_piece(0, id_="call_1", name="get_weather", arguments='{"city":'),
        tool_piece(0, arguments=' "Oslo"}'),
        chunk(None, finish="tool_calls"),
        DONE,
    )
    httpx2_mock.post(OPENAI_URL).respond(200, content=body, headers=SSE_HEADERS)
    events = list(openai_provider.stream(MESSAGES, tools=TOOLS))
    assert events[0] == TextDelta("Let me check. ")
    assert _calls(events) == [ToolCall("call_1", "get_weather", '{"city": "Oslo"}')]


def test_a_call_without_id_gets_one(groq_mock, groq_provider):
    body = sse(tool_piece(0, name="get_weather", arguments="{}"), chunk(None, finish="tool_calls"), DONE)
    groq_mock.post(GROQ_URL).respond(200, content=body, headers=SSE_HEADERS)
    assert _calls(list(groq_provider.stream(MESSAGES, tools=TOOLS))) == [ToolCall("call_0", "get_weather", "{}")]


def test_no_tools_parameter_without_tools(httpx2_mock, openai_provider):
    route = httpx2_mock.post(OPENAI_URL).respond(
        200, content=sse(chunk("Hi", finish="stop"), DONE), headers=SSE_HEADERS
    )
    list(openai_provider.stream(MESSAGES))
    assert "tools" not in json.loads(route.calls[-1].request.content)


@pytest.mark.parametrize("sdk", ["openai", "groq"])
def test_whole_reply_with_calls(sdk, httpx2_mock, groq_mock, openai_provider, groq_provider):
    body = tool_message_body([("call_1", "get_weather", '{"city": "Paris"}'), ("call_2", "get_weather", "{}")])
    if sdk == "openai":
        route = httpx2_mock.post(OPENAI_URL).respond(200, json=body)
        provider = openai_provider
    else:
        route = groq_mock.post(GROQ_URL).respond(200, json=body)
        provider = groq_provider
    completion = provider.complete(MESSAGES, tools=TOOLS)
    assert completion == Completion(
        "",
        Usage(30, 12, 42),
        "tool_calls",
        (ToolCall("call_1", "get_weather", '{"city": "Paris"}'), ToolCall("call_2", "get_weather", "{}")),
    )
    assert json.loads(route.calls[-1].request.content)["tools"] == TOOLS


def test_tool_call_message_dict_round_trips():
    call = ToolCall("call_9", "get_weather", '{"city": "Lima"}')
    assert call.to_message_dict() == {
        "id": "call_9",
        "type": "function",
        "function": {"name": "get_weather", "arguments": '{"city": "Lima"}'},
    }


def test_a_stream_skips_what_is_not_a_choice_or_a_delta_and_reads_the_rest():
    state = StreamState()
    chunks = [
        {"choices": None, "usage": None},  # some servers send null choices with the usage chunk
        {"choices": ["x", {"delta": {"content": "hi"}}]},  # junk before a real choice
        {"choices": [{"delta": None, "finish_reason": "stop"}]},
    ]
    events = [event for c in chunks for event in state.events(c)]
    assert events == [TextDelta("hi")] and state.end().finish_reason == "stop"


def test_tool_call_pieces_without_an_index_are_calls_of_their_own():
    state = StreamState()
    for call_id, name in (("a", "f"), ("b", "g")):
        piece = {"id": call_id, "type": "function", "function": {"name": name, "arguments": "{}"}}
        list(state.events({"choices": [{"delta": {"tool_calls": [piece]}}]}))
    assert [(c.id, c.name) for c in state.tool_calls()] == [("a", "f"), ("b", "g")]


def test_a_whole_reply_the_schema_was_refused_for_says_so_and_names_the_body_sent_again(groq_mock, groq_provider):
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    options = {"response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": schema}}}
    refused = {"error": {"message": "response_format json_schema is not supported by this model", "type": "bad"}}
    groq_mock.post(GROQ_URL).mock(
        side_effect=[httpx.Response(400, json=refused), httpx.Response(200, json=completion_body('{"a": "b"}'))]
    )
    whole = groq_provider.complete(MESSAGES, options=options)
    assert whole.text == '{"a": "b"}' and "json" in whole.note.lower()
    [again] = whole.resent
    assert again.body["response_format"] == {"type": "json_object"}


def test_a_model_that_refused_a_schema_is_asked_in_json_mode_at_once_and_only_when_json_is_asked(
    groq_mock, groq_provider
):
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    options = {"response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": schema}}}
    refused = {"error": {"message": "response_format json_schema is not supported by this model", "type": "bad"}}
    ok = httpx.Response(200, json=completion_body('{"a": "b"}'))
    route = groq_mock.post(GROQ_URL).mock(side_effect=[httpx.Response(400, json=refused), ok, ok, ok, ok])
    groq_provider.complete(MESSAGES, options=options)
    again = groq_provider.complete(MESSAGES, options=options)
    assert again.resent == () and again.note == ""  # no refused request first: asked in JSON mode straight away
    bodies = [json.loads(call.request.content) for call in route.calls]
    assert [b["response_format"]["type"] for b in bodies] == ["json_schema", "json_object", "json_object"]
    groq_provider.complete(MESSAGES)  # no JSON asked for: none asked
    groq_provider.complete(MESSAGES, model="another-model", options=options)  # another model: its own first try
    plain, other = (json.loads(call.request.content) for call in route.calls[3:])
    assert "response_format" not in plain and other["response_format"]["type"] == "json_schema"
