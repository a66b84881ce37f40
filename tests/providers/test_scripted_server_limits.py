"""The scripted server behaves as real servers do about length: it honours ``max_tokens`` (the reply is cut and ends
with ``finish_reason: "length"``) and refuses a prompt plus ``max_tokens`` over its window, naming both."""

from __future__ import annotations

import pytest

from chatbot.errors import ContextLengthError
from chatbot.providers import make_provider
from tests.support.fake_server import FakeServer


@pytest.fixture
def provider_for(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    return lambda server: make_provider("openai", model="fake-model", base_url=server.base_url, max_retries=0)


def test_a_reply_longer_than_max_tokens_is_cut_with_finish_reason_length(provider_for):
    with FakeServer(reply="one two three four five six") as server:
        completion = provider_for(server).complete([{"role": "user", "content": "hi"}], max_tokens=4)
        whole = provider_for(server).complete([{"role": "user", "content": "hi"}], max_tokens=40)
    assert (completion.text, completion.finish_reason) == ("one two three four", "length")
    assert (whole.text, whole.finish_reason) == ("one two three four five six", "stop")
    assert server.record.outcomes == ["length", "stop"]


def test_a_prompt_plus_max_tokens_over_the_window_is_refused_naming_the_window(provider_for):
    with FakeServer(context=100) as server, pytest.raises(ContextLengthError) as refused:
        provider_for(server).complete([{"role": "user", "content": "word " * 50}], max_tokens=60)
    assert refused.value.limit == 100 and server.record.outcomes == ["context"]
