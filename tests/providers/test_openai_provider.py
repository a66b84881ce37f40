"""The openai provider against mocked HTTP (pytest-httpx2: openai 3.x speaks httpx2) and the fake server.

Also covers ``make_provider`` and the shared error mapping, whose shapes come from OpenAI, vLLM and llama.cpp.
"""

from __future__ import annotations

import email.utils
import json
import subprocess
import sys
import time
import warnings
from pathlib import Path

import httpx
import pytest
import respx

from chatbot.errors import (
    AuthenticationError,
    ConfigError,
    ConnectionFailed,
    ContextLengthError,
    ModelNotFoundError,
    ProviderError,
    ProviderTimeout,
    RateLimitError,
    ServerError,
    TokenRateLimitError,
    UsageError,
)
from chatbot.providers import PROVIDERS, make_provider
from chatbot.providers.base import Completion, ReasoningDelta, Resent, StreamEnd, TextDelta, ToolCall, Usage
from chatbot.providers.error_map import retry_after_seconds
from chatbot.providers.json_mode import SCHEMA_REFUSED
from chatbot.providers.openai_compat import STREAM_OPTIONS_REFUSED, model_ids, token_limit_param
from chatbot.providers.reading import StreamState, completion_from_dict, parse_usage, tool_calls_from_message
from tests.support.fake_server import FakeServer
from tests.support.sse import (
    DONE,
    KEEP_ALIVE,
    MESSAGES,
    SSE_HEADERS,
    chunk,
    completion_body,
    end,
    error_body,
    reasoning,
    sse,
    texts,
    usage,
)

BASE = "http://llm.test/v1"
URL = f"{BASE}/chat/completions"


@pytest.fixture
def provider(clean_env):
    clean_env.setenv("OPENAI_API_KEY", "sk-test")
    return make_provider("openai", model="gpt-4o-mini", base_url=BASE, max_retries=0)


def sent(route: respx.Route, index: int = -1) -> dict:
    """The JSON body of a recorded request."""
    return json.loads(route.calls[index].request.content)


# --- streaming ----------------------------------------------------------------------------------------------------


def test_stream_text_and_usage_in_final_chunk(httpx2_mock, provider):
    body = sse(
        chunk("", finish=None),
        KEEP_ALIVE,
        chunk("Hel"),
        chunk(None),  # content: null
        chunk("lo"),
        chunk(None, finish="stop"),
        chunk(no_choices=True, usage=usage(12, 2)),  # the usage chunk has empty choices
        DONE,
    )
    route = httpx2_mock.post(URL).respond(200, content=body, headers=SSE_HEADERS)
    events = list(provider.stream(MESSAGES))
    assert events[:2] == [TextDelta("Hel"), TextDelta("lo")]
    assert end(events) == StreamEnd(Usage(12, 2, 14), "stop")
    request = sent(route)
    assert request["stream"] is True
    assert request["stream_options"] == {"include_usage": True}
    assert request["messages"] == MESSAGES and request["model"] == "gpt-4o-mini"
    assert "max_tokens" not in request and "max_completion_tokens" not in request


def test_stream_without_usage_reports_none(httpx2_mock, provider):
    body = sse(chunk("Hi"), chunk(None, finish="length"), DONE)
    httpx2_mock.post(URL).respond(200, content=body, headers=SSE_HEADERS)
    events = list(provider.stream(MESSAGES))
    assert texts(events) == "Hi"
    assert end(events) == StreamEnd(None, "length")


def test_stream_keeps_the_last_usage_and_never_adds_them(httpx2_mock, provider):
    body = sse(
        chunk("a", usage=usage(5, 1)), chunk("b", usage=None), chunk(None, finish="stop", usage=usage(5, 2)), DONE
    )
    httpx2_mock.post(URL).respond(200, content=body, headers=SSE_HEADERS)
    assert end(list(provider.stream(MESSAGES))).usage == Usage(5, 2, 7)


def test_reasoning_only_chunks_are_kept_apart(httpx2_mock, provider):
    body = sse(
        chunk("", reasoning="Let me "),
        chunk(None, reasoning="think."),
        chunk(None, reasoning_content=" More."),  # llama.cpp / DeepSeek spelling
        KEEP_ALIVE,
        chunk("Answer.", finish="stop"),
        DONE,
    )
    httpx2_mock.post(URL).respond(200, content=body, headers=SSE_HEADERS)
    events = list(provider.stream(MESSAGES))
    assert isinstance(events[0], ReasoningDelta)
    assert reasoning(events) == "Let me think. More."
    assert texts(events) == "Answer."
    assert end(events).usage is None


