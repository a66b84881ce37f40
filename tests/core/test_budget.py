"""The budget of a request: --max-input-tokens, capped by a context window a server named (less room for the reply),
less the tool definitions; and what a context-length error teaches."""

from __future__ import annotations

import math

from chatbot.core.budget import (
    DROPS_SYSTEM_NOTICE,
    input_budget,
    learn_from_usage,
    left_out_system,
    message_budget,
    reply_room,
    retry_budget,
    summary_max_tokens,
    tools_estimate,
    window_notice,
    window_share,
)
from chatbot.engine.conversation import Conversation
from chatbot.engine.folds import Folded, RollingSummary
from chatbot.engine.memory import SUMMARY_MAX_TOKENS, MemoryConfig, Request
from chatbot.engine.tokens import TokenCounter
from chatbot.errors import ContextLengthError
from chatbot.providers.base import Usage


def conversation(turns: int = 8, words: int = 400) -> Conversation:
    from chatbot.engine.turn import Turn

    conv = Conversation("be brief", MemoryConfig(strategy="full"))
    for i in range(turns):
        text = f"message {i} " + "word " * words
        conv.add_turn(Turn([{"role": "user", "content": text}, {"role": "assistant", "content": "ok " * 20}]))
    return conv


def test_the_reply_keeps_its_room_in_a_named_window():
    assert reply_room(3000, None) == 750  # a quarter without --max-output-tokens
    assert reply_room(128_000, None) == 4096  # at most 4,096
    assert reply_room(3000, 500) == 500  # --max-output-tokens when set
    assert reply_room(3000, 10_000) == 1500  # never more than half the window
    assert reply_room(3001, 10_000) == 1500  # a whole number of tokens, rounded down
    assert input_budget(6000, None, None) == 6000
    assert input_budget(6000, 3000, None) == 2220  # less a quarter for the reply and a hundredth to spare
    assert input_budget(6000, 128_000, None) == 6000  # a large window leaves --max-input-tokens in charge


def test_tool_definitions_come_out_of_the_budget():
    conv = conversation(0)
    assert message_budget(conv, 0, None) == 6000
    assert message_budget(conv, 300, None) == 5700


def test_a_named_window_is_learned_once_and_the_retry_fits_it():
    conv = conversation()
    request = conv.build_request("and now?")
    assert request.tokens > 2220
    error = ContextLengthError("too long", limit=3000)
    budget, told = retry_budget(conv, request, error, 0, None)
    assert budget == 2220 and conv.counter.calibration.context == 3000
    assert told == [
        "the server's context is 3000 tokens: requests are kept under it from now on (2220 for the request, 750 for "
        "the reply, 30 to spare)"
    ]
    again, told = retry_budget(conv, request, error, 0, None)  # the same window named again: nothing new to say
    assert again == 2220 and told == []
    assert message_budget(conv, 0, None) == 2220  # every later request is built under it


def test_an_error_that_names_no_window_halves_the_request():
    conv = conversation()
    request = conv.build_request("and now?")
    budget, told = retry_budget(conv, request, ContextLengthError("too long"), 0, None)
    assert budget == request.tokens // 2 and told == [] and conv.counter.calibration.context is None


def test_a_request_that_fit_the_named_window_by_our_count_is_halved():
    """The server refused what our count says fits: our count ran under the server's, so the window is no help."""
    conv = conversation(2, 100)
    request = conv.build_request("and now?")
    budget, _ = retry_budget(conv, request, ContextLengthError("too long", limit=8192), 0, None)
    assert request.tokens < 6000 and budget == request.tokens // 2


def test_a_summary_asks_for_no_more_than_the_window_leaves():
    messages = [{"role": "user", "content": "word " * 1000}]
    counter = TokenCounter()
    assert summary_max_tokens(messages, None, counter) == SUMMARY_MAX_TOKENS
    assert summary_max_tokens(messages, 100_000, counter) == SUMMARY_MAX_TOKENS
    assert 1000 < summary_max_tokens(messages, 3000, counter) < 2000


def test_the_window_notice_splits_the_window_with_max_output_tokens():
    assert window_notice(3000, 500) == (
        "the server's context is 3000 tokens: requests are kept under it from now on (2470 for the request, 500 for "
        "the reply, 30 to spare)"
    )


def test_a_request_under_a_named_window_leaves_a_hundredth_of_it_for_a_count_that_runs_under_the_servers():
    # measured: 1,984 tokens by the calibrated count were 1,989 by llama.cpp's, with 64 for the reply: 5 over 2,048
    assert window_share(2048, 64) == 2048 - 64 - 20
    assert window_share(2048, 64) * 1.003 + 64 < 2048
    assert window_share(99, None) == 99 - 24  # a window under a hundred spares nothing


def test_a_named_window_leaves_max_output_tokens_for_the_reply_on_retry():
    conv = conversation()
    request = conv.build_request("and now?")
    budget, told = retry_budget(conv, request, ContextLengthError("too long", limit=3000), 0, 500)
    assert budget == 2470
    assert told == [window_notice(3000, 500)] and "(2470 for the request, 500 for the reply, 30 to spare)" in told[0]


