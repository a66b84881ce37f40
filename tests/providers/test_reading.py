"""Reading a streamed answer off the wire: real server-sent-event bytes through the openai provider (pytest-httpx2),
and the pieces of :mod:`chatbot.providers.reading` that name what a server sent instead of a stream."""

from __future__ import annotations

import json

import httpx
import pytest

from chatbot.errors import ProviderError, RateLimitError, ServerError
from chatbot.providers import make_provider
from chatbot.providers.base import ReasoningDelta, StreamEnd, TextDelta, Usage
from chatbot.providers.error_map import ErrorContext
from chatbot.providers.reading import _snippet, _whole_answer, parse_chunk
from tests.support.sse import DONE, MESSAGES, SSE_HEADERS, chunk, completion_body, error_body, sse, usage

BASE = "http://llm.test/v1"
URL = f"{BASE}/chat/completions"
WHERE = f"openai ({BASE})"
CTX = ErrorContext("openai", "gpt-4o-mini", BASE, "OPENAI_API_KEY")
JSON_HEADERS = {"content-type": "application/json"}


@pytest.fixture
def provider(clean_env):
    clean_env.setenv("OPENAI_API_KEY", "sk-test")
    return make_provider("openai", model="gpt-4o-mini", base_url=BASE, max_retries=0)


def data(payload: dict, newline: str = "\n") -> str:
    return f"data: {json.dumps(payload)}{newline}{newline}"


# --- the stream, event by event ---------------------------------------------------------------------------------


def test_data_lines_comments_and_done_give_exactly_the_text_then_the_end(httpx2_mock, provider):
    body = (
        ": this is a comment\n\n"
        "retry: 3000\n\n"
        "event: ping\ndata:\n\n"
        + data(chunk("Hel", reasoning="think"))
        + data(chunk("lo", finish="stop", usage=usage(3, 2)))
        + DONE
        + data(chunk("after done is never read"))
    )
    httpx2_mock.post(URL).respond(200, content=body.encode(), headers=SSE_HEADERS)
    assert list(provider.stream(MESSAGES)) == [
        ReasoningDelta("think"),
        TextDelta("Hel"),
        TextDelta("lo"),
        StreamEnd(Usage(3, 2, 5), "stop"),
    ]


def test_done_without_a_finish_reason_ends_as_stop(httpx2_mock, provider):
    httpx2_mock.post(URL).respond(200, content=sse(chunk("Hi"), DONE), headers=SSE_HEADERS)
    assert list(provider.stream(MESSAGES)) == [TextDelta("Hi"), StreamEnd(None, "stop")]


def test_a_stream_cut_before_done_and_finish_ends_incomplete(httpx2_mock, provider):
    httpx2_mock.post(URL).respond(200, content=sse(chunk("Hi")), headers=SSE_HEADERS)
    assert list(provider.stream(MESSAGES)) == [TextDelta("Hi"), StreamEnd(None, None)]


def test_crlf_line_ends_and_data_split_over_lines_are_read_as_one_event(httpx2_mock, provider):
    whole = json.dumps(chunk("two lines", finish="stop"))
    half = whole.index('"choices"')  # between two members: SSE joins an event's data lines with "\n", JSON whitespace
    body = f"data: {whole[:half]}\r\ndata: {whole[half:]}\r\n\r\n" + data(chunk("!"), "\r\n") + "data: [DONE]\r\n\r\n"
    httpx2_mock.post(URL).respond(200, content=body.encode(), headers=SSE_HEADERS)
    assert list(provider.stream(MESSAGES)) == [TextDelta("two lines"), TextDelta("!"), StreamEnd(None, "stop")]


def test_events_split_across_network_chunks_are_put_back_together(httpx2_mock, provider):
    body = sse(chunk("héllo"), chunk(" wörld", finish="stop"), DONE)
    pieces = [body[i : i + 7] for i in range(0, len(body), 7)]  # cuts lines, and a UTF-8 character, apart
    httpx2_mock.post(URL).respond(200, content=pieces, headers=SSE_HEADERS)
    assert list(provider.stream(MESSAGES)) == [TextDelta("héllo"), TextDelta(" wörld"), StreamEnd(None, "stop")]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("data: {not json", f"{WHERE} sent a stream line that is not valid JSON: '{{not json'"),
        ("data: [1, 2]", f"{WHERE} sent a stream chunk that is not a JSON object: '[1, 2]'"),
    ],
)
def test_garbage_in_the_stream_is_named_after_what_came(httpx2_mock, provider, line, message):
    body = sse(chunk("a")) + f"{line}\n\n".encode() + DONE.encode()
    httpx2_mock.post(URL).respond(200, content=body, headers=SSE_HEADERS)
    events = []
    with pytest.raises(ServerError) as info:
        events.extend(provider.stream(MESSAGES))
    assert str(info.value) == message
    assert events == [TextDelta("a")]


