"""A context-length error names the model's window in each server's own words: the error carries it as ``limit``."""

from __future__ import annotations

import pytest

from chatbot.errors import ContextLengthError
from chatbot.providers.error_map import ErrorContext, classify_error

CTX = ErrorContext("openai", "m", "http://127.0.0.1:8000/v1", "OPENAI_API_KEY")


@pytest.mark.parametrize(
    "status, body, limit",
    [
        pytest.param(
            400,
            {"error": {"message": "This model's maximum context length is 8192 tokens. However, your messages resulted "
                       "in 9000 tokens. Please reduce the length of the messages.", "type": "invalid_request_error",
                       "param": "messages", "code": "context_length_exceeded"}},
            8192,
            id="openai",
        ),
        pytest.param(
            400,
            {"object": "error", "message": "This model's maximum context length is 3000 tokens. However, you requested "
             "3500 tokens (3000 in the messages, 500 in the completion). Please reduce the length of the messages or "
             "completion.", "type": "BadRequestError", "param": None, "code": 400},
            3000,
            id="vllm",
        ),
        pytest.param(
            400,
            {"error": {"message": "The decoder prompt (length 5000) is longer than the model's context length (4096).",
                       "type": "BadRequestError", "code": 400}},
            4096,
            id="vllm-decoder-prompt",
        ),
        pytest.param(
            400,
            {"error": {"message": "Input prompt (9000 tokens) is too long and exceeds limit of 8192",
                       "type": "BadRequestError", "code": 400}},
            8192,
            id="vllm-input-prompt",
        ),
        pytest.param(
            400,
            {"error": {"message": "This model's maximum context length is 131072 tokens. However, your messages "
                       "resulted in 140000 tokens. Please reduce the length of the messages.",
                       "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}},
            131072,
            id="groq",
        ),
        pytest.param(
            400,
            {"error": {"message": "Please reduce the length of the messages or completion.",
                       "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}},
            None,
            id="groq-no-number",
        ),
        pytest.param(
            400,
            {"error": {"code": 400, "message": "request (9000 tokens) exceeds the available context size (8192 "
                       "tokens), try increasing it", "type": "exceed_context_size_error"}},
            8192,
            id="llamacpp",
        ),
        pytest.param(
            400,
            {"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it",
                       "type": "exceed_context_size_error", "n_prompt_tokens": 9000, "n_ctx": 3000}},
            3000,
            id="llamacpp-n_ctx",
        ),
        pytest.param(
            500,
            {"error": {"code": 500, "message": "the request exceeds the available context size, try increasing the "
                       "context size or enable context shift", "type": "server_error"}},
            None,
            id="llamacpp-old-no-number",
        ),
    ],
)  # fmt: skip
def test_a_context_error_carries_the_window_it_names(status, body, limit):
    error = classify_error(status, body, "", None, CTX)
    assert isinstance(error, ContextLengthError)
    assert error.limit == limit
    assert "9000" not in str(error.limit)  # the size asked for is never taken for the window


def test_a_context_error_without_details_has_no_limit():
    assert ContextLengthError("too long").limit is None
