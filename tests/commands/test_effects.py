"""A command's effects applied by the one :func:`~chatbot.commands.apply`, on the real front ends: script mode's
:class:`~chatbot.cli.modes.Script` and the terminal's :class:`~chatbot.terminal.repl.Repl` over a pipe."""

from __future__ import annotations

import io

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from chatbot import commands
from chatbot.cli.modes import Script
from chatbot.commands.effects import Compose, Edit, Note, Quit, Send, Show
from chatbot.errors import ServerError, UsageError
from chatbot.providers.echo import EchoProvider
from chatbot.terminal.render import make_console
from chatbot.terminal.repl import Repl


class Downable(EchoProvider):
    """Echo whose server can be down: every call fails before any answer."""

    down = False

    def stream(self, messages, **ask):
        if self.down:
            raise ServerError("the model is down")
        yield from super().stream(messages, **ask)


@pytest.fixture
def app(make_app):
    app = make_app(Downable(delay=0))
    app.open("e")
    return app


def test_effects_apply_in_order_and_quit_stops_the_rest(app, capsys):
    front = Script(app, reasoning=False)
    assert commands.apply((Show("asked for"), Note("done\nand this"), Quit(), Note("never")), front)
    out, err = capsys.readouterr()
    assert out == "asked for\n"
    assert err.splitlines() == ["chatbot: done", "chatbot: and this"]  # a notice a line, none after quitting


def test_a_send_is_a_turn_and_a_failed_one_is_kept_for_retry_without_raising(app, capsys):
    front = Script(app, reasoning=False)
    assert not commands.apply(Send("hello"), front)
    assert "Last user message: hello" in capsys.readouterr().out and front.status == 0
    app.provider.down = True
    commands.apply(Send("again"), front)
    assert "chatbot: the model is down" in capsys.readouterr().err
    assert front.status == ServerError.exit_code and front.unsent is not None and front.unsent.content == "again"


def test_a_script_has_no_prompt_to_edit_in_nor_an_editor(app):
    front = Script(app, reasoning=False)
    with pytest.raises(UsageError, match="in a script, /edit takes the new text: /edit 2 NEW MESSAGE"):
        commands.apply(
            Edit("old", "in a script, /edit takes the new text: /edit 2 NEW MESSAGE", lambda edited: Send(edited)),
            front,
        )
    with pytest.raises(UsageError, match="/editor needs a terminal"):
        commands.apply(Compose("draft"), front)


def repl_applies(app, effects, keys: str) -> tuple[bool, str]:
    out = io.StringIO()
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        repl = Repl(app, plain=True, pt_input=pipe, pt_output=DummyOutput(), console=make_console(plain=True, file=out))
        quit_ = commands.apply(effects, repl)
    return quit_, out.getvalue()


def test_an_edit_goes_on_with_what_the_user_sent_from_the_prompt(app, tmp_path, monkeypatch):
    monkeypatch.setenv("CHATBOT_HISTORY_FILE", str(tmp_path / "history"))
    quit_, out = repl_applies(app, Edit("draft", "/edit NEW MESSAGE", lambda edited: Send(edited.upper())), " two\r")
    assert not quit_ and "Last user message: DRAFT TWO" in out
    assert [t.user_text for t in app.chat.conversation.turns] == ["DRAFT TWO"]


def test_an_edit_emptied_or_turned_into_a_command_is_cancelled(app, tmp_path, monkeypatch):
    monkeypatch.setenv("CHATBOT_HISTORY_FILE", str(tmp_path / "history"))
    ctrl_u = "\x15"  # clears the line
    for keys in (ctrl_u + "\r", ctrl_u + "/quit\r"):
        _, out = repl_applies(app, Edit("draft", "/edit NEW MESSAGE", lambda edited: Quit()), keys)
        assert "edit cancelled; the session stays as it was" in out
    assert app.chat.conversation.turns == []