def test_an_error_event_stops_the_stream_with_the_servers_words(httpx2_mock, provider):
    body = sse(chunk("Par"), error_body("model overloaded", type_="server_error"), chunk("tial"), DONE)
    httpx2_mock.post(URL).respond(200, content=body, headers=SSE_HEADERS)
    events = []
    with pytest.raises(ServerError, match="reported an error mid-stream.*model overloaded"):
        events.extend(provider.stream(MESSAGES))
    assert events == [TextDelta("Par")]


# --- a whole JSON answer instead of a stream --------------------------------------------------------------------


def test_a_whole_json_reply_to_a_stream_request_is_one_chunk(httpx2_mock, provider):
    body = completion_body("Hi there", usage_=usage(5, 2), finish="length")
    httpx2_mock.post(URL).respond(200, json=body)
    assert list(provider.stream(MESSAGES)) == [TextDelta("Hi there"), StreamEnd(Usage(5, 2, 7), "length")]


def test_whole_answer_is_the_reply_as_exactly_one_chunk():
    message = {"role": "assistant", "content": "Hi"}
    raw = json.dumps(
        {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}], "usage": usage(1, 1)}
    ).encode()
    assert _whole_answer(raw, 200, {}, CTX) == {
        "choices": [{"index": 0, "delta": message, "finish_reason": "stop"}],
        "usage": usage(1, 1),
    }


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"{not json", f"{WHERE} answered with JSON that does not parse, not a stream: '{{not json'"),
        (b"[1, 2]", f"{WHERE} answered with a JSON document, not a stream or a reply: '[1, 2]'"),
        (b'{"choices": []}', f"{WHERE} answered with a JSON document, not a stream or a reply: '{{\"choices\": []}}'"),
        (b'{"choices": {"0": 1}}', None),
        (b'{"choices": [5]}', None),
        (b'{"choices": [{"text": "x"}]}', None),
        (b'{"choices": [{"message": "x"}]}', None),
    ],
)
def test_a_json_document_that_is_no_reply_is_a_server_error(httpx2_mock, provider, raw, message):
    httpx2_mock.post(URL).respond(200, content=raw, headers=JSON_HEADERS)
    with pytest.raises(ServerError) as info:
        list(provider.stream(MESSAGES))
    expected = message or f"{WHERE} answered with a JSON document, not a stream or a reply: {_snippet(raw)}"
    assert str(info.value) == expected


def test_a_json_error_instead_of_a_stream_is_classified_with_its_status_and_headers(httpx2_mock, provider):
    body = {"error": {"type": "requests"}}  # no message: the user still reads something
    httpx2_mock.post(URL).respond(200, json=body, headers={"retry-after": "7"})
    with pytest.raises(ProviderError) as whole:
        list(provider.stream(MESSAGES))
    assert type(whole.value) is ProviderError
    assert str(whole.value) == f"{WHERE} rejected the request (200: no details)."
    with pytest.raises(RateLimitError) as info:
        _whole_answer(json.dumps(body).encode(), 429, {"retry-after": "7"}, CTX)
    assert info.value.retry_after == 7
    assert "(no details)" in str(info.value)
    with pytest.raises(RateLimitError, match=r"rate limit reached \(slow down\)"):
        _whole_answer(json.dumps(error_body("slow down")).encode(), 429, {}, CTX)


# --- the snippet of what came -----------------------------------------------------------------------------------


def test_snippet_shows_bytes_flattened_and_undecodable_bytes_replaced():
    assert _snippet(b"a\n\n  b\xff c") == repr("a b\ufffd c")


def test_snippet_keeps_80_characters_whole_and_cuts_longer_text_to_80():
    assert _snippet("x" * 80) == repr("x" * 80)
    assert _snippet("y" * 81) == repr("y" * 80 + "…")


def test_an_error_event_without_a_message_says_no_details():
    with pytest.raises(ServerError) as caught:
        parse_chunk('{"error": {"type": "server_error"}}', CTX)
    assert caught.value.message == f"openai ({BASE}) reported an error mid-stream: no details. Try again in a moment."


