"""Property tests for the memory invariants, over every strategy, budget and summarizer behaviour."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.turn import validate_request
from chatbot.errors import BudgetError
from tests.conftest import WordCounter, make_turn


@st.composite
def scenarios(draw):
    strategy = draw(st.sampled_from(["full", "window", "summary"]))
    trigger = draw(st.integers(1, 6))
    memory = MemoryConfig(
        strategy=strategy,
        window_turns=draw(st.integers(0, 6)),
        summary_trigger=trigger,
        keep_turns=draw(st.integers(0, trigger - 1)),
        max_input_tokens=draw(st.integers(1, 150)),
    )
    turns = [
        make_turn(i, words=draw(st.integers(1, 12)), tool=draw(st.booleans()))
        for i in range(1, draw(st.integers(0, 14)) + 1)
    ]
    new_words = draw(st.integers(0, 30))
    behaviour = draw(st.sampled_from(["ok", "raise", "empty", "longer", "none"]))
    covers = draw(st.integers(0, len(turns)))
    return memory, turns, new_words, behaviour, covers


def summarizer_for(behaviour):
    if behaviour == "none":
        return None

    def summarize(previous, turns, first):
        if behaviour == "raise":
            raise RuntimeError("summarizer down")
        if behaviour == "empty":
            return ""
        if behaviour == "longer":
            return previous + " padding" * 2000  # longer than anything it could replace here
        return f"{previous} s{first}-{first + len(turns) - 1}".strip()

    return summarize


@settings(max_examples=400, deadline=None)
@given(scenarios())
def test_request_invariants(scenario):
    memory, turns, new_words, behaviour, covers = scenario
    counter = WordCounter()
    summary = "earlier facts" if covers else ""
    conv = Conversation("you are helpful", memory, counter, turns=turns, summary=summary, summary_covers=covers)
    stored_before = [t.to_dict() for t in conv.turns]
    summary_before = (conv.summary, conv.summary_covers)
    new = {"role": "user", "content": " ".join(["w"] * new_words)}

    try:
        req = conv.build_request(dict(new), summarizer=summarizer_for(behaviour))
    except BudgetError as err:
        # only when even the bare system message and the new message do not fit
        bare = counter.total(
            counter.count_message({"role": "system", "content": conv.system}) + counter.count_message(new)
        )
        assert bare > memory.max_input_tokens and err.needed == bare
        return

    msgs = req.messages
    # the system message is first and single; the new message is last and verbatim
    assert msgs[0]["role"] == "system" and [m["role"] for m in msgs].count("system") == 1
    assert msgs[-1] == new
    # tool calls are never separated from their results (and the rest of the format holds)
    validate_request(msgs)
    # the budget holds, and the reported count is the real count of what is sent
    recount = counter.total(sum(counter.count_message(m) for m in msgs))
    assert req.tokens == recount <= memory.max_input_tokens
    # compression changes only what is sent: every stored turn is unchanged, none removed
    assert [t.to_dict() for t in conv.turns] == stored_before
    # a failed (or absent) summary changes nothing stored
    if behaviour != "ok":
        assert (conv.summary, conv.summary_covers) == summary_before
    # every earlier turn sent verbatim is a whole stored turn, the newest ones, in order
    sent = msgs[1:-1]
    expected = [m for t in conv.turns[req.first_turn :] for m in t.messages]
    assert sent == expected
    if memory.strategy == "window":
        assert len(conv.turns) - req.first_turn <= memory.window_turns
