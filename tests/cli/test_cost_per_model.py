"""``/cost`` after ``/model``: each turn priced at the model that served it, a stored turn's figures unmoved by the
switch, an old session's turns (no model kept) priced at the session's model."""

from __future__ import annotations

import json

from tests.support.cli import assert_clean, run_chatbot, session_doc

PRICES = "[prices.echo]\ninput = 2.5\noutput = 10\ncached = 1.25\n"


def _cost_json(out: str) -> list[dict]:
    """Every ``/cost json`` report printed in ``out`` (the echo replies between them are not JSON)."""
    decoder, found, at = json.JSONDecoder(), [], 0
    while (start := out.find('{\n  "session"', at)) != -1:
        report, at = decoder.raw_decode(out, start)
        found.append(report)
    return found


def test_each_turn_is_priced_by_the_model_that_served_it_and_a_model_without_price_counts_tokens(tmp_path):
    (tmp_path / "config.toml").write_text(PRICES)
    script = "hello\n/cost json\n/model other\nsecond\n/cost json\n/cost\n"
    result = run_chatbot("--provider", "echo", "--session", "price1", cwd=tmp_path, stdin=script)
    assert_clean(result)
    assert result.returncode == 0, result.stderr
    before, after = _cost_json(result.stdout)
    first = before["turns"][0]
    assert after["turns"][0]["usd"] == first["usd"] == before["usd"] > 0  # turn 1 still at echo's price
    assert "usd" not in after["turns"][1]
    assert after["usd"] == before["usd"]
    assert after["unpriced"] == ["other"]
    assert after["models"] == {
        "echo": {"turns": 1, "price": {"input": 2.5, "output": 10.0, "cached": 1.25}},
        "other": {"turns": 1, "price": None},
    }
    assert "turns by other: no price, tokens only" in result.stdout
    assert f"money: ${before['usd']:.4f}" in result.stdout.split("Cost of session")[-1]


def test_a_stored_turns_full_memory_figure_does_not_change_when_the_model_is_switched(tmp_path):
    (tmp_path / "config.toml").write_text(PRICES)
    script = "hello\n/cost json\n/model other\n/cost json\nsecond\n/cost json\n"
    result = run_chatbot("--provider", "echo", "--session", "full1", cwd=tmp_path, stdin=script)
    assert result.returncode == 0, result.stderr
    before, switched, after = _cost_json(result.stdout)
    assert switched["turns"] == before["turns"]  # the other model's counter recounts nothing already stored
    assert after["turns"][0] == before["turns"][0]
    turns = session_doc(tmp_path, "full1")["turns"]
    assert [t["model"] for t in turns] == ["echo", "other"]
    assert [t["sent"]["full"] for t in turns] == [r["full"] for r in after["turns"]]


def test_turns_stored_without_a_model_are_priced_at_the_sessions_model(tmp_path):
    (tmp_path / "config.toml").write_text(PRICES)
    run_chatbot("--provider", "echo", "--session", "old", cwd=tmp_path, stdin="one\ntwo\n")
    path = tmp_path / "sessions" / "old.json"
    doc = json.loads(path.read_text())
    for turn in doc["turns"]:  # as an older version stored them
        del turn["model"]
        del turn["sent"]["full"]
    path.write_text(json.dumps(doc))
    result = run_chatbot("--provider", "echo", "--session", "old", cwd=tmp_path, stdin="/cost json\n")
    (report,) = _cost_json(result.stdout)
    assert report["models"] == {"echo": {"turns": 2, "price": {"input": 2.5, "output": 10.0, "cached": 1.25}}}
    assert report["unpriced"] == [] and all(r["usd"] > 0 for r in report["turns"])


def test_a_model_served_at_your_own_base_url_has_no_list_price_unless_the_config_gives_one(tmp_path):
    # against a local server the model name is only what was sent: gpt-4o-mini's list price is not what it costs
    from tests.support.fake_server import FakeServer

    with FakeServer(reply="Fine.") as server:
        flags = ("--provider", "openai", "--model", "gpt-4o-mini", "--base-url", server.base_url)
        unlisted = run_chatbot(*flags, "--session", "own1", cwd=tmp_path, stdin="hello\n/cost json\n/cost\n")
        (tmp_path / "config.toml").write_text('[prices."gpt-4o-mini"]\ninput = 1.0\noutput = 2.0\n')
        priced = run_chatbot(*flags, "--session", "own2", cwd=tmp_path, stdin="hello\n/cost json\n")
    assert_clean(unlisted)
    (report,) = _cost_json(unlisted.stdout)
    assert report["custom_endpoint"] is True and "usd" not in report and report["unpriced"] == ["gpt-4o-mini"]
    assert "money: no price for model gpt-4o-mini served at your own base URL (tokens only)" in unlisted.stdout
    (report,) = _cost_json(priced.stdout)
    assert report["models"]["gpt-4o-mini"]["price"] == {"input": 1.0, "output": 2.0, "cached": None}
    assert report["usd"] > 0


def test_a_model_at_its_providers_own_service_keeps_its_list_price(tmp_path):
    script = "hello\n/cost json\n"
    result = run_chatbot(
        "--provider", "echo", "--model", "gpt-4o-mini", "--session", "list1", cwd=tmp_path, stdin=script
    )
    (report,) = _cost_json(result.stdout)
    assert report["custom_endpoint"] is False and report["usd"] > 0
