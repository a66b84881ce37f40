"""Slash commands, run against a real App over the echo provider and a temporary session store."""

from __future__ import annotations

import json

import pytest

from chatbot import commands
from chatbot.commands.effects import Quit
from chatbot.commands.table import as_message, is_command
from chatbot.errors import InvalidSessionId, UsageError


def send(app, text: str) -> None:
    list(app.chat.send(text))


@pytest.fixture
def app(make_app):
    app = make_app(strategy="summary", summary_trigger=2, keep_turns=1)
    app.open("main")
    return app


def run(app, line, confirm=None):
    return commands.run(app, line, confirm)


@pytest.mark.parametrize("word", ["/quit", "/exit", "exit", "quit", "종료", "  quit  "])
def test_quit_words(app, word):
    assert commands.is_command(word) and run(app, word) == Quit()


@pytest.mark.parametrize("word", ["EXIT", "Quit", "qUiT", " Exit ", "/QUIT", "/Exit"])
def test_quit_words_in_any_letter_case(app, word):
    assert commands.is_command(word) and run(app, word) == Quit()


def test_plain_text_is_not_a_command():
    assert not commands.is_command("tell me about /etc/passwd")
    assert not commands.is_command("exit strategy?")


def test_help_lists_every_command(app):
    out = run(app, "/help").text
    for name in commands.COMMANDS:
        assert name in out


def test_unknown_command_is_a_usage_error(app):
    with pytest.raises(UsageError, match="/help"):
        run(app, "/frobnicate")


def test_reset_forgets_turns_and_summary_keeps_system(app):
    for i in range(4):
        send(app, f"q{i}")
    assert app.chat.conversation.summary
    out = run(app, "/reset").text
    conv = app.chat.conversation
    assert "4 turn(s)" in out and conv.turns == [] and conv.summary == "" and conv.system
    assert app.store.load("main").conversation.turns == []


def test_reset_asks_with_the_count_and_a_no_erases_nothing(app):
    for i in range(3):
        send(app, f"q{i}")
    asked: list[str] = []
    out = run(app, "/reset", confirm=lambda question: asked.append(question) or False).text
    assert asked == [
        "Erase the 3 stored turn(s) of session main and its summary for good? (/new starts afresh and keeps them)"
    ]
    assert out == "not reset; nothing erased"
    assert len(app.chat.conversation.turns) == 3 and len(app.store.load("main").conversation.turns) == 3


def test_reset_with_a_yes_erases_and_says_what(app):
    send(app, "q0")
    out = run(app, "/reset", confirm=lambda question: True).text
    assert out == "erased 1 turn(s) and the summary of session main; the system message stays"
    assert app.store.load("main").conversation.turns == []


def test_reset_of_a_session_without_turns_asks_nothing(app):
    asked: list[str] = []
    out = run(app, "/reset", confirm=lambda question: asked.append(question) or True).text
    assert asked == [] and out.startswith("erased 0 turn(s)")


def test_summary_shows_text_and_coverage(app):
    assert "no summary yet" in run(app, "/summary").text
    for i in range(4):
        send(app, f"question {i}")
    out = run(app, "/summary").text
    assert "Summary of turns 1-" in out and "question 0" in out


def test_context_shows_the_exact_next_request(app):
    send(app, "hello there")
    out = run(app, "/context").text
    assert "keeps nothing between requests" in out
    assert "system" in out and "hello there" in out and "(your next message)" in out
    request = app.chat.next_request("")
    assert f"total {request.tokens} of {request.budget} tokens" in out


def test_context_marks_the_summary(app):
    for i in range(4):
        send(app, f"q{i}")
    out = run(app, "/context").text
    assert "system+S" in out and "summary of turns 1-" in out


def test_tokens_reports_provider_and_estimate(app):
    send(app, "hi")
    out = run(app, "/tokens").text
    assert "provider-reported: prompt" in out and "estimated: prompt" in out and "correction" in out