@pytest.mark.parametrize(
    ("model", "key"),
    [
        ("gpt-4o-mini", "max_tokens"),
        ("gpt-5-mini", "max_completion_tokens"),
        ("o1-preview", "max_completion_tokens"),
        ("o3-mini", "max_completion_tokens"),
        ("o4-mini", "max_completion_tokens"),
        ("openai/o3-mini", "max_completion_tokens"),
        ("openai/gpt-oss-20b", "max_tokens"),
        ("llama3.1:8b", "max_tokens"),
    ],
)
def test_reply_limit_parameter_per_model(httpx2_mock, provider, model, key):
    route = httpx2_mock.post(URL).respond(200, content=sse(chunk("x", finish="stop"), DONE), headers=SSE_HEADERS)
    list(provider.stream(MESSAGES, model=model, max_tokens=64))
    request = sent(route)
    assert request[key] == 64 and request["model"] == model
    other = {"max_tokens", "max_completion_tokens"} - {key}
    assert not other & request.keys()
    assert token_limit_param(model, 1) == {key: 1}


def test_stream_options_rejected_is_retried_once_without_it(httpx2_mock, provider):
    rejected = httpx.Response(400, json=error_body("Unrecognized request argument supplied: stream_options"))
    ok = httpx.Response(200, content=sse(chunk("ok", finish="stop"), DONE), headers=SSE_HEADERS)
    route = httpx2_mock.post(URL).mock(side_effect=[rejected, ok, ok])
    assert texts(list(provider.stream(MESSAGES))) == "ok"
    assert "stream_options" in sent(route, 0) and "stream_options" not in sent(route, 1)
    # remembered: the next request goes without it straight away
    assert texts(list(provider.stream(MESSAGES))) == "ok"
    assert route.call_count == 3 and "stream_options" not in sent(route, 2)


TOOL = {"type": "function", "function": {"name": "clock", "description": "The time.", "parameters": {"type": "object"}}}
REFUSED_STREAM_OPTIONS = httpx.Response(400, json=error_body("Unrecognized request argument supplied: stream_options"))


def events_until_error(stream) -> tuple[list, Exception | None]:
    """The events a stream gave before it raised, and what it raised (None: it ended)."""
    events: list = []
    try:
        for event in stream:
            events.append(event)
    except Exception as exc:  # noqa: BLE001 - the caller checks which
        return events, exc
    return events, None


def test_the_request_sent_again_without_stream_options_keeps_everything_else_and_is_shown(httpx2_mock, provider):
    ok = httpx.Response(200, content=sse(chunk("ok", finish="stop"), DONE), headers=SSE_HEADERS)
    route = httpx2_mock.post(URL).mock(side_effect=[REFUSED_STREAM_OPTIONS, ok])
    events = list(provider.stream(MESSAGES, model="gpt-4o", max_tokens=50, tools=[TOOL], options={"seed": 7}))
    first, again = sent(route, 0), sent(route, 1)
    assert {k: v for k, v in first.items() if k != "stream_options"} == again
    assert again["model"] == "gpt-4o" and again["max_tokens"] == 50 and again["tools"] == [TOOL]
    assert again["seed"] == 7
    assert events[0] == Resent(again, STREAM_OPTIONS_REFUSED)  # shown before the reply, as it went out
    assert texts(events) == "ok"


def test_a_refusal_that_names_stream_options_only_in_its_body_is_retried_without_them(httpx2_mock, provider):
    """The openai SDK's error text carries only the server's message; the parameter it blames is in the body."""
    error = {"message": "Unsupported parameter", "type": "invalid_request_error", "param": "stream_options"}
    ok = httpx.Response(200, content=sse(chunk("ok", finish="stop"), DONE), headers=SSE_HEADERS)
    route = httpx2_mock.post(URL).mock(side_effect=[httpx.Response(400, json={"error": error}), ok])
    assert texts(list(provider.stream(MESSAGES))) == "ok"
    assert "stream_options" in sent(route, 0) and "stream_options" not in sent(route, 1)