def test_a_request_exactly_at_the_named_window_is_halved():
    """The server refused a request our count puts right at the window's budget: our count ran low, so halve."""
    conv = conversation(4, 200)
    request = conv.build_request("and now?")
    limit = next(n for n in range(request.tokens, 2 * request.tokens) if window_share(n, 100) >= request.tokens)
    budget, _ = retry_budget(conv, request, ContextLengthError("too long", limit=limit), 0, 100)
    assert message_budget(conv, 0, 100) in (request.tokens, request.tokens + 1)
    assert budget == request.tokens // 2


def test_calibration_compares_the_server_count_with_ours_plus_the_tool_definitions():
    conv = conversation(2, 100)
    request = conv.build_request("and now?")
    fixed = conv.counter.chat_format.per_request
    prompt = 2 * (request.uncorrected + 300)
    learn_from_usage(conv, request, Usage(prompt, 10, prompt + 10), 300)
    assert conv.counter.calibration.ratios == [round((prompt - fixed) / (request.uncorrected + 300 - fixed), 4)]


def test_tool_definitions_are_estimated_with_the_learned_correction_like_the_rest_of_a_request():
    conv = conversation(2, 100)
    request = conv.build_request("and now?")
    assert tools_estimate(conv, 300) == 300  # nothing learned: as counted
    prompt = 2 * (request.uncorrected + 300)
    learn_from_usage(conv, request, Usage(prompt, 10, prompt + 10), 300)
    correction = conv.counter.correction
    assert correction > 1.5 and tools_estimate(conv, 300) == math.ceil(300 * correction)


def test_a_request_mostly_of_tool_definitions_never_lowers_the_count():
    conv = conversation(1, 100)
    request = conv.build_request("and now?")
    tools = 10 * request.uncorrected
    prompt = int(0.9 * (request.uncorrected + tools))
    learn_from_usage(conv, request, Usage(prompt, 10, prompt + 10), tools)
    assert conv.counter.calibration.ratios == []


