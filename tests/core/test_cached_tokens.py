"""Cached prompt tokens: read from the provider's usage, stored per turn and in the totals, shown in the usage line
and /tokens, and left out of calibration (they are still prompt tokens)."""

from __future__ import annotations

import io

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from chatbot.providers.base import StreamEnd, TextDelta, Usage
from chatbot.providers.echo import EchoProvider
from chatbot.providers.reading import parse_usage
from chatbot.terminal.render import make_console
from chatbot.terminal.repl import Repl
from tests.support.cli import run_chatbot, session_doc
from tests.support.fake_server import FakeServer


@pytest.mark.parametrize(
    ("wire", "cached"),
    [
        ({"prompt_tokens": 2000, "completion_tokens": 5, "prompt_tokens_details": {"cached_tokens": 1920}}, 1920),
        ({"prompt_tokens": 2000, "completion_tokens": 5, "prompt_tokens_details": {"cached_tokens": 0}}, 0),
        ({"prompt_tokens": 2000, "completion_tokens": 5, "prompt_tokens_details": None}, None),
        ({"prompt_tokens": 2000, "completion_tokens": 5, "prompt_tokens_details": {"audio_tokens": 0}}, None),
        ({"prompt_tokens": 2000, "completion_tokens": 5}, None),
    ],
)
def test_cached_tokens_are_read_where_the_provider_reports_them(wire, cached):
    usage = parse_usage(wire)
    assert usage == Usage(2000, 5, 2005, cached)


def test_cached_tokens_are_stored_per_turn_and_in_the_totals_and_shown_by_tokens(tmp_path):
    with FakeServer(reply="Fine.", cached_tokens=12) as server:
        result = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url, "--session", "c",
            stdin="hello there\nand again\n/tokens\n", cwd=tmp_path, env={"OPENAI_API_KEY": "test"},
        )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = session_doc(tmp_path, "c")
    assert [t["usage"]["cached_tokens"] for t in data["turns"]] == [12, 12]
    assert data["totals"]["cached_tokens"] == 24
    prompt = data["totals"]["prompt_tokens"]
    assert f"cached by the provider: 24 of the prompt tokens ({100 * 24 // prompt}%)" in result.stdout
    assert "(12 cached) vs estimate" in result.stdout


class Reporting(EchoProvider):
    def __init__(self, cached):
        super().__init__(delay=0)
        self.cached = cached

    def stream(self, messages, *, model=None, max_tokens=None):
        yield TextDelta("ok")
        yield StreamEnd(Usage(400, 1, 401, self.cached), "stop")


def test_calibration_compares_the_whole_prompt_cached_or_not(make_app):
    corrections = []
    for cached in (None, 384):
        chat = make_app(Reporting(cached)).open(f"s{cached}")
        for text in ("a fairly ordinary question " * 20, "and another one " * 20):
            list(chat.send(text))
        corrections.append(chat.conversation.counter.correction)
    assert corrections[0] > 1.0 and corrections[0] == corrections[1]


def test_the_usage_line_shows_cached_tokens(make_app, tmp_path, monkeypatch):
    monkeypatch.setenv("CHATBOT_HISTORY_FILE", str(tmp_path / "history"))
    app = make_app(Reporting(256))
    app.open("u")
    out = io.StringIO()
    with create_pipe_input() as pipe:
        pipe.send_text("hi\r\x04")
        Repl(app, plain=True, pt_input=pipe, pt_output=DummyOutput(), console=make_console(plain=True, file=out)).run()
    assert "tokens: prompt 400 (256 cached) · completion 1 · total 401" in out.getvalue()
