"""``--schema`` on the command line, and the one-shot check of a reply that was asked to be JSON.

The schema becomes the model option ``response_format`` (see :mod:`chatbot.engine.structured`), so it is sent and
kept like any ``-o`` option; in one-shot mode the reply is then parsed and checked against it, and ``--json`` carries
the parsed object as ``data``. A reply that is not the JSON asked for fails the run with one line (exit status 5).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chatbot.engine.structured import asked_format, parse_schema, reply_problem, response_format
from chatbot.errors import InvalidReply, UsageError

#: a schema file larger than this is refused (a schema is a few kilobytes)
MAX_SCHEMA_BYTES = 1 << 20


def schema_option(text: str) -> dict[str, Any]:
    """The ``response_format`` option for ``--schema TEXT``: a JSON-schema file when one of that name exists, else
    inline JSON or llm's concise form (``'name, age int, bio: a short bio'``)."""
    path = Path(text).expanduser()
    # as llm reads it: a comma (or a newline) makes it the concise form, even when a file of that name exists
    if not text.lstrip().startswith("{") and "," not in text and "\n" not in text and path.is_file():
        from chatbot.core.attach import decode_text, read_limited

        data, size = read_limited(path, MAX_SCHEMA_BYTES, f"--schema {text}")
        if size > MAX_SCHEMA_BYTES:
            raise UsageError(f"--schema {text} is {size:,} bytes; a schema file can be at most {MAX_SCHEMA_BYTES:,}")
        body = decode_text(data, text)
        if not body.lstrip().startswith("{"):
            raise UsageError(f"--schema {text}: a schema file holds one JSON schema object ({{...}})")
        try:
            return response_format(parse_schema(body))
        except UsageError as exc:
            raise UsageError(exc.message.replace("--schema:", f"--schema {text}:", 1)) from None
    return response_format(parse_schema(text))


def checked_reply(options: dict[str, Any], reply: str) -> tuple[bool, Any]:
    """(whether the session's options ask for JSON, the reply's parsed value). Raises :class:`InvalidReply` when
    JSON was asked for and the reply is not JSON, or does not match the schema."""
    kind, schema = asked_format(options)
    if not kind:
        return False, None
    value, problem = reply_problem(reply, schema)
    if problem:
        raise InvalidReply(f"{problem} (the turn is stored as the model wrote it)")
    return True, value
