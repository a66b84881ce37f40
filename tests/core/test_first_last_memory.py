"""First-last memory through a real turn: the request the provider is sent holds the first turns, a gap, and the
latest turns, and the turn's outcome says how many were left out."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from chatbot.core.events import TurnDone
from chatbot.providers.echo import EchoProvider


class RecordingEcho(EchoProvider):
    """Echo that keeps every request it is sent."""

    def __init__(self) -> None:
        super().__init__(delay=0)
        self.requests: list[Sequence[dict]] = []

    def stream(self, messages, *, model=None, max_tokens=None, options=None) -> Iterator:
        self.requests.append(list(messages))
        yield from super().stream(messages, model=model, max_tokens=max_tokens)


def test_the_provider_gets_the_set_up_turn_and_the_latest_with_the_middle_left_out(make_app):
    echo = RecordingEcho()
    chat = make_app(echo, strategy="first-last", first_turns=1, max_input_tokens=450, recall=0).open("s")
    said = ["I am Ana, a nurse in Lyon.", "second", "third", "fourth", "fifth", "sixth"]
    for text in said:
        done = list(chat.send(text))[-1]
        assert isinstance(done, TurnDone)
    users = [m["content"] for m in echo.requests[-1] if m["role"] == "user"]
    latest = len(users) - 2  # the earlier turns sent after the first, then the new message
    assert users == [said[0], *said[-1 - latest :]]  # the first turn, a gap, the latest turns, the new message
    assert 0 < latest < len(said) - 2  # the echo's long replies leave no room for the middle
    assert (done.request.head, done.request.dropped) == (1, len(said) - 2 - latest)