def test_a_request_sent_again_is_shown_even_when_it_fails_too(httpx2_mock, provider):
    denied = httpx.Response(401, json=error_body("Incorrect API key provided", code="invalid_api_key"))
    route = httpx2_mock.post(URL).mock(side_effect=[REFUSED_STREAM_OPTIONS, denied])
    events, error = events_until_error(provider.stream(MESSAGES))
    assert isinstance(error, AuthenticationError)
    assert events == [Resent(sent(route, 1), STREAM_OPTIONS_REFUSED)]


def test_a_server_refusing_stream_options_and_then_the_schema_gets_both_bodies_shown(httpx2_mock, provider):
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    fmt = {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema}}
    no_schemas = httpx.Response(400, json=error_body("response_format json_schema is not supported by this model"))
    ok = httpx.Response(200, content=sse(chunk('{"a": "b"}', finish="stop"), DONE), headers=SSE_HEADERS)
    route = httpx2_mock.post(URL).mock(side_effect=[REFUSED_STREAM_OPTIONS, no_schemas, ok])
    events = list(provider.stream(MESSAGES, options={"response_format": fmt}))
    resent = [e for e in events if isinstance(e, Resent)]
    assert [r.why for r in resent] == [STREAM_OPTIONS_REFUSED, SCHEMA_REFUSED]
    assert [r.body for r in resent] == [sent(route, 1), sent(route, 2)]
    assert sent(route, 2)["response_format"] == {"type": "json_object"} and "stream_options" not in sent(route, 2)
    assert texts(events) == '{"a": "b"}'


def test_an_error_in_the_middle_of_a_stream_names_the_model_it_was_for(httpx2_mock, provider):
    event = {"error": {"message": "too long", "code": "context_length_exceeded"}}
    httpx2_mock.post(URL).respond(200, content=sse(chunk("Par"), event, DONE), headers=SSE_HEADERS)
    with pytest.raises(ContextLengthError, match="longer than model 'gpt-4o' can read"):
        list(provider.stream(MESSAGES, model="gpt-4o"))
    httpx2_mock.post(URL).respond(200, content=sse(chunk("Par"), event, DONE), headers=SSE_HEADERS)
    with pytest.raises(ContextLengthError, match="longer than model 'gpt-4o-mini' can read"):
        list(provider.stream(MESSAGES))  # the provider's own model when none is given


def test_a_whole_reply_with_odd_fields_prints_no_warning_of_the_sdks(httpx2_mock, provider):
    body = completion_body("x")
    body["choices"][0]["message"]["content"] = 42  # junk the reader skips; pydantic would warn over the chat
    body["choices"][0]["finish_reason"] = 7
    httpx2_mock.post(URL).respond(200, json=body)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert provider.complete(MESSAGES) == Completion("", None, None)
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize(
    ("wire", "parsed"),
    [
        ({"prompt_tokens": -500, "completion_tokens": 3, "total_tokens": -497}, None),
        ({"prompt_tokens": 1.5, "completion_tokens": 2}, None),
        ({"prompt_tokens": True, "completion_tokens": 2, "total_tokens": 9}, None),
        ({"prompt_tokens": "12", "completion_tokens": "3"}, None),
        ({"prompt_tokens": 999_999_999_999, "completion_tokens": 3, "total_tokens": 1_000_000_000_002}, None),
        ({"prompt_tokens": 0, "completion_tokens": 0}, Usage(0, 0, 0)),
        ({"prompt_tokens": 50, "completion_tokens": 3}, Usage(50, 3, 53)),
        ({"prompt_tokens": 50, "completion_tokens": 3, "total_tokens": None}, Usage(50, 3, 53)),  # null: not said
    ],
)
def test_a_usage_with_a_count_that_is_no_token_count_of_a_request_is_not_taken(wire, parsed):
    assert parse_usage(wire) == parsed


@pytest.mark.parametrize("choices", [5, None, "abc", {"delta": {"content": "x"}}])
def test_a_chunk_whose_choices_are_not_a_list_gives_nothing(choices):
    assert list(StreamState().events({"choices": choices})) == []


def test_other_400_is_not_retried(httpx2_mock, provider):
    route = httpx2_mock.post(URL).respond(
        400, json=error_body("messages: field required", type_="invalid_request_error")
    )
    with pytest.raises(ProviderError, match="rejected the request") as info:
        list(provider.stream(MESSAGES))
    assert type(info.value) is ProviderError
    assert route.call_count == 1


