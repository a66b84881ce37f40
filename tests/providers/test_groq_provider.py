"""The groq provider against mocked HTTP (plain respx: the groq SDK still uses httpx) and the fake server."""

from __future__ import annotations

import json
import time

import httpx
import pytest
import respx

from chatbot.errors import (
    AuthenticationError,
    ConnectionFailed,
    ContextLengthError,
    ModelNotFoundError,
    ProviderError,
    ProviderTimeout,
    RateLimitError,
    ServerError,
    TokenRateLimitError,
)
from chatbot.providers import make_provider
from chatbot.providers.base import Completion, StreamEnd, TextDelta, Usage
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

ROOT = "http://groq.test"
URL = f"{ROOT}/openai/v1/chat/completions"


@pytest.fixture
def provider(clean_env):
    clean_env.setenv("GROQ_API_KEY", "gsk-test")
    return make_provider("groq", base_url=ROOT, max_retries=0)


@pytest.fixture
def mock():
    with respx.mock(assert_all_called=False) as router:
        yield router


def sent(route: respx.Route, index: int = -1) -> dict:
    return json.loads(route.calls[index].request.content)


def test_stream_usage_from_x_groq(mock, provider):
    # Groq's real shape: reasoning first (gpt-oss), then content, then a last chunk with x_groq.usage.
    body = sse(
        chunk(""),
        chunk(None, reasoning="The user greets."),
        KEEP_ALIVE,
        chunk("Hello"),
        chunk("!"),
        chunk(None, finish="stop", x_groq_usage=usage(80, 20)),
        DONE,
    )
    route = mock.post(URL).respond(200, content=body, headers=SSE_HEADERS)
    events = list(provider.stream(MESSAGES))
    assert reasoning(events) == "The user greets." and texts(events) == "Hello!"
    assert end(events) == StreamEnd(Usage(80, 20, 100), "stop")
    request = sent(route)
    assert request["model"] == "openai/gpt-oss-20b"
    # the groq SDK has no stream_options argument: it goes in the body through extra_body
    assert request["stream"] is True and request["stream_options"] == {"include_usage": True}
    assert route.calls[-1].request.headers["authorization"] == "Bearer gsk-test"


def test_stream_usage_in_both_places_is_not_added_up(mock, provider):
    body = sse(
        chunk("Hi", finish="stop", x_groq_usage=usage(10, 1)),
        chunk(no_choices=True, usage=usage(10, 1), x_groq_usage=usage(10, 1)),
        DONE,
    )
    mock.post(URL).respond(200, content=body, headers=SSE_HEADERS)
    assert end(list(provider.stream(MESSAGES))).usage == Usage(10, 1, 11)


def test_stream_without_usage(mock, provider):
    mock.post(URL).respond(200, content=sse(chunk("Hi"), chunk(None, finish="stop"), DONE), headers=SSE_HEADERS)
    events = list(provider.stream(MESSAGES))
    assert events == [TextDelta("Hi"), StreamEnd(None, "stop")]


def test_max_tokens_for_gpt_oss(mock, provider):
    route = mock.post(URL).respond(200, content=sse(chunk("x", finish="length"), DONE), headers=SSE_HEADERS)
    list(provider.stream(MESSAGES, max_tokens=32))
    assert sent(route)["max_tokens"] == 32


def test_complete(mock, provider):
    body = completion_body("Summary.", usage_=usage(40, 4))
    body["x_groq"] = {"id": "req_1"}
    route = mock.post(URL).respond(200, json=body)
    assert provider.complete(MESSAGES, model="llama-3.1-8b-instant") == Completion("Summary.", Usage(40, 4, 44), "stop")
    assert sent(route)["model"] == "llama-3.1-8b-instant" and "stream_options" not in sent(route)