def test_a_summary_request_leaves_the_window_its_calibrated_count_and_never_less_than_the_reply_room():
    messages = [{"role": "user", "content": "word " * 1000}]
    counter = TokenCounter()
    prompt = counter.count_request(messages)
    assert summary_max_tokens(messages, prompt + 900, counter) < 900  # nothing learned: the rough count and a tenth
    counter.calibrate(prompt, prompt * 7 // 10)  # the server counts 30% fewer: the calibrated count leaves more room
    assert summary_max_tokens(messages, prompt + 900, counter) > 900 + prompt // 5
    # a window the count leaves (almost) nothing of: the reply room the fold planned, not 1 token (cut at once)
    assert summary_max_tokens(messages * 3, prompt * 3 + 100, TokenCounter()) == 512
    assert summary_max_tokens(messages, 600, TokenCounter()) == 150  # a quarter of a smaller window


def test_a_summary_request_counted_with_a_tokenizer_leaves_the_window_its_rough_count_with_a_tenth():
    from chatbot.engine.tokens import TokenizerCounter

    messages = [{"role": "user", "content": ""}] * 10  # no text: 10 tokens each for the chat format
    assert summary_max_tokens(messages, 1000, TokenizerCounter("none")) == 1000 - math.ceil(100 * 1.1)


def summarized(prompt_of: str) -> tuple[Conversation, Request, int]:
    """A conversation whose system message carries a long summary, after one ratio of 1.0 was learned; its next
    request and the server's count of it: ``whole`` (a server that reads the system message) or ``rest`` (one whose
    template drops it: llama-cpp-python's gemma format)."""
    from chatbot.engine.turn import Turn

    conv = Conversation("be brief", MemoryConfig(strategy="summary", summary_trigger=8, keep_turns=2))
    for i in range(3):
        conv.add_turn(
            Turn([{"role": "user", "content": f"message {i} " + "word " * 150}, {"role": "assistant", "content": "ok"}])
        )
    conv.counter.calibrate(1000, 1000)
    conv.take_fold(Folded(RollingSummary("- the user budgets rent and food " * 100, 1), 1, True, kept=True))
    request = conv.build_request("and now?")
    system = conv.count_system(request.messages[0])
    assert request.summary_included and system * 3 > request.uncorrected  # the summary is a good share of it
    return conv, request, request.uncorrected - (system if prompt_of == "rest" else 0)


def test_a_server_that_drops_the_system_message_teaches_its_count_of_the_rest_not_a_low_ratio():
    conv, request, prompt = summarized("rest")
    learn_from_usage(conv, request, Usage(prompt, 10, prompt + 10), 0)
    assert conv.counter.calibration.ratios == [1.0, 1.0]  # not (rest / whole): the turns count as they did


def with_tools_left_out(prompt_of: str, tools: int) -> tuple[Conversation, Request, int]:
    """:func:`summarized`, learned instead from an earlier request that offered the same ``tools`` tokens of
    definitions, which the server left out (its system message was small: the rest of this request's size)."""
    from chatbot.engine.calibration import Calibration

    conv, request, prompt = summarized(prompt_of)
    rest = request.uncorrected - conv.count_system(request.messages[0])
    conv.counter.calibration = Calibration()
    assert conv.counter.calibrate(rest + tools, rest, tools) < 1  # learned: the definitions are not most of it
    return conv, request, prompt


def test_a_server_that_drops_tool_definitions_is_told_apart_from_one_that_drops_the_system_message():
    # the correction the check compares at was learned from chat requests with the same definitions, left out:
    # a server that keeps the system message counts it in, one that drops it (Gemma's format) does not
    conv, request, prompt = with_tools_left_out("whole", 300)
    assert learn_from_usage(conv, request, Usage(prompt, 10, prompt + 10), 300) == ""
    assert not conv.counter.calibration.drops_system
    conv, request, prompt = with_tools_left_out("rest", 300)
    assert learn_from_usage(conv, request, Usage(prompt, 10, prompt + 10), 300) == DROPS_SYSTEM_NOTICE


def test_a_server_that_reads_the_system_message_teaches_the_ratio_of_the_whole_request():
    conv, request, prompt = summarized("whole")
    learn_from_usage(conv, request, Usage(prompt, 10, prompt + 10), 0)
    assert conv.counter.calibration.ratios == [1.0, 1.0]
    low = int(request.uncorrected * 0.8)  # a server that counts a fifth fewer, system message in: still learned
    learn_from_usage(conv, request, Usage(low, 10, low + 10), 0)
    assert conv.counter.calibration.ratios[-1] < 0.81


def test_a_server_that_drops_the_system_message_is_not_asked_over_its_window_again(tmp_path, monkeypatch):
    # llama-cpp-python's gemma format, played by the fake: the summary rides in the system message the server drops
    from chatbot.core.app import App, AppSettings
    from chatbot.core.turn_settings import TurnSettings
    from chatbot.engine.summary_prompt import is_summary_request
    from chatbot.providers import make_provider
    from chatbot.storage.json_store import JsonStore
    from tests.support.fake_server import FakeServer

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    summary = " ".join(["- the user plans the ledger; totals first, export rules later, bank check agreed."] * 15)
    with FakeServer(reply="word " * 400, whole_reply=summary, context=2048, system_role=False) as server:
        provider = make_provider("openai", model="fake-model", base_url=server.base_url, max_retries=0)
        settings = AppSettings("openai", "fake-model", MemoryConfig(), run=TurnSettings(retries=2))
        app = App(JsonStore(tmp_path / "sessions"), provider, settings, lambda m: TokenCounter())
        chat = app.open("gemma")
        for k in range(30):
            list(chat.send(f"Step {k + 1}: explain the next part of the ledger plan, every rule spelled out."))
        covers = chat.conversation.summary_covers
        outcomes = list(zip(server.record.requests, server.record.outcomes, strict=True))
        app.close()
    first = next(i for i, (_, outcome) in enumerate(outcomes) if outcome == "context")
    assert [o for _, o in outcomes[first + 1 :] if o == "context"] == []
    assert covers >= 20 and sum(is_summary_request(b["messages"]) for b, _ in outcomes) >= 4


def test_a_server_seen_to_drop_the_system_message_is_learned_once_and_said_once():
    conv, request, prompt = summarized("rest")
    assert learn_from_usage(conv, request, Usage(prompt, 10, prompt + 10), 0) == DROPS_SYSTEM_NOTICE
    assert conv.counter.calibration.drops_system
    again = conv.build_request("and then?")  # the system text now rides in the first user message
    assert again.system_in_user and again.messages[0]["role"] == "user"
    assert learn_from_usage(conv, again, Usage(again.uncorrected, 10, again.uncorrected + 10), 0) == ""


def test_after_the_switch_the_server_counts_the_system_text_and_nothing_is_taken_off_twice():
    conv, request, prompt = summarized("rest")
    learn_from_usage(conv, request, Usage(prompt, 10, prompt + 10), 0)
    carried = conv.build_request("and then?")
    # the server now counts the whole request, the system text inside the first user message: learned whole (a
    # second subtraction of the system message would teach a ratio far above 1.0)
    assert left_out_system(conv, carried, carried.uncorrected, carried.uncorrected) == 0
    learn_from_usage(conv, carried, Usage(carried.uncorrected, 10, carried.uncorrected + 10), 0)
    assert conv.counter.calibration.ratios == [1.0, 1.0, 1.0]


def test_a_server_that_reads_the_system_message_is_never_taken_for_one_that_drops_it():
    conv, request, prompt = summarized("whole")
    assert learn_from_usage(conv, request, Usage(prompt, 10, prompt + 10), 0) == ""
    assert not conv.counter.calibration.drops_system
    assert conv.build_request("and then?").messages[0]["role"] == "system"
