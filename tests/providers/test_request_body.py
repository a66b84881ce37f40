"""A provider's ``request_body`` is the body its call sends: for both SDKs, streamed and whole, with tools, options
and the reply limit a reasoning model wants. The scripted server records what arrived."""

from __future__ import annotations

from typing import Any

import pytest

from chatbot.providers import make_provider
from chatbot.providers.base import CallOptions
from tests.support.fake_server import FakeServer

MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Weather in Seoul?"}]
TOOLS = [
    {
        "type": "function",
        "function": {"name": "weather", "description": "Weather.", "parameters": {"type": "object", "properties": {}}},
    }
]


def provider_for(server: FakeServer, monkeypatch: pytest.MonkeyPatch, sdk: str, model: str) -> Any:
    if sdk == "groq":
        monkeypatch.setenv("GROQ_API_KEY", "gsk-test")
        return make_provider("groq", model=model, base_url=server.root_url, max_retries=0)
    return make_provider("openai", model=model, base_url=server.base_url, max_retries=0)


@pytest.mark.parametrize("sdk", ["openai", "groq"])
@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize("model", ["llama-3.1-8b-instant", "o3-mini"])
def test_the_request_body_is_what_the_server_receives(clean_env, sdk, stream, model):
    ask: dict[str, Any] = {"max_tokens": 200, "tools": TOOLS, "options": {"temperature": 0.2, "seed": 3}}
    with FakeServer(reply="Sunny.") as server:
        provider = provider_for(server, clean_env, sdk, model)
        call = CallOptions(stream=stream, **ask)
        body = provider.request_body(MESSAGES, call)
        list(provider.events(MESSAGES, call))
        assert server.record.requests == [body]
    limit = "max_completion_tokens" if model == "o3-mini" else "max_tokens"
    assert body[limit] == 200 and body["tools"] == TOOLS and body["seed"] == 3
    assert ("stream_options" in body) is stream


def test_an_option_named_like_the_reply_limit_replaces_it(clean_env):
    with FakeServer(reply="Sunny.") as server:
        provider = provider_for(server, clean_env, "openai", "m")
        provider.complete(MESSAGES, max_tokens=200, options={"max_tokens": 50})
        assert server.record.requests[0]["max_tokens"] == 50


def test_a_server_that_refuses_stream_options_gets_bodies_without_them(clean_env):
    with FakeServer(reply="Sunny.", reject=("stream_options",)) as server:
        provider = provider_for(server, clean_env, "openai", "m")
        list(provider.stream(MESSAGES))
        body = provider.request_body(MESSAGES)
        list(provider.stream(MESSAGES))
        assert "stream_options" not in body and server.record.requests[-1] == body
