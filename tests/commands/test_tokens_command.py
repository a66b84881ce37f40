"""/tokens shows what calibration learned: the correction, its margin and how many provider counts taught it."""

from __future__ import annotations

from chatbot import commands
from chatbot.engine.calibration import MIN_MARGIN
from chatbot.providers.base import StreamEnd, TextDelta, Usage
from chatbot.providers.echo import EchoProvider


class EightyEightPercent(EchoProvider):
    """Reports prompt_tokens at 88% of the app's own (uncorrected) count of the messages, with the same chat format
    tokens per request: an estimate of the text that runs 12% high."""

    def stream(self, messages, *, model=None, max_tokens=None):
        from chatbot.engine.tokens import TokenCounter

        yield TextDelta("ok, noted.")
        counter = TokenCounter()
        fixed = counter.chat_format.per_request
        prompt = fixed + round(0.88 * (counter.count_request(messages) - fixed))
        yield StreamEnd(Usage(prompt, 3, prompt + 3), "stop")


def test_before_any_provider_count(make_app):
    app = make_app()
    app.open("fresh")
    out = commands.run(app, "/tokens").text
    assert "correction for echo: x1.000 (nothing learned yet: no provider count, or only lower ones of small " in out


def test_after_learning_from_the_provider(make_app):
    app = make_app(EightyEightPercent(delay=0))
    chat = app.open("learned")
    for i in range(5):
        # requests of 400 tokens and more: smaller ones may not lower the count
        list(chat.send(f"message number {i}: " + "a sentence of ordinary words " * 80))
    out = commands.run(app, "/tokens").text
    line = next(ln for ln in out.splitlines() if "correction for echo" in ln)
    assert "x0.88" in line and f"margin {MIN_MARGIN:.1%}" in line and "learned from 5 provider count(s)" in line
    assert chat.conversation.counter.correction < 0.9  # the estimate now counts lower, as the provider does
    context = commands.run(app, "/context").text
    calibration = chat.conversation.counter.calibration  # /context says what the correction and its margin do
    assert f"correction x{calibration.correction:.3f}: the provider counted" in context
    assert f"the safety margin ({calibration.margin:.1%}) stays free" in context


def test_a_context_window_the_server_named_is_shown_with_the_budget_it_leaves(make_app):
    app = make_app()
    chat = app.open("small")
    assert "context of" not in commands.run(app, "/tokens").text  # none named yet
    chat.session.calibration_for(chat.model).context = 3000  # what a context-length error naming it teaches
    out = commands.run(app, "/tokens").text
    assert "context of echo: 3000 tokens, as the server said; requests are kept under 2220" in out
    assert chat.next_request("").budget == 2220  # what /context and the status line measure against
    assert " of 2220 tokens before your message" in commands.run(app, "/context").text
