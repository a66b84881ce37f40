"""Chat's methods for what slash commands change: each one changes the session and saves it, through one path."""

from __future__ import annotations

import json

import pytest

from chatbot import commands
from chatbot.core.events import Asking, Unsent, stop_reply, unsent
from chatbot.engine.options import option_problem
from chatbot.engine.turn import Turn
from chatbot.errors import ServerError, UsageError
from chatbot.providers.base import ReasoningDelta, StreamEnd, TextDelta
from chatbot.providers.echo import EchoProvider
from tests.support.cli import run_chatbot, session_doc
from tests.support.fake_server import FakeServer


def drain(events) -> list:
    return list(events)


def stored(app) -> dict:
    return json.loads((app.store.directory / f"{app.chat.session.id}.json").read_bytes())


def test_undo_drops_the_last_turn_and_saves(make_app):
    app = make_app()
    chat = app.open("u")
    drain(chat.send("one"))
    drain(chat.send("two"))
    turn = chat.undo()
    assert turn is not None and turn.user_text == "two"
    assert [t["messages"][0]["content"] for t in stored(app)["turns"]] == ["one"]
    assert chat.undo() is not None and chat.undo() is None
    assert stored(app)["turns"] == []


def test_reset_forgets_turns_and_summary_keeps_the_system_message(make_app):
    app = make_app(summary_trigger=1, keep_turns=0)
    chat = app.open("r")
    for text in ("a", "b", "c"):
        drain(chat.send(text))
    assert chat.conversation.summary
    assert chat.reset() == 3
    data = stored(app)
    assert data["turns"] == [] and data["summary"] == {"text": "", "covers": 0} and data["system"]


def test_set_system_and_rename_are_saved(make_app):
    app = make_app()
    chat = app.open("s")
    drain(chat.send("hi"))
    chat.set_system("You answer in French.")
    chat.rename("Bonjour")
    data = stored(app)
    assert data["system"] == "You answer in French." and data["title"] == "Bonjour"
    assert chat.next_request("x").messages[0]["content"] == "You answer in French."


def test_retry_replaces_the_last_turn_only_once_its_replacement_is_stored(make_app):
    app = make_app()
    chat = app.open("t")
    with pytest.raises(UsageError, match="nothing to retry"):
        commands.run(app, "/retry")
    drain(chat.send("question"))
    first_answer = stored(app)["turns"][0]["messages"][1]["content"]
    retry = commands.run(app, "/retry")
    assert retry.message == "question" and retry.replacing is not None  # the stored turn is taken back to be replaced
    assert len(stored(app)["turns"]) == 1  # still stored: nothing replaced it yet
    drain(chat.send("question", replacing=retry.replacing))
    turns = stored(app)["turns"]
    assert [t["messages"][0]["content"] for t in turns] == ["question"] and len(chat.conversation.turns) == 1
    assert turns[0]["messages"][1]["content"] == first_answer  # the echo answers the same request the same way


def test_set_model_switches_the_counter_and_saves(make_app):
    from chatbot.engine.tokens import HARMONY_FORMAT, TokenCounter

    app = make_app()
    chat = app.open("m")
    drain(chat.send("hi"))
    chat.set_model("other-model", TokenCounter(HARMONY_FORMAT))
    assert chat.conversation.counter.chat_format is HARMONY_FORMAT
    assert stored(app)["model"] == "other-model" and chat.model == "other-model"


# --- undo, retry and edit --------------------------------------------------------------------------------


class ThinksFirst(EchoProvider):
    """Reasons (no answer text yet) before it answers."""

    def stream(self, messages, *, model=None, max_tokens=None, tools=None, options=None):
        yield ReasoningDelta("thinking...")
        yield TextDelta("the answer")
        yield StreamEnd(None, "stop")


def send(chat, text):
    return list(chat.send(text))


def test_undoing_the_only_summarized_turn_clears_the_summary_and_saves(make_app):
    app = make_app()
    chat = app.open("u")
    send(chat, "one")
    chat.conversation.set_summary("about one", 1)
    chat.save()
    assert chat.undo().user_text == "one"
    stored = app.store.load("u").conversation
    assert (stored.turns, stored.summary, stored.summary_covers) == ([], "", 0)
    assert chat.undo() is None


