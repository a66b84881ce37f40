"""What a broken connection is told as: the HTTP library's own words quoted in one short line, however much it
quotes of what the server sent."""

from __future__ import annotations

import httpx2

from chatbot.errors import ConnectionFailed, IncompleteReply
from chatbot.providers.error_map import CAUSE_CHARS, ErrorContext, map_exception
from chatbot.providers.openai_provider import OPENAI_ERRORS

CTX = ErrorContext("openai", "m", "http://127.0.0.1:9/v1", "OPENAI_API_KEY")
JUNK = "unexpected bytes " + "\x1b[2J" + "x" * 5000 + "\nline two"


def test_a_connection_that_fails_quotes_its_cause_in_one_short_line():
    error = map_exception(httpx2.ConnectError(JUNK), OPENAI_ERRORS, CTX)
    assert isinstance(error, ConnectionFailed) and error.message.startswith("could not reach http://127.0.0.1:9/v1")
    assert "\n" not in error.message and "\x1b" not in error.message
    assert len(error.message) < CAUSE_CHARS + 200


def test_a_connection_broken_mid_stream_quotes_its_cause_in_one_short_line():
    error = map_exception(httpx2.ReadError(JUNK), OPENAI_ERRORS, CTX, streaming=True)
    assert isinstance(error, IncompleteReply) and "broke the connection (unexpected bytes" in error.message
    assert "\n" not in error.message and len(error.message) < CAUSE_CHARS + 200
