"""What statelessness costs: the tokens each request sent add up, full memory's total grows with the square of the
turns, and a price turns tokens into money (cached tokens cheaper; no price, no money)."""

from __future__ import annotations

import pytest

from chatbot.engine.cost import PRICES, Price, costs, price_of


def test_full_memory_sends_the_square_of_the_turns(conv_factory):
    conv = conv_factory(20)  # every turn the same size
    rows = costs(conv)
    counter = conv.counter
    turn, user = conv.turns[0].tokens(counter), counter.count_message(conv.turns[0].messages[0])
    for n, row in enumerate(rows, start=1):  # request n carries the system message, n - 1 turns and its message
        assert row.full == counter.total(conv.system_tokens(False) + (n - 1) * turn + user)
    totals = [row.full_cumulative for row in rows]
    growth = [b - a for a, b in zip(totals, totals[1:], strict=False)]
    assert {b - a for a, b in zip(growth, growth[1:], strict=False)} == {counter.total(turn) - counter.total(0)}
    assert rows[-1].cumulative == sum(row.sent for row in rows)


def test_a_price_counts_cached_tokens_at_their_rate_and_says_what_the_cache_saved():
    price = Price(input=2.0, output=8.0, cached=0.5)
    assert price.of(1_000_000, 0) == pytest.approx(2.0)
    assert price.of(1_000_000, 1_000_000, cached=400_000) == pytest.approx(0.6 * 2 + 0.4 * 0.5 + 8)
    assert price.saved(400_000) == pytest.approx(0.6)
    assert Price(1.0, 1.0).saved(1_000) == 0.0


def test_a_known_model_has_a_price_the_config_file_overrides_and_an_unknown_one_has_none():
    assert price_of("gpt-4o-mini") == PRICES["gpt-4o-mini"]
    assert price_of("openai/gpt-4o-mini") == PRICES["gpt-4o-mini"]  # a router's name for it
    assert price_of("gpt-4o-mini", {"gpt-4o-mini": Price(1, 2)}) == Price(1, 2)
    assert price_of("my-local-model") is None