def test_sessions_new_load_rename_delete(app):
    send(app, "first session message")
    new_id = run(app, "/new").text.split()[-1]
    assert app.chat.session.id == new_id
    send(app, "second")
    listing = run(app, "/sessions").text
    assert "main" in listing and f"* {new_id}" in listing
    assert "loaded session main (1 turn(s))" in run(app, "/load main").text
    assert "titled 'My title'" in run(app, "/rename My title").text
    assert app.store.load("main").title == "My title"
    with pytest.raises(UsageError, match="in use"):
        run(app, "/delete main")
    assert run(app, f"/delete {new_id}", confirm=lambda q: False).text == "not deleted"
    assert app.store.exists(new_id)
    assert "deleted" in run(app, f"/delete {new_id}", confirm=lambda q: True).text
    assert not app.store.exists(new_id)


def test_delete_refuses_the_session_in_use_before_asking(app):
    """No "Delete session main for good?" answered yes and then refused: the refusal comes first, nothing asked."""
    send(app, "hello")
    asked: list[str] = []
    with pytest.raises(UsageError, match="that is the session in use: /new or /load another one first"):
        run(app, f"/delete {app.chat.session.id}", confirm=lambda question: asked.append(question) or True)
    assert asked == [] and app.store.exists(app.chat.session.id)


def test_delete_without_anyone_to_ask_refuses_and_says_how_to_delete_without_a_question(app):
    app.open("other")
    send(app, "x")
    app.open("main")
    with pytest.raises(UsageError) as info:
        run(app, "/delete other")  # confirm=None: a script
    assert info.value.message == (
        "not deleted: /delete asks first and a script has nobody to ask; /delete other --force deletes without a "
        "question"
    )
    assert app.store.exists("other")


def test_delete_force_deletes_without_asking(app):
    app.open("other")
    send(app, "x")
    app.open("main")
    asked: list[str] = []
    assert run(app, "/delete other --force", confirm=asked.append).text == "deleted session other"
    assert asked == [] and not app.store.exists("other")


@pytest.mark.parametrize(
    ("line", "error", "message"),
    [
        ("/load ../etc", InvalidSessionId, "invalid session id '../etc'"),
        ("/load nope", UsageError, "no session nope"),
        ("/delete a/b", InvalidSessionId, "invalid session id 'a/b'"),
        ("/delete missing", UsageError, "no session missing"),
        ("/load", UsageError, "/load"),
    ],
)
def test_bad_ids_are_refused(app, line, error, message):
    with pytest.raises(error) as info:
        run(app, line)
    assert message in info.value.message
    assert app.chat.session.id == "main"  # the session in use stays open


def test_undo_and_retry(app):
    send(app, "one")
    send(app, "two")
    assert "two" in run(app, "/undo").text
    assert [t.user_text for t in app.chat.conversation.turns] == ["one"]
    result = run(app, "/retry")
    assert result.message == "one" and app.chat.conversation.turns == []
    with pytest.raises(UsageError):
        run(app, "/undo")


def test_system_and_model(app):
    assert "system message:" in run(app, "/system").text
    run(app, "/system You are a pirate.")
    assert app.chat.next_request("x").messages[0]["content"].startswith("You are a pirate.")
    assert "echo" in run(app, "/model").text
    run(app, "/model other-model")
    assert app.chat.model == "other-model" and app.store.load("main").model == "other-model"


def test_export_writes_markdown(app, tmp_path):
    for i in range(4):
        send(app, f"q{i}")
    target = tmp_path / "out.md"
    assert str(target) in run(app, f"/export {target}").text
    text = target.read_text()
    assert "Summary of turns 1-" in text and "q3" in text


