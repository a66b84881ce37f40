"""A whole reply read as it streams (``ChatProvider.whole``, what a summary is asked with): the same text, usage and
finish as the events carry; a stream that just ends, unfinished, is no whole reply; ``--no-stream`` asks in one
piece."""

from __future__ import annotations

import pytest

from chatbot.errors import IncompleteReply
from chatbot.providers import make_provider
from chatbot.providers.base import CallOptions, Usage
from tests.support.fake_server import FakeServer
from tests.support.hostile_server import Answer, HostileServer, chunk

MESSAGES = [{"role": "user", "content": "Summarize: we talked about tomatoes."}]


@pytest.fixture
def provider_for(clean_env):
    clean_env.setenv("OPENAI_API_KEY", "test")
    return lambda url: make_provider("openai", model="m", base_url=url, max_retries=0)


def test_a_streamed_whole_reply_has_the_text_usage_and_finish_of_its_events(provider_for):
    with FakeServer(reply="- tomatoes on the balcony", chunks=5) as server:
        whole = provider_for(server.base_url).whole(MESSAGES, CallOptions("m", 64))
        sent = server.record.last_request()
    assert sent["stream"] is True and sent["stream_options"] == {"include_usage": True}
    assert whole.text == "- tomatoes on the balcony" and whole.finish_reason == "stop"
    assert isinstance(whole.usage, Usage) and whole.usage.completion_tokens > 0


def test_with_no_stream_a_whole_reply_is_asked_in_one_piece(provider_for):
    with FakeServer(reply="- tomatoes") as server:
        whole = provider_for(server.base_url).whole(MESSAGES, CallOptions("m", 64, stream=False))
        sent = server.record.last_request()
    assert "stream" not in sent and whole.text == "- tomatoes" and whole.finish_reason == "stop"


def test_a_stream_that_just_ends_unfinished_is_no_whole_reply(provider_for):
    # half a summary, the connection then closed: folded in, it would stand for the turns it dropped
    with (
        HostileServer(Answer(events=[chunk("The user asked about")])) as server,
        pytest.raises(IncompleteReply, match="ended the reply without saying it was finished"),
    ):
        provider_for(server.base_url).whole(MESSAGES, CallOptions("m", 64))
