"""``--schema`` on the command line.

The schema becomes the model option ``response_format`` (see :mod:`chatbot.engine.reply_schema`), so it is sent and
kept like any ``-o`` option. Every turn's reply is then checked against it by the chat itself (``TurnDone.json``,
and one notice line when it does not match), in every mode; one-shot mode fails the run on a mismatch (exit
status 5) and ``--json`` carries the parsed object as ``data``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chatbot.engine.reply_schema import parse_schema, response_format
from chatbot.errors import UsageError

#: a schema file larger than this is refused (a schema is a few kilobytes)
MAX_SCHEMA_BYTES = 1 << 20


def schema_option(text: str) -> dict[str, Any]:
    """The ``response_format`` option for ``--schema TEXT``: a JSON-schema file when one of that name exists, else
    inline JSON or llm's concise form (``'name, age int, bio: a short bio'``)."""
    path = Path(text).expanduser()
    # as llm reads it: a comma (or a newline) makes it the concise form, even when a file of that name exists
    if not text.lstrip().startswith("{") and "," not in text and "\n" not in text and path.is_file():
        from chatbot.attachments.attach import decode_text, read_limited
        from chatbot.attachments.secret_files import refusal, secret_of

        data, size = read_limited(path, MAX_SCHEMA_BYTES, f"--schema {text}")
        if held := secret_of(path, data):  # a .env, a private key: never sent, as no attachment of one is
            raise UsageError(refusal(f"--schema {text}", held, "read as a reply schema"))
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