def test_model_switch_rebuilds_the_counter(make_app):
    app = make_app()
    built = {}
    factory = app.counter_factory
    app.counter_factory = lambda model: built.setdefault(model, factory(model))
    app.open("m")
    list(app.chat.send("hello"))
    run(app, "/model llama-3.1-8b")
    counter = app.chat.conversation.counter
    assert counter is built["llama-3.1-8b"] and counter is not built["echo"]
    # the new model's counter learns into that model's own calibration, which starts uncorrected
    assert counter.calibration is app.chat.session.calibration_for("llama-3.1-8b")
    assert counter.correction == 1.0


def test_context_previews_a_due_summary_without_calling_the_model(app):
    for i in range(3):
        send(app, f"q{i}")
    calls = []
    app.chat.provider.complete = lambda *a, **k: calls.append(a)  # must not be called by /context
    out = run(app, "/context").text
    assert not calls and app.chat.conversation.summary_covers == 0
    assert "before sending, turns 1-2 are folded into the summary" in out
    assert "system+S" in out and "stored but not sent" not in out


def test_an_unsaved_session_is_listed_and_leaves_no_lock_file(make_app):
    app = make_app()
    app.open("empty")
    assert "empty (in use, not saved until its first turn)" in run(app, "/sessions").text
    app.new()
    assert not app.store.lock_path("empty").exists()
    app.close()


def test_a_message_may_start_with_a_slash():
    assert is_command("/help") and not is_command("//home/me/app.py: TypeError")
    assert as_message("//home/me/app.py: TypeError") == "/home/me/app.py: TypeError"
    assert as_message("plain") == "plain"


def test_every_command_lives_in_one_room_and_help_lists_them_room_by_room(app):
    from chatbot.commands import history, inspecting, next_turn, sessions
    from chatbot.commands.table import COMMANDS

    names = [name for room in (sessions, history, next_turn, inspecting) for name in room.COMMANDS]
    assert len(names) == len(set(names)) and list(COMMANDS) == ["/help", "/quit", "/exit", *names]
    out = run(app, "/help").text
    assert out.index("/sessions") < out.index("/undo") < out.index("/file") < out.index("/context")


@pytest.mark.parametrize(
    "typed", ['"my file.txt"', "'my file.txt'", "my\\ file.txt", "my file.txt", "  'my file.txt'  "]
)
def test_file_takes_a_path_quoted_escaped_or_spaced_as_typed(app, tmp_path, monkeypatch, typed):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my file.txt").write_text("dropped\n")
    assert run(app, f"/file {typed}").text.startswith("attached my file.txt (1 lines)")
    assert [(a.name, a.text) for a in app.chat.outbox.items()] == [("my file.txt", "dropped\n")]