def test_complete(httpx2_mock, provider):
    route = httpx2_mock.post(URL).respond(200, json=completion_body("A summary.", usage_=usage(30, 3)))
    result = provider.complete(MESSAGES, max_tokens=100)
    assert result == Completion("A summary.", Usage(30, 3, 33), "stop")
    request = sent(route)
    assert "stream" not in request and request["max_tokens"] == 100


def test_complete_with_null_content_and_no_usage(httpx2_mock, provider):
    httpx2_mock.post(URL).respond(200, json=completion_body(None, finish="length"))
    assert provider.complete(MESSAGES) == Completion("", None, "length")


# --- errors -------------------------------------------------------------------------------------------------------

ERROR_CASES = [
    # (id, status, body, headers, error type, words the message must contain)
    (
        "401",
        401,
        error_body("Incorrect API key provided", code="invalid_api_key"),
        {},
        AuthenticationError,
        ["OPENAI_API_KEY", "Incorrect API key"],
    ),
    ("403", 403, error_body("Project does not have access"), {}, AuthenticationError, ["OPENAI_API_KEY"]),
    (
        "404",
        404,
        error_body("The model `gpt-4o-mini` does not exist", code="model_not_found"),
        {},
        ModelNotFoundError,
        ["'gpt-4o-mini'", "--model"],
    ),
    (
        "429",
        429,
        error_body("Rate limit reached", code="rate_limit_exceeded"),
        {"retry-after": "3"},
        RateLimitError,
        ["rate limit", "3.0s"],
    ),
    (
        "413",
        413,
        error_body("Request too large on tokens per minute (TPM)", type_="tokens"),
        {},
        TokenRateLimitError,
        ["per-minute"],
    ),
    (
        "openai-context",
        400,
        error_body(
            "This model's maximum context length is 128000 tokens.",
            type_="invalid_request_error",
            code="context_length_exceeded",
        ),
        {},
        ContextLengthError,
        ["'gpt-4o-mini'", "maximum context length"],
    ),
    (
        "vllm-context",
        400,
        {
            "object": "error",
            "message": "This model's maximum context length is 2048 tokens. However, "
            "you requested 2100 tokens (2000 in the messages, 100 in the completion).",
            "type": "BadRequestError",
            "param": None,
            "code": 400,
        },
        {},
        ContextLengthError,
        ["2048"],
    ),
    (
        "vllm-longer",
        400,
        error_body(
            "The decoder prompt (length 5000) is longer than the model's context length (4096).",
            type_="BadRequestError",
            code=400,
        ),
        {},
        ContextLengthError,
        ["4096"],
    ),
    (
        "llamacpp-context",
        400,
        error_body(
            "the request exceeds the available context size, try increasing it",
            type_="exceed_context_size_error",
            code=400,
        ),
        {},
        ContextLengthError,
        ["context size"],
    ),
    (
        "llamacpp-old-500",
        500,
        error_body(
            "the request exceeds the available context size, try increasing the context size or enable context shift",
            type_="server_error",
            code=500,
        ),
        {},
        ContextLengthError,
        ["context size"],
    ),
    ("500", 500, error_body("Internal error", type_="server_error"), {}, ServerError, ["500", "Internal error"]),
    ("503-text", 503, "upstream unavailable", {}, ServerError, ["503"]),
]


def _respond(status, body, headers):
    if isinstance(body, str):
        return httpx.Response(status, text=body, headers=headers)
    return httpx.Response(status, json=body, headers=headers)


@pytest.mark.parametrize("call", ["stream", "complete"])
@pytest.mark.parametrize(
    ("status", "body", "headers", "error", "words"), [c[1:] for c in ERROR_CASES], ids=[c[0] for c in ERROR_CASES]
)
def test_http_errors_map_to_chatbot_errors(httpx2_mock, provider, call, status, body, headers, error, words):
    httpx2_mock.post(URL).mock(return_value=_respond(status, body, headers))
    with pytest.raises(error) as info:
        if call == "stream":
            list(provider.stream(MESSAGES))
        else:
            provider.complete(MESSAGES)
    assert type(info.value) is error
    for word in words:
        assert word in info.value.message