HTML_PAGE = (
    f"{WHERE} answered with an HTML page (status 200), not a chat answer. Is --base-url right (it usually ends in "
    "/v1)? A captive portal or a proxy may be in the way."
)
NOTHING = (
    f"{WHERE} ended the reply without sending anything. A local server does this when the request is longer than "
    "its context window: try a smaller --max-input-tokens."
)


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ({"content-type": "text/html; charset=utf-8"}, HTML_PAGE),
        ({"content-type": "application/xhtml+xml"}, HTML_PAGE),
        ({}, NOTHING),
        (SSE_HEADERS, NOTHING),
        ({"content-type": "text/plain"}, f"{WHERE} answered with text/plain and no chat chunks: is --base-url right?"),
    ],
)
def test_an_answer_with_no_chat_chunks_is_named_by_what_it_was(httpx2_mock, provider, headers, message):
    httpx2_mock.post(URL).respond(200, content=b"<html></html>" if "html" in str(headers) else b"", headers=headers)
    with pytest.raises(ProviderError) as caught:
        list(provider.stream(MESSAGES))
    assert caught.value.message == message
    # a web page (a captive portal, a proxy's login) is not a failing server: not retried (ServerError would be)
    assert isinstance(caught.value, ServerError) is (message != HTML_PAGE)


def test_a_stream_that_came_empty_is_asked_again_whole_and_a_reply_that_comes_so_is_kept(httpx2_mock, provider):
    from chatbot.providers.base import Resent
    from chatbot.providers.openai_compat import EMPTY_STREAM_RESENT

    empty = httpx.Response(200, content=b"", headers=SSE_HEADERS)
    whole = httpx.Response(200, json=completion_body("Hello whole"))
    route = httpx2_mock.post(URL).mock(side_effect=[empty, whole])
    events = list(provider.stream(MESSAGES))
    again = json.loads(route.calls[1].request.content)
    assert json.loads(route.calls[0].request.content)["stream"] is True and "stream" not in again
    assert events[0] == Resent(again, EMPTY_STREAM_RESENT)
    assert events[1:] == [TextDelta("Hello whole"), StreamEnd(None, "stop")]


def test_a_stream_that_came_empty_is_asked_again_whole_on_a_new_connection_when_the_server_dropped_the_first(
    httpx2_mock, provider
):
    # llama-cpp-python drops the connection after the empty stream; the request sent at once on it meets a reset
    empty = httpx.Response(200, content=b"", headers=SSE_HEADERS)
    whole = httpx.Response(200, json=completion_body("Hello whole"))
    httpx2_mock.post(URL).mock(side_effect=[empty, httpx.RemoteProtocolError("Connection reset by peer"), whole])
    events = list(provider.stream(MESSAGES))
    assert events[1:] == [TextDelta("Hello whole"), StreamEnd(None, "stop")]


def test_a_stream_that_came_empty_from_a_server_gone_is_told_as_the_empty_stream(httpx2_mock, provider):
    empty = httpx.Response(200, content=b"", headers=SSE_HEADERS)
    httpx2_mock.post(URL).mock(side_effect=[empty, httpx.ConnectError("refused"), httpx.ConnectError("refused")])
    with pytest.raises(ServerError, match="ended the reply without sending anything"):
        list(provider.stream(MESSAGES))


def test_an_answer_that_is_no_json_to_a_request_not_streamed_is_named_not_a_crash(httpx2_mock, provider):
    httpx2_mock.post(URL).respond(200, content=b"", headers={"content-type": "text/plain"})
    with pytest.raises(ProviderError) as caught:
        provider.complete(MESSAGES)
    assert caught.value.message == f"{WHERE} answered with no chat completion (not JSON): is --base-url right?"
    assert not isinstance(caught.value, ServerError)  # the same body again a second later: not retried
    httpx2_mock.post(URL).respond(
        200, content=b"<html><body>Log in</body></html>", headers={"content-type": "text/html"}
    )
    with pytest.raises(ProviderError, match="answered with an HTML page"):  # as a stream names it
        provider.complete(MESSAGES)


def test_a_server_that_sends_choices_not_asked_for_has_only_the_first_taken_streamed_or_whole(httpx2_mock, provider):
    def choice(index: int, text: str, finish: str | None = None) -> dict:
        return {"index": index, "delta": {"content": text}, "finish_reason": finish}

    both = [{"choices": [choice(0, "zero ")]}, {"choices": [choice(1, "ONE ")]}]
    both.append({"choices": [choice(0, "one", "stop")]})
    httpx2_mock.post(URL).respond(200, content=sse(*both, DONE), headers=SSE_HEADERS)
    events = list(provider.stream(MESSAGES))
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "zero one"
    whole = {
        "choices": [
            {"index": 1, "message": {"role": "assistant", "content": "the other"}, "finish_reason": "stop"},
            {"index": 0, "message": {"role": "assistant", "content": "the one asked for"}, "finish_reason": "stop"},
        ]
    }
    httpx2_mock.post(URL).respond(200, json=whole)
    assert provider.complete(MESSAGES).text == "the one asked for"