@pytest.mark.parametrize("name", ["it's.txt", 'say "hi".txt', "back\\slash.txt"])
def test_file_takes_a_name_with_quotes_or_backslashes_that_exists_as_typed(app, tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text("x\n")
    assert run(app, f"/file {name}").text.startswith(f"attached {name}")


def test_file_names_the_unquoted_path_it_could_not_read(app, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match="cannot read att/nope.txt"):
        run(app, '/file "att/nope.txt"')


def test_context_shows_the_system_text_riding_in_the_first_user_message_once_the_server_drops_it(app):
    for i in range(4):
        send(app, f"q{i}")
    app.chat.conversation.counter.calibration.drops_system = True  # what a server's counts taught (core/budget.py)
    out = run(app, "/context").text
    assert "system+S" not in out and "\n  1  user+sys " in out
    assert "this server leaves out system messages, so the system message, with the rolling summary, rides" in out
    body = app.chat.next_body("")
    assert body["messages"][0]["role"] == "user" and "system" not in [m["role"] for m in body["messages"]]
    assert body["messages"][0]["content"].startswith(app.chat.conversation.system + "\n\n")
    shown = run(app, "/context json --exact").text
    assert json.loads(shown)["messages"][0]["role"] == "user" and '"system"' not in shown


def test_context_marks_the_next_message_when_it_is_the_first_to_carry_the_system_text(app):
    app.chat.conversation.counter.calibration.drops_system = True
    out = run(app, "/context").text
    assert "\n  1  user+sys        ?  (your next message)" in out


def test_context_counts_the_files_waiting_for_the_next_message_as_sending_would(make_app, tmp_path):
    from chatbot.errors import BudgetError

    app = make_app(strategy="full", max_input_tokens=1000)
    app.open("files")
    send(app, "hello there")
    before = app.chat.next_request("").tokens
    (tmp_path / "notes.txt").write_text("the lighthouse keeper logs the tides every morning\n" * 5)
    run(app, f"/file {tmp_path / 'notes.txt'}")
    out = run(app, "/context").text
    request = app.chat.next_request(app.chat.next_message(""))
    assert request.tokens > before  # the file is in the request
    assert f"total {request.tokens} of {request.budget} tokens with the 1 file(s) attached to it" in out
    last = [line for line in out.splitlines() if "(your next message)" in line][0]
    assert "[1 file(s) attached]" in last and "?" not in last
    shown = run(app, "/context for what do the logs say?").text
    assert "with that message and the 1 file(s) attached to it" in shown
    assert run(app, "/context json --exact what do the logs say?").text.count("lighthouse keeper") == 5
    # a file too big for the budget: /context says so, as sending it would, instead of "it fits"
    (tmp_path / "big.txt").write_text("word " * 5000)
    run(app, f"/file {tmp_path / 'big.txt'}")
    with pytest.raises(BudgetError, match="your message need"):
        run(app, "/context for hi")
    with pytest.raises(BudgetError):
        list(app.chat.send("hi"))


def test_rename_says_the_title_as_it_shows_it_a_bidi_control_as_its_code_once(app):
    said = run(app, "/rename evil \u202e txt.exe").text
    assert said == "session main is now titled 'evil \\u202e txt.exe'"  # one backslash: the code, not a repr of it
    assert app.chat.session.title == "evil \u202e txt.exe"  # stored as typed


def test_summary_says_how_many_later_turns_the_next_request_sends_as_context_does(make_app, monkeypatch):
    app = make_app(strategy="summary", summary_trigger=50, keep_turns=1, max_input_tokens=700, recall=0)
    chat = app.open("s")
    for i in range(6):
        send(app, f"question {i} " + "with quite a few words in it " * 6)
    chat.conversation.set_summary("- the user asked questions", 2)
    request = chat.next_request("")
    assert request.summarized  # over the budget, a fold comes first: the summary shown is not the one sent
    out = run(app, "/summary").text
    assert f"4 later turn(s): the next request folds {request.summarized} of them in first (a model call)" in out
    monkeypatch.setattr("chatbot.engine.memory.MAX_EARLY_FOLDS", 0)  # no early fold: the budget leaves turns out
    request = chat.next_request("")
    sent = len(chat.conversation.turns) - request.first_turn
    assert not request.summarized and 0 < sent < 4
    out = run(app, "/summary").text
    assert f"4 later turn(s): the next request sends the last {sent} verbatim, the budget leaves the rest out" in out
    assert f"{4 - sent} earlier turn(s) are stored but not sent" in run(app, "/context").text  # the same story


def test_summary_still_shows_the_summary_when_the_next_request_would_not_fit(make_app, tmp_path):
    app = make_app(strategy="summary", summary_trigger=50, keep_turns=1, max_input_tokens=2000, recall=0)
    chat = app.open("s")
    for i in range(3):
        send(app, f"question {i}")
    chat.conversation.set_summary("- the user asked questions", 1)
    (tmp_path / "big.txt").write_text("word " * 5000)
    run(app, f"/file {tmp_path / 'big.txt'}")  # waiting for the next message, and too big for the budget
    out = run(app, "/summary").text
    assert out.startswith("Summary of turns 1-1 of 3 (2 later turn(s)):") and "- the user asked questions" in out