@pytest.mark.parametrize(
    "options",
    [{"temperature": 0.3}, {"seed": 7}, {"response_format": {"type": "json_object"}, "stop": ["END"]}],
    ids=["temperature", "seed", "json-object"],
)
def test_stream_with_options_asks_for_usage_in_the_same_body(mock, provider, options):
    # usage is asked for through extra_body (the groq SDK has no stream_options) and options travel there too: both
    # must land in the one request body
    body = sse(chunk("Hi"), chunk(None, finish="stop", x_groq_usage=usage(10, 1)), DONE)
    route = mock.post(URL).respond(200, content=body, headers=SSE_HEADERS)
    events = list(provider.stream(MESSAGES, options=options))
    assert texts(events) == "Hi" and end(events).usage == Usage(10, 1, 11)
    request = sent(route)
    assert request["stream_options"] == {"include_usage": True}
    assert {key: request[key] for key in options} == options


def test_an_option_cannot_replace_the_usage_request(mock, provider):
    route = mock.post(URL).respond(200, content=sse(chunk("Hi", finish="stop"), DONE), headers=SSE_HEADERS)
    list(provider.stream(MESSAGES, options={"temperature": 0.3, "stream_options": {"include_usage": False}}))
    assert sent(route)["stream_options"] == {"include_usage": True} and sent(route)["temperature"] == 0.3


def test_complete_with_options(mock, provider):
    route = mock.post(URL).respond(200, json=completion_body("{}", usage_=usage(40, 4)))
    provider.complete(MESSAGES, options={"temperature": 0.3, "seed": 7})
    request = sent(route)
    assert request["temperature"] == 0.3 and request["seed"] == 7 and "stream_options" not in request


GROQ_ERRORS = [
    pytest.param(401, error_body("Invalid API Key", type_="invalid_request_error", code="invalid_api_key"), {},
                 AuthenticationError, "GROQ_API_KEY", id="401"),
    pytest.param(404, error_body("The model `nope` does not exist or you do not have access to it.",
                                 type_="invalid_request_error", code="model_not_found"), {},
                 ModelNotFoundError, "--model", id="404"),
    pytest.param(429, error_body("Rate limit reached for model `openai/gpt-oss-20b` on requests per minute (RPM): "
                                 "Limit 30, Used 30, Requested 1. Please try again in 2s.",
                                 type_="requests", code="rate_limit_exceeded"), {"retry-after": "2"},
                 RateLimitError, "2.0s", id="429"),
    pytest.param(413, error_body("Request too large for model `openai/gpt-oss-20b` in organization `org_1` service "
                                 "tier `on_demand` on tokens per minute (TPM): Limit 8000, Requested 9500, please "
                                 "reduce your message size and try again.", type_="tokens", code="rate_limit_exceeded"),
                 {}, TokenRateLimitError, "per-minute", id="413-tpm"),
    pytest.param(400, error_body("Please reduce the length of the messages or completion.",
                                 type_="invalid_request_error", code="context_length_exceeded"), {},
                 ContextLengthError, "openai/gpt-oss-20b", id="400-context"),
    pytest.param(503, error_body("Service Unavailable", type_="internal_server_error"), {}, ServerError, "503",
                 id="503"),
]  # fmt: skip


@pytest.mark.parametrize(("status", "body", "headers", "error", "word"), GROQ_ERRORS)
@pytest.mark.parametrize("call", ["stream", "complete"])
def test_http_errors(mock, provider, call, status, body, headers, error, word):
    mock.post(URL).mock(return_value=httpx.Response(status, json=body, headers=headers))
    with pytest.raises(error) as info:
        list(provider.stream(MESSAGES)) if call == "stream" else provider.complete(MESSAGES)
    assert type(info.value) is error and word in info.value.message


def test_413_keeps_the_wait_from_the_message(mock, provider):
    body = error_body("Request too large ... on tokens per minute (TPM). Please try again in 1m3s.", type_="tokens")
    mock.post(URL).respond(413, json=body)
    with pytest.raises(TokenRateLimitError) as info:
        provider.complete(MESSAGES)
    assert info.value.retry_after == pytest.approx(63)


def test_error_event_mid_stream(mock, provider):
    event = {"error": {"message": "Failed to generate", "type": "internal_server_error"}}
    mock.post(URL).respond(200, content=sse(chunk("Hi"), event, DONE), headers=SSE_HEADERS)
    with pytest.raises(ServerError, match="Failed to generate"):
        list(provider.stream(MESSAGES))


