"""The interactive app driven through prompt_toolkit's pipe input, with rich writing to a string."""

from __future__ import annotations

import io

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from chatbot.errors import ServerError
from chatbot.providers.echo import EchoProvider
from chatbot.terminal.render import make_console
from chatbot.terminal.repl import Repl, SlashCompleter, cap_history

ENTER, ALT_ENTER, CTRL_C, CTRL_D = "\r", "\x1b\r", "\x03", "\x04"


@pytest.fixture(autouse=True)
def history_file(tmp_path, monkeypatch):
    path = tmp_path / "history"
    monkeypatch.setenv("CHATBOT_HISTORY_FILE", str(path))
    return path


def run_repl(app, keys: str, *, plain: bool = False, **console_kw) -> tuple[int, str]:
    out = io.StringIO()
    console = make_console(plain=plain, file=out, width=80, **console_kw)
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        status = Repl(app, plain=plain, pt_input=pipe, pt_output=DummyOutput(), console=console).run()
    return status, out.getvalue()


@pytest.fixture
def app(make_app):
    app = make_app()
    app.open("r")
    return app


def test_a_message_is_answered_and_usage_shown(app):
    status, out = run_repl(app, "hello there" + ENTER + CTRL_D)
    assert status == 0
    assert "Last user message: hello there" in out
    assert "tokens: prompt" in out and "session r saved" in out
    assert app.chat.conversation.turns[0].user_text == "hello there"


def test_alt_enter_inserts_a_newline_in_one_message(app):
    run_repl(app, "line one" + ALT_ENTER + "line two" + ENTER + CTRL_D)
    assert [t.user_text for t in app.chat.conversation.turns] == ["line one\nline two"]


def test_ctrl_c_at_the_prompt_clears_the_line(app):
    run_repl(app, "never sent" + CTRL_C + "kept" + ENTER + "/quit" + ENTER)
    # the line was cleared (not sent, not kept in front of the next one) and the session went on
    assert [t.user_text for t in app.chat.conversation.turns] == ["kept"]


def test_commands_print_their_output(app):
    _, out = run_repl(app, "hi" + ENTER + "/context" + ENTER + "/tokens" + ENTER + "/bogus" + ENTER + "/quit" + ENTER)
    assert "keeps nothing between requests" in out and "Usage in session r" in out
    assert "error: unknown command /bogus" in out


def test_delete_asks_for_confirmation(app):
    app.open("other")
    list(app.chat.send("x"))
    app.open("r")
    run_repl(app, "/delete other" + ENTER + "n" + ENTER + CTRL_D)
    assert app.store.exists("other")
    run_repl(app, "/delete other" + ENTER + "y" + ENTER + CTRL_D)
    assert not app.store.exists("other")


def test_errors_print_one_line_and_retry_resends(make_app):
    class FailOnce(EchoProvider):
        failed = False

        def stream(self, messages, *, model=None, max_tokens=None, options=None):
            if not self.failed:
                self.failed = True
                raise ServerError("the server failed (500)")
            yield from super().stream(messages, model=model, max_tokens=max_tokens)

    app = make_app(FailOnce(delay=0))
    app.open("e")
    _, out = run_repl(app, "precious question" + ENTER + "/retry" + ENTER + CTRL_D)
    assert "error: the server failed (500)" in out and "/retry resends your message" in out
    assert "Traceback" not in out
    assert [t.user_text for t in app.chat.conversation.turns] == ["precious question"]


def test_history_is_written_and_capped(app, history_file):
    run_repl(app, "remember me" + ENTER + CTRL_D)
    assert "+remember me" in history_file.read_text()
    history_file.write_text("".join(f"\n# 2026-01-01 00:00:{i % 60:02d}\n+entry {i}\n" for i in range(20000)))
    cap_history(history_file, max_bytes=10_000)
    text = history_file.read_text()
    assert len(text.encode()) <= 10_000 and text.startswith("\n# ") and "+entry 19999" in text


def test_slash_completion():
    completer = SlashCompleter()
    names = [c.text for c in completer.get_completions(Document("/con"), CompleteEvent())]
    assert names == ["/context"]
    assert list(completer.get_completions(Document("hello /co"), CompleteEvent())) == []


