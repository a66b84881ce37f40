"""/context json: in the terminal a readable form (real line breaks, long contents folded); the exact JSON stays in
``output`` (script mode prints it) and ``/context json --exact`` gives only it."""

from __future__ import annotations

import json

from chatbot import commands


def test_the_terminal_reads_the_body_folded_and_the_exact_json_is_one_flag_away(make_app):
    app = make_app(strategy="full")
    chat = app.open("j")
    list(chat.send("\n".join(f"line {i} of a long message" for i in range(40))))
    result = commands.run(app, "/context json")
    body = json.loads(result.text)
    assert body["messages"][1]["content"].startswith("line 0 of a long message\nline 1")
    readable = result.readable or ""
    assert readable.startswith("The request body, readable (/context json --exact: the exact JSON): 4 message(s)")
    assert "── 2. user " in readable and "\nline 0 of a long message\nline 1 of a long message\n" in readable
    assert "   ⋮ 29 more line(s) folded\n" in readable and "\\n" not in readable
    exact = commands.run(app, "/context json --exact")
    assert exact.readable is None and json.loads(exact.text) == body
