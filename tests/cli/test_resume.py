"""Resuming a session: the memory settings given now apply to it, each model's stored calibration comes back (an
unseen model starts uncorrected), and every stored field is read back as saved."""

from __future__ import annotations

from chatbot.engine.calibration import Calibration
from chatbot.providers.base import StreamEnd, TextDelta, Usage
from chatbot.providers.echo import EchoProvider


class Reporting(EchoProvider):
    """Echo that reports twice the prompt tokens the app estimated (so calibration learns something)."""

    def stream(self, messages, *, model=None, max_tokens=None, tools=None, options=None):
        from chatbot.engine.tokens import TokenCounter

        yield TextDelta("fine")
        yield StreamEnd(Usage(2 * TokenCounter().count_request(messages), 1, 0), "stop")


def test_memory_flags_given_on_resume_apply_to_the_loaded_session(make_app):
    first = make_app(strategy="full")
    chat = first.open("r")
    for q in ("one", "two", "three"):
        list(chat.send(q))
    first.close()

    chat = make_app(strategy="window", window_turns=1, max_input_tokens=5000).open("r")
    assert chat.conversation.memory.strategy == "window"
    assert chat.conversation.memory.max_input_tokens == 5000
    request = chat.next_request("four")
    assert (request.first_turn, request.dropped, request.budget) == (2, 2, 5000)
    assert len(chat.conversation.turns) == 3


def test_the_stored_calibration_is_applied_on_resume_and_an_unseen_model_starts_at_one(make_app):
    app = make_app(Reporting(delay=0), strategy="full")
    chat = app.open("cal")
    for q in ("first question", "second question"):
        list(chat.send(q))
    learned = chat.conversation.counter.correction
    assert learned > 1.5
    stored = chat.session.calibration_for("echo").to_dict()
    app.close()

    again = make_app(Reporting(delay=0), strategy="full")
    chat = again.open("cal")
    assert chat.conversation.counter.correction == learned
    assert chat.session.calibration_for("echo").to_dict() == stored
    again.set_model("other-model")
    assert chat.conversation.counter.correction == 1.0
    again.set_model("echo")
    assert chat.conversation.counter.correction == learned


def test_every_stored_field_comes_back_as_saved(make_app):
    app = make_app()
    chat = app.open("fields")
    list(chat.send("hello"))
    session = chat.session
    session.title = "a title"
    session.created_at = "2020-01-02T03:04:05+00:00"
    session.updated_at = "2021-02-03T04:05:06+00:00"  # not "now": equal only if it was really read back
    session.set_option("temperature", 0.5)
    session.calibration["m"] = Calibration(ratios=[1.25], turns=1)
    session.conversation.set_summary("so far", 1)
    app.store.save(session, touch=False)

    loaded = app.store.load("fields")
    assert (loaded.id, loaded.title, loaded.provider, loaded.model) == ("fields", "a title", "echo", "echo")
    assert (loaded.created_at, loaded.updated_at) == ("2020-01-02T03:04:05+00:00", "2021-02-03T04:05:06+00:00")
    assert loaded.options == {"temperature": 0.5}
    assert loaded.calibration_for("m").to_dict() == session.calibration_for("m").to_dict()
    assert (loaded.conversation.summary, loaded.conversation.summary_covers) == ("so far", 1)
    assert loaded.conversation.system == session.conversation.system
    assert [t.messages for t in loaded.conversation.turns] == [t.messages for t in session.conversation.turns]
    assert loaded.totals == session.totals and loaded.totals.requests == 1


def test_a_save_that_touches_moves_updated_at_and_keeps_created_at(make_app):
    app = make_app()
    chat = app.open("touch")
    session = chat.session
    session.created_at = session.updated_at = "2020-01-01T00:00:00+00:00"
    app.store.save(session)
    loaded = app.store.load("touch")
    assert loaded.created_at == "2020-01-01T00:00:00+00:00"
    assert loaded.updated_at > "2020-01-01T00:00:00+00:00"