def test_no_color_and_plain(app, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    _, out = run_repl(app, "hi" + ENTER + CTRL_D, force_terminal=True)
    assert "\x1b[3" not in out and "\x1b[9" not in out  # no foreground colours
    _, out = run_repl(app, "**bold**" + ENTER + CTRL_D, plain=True)
    assert "\x1b[" not in out and "**Echo**" in out  # plain: Markdown is not rendered


def test_term_dumb_has_no_escape_sequences(app, monkeypatch):
    monkeypatch.setenv("TERM", "dumb")
    _, out = run_repl(app, "hi" + ENTER + CTRL_D)
    assert "\x1b[" not in out


def test_a_bidi_override_in_a_reply_is_shown_as_its_code_not_obeyed(app):
    # the echo reply quotes the message, so the override comes back in the streamed Markdown answer
    message = "see invoice\u202etxt.exe and שלום"
    for plain in (False, True):
        _, out = run_repl(app, message + ENTER + CTRL_D, plain=plain, force_terminal=True)
        assert "\u202e" not in out and "invoice\\u202etxt.exe and שלום" in out
    assert app.chat.conversation.turns[0].user_text == message  # stored as typed


def test_the_terminal_says_earlier_turns_are_not_sent_once_as_the_window_slides(make_app):
    app = make_app(strategy="window", window_turns=2, window_step=1)
    app.open("w")
    _, out = run_repl(app, "".join(f"message {n}" + ENTER for n in range(1, 9)) + CTRL_D)
    assert out.count("not sent") == 1 and "1 earlier turn(s) not sent" in out
    assert [t.sent["dropped"] for t in app.chat.conversation.turns if t.sent] == [0, 0, 0, 1, 2, 3, 4, 5]


def test_history_file_is_private(app, history_file):
    run_repl(app, "secret plans" + ENTER + CTRL_D)
    assert history_file.stat().st_mode & 0o777 == 0o600


def test_a_pasted_line_that_names_no_command_comes_back_at_the_prompt_to_edit(app):
    # "/usr/bin is where ..." is pasted text, not a command: it is not lost, and // at its start sends it
    HOME = "\x01"  # Ctrl-A: the start of the line
    _, out = run_repl(app, "/usr/bin is where binaries live" + ENTER + HOME + "/" + ENTER + CTRL_D)
    assert "unknown command /usr/bin" in out and "your text is back at the prompt" in out
    assert [t.user_text for t in app.chat.conversation.turns] == ["/usr/bin is where binaries live"]


def test_a_known_command_that_fails_is_not_given_back(app):
    _, out = run_repl(app, "/load nowhere-such" + ENTER + ENTER + CTRL_D)
    assert "back at the prompt" not in out and app.chat.conversation.turns == []


@pytest.mark.parametrize("width", [120, 80, 40])
def test_sessions_fit_the_terminal_width_one_line_a_session(app, width):
    for name in ("first", "second"):
        app.open(name)
        list(app.chat.send(f"a long first message that makes a long title for the {name} session indeed"))
    app.open("r")
    out = io.StringIO()
    console = make_console(file=out, width=width, force_terminal=True, color_system=None)
    with create_pipe_input() as pipe:
        pipe.send_text("/sessions" + ENTER + CTRL_D)
        Repl(app, pt_input=pipe, pt_output=DummyOutput(), console=console).run()
    lines = out.getvalue().splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("  id "))
    header, *rows = lines[start : start + 3]
    assert [row.split()[0] for row in rows] == ["second", "first"]  # the newest first, each on one line of its own
    assert max(len(line) for line in lines) <= width
    assert len(rows[0]) == width and rows[0].endswith("…")  # one column too wide at 120: cut, the cut marked
    assert lines[start + 3].startswith("* r ")


def test_prose_output_wider_than_the_terminal_wraps_whole(app):
    words = " ".join(f"word{i}" for i in range(40))
    out = io.StringIO()
    console = make_console(file=out, width=40)
    with create_pipe_input() as pipe:
        pipe.send_text(f"/system {words}" + ENTER + "/system" + ENTER + CTRL_D)
        Repl(app, pt_input=pipe, pt_output=DummyOutput(), console=console).run()
    assert words in " ".join(out.getvalue().split())  # nothing cut
    assert "…" not in out.getvalue()


@pytest.mark.parametrize(("one_shot", "said"), [(False, "/retry resends your message"), (True, "nothing was stored")])
def test_ctrl_c_before_any_answer_suggests_retry_only_where_there_is_a_next_prompt(make_app, one_shot, said):
    class Silent(EchoProvider):
        def stream(self, messages, **ask):
            raise KeyboardInterrupt  # Ctrl-C while the server has sent nothing yet
            yield  # (a generator)

    app = make_app(Silent(delay=0))
    app.open("c")
    out = io.StringIO()
    repl = Repl(app, console=make_console(file=out, force_terminal=False, width=100), one_shot=one_shot)
    assert repl.send("hi") == 130
    assert f"cancelled before any answer; {said}" in out.getvalue()
    assert ("/retry" in out.getvalue()) is not one_shot  # -p ends the process: no /retry to type


def test_goodbye_does_not_say_saved_when_an_edit_the_store_refused_is_not_in_it(make_app, sessions_dir, monkeypatch):
    """A /rename the store refused (the session's file was changed from outside) is unsaved, like a turn: the goodbye
    tries once more and says so (with where it is kept), not "saved", and the status is a save's."""
    monkeypatch.setenv("CHATBOT_RESCUE_DIR", str(sessions_dir.parent / "rescue"))
    app = make_app()
    app.open("k9")
    list(app.chat.send("one"))
    path = sessions_dir / "k9.json"
    path.write_text(path.read_text().replace('"title": ', '"title": "edited outside", "was_title": ', 1))
    status, out = run_repl(app, "/rename newt" + ENTER + CTRL_D)
    assert "cannot save session k9" in out
    assert "session k9 saved; bye" not in out
    assert "session k9: the last changes could not be saved; they are kept in" in out and status == 3


@pytest.mark.parametrize("plain", [False, True], ids=["markdown", "plain"])
@pytest.mark.parametrize("terminal", [True, False], ids=["live-terminal", "file"])
def test_a_notice_at_the_end_of_a_reply_comes_after_its_last_line_not_above_it(make_app, plain, terminal):
    from chatbot.providers.base import StreamEnd, TextDelta

    class CutShort(EchoProvider):
        def stream(self, messages, **ask):
            yield TextDelta("The first paragraph, whole.\n\nThe last paragraph, cut at the lim")
            yield StreamEnd(None, "length")  # the server stopped it at max_tokens

    app = make_app(CutShort(delay=0))
    app.open("cut")
    out = io.StringIO()
    console = make_console(plain=plain, file=out, force_terminal=terminal, width=80, height=24)
    Repl(app, plain=plain, console=console).send("write a lot")
    shown = out.getvalue()
    assert "cut at the lim" in shown and "the reply was cut off" in shown
    assert shown.rindex("cut at the lim") < shown.index("the reply was cut off")  # the reply, then what it was