@pytest.mark.parametrize(
    ("headers", "expected"),
    [({"retry-after-ms": "1500"}, 1.5), ({"retry-after": "7"}, 7.0), ({"retry-after-ms": "0"}, 0.0), ({}, None)],
)
def test_rate_limit_carries_the_wait(httpx2_mock, provider, headers, expected):
    httpx2_mock.post(URL).respond(
        429, json=error_body("Rate limit reached", code="rate_limit_exceeded"), headers=headers
    )
    with pytest.raises(RateLimitError) as info:
        provider.complete(MESSAGES)
    assert info.value.retry_after == expected


@pytest.mark.parametrize(
    ("value", "wait", "words"),
    [
        ("7", 7.0, "the server asks to wait 7.0s"),
        ("7200", 3600.0, "over an hour"),
        ("Wed, 21 Oct 2099 07:28:00 GMT", 3600.0, "over an hour"),  # a date far ahead: refused like 7200
    ],
)
def test_a_503_carries_the_wait_its_retry_after_asks_for_in_seconds_or_as_a_date(
    httpx2_mock, provider, value, wait, words
):
    httpx2_mock.post(URL).respond(503, json=error_body("overloaded"), headers={"retry-after": value})
    with pytest.raises(ServerError) as info:
        provider.complete(MESSAGES)
    assert info.value.retry_after == wait and words in info.value.message


def test_a_503_without_retry_after_carries_no_wait(httpx2_mock, provider):
    httpx2_mock.post(URL).respond(503, json=error_body("overloaded"))
    with pytest.raises(ServerError) as info:
        provider.complete(MESSAGES)
    assert info.value.retry_after is None and info.value.message.endswith("Try again in a moment.")