def test_undo_with_turns_left_keeps_the_summary_and_clamps_what_it_covers(make_app):
    app = make_app()
    chat = app.open("k")
    for q in ("one", "two", "three"):
        send(chat, q)
    chat.conversation.set_summary("about one to three", 3)
    chat.undo()
    stored = app.store.load("k").conversation
    assert (stored.summary, stored.summary_covers, len(stored.turns)) == ("about one to three", 2, 2)
    chat.conversation.set_summary("about one", 1)
    chat.undo()
    assert (chat.conversation.summary, chat.conversation.summary_covers) == ("about one", 1)


def test_ctrl_c_before_any_answer_text_stores_nothing_and_offers_retry(make_app):
    app = make_app(ThinksFirst(delay=0))
    chat = app.open("c")
    send(chat, "earlier")
    events = chat.send("question")
    assert next(events) == Asking()
    assert isinstance(next(events), ReasoningDelta)
    kept = stop_reply(events, KeyboardInterrupt())  # Ctrl-C while the model only reasoned
    assert [t.user_text for t in chat.conversation.turns] == ["earlier"]
    assert [t.user_text for t in app.store.load("c").conversation.turns] == ["earlier"]
    assert kept is not None and kept.content == "question"
    assert commands.run(app, "/retry", unsent=kept).message == "question"


def test_retry_takes_the_last_turn_back_and_the_resend_is_stored_once(make_app):
    app = make_app()
    chat = app.open("r")
    send(chat, "first")
    send(chat, "second")
    assert commands.run(app, "/retry").message == "second"
    # the file keeps the turn until its replacement is stored (a failed resend must not lose it)
    assert [t.user_text for t in app.store.load("r").conversation.turns] == ["first", "second"]
    send(chat, "second")
    assert [t.user_text for t in app.store.load("r").conversation.turns] == ["first", "second"]


def test_retry_with_nothing_to_retry_is_a_usage_error(make_app):
    app = make_app()
    app.open("n")
    with pytest.raises(UsageError, match="nothing to retry yet"):
        commands.run(app, "/retry")


def test_retry_after_reset_has_nothing_to_retry_even_when_the_last_send_failed(make_app):
    class Down(EchoProvider):
        def stream(self, messages, **ask):
            raise ServerError("the server is down")
            yield  # a generator, like a real provider's stream

    app = make_app(Down(delay=0))
    chat = app.open("r")
    with pytest.raises(ServerError) as caught:
        drain(chat.send("lost question"))
    kept = unsent(caught.value)
    assert kept is not None and kept.content == "lost question"
    chat.reset()
    assert not kept.holds(chat.conversation.turns)
    with pytest.raises(UsageError, match="nothing to retry yet"):
        commands.run(app, "/retry", unsent=kept)


def test_edit_takes_back_the_last_turn_and_keeps_its_images(make_app):
    chat = make_app().open("e")
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
    send(chat, [{"type": "text", "text": "what is this"}, image])
    assert chat.take_back_for_edit("and now?")[0] == [{"type": "text", "text": "and now?"}, image]
    assert chat.conversation.turns == []
    assert chat.take_back_for_edit("nothing left") == ("nothing left", None)


# --- a turn taken back is put back when nothing replaces it ----------------------------------------------


class Switchable(EchoProvider):
    """Echo that can be down (every chat call fails before any answer), or see the user press Ctrl-C while it
    waits for the first piece."""

    down = False
    ctrl_c = False

    def stream(self, messages, **ask):
        if self.down:
            raise ServerError("the model is down")
        if self.ctrl_c:
            raise KeyboardInterrupt
        yield from super().stream(messages, **ask)


def state(chat):
    conv = chat.conversation
    return conv.summary, conv.summary_covers, [t.messages for t in conv.turns]


def stored_state(app, sid):
    conv = app.store.load(sid).conversation
    return conv.summary, conv.summary_covers, [t.messages for t in conv.turns]


@pytest.fixture
def summarized(make_app):
    """A chat of two turns, both folded into the summary (/summary now, keeping none)."""
    provider = Switchable(delay=0)
    app = make_app(provider, strategy="summary", summary_trigger=2, keep_turns=0)
    chat = app.open("s")
    for text in ("one", "two"):
        list(chat.send(text))
    assert chat.summarize_now()[0] == 2 and chat.conversation.summary_covers == 2
    return app, chat, provider