def test_timeout_and_unreachable(mock, provider):
    mock.post(URL).mock(side_effect=httpx.ReadTimeout)
    with pytest.raises(ProviderTimeout):
        provider.complete(MESSAGES)
    mock.post(URL).mock(side_effect=httpx.ConnectError)
    with pytest.raises(ConnectionFailed, match="groq.test"):
        list(provider.stream(MESSAGES))


def test_an_answer_that_is_not_http_is_named_as_such(mock, provider):
    mock.post(URL).mock(side_effect=httpx.RemoteProtocolError("illegal status line: bytearray(b'" + "\\x9b" * 500))
    with pytest.raises(ProviderError) as info:
        provider.complete(MESSAGES)
    # a plain ProviderError, not a retried kind: asking again gets the same junk
    assert type(info.value) is ProviderError and "groq.test" in info.value.message
    assert "answered with something that is not HTTP (illegal status line:" in info.value.message
    assert len(info.value.message) < 200


def test_missing_key(clean_env):
    with pytest.raises(AuthenticationError) as info:
        make_provider("groq", base_url=ROOT)  # a base URL does not make the Groq key optional
    assert "GROQ_API_KEY" in info.value.message and "--provider echo" in info.value.message


def test_groq_base_url_from_environment(clean_env):
    clean_env.setenv("GROQ_API_KEY", "gsk-test")
    clean_env.setenv("GROQ_BASE_URL", "http://127.0.0.1:1")
    assert make_provider("groq").base_url == "http://127.0.0.1:1"


@pytest.mark.parametrize("given", [ROOT, f"{ROOT}/", f"{ROOT}/openai/v1", f"{ROOT}/openai/v1/"])
def test_a_base_url_with_or_without_the_sdks_own_path_reaches_the_one_chat_route(mock, clean_env, given):
    # the groq SDK appends /openai/v1 itself: the OpenAI-style URL Groq documents must not send it twice
    clean_env.setenv("GROQ_API_KEY", "gsk-test")
    route = mock.post(URL).mock(return_value=httpx.Response(200, json=completion_body("Hi")))
    assert make_provider("groq", base_url=given, max_retries=0).complete(MESSAGES).text == "Hi"
    assert route.call_count == 1 and str(route.calls[0].request.url) == URL


def test_a_groq_base_url_variable_with_the_sdks_path_is_taken_as_meant(mock, clean_env):
    clean_env.setenv("GROQ_API_KEY", "gsk-test")
    clean_env.setenv("GROQ_BASE_URL", f"{ROOT}/openai/v1")
    route = mock.post(URL).mock(return_value=httpx.Response(200, json=completion_body("Hi")))
    provider = make_provider("groq", max_retries=0)
    assert provider.complete(MESSAGES).text == "Hi" and route.call_count == 1
    assert provider.base_url == ROOT


# --- against a real HTTP server: the groq SDK does not wrap errors raised while reading a stream ------------------


@pytest.fixture
def served(clean_env):
    clean_env.setenv("GROQ_API_KEY", "gsk-test")

    def start(**config):
        server = FakeServer(**config).start()
        servers.append(server)
        return server, make_provider("groq", base_url=server.root_url, max_retries=0, timeout=0.3)

    servers: list[FakeServer] = []
    yield start
    for server in servers:
        server.stop()


def test_fake_server_round_trip(served):
    server, provider = served(reply="Hello from Groq.", chunks=4)
    events = list(provider.stream(MESSAGES))
    assert texts(events) == "Hello from Groq." and end(events).usage is not None
    assert server.record.last_request()["stream_options"] == {"include_usage": True}


def test_read_timeout_mid_stream(served):
    _, provider = served(reply="slow reply", chunks=3, delay=1.0)
    with pytest.raises(ProviderTimeout):
        list(provider.stream(MESSAGES))


def test_closing_the_stream_closes_the_response(served):
    server, provider = served(reply="word " * 200, chunks=200, delay=0.01)
    events = provider.stream(MESSAGES)
    next(events)
    events.close()
    deadline = time.monotonic() + 5
    while server.record.disconnects == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.record.disconnects == 1