def test_retry_after_forms():
    assert retry_after_seconds({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert retry_after_seconds({}, "Please try again in 7.66s. Need more tokens?") == pytest.approx(7.66)
    assert retry_after_seconds({}, "Please try again in 1m2.5s.") == pytest.approx(62.5)
    assert retry_after_seconds({}, "try again in 250ms") == pytest.approx(0.25)
    assert retry_after_seconds({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0  # a past date: no wait
    assert retry_after_seconds({"retry-after": "Wed, 21 Oct 2099 07:28:00 GMT"}) > 2_000_000_000  # seconds to 2099
    soon = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 29 <= retry_after_seconds({"retry-after": soon}) <= 31
    in_utc = email.utils.formatdate(time.time() + 30).replace("+0000", "-0000")  # "-0000": UTC, not local time
    assert 29 <= retry_after_seconds({"retry-after": in_utc}) <= 31
    assert retry_after_seconds({"retry-after": "soon"}) is None
    # a wait that asks for nothing is no wait: not "the server asks to wait 0.0s"
    assert [retry_after_seconds({"retry-after": v}) for v in ("nan", "-inf", "-5", "0")] == [None, None, None, 0.0]
    assert retry_after_seconds({"retry-after": "inf"}) == float("inf")  # over any wait chatbot does: told so


def test_a_429_asking_for_more_than_an_hour_says_try_again_later_once(httpx2_mock, provider):
    httpx2_mock.post(URL).respond(
        429, json=error_body("Rate limit reached", code="rate_limit_exceeded"), headers={"retry-after": "7200"}
    )
    with pytest.raises(RateLimitError) as info:
        provider.complete(MESSAGES)
    assert info.value.message.endswith("which chatbot does not do: try again later.")
    assert "then retry" not in info.value.message


def test_sdk_retries_5xx_before_server_error(httpx2_mock, clean_env):
    clean_env.setenv("OPENAI_API_KEY", "sk-test")
    provider = make_provider("openai", base_url=BASE, max_retries=1)
    route = httpx2_mock.post(URL).respond(502, json=error_body("bad gateway"), headers={"retry-after-ms": "0"})
    with pytest.raises(ServerError):
        provider.complete(MESSAGES)
    assert route.call_count == 2


@pytest.mark.parametrize(
    ("event", "error"),
    [
        ({"error": {"message": "model overloaded", "type": "server_error"}}, ServerError),
        ({"error": {"message": "too long", "code": "context_length_exceeded"}}, ContextLengthError),
        ({"error": {"message": "slow down", "code": "rate_limit_exceeded"}}, RateLimitError),
        ({"error": "something broke"}, ServerError),
    ],
)
def test_error_event_mid_stream(httpx2_mock, provider, event, error):
    body = sse(chunk("Par"), KEEP_ALIVE, event, chunk("tial"), DONE)
    httpx2_mock.post(URL).respond(200, content=body, headers=SSE_HEADERS)
    events = []
    with pytest.raises(error) as info:
        for e in provider.stream(MESSAGES):
            events.append(e)
    assert type(info.value) is error
    assert events == [TextDelta("Par")]  # what came before the error is delivered, no StreamEnd


def test_garbage_in_stream_is_a_server_error(httpx2_mock, provider):
    body = sse(chunk("a")) + b"data: {not json\n\n" + DONE.encode()
    httpx2_mock.post(URL).respond(200, content=body, headers=SSE_HEADERS)
    with pytest.raises(ServerError, match="not valid JSON"):
        list(provider.stream(MESSAGES))


def test_timeout(httpx2_mock, provider):
    httpx2_mock.post(URL).mock(side_effect=httpx.ConnectTimeout)
    with pytest.raises(ProviderTimeout, match="did not answer in time"):
        list(provider.stream(MESSAGES))


def test_unreachable_names_the_url(httpx2_mock, provider):
    httpx2_mock.post(URL).mock(side_effect=httpx.ConnectError)
    with pytest.raises(ConnectionFailed) as info:
        provider.complete(MESSAGES)
    assert BASE in info.value.message and "--base-url" in info.value.message


def test_connection_refused_for_real(clean_env):
    provider = make_provider("openai", base_url="http://127.0.0.1:9/v1", max_retries=0)
    with pytest.raises(ConnectionFailed, match=r"127\.0\.0\.1:9/v1"):
        list(provider.stream(MESSAGES))


# --- against a real HTTP server: cancellation, slow streams, stream_options -----------------------------------------


def test_closing_the_stream_closes_the_response(clean_env):
    with FakeServer(reply="word " * 200, chunks=200, delay=0.01) as server:
        provider = make_provider("openai", base_url=server.base_url, max_retries=0)
        events = provider.stream(MESSAGES)
        assert isinstance(next(events), TextDelta)
        events.close()  # what Ctrl-C does to the consumer's loop
        deadline = time.monotonic() + 5
        while server.record.disconnects == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert server.record.disconnects == 1


def test_slow_stream_times_out(clean_env):
    with FakeServer(reply="slow", chunks=2, delay=1.0) as server:
        provider = make_provider("openai", base_url=server.base_url, timeout=0.2, max_retries=0)
        with pytest.raises(ProviderTimeout):
            list(provider.stream(MESSAGES))


def test_fake_server_round_trip(clean_env):
    with FakeServer(reply="Hello there, friend.", chunks=3, reasoning="hmm") as server:
        provider = make_provider("openai", model="m1", base_url=server.base_url, max_retries=0)
        events = list(provider.stream(MESSAGES))
        assert texts(events) == "Hello there, friend." and reasoning(events) == "hmm"
        assert end(events).usage == Usage(9, 3, 12)
        assert server.record.last_request()["stream_options"] == {"include_usage": True}
        assert provider.complete(MESSAGES).text == "Hello there, friend."


def test_fake_server_rejecting_stream_options(clean_env):
    with FakeServer(reply="fine", error="stream_options") as server:
        provider = make_provider("openai", base_url=server.base_url, max_retries=0)
        events = list(provider.stream(MESSAGES))
        assert texts(events) == "fine" and end(events).usage is None
        assert len(server.record.requests) == 2


# --- make_provider ------------------------------------------------------------------------------------------------


def test_missing_key_says_how_to_fix_it(clean_env):
    with pytest.raises(AuthenticationError) as info:
        make_provider("openai")
    message = info.value.message
    assert "OPENAI_API_KEY" in message and "export OPENAI_API_KEY=" in message
    assert ".env" in message and "--provider echo" in message


def test_local_base_url_needs_no_key(clean_env):
    provider = make_provider("openai", base_url="http://localhost:11434/v1")
    assert provider.name == "openai" and provider.model == PROVIDERS["openai"].default_model
    assert provider.base_url == "http://localhost:11434/v1"


def test_base_url_from_environment(clean_env):
    clean_env.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1")
    assert make_provider("openai").base_url == "http://127.0.0.1:8080/v1"
    assert make_provider("openai", base_url="http://other:1/v1").base_url == "http://other:1/v1"


def test_bad_base_url_and_unknown_provider(clean_env):
    with pytest.raises(ConfigError, match="http://"):
        make_provider("openai", base_url="localhost:8080/v1")
    with pytest.raises(UsageError, match="groq, openai, openrouter, gemini, anthropic, .*, echo"):
        make_provider("claude")


def test_default_models():
    defaults = {name: info.default_model for name, info in PROVIDERS.items()}
    assert defaults == {
        "groq": "openai/gpt-oss-20b",
        "openai": "gpt-4o-mini",
        "openrouter": "openai/gpt-4o-mini",
        "gemini": "gemini-3.5-flash",
        "anthropic": "claude-sonnet-5-5",
        "mistral": "mistral-small-latest",
        "deepseek": "deepseek-v4-flash",
        "together": "openai/gpt-oss-20b",
        "clova": "HCX-005",
        "ollama": "llama3.2",
        "lmstudio": "openai/gpt-oss-20b",
        "vllm": "openai/gpt-oss-20b",
        "echo": "echo",
    }


def test_importing_providers_does_not_import_the_sdks():
    code = "import sys, chatbot.providers; print('openai' in sys.modules, 'groq' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


@pytest.mark.parametrize("body", [b"", sse(KEEP_ALIVE, DONE)], ids=["empty", "done-only"])
def test_a_stream_with_no_chunks_is_a_server_error(httpx2_mock, provider, body):
    # llama-cpp-python answers 200 and an empty stream when the prompt is longer than its context window
    httpx2_mock.post(URL).respond(200, content=body, headers=SSE_HEADERS)
    with pytest.raises(ServerError, match="context window"):
        list(provider.stream(MESSAGES))


def test_fake_server_runs_as_a_script(clean_env, tmp_path):
    reply = tmp_path / "reply.txt"
    reply.write_text("Scripted reply for benchmarks.", encoding="utf-8")
    # run as its docstring says: a module of the tests package, from the repository root
    root = Path(__file__).parents[2]
    script = [sys.executable, "-m", "tests.support.fake_server", "--port", "0", "--reply-file", str(reply)]
    script += ["--chunks", "5", "--delay", "0.001"]
    with subprocess.Popen(script, stdout=subprocess.PIPE, text=True, cwd=root) as proc:
        try:
            line = proc.stdout.readline()
            assert line.startswith("listening on http://127.0.0.1:")
            provider = make_provider("openai", base_url=line.split()[-1], max_retries=0)
            events = list(provider.stream(MESSAGES))
            assert texts(events) == "Scripted reply for benchmarks." and end(events).usage is not None
        finally:
            proc.terminate()


# --- models, reply limits, tool calls and stream_options: exact results -------------------------------------------


def test_model_ids_are_the_sorted_distinct_string_ids_and_junk_is_skipped():
    listed = [{"id": "b"}, {"id": "a"}, {"id": "a"}, {"id": ""}, {"id": 5}, {"name": "x"}, "junk"]
    assert model_ids(json.dumps({"object": "list", "data": listed}).encode(), "here") == ["a", "b"]
    assert model_ids(b"{}", "here") == []  # an answer without "data" lists no models


@pytest.mark.parametrize("raw", [b"not json", b'{"data": {"id": "a"}}', b"[1]"])
def test_model_ids_of_an_answer_without_a_list_names_what_came(raw):
    with pytest.raises(ProviderError) as info:
        model_ids(raw, "here")
    assert str(info.value) == f"here answered the list of models with something else: {raw.decode()!r}"


def test_model_ids_show_the_first_80_characters_of_a_long_answer_flattened():
    raw = b"<html>\n  " + b"x" * 100 + b"\xff"
    with pytest.raises(ProviderError) as info:
        model_ids(raw, "here")
    assert str(info.value) == f"here answered the list of models with something else: {('<html> ' + 'x' * 73)!r}"


def test_list_models_asks_the_server_and_names_it_when_the_answer_is_junk(httpx2_mock, provider):
    route = httpx2_mock.get(f"{BASE}/models").respond(200, json={"data": [{"id": "m2"}, {"id": "m1"}]})
    assert provider.list_models() == ["m1", "m2"]
    assert route.called
    httpx2_mock.get(f"{BASE}/models").respond(200, text="oops")
    with pytest.raises(ProviderError) as info:
        provider.list_models()
    assert str(info.value) == f"openai ({BASE}) answered the list of models with something else: 'oops'"


def test_list_models_failing_is_mapped_with_the_providers_model(httpx2_mock, provider):
    httpx2_mock.get(f"{BASE}/models").respond(404, json=error_body("no such route"))
    with pytest.raises(ModelNotFoundError, match=f"openai \\({BASE}\\) has no model 'gpt-4o-mini' \\(no such route\\)"):
        provider.list_models()


def test_a_routed_model_name_is_judged_by_its_last_part_only():
    assert token_limit_param("openrouter/openai/o3-mini", 9) == {"max_completion_tokens": 9}
    assert token_limit_param("o3/llama-3", 9) == {"max_tokens": 9}


def test_tool_calls_from_a_whole_message_skip_junk_and_number_missing_ids():
    message = {
        "tool_calls": [
            {"id": "bad", "function": "junk"},
            {"function": {"name": "first", "arguments": '{"a": 1}'}},
            {"id": "c2", "function": {"name": "second"}},
        ]
    }
    assert tool_calls_from_message(message) == (
        ToolCall("call_0", "first", '{"a": 1}'),
        ToolCall("c2", "second", ""),
    )


@pytest.mark.parametrize("choices", [None, "abc", [], ["x"]])
def test_a_completion_without_usable_choices_is_empty(choices):
    assert completion_from_dict({"choices": choices}) == Completion("", None, None, ())


def test_a_server_error_that_mentions_stream_options_is_not_retried(httpx2_mock, provider):
    route = httpx2_mock.post(URL).respond(500, json=error_body("stream_options broke us", type_="server_error"))
    with pytest.raises(ServerError):
        list(provider.stream(MESSAGES))
    assert route.call_count == 1


def test_a_stream_that_stalls_after_it_began_says_so(clean_env):
    with FakeServer(reply="slow reply", chunks=3, delay=1.0) as server:
        provider = make_provider("openai", base_url=server.base_url, timeout=0.3, max_retries=0)
        with pytest.raises(ProviderTimeout, match="stopped sending while the reply was streaming"):
            list(provider.stream(MESSAGES))


@pytest.mark.parametrize("status", [401, 403])
def test_a_server_that_wants_a_key_when_none_was_set_says_none_was_set_and_which_variable_sends_one(
    httpx2_mock, clean_env, status
):
    """With a base URL and no OPENAI_API_KEY, a stand-in is sent; a refusal blames no key that was never set."""
    keyless = make_provider("openai", base_url=BASE, max_retries=0)
    httpx2_mock.post(URL).respond(status, json=error_body("missing bearer token"))
    with pytest.raises(AuthenticationError) as caught:
        list(keyless.stream(MESSAGES))
    assert caught.value.message == (
        f"openai ({BASE}) refused the request ({status}: missing bearer token): it needs an API key and none was "
        "set. Set OPENAI_API_KEY to this server's key (environment or .env)."
    )


def test_a_key_that_was_set_and_refused_is_still_named_as_rejected(httpx2_mock, clean_env):
    clean_env.setenv("OPENAI_API_KEY", "sk-test-key-1234")
    keyed = make_provider("openai", base_url=BASE, max_retries=0)
    httpx2_mock.post(URL).respond(401, json=error_body("Incorrect API key provided"))
    with pytest.raises(AuthenticationError, match="the API key in OPENAI_API_KEY was rejected"):
        list(keyed.stream(MESSAGES))


def test_a_local_server_that_wants_a_key_says_how_to_send_one(httpx2_mock, clean_env):
    """Ollama and LM Studio send no key; behind a proxy that checks one, the refusal names no empty variable."""
    local = make_provider("ollama", base_url=BASE, max_retries=0)
    httpx2_mock.post(URL).respond(401, json=error_body("missing bearer token"))
    with pytest.raises(AuthenticationError) as caught:
        list(local.stream(MESSAGES))
    assert caught.value.message == (
        f"ollama ({BASE}) refused the request (401: missing bearer token); ollama sends no API key. To send one, "
        f"use --provider openai --base-url {BASE} with the key in OPENAI_API_KEY."
    )