def test_a_retry_whose_resend_fails_puts_the_turn_back_with_its_summary(summarized):
    app, chat, provider = summarized
    before = state(chat)
    provider.down = True
    retry = commands.run(app, "/retry")
    assert retry.message == "two"
    assert len(chat.conversation.turns) == 1  # taken back, to be replaced
    with pytest.raises(ServerError) as caught:
        list(chat.send("two", replacing=retry.replacing))
    assert state(chat) == before and stored_state(app, "s") == before
    assert unsent(caught.value) is None  # the turn is back: nothing waits to be resent
    provider.down = False
    retry = commands.run(app, "/retry")
    assert retry.message == "two"  # taken back again, not resent beside itself
    list(chat.send("two", replacing=retry.replacing))
    assert [t.user_text for t in chat.conversation.turns] == ["one", "two"]
    assert [t.user_text for t in app.store.load("s").conversation.turns] == ["one", "two"]


def test_ctrl_c_before_the_edited_message_is_answered_puts_the_old_turn_back(summarized):
    app, chat, provider = summarized
    before = state(chat)
    text, taken = chat.take_back_for_edit("two, edited")
    provider.ctrl_c = True
    with pytest.raises(KeyboardInterrupt):
        list(chat.send(text, replacing=taken))
    assert state(chat) == before and stored_state(app, "s") == before


def test_retry_against_a_dead_server_keeps_the_turn_it_would_replace(tmp_path):
    with FakeServer(reply="first answer") as server:
        good = ["--provider", "openai", "--base-url", server.base_url, "--session", "r"]
        for text in ("q1", "q2"):
            assert run_chatbot(*good, "-p", text, cwd=tmp_path, env={"OPENAI_API_KEY": "k"}).returncode == 0
    dead = ["--provider", "openai", "--base-url", "http://127.0.0.1:1/v1", "--session", "r", "--timeout", "2"]
    result = run_chatbot(*dead, stdin="/retry\n/edit changed\n", cwd=tmp_path, env={"OPENAI_API_KEY": "k"})
    assert result.returncode != 0
    turns = session_doc(tmp_path, "r")["turns"]
    assert [t["messages"][0]["content"] for t in turns] == ["q1", "q2"]


def test_summary_now_folds_only_the_new_turns_and_redo_writes_it_again_from_all_of_them(make_app):
    chat = make_app(strategy="summary", summary_trigger=100, keep_turns=1).open("s")
    for text in ("one", "two", "three"):
        list(chat.send(text))
    assert chat.summarize_now() == (2, []) and chat.conversation.summary_covers == 2
    for text in ("four", "five"):
        list(chat.send(text))
    assert chat.summarize_now() == (2, []) and chat.conversation.summary_covers == 4  # turns 3 and 4 added
    assert chat.summarize_now(redo=True) == (4, []) and chat.conversation.summary_covers == 4  # 1 to 4 afresh


def turn(text: str) -> Turn:
    return Turn([{"role": "user", "content": text}, {"role": "assistant", "content": "ok"}])


@pytest.fixture
def opened(make_app):
    """The chat of an open session "s1" with two stored turns."""
    chat = make_app().open("s1")
    for text in ("one", "two"):
        chat.conversation.add_turn(turn(text))
        chat.save()
    return chat


def test_clear_summary_returns_what_it_was_and_saves(opened):
    opened.conversation.set_summary("they said hello", 1)
    assert opened.clear_summary() == ("they said hello", 1)
    assert opened.conversation.summary == "" and opened.conversation.summary_covers == 0
    assert opened.store.load("s1").conversation.summary == ""


def test_reset_forgets_a_message_waiting_to_be_stored(opened):
    kept = Unsent("lost in a failed send", opened.conversation.turns, len(opened.conversation.turns))
    opened.reset()
    assert not kept.holds(opened.conversation.turns)
    with pytest.raises(UsageError):
        opened.retake()


def test_retry_of_a_turn_with_an_empty_message_resends_an_empty_message(opened):
    opened.conversation.add_turn(turn(""))
    assert opened.retake().message == ""


def test_taking_back_with_no_turn_leaves_nothing_to_put_back(make_app):
    chat = make_app().open("s2")
    assert chat.take_back() is None
    assert chat.conversation.turns == []


def test_an_option_the_session_reader_would_refuse_is_refused_before_it_is_stored(opened):
    with pytest.raises(UsageError) as caught:
        opened.set_option("temperature", float("nan"))
    assert caught.value.message == option_problem("temperature", float("nan")) != ""
    assert "temperature" not in opened.options
    opened.set_option("temperature", 0.5)
    opened.set_option("temperature", None)  # None removes it: nothing to check
    assert "temperature" not in opened.options
