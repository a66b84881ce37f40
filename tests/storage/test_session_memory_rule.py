"""The memory rule a session keeps (its ``rule`` field): stored and read back by both stores, checked like every
other field, absent from older files and older PostgreSQL rows, which still load (and take today's defaults)."""

from __future__ import annotations

import json

import pytest

from chatbot.core.rule import FLAGS
from chatbot.engine.strategies import COUNTS
from chatbot.storage.session import Session
from chatbot.storage.session_format import RULE_FIELDS, check_session_data
from tests.support.stores import admin

RULE = {
    "strategy": "window",
    "window_turns": 5,
    "window_step": 2,
    "first_turns": 1,
    "summary_trigger": 8,
    "keep_turns": 4,
    "recall": 0,
    "max_input_tokens": 3000,
    "max_output_tokens": None,
    "recall_by": "both",
    "summary_model": "small",
    "summary_options": {"temperature": 0.1},
}


def document(**rule: object) -> dict:
    data = json.loads(Session.new("s", system="sys").to_json())
    data["rule"] = rule
    return data


def test_every_setting_the_document_keeps_has_the_flag_that_sets_it():
    assert tuple(FLAGS) == RULE_FIELDS == tuple(RULE)


def test_the_rule_is_kept_by_both_stores(open_test_store):
    store = open_test_store()
    with store.acquire("s"):
        session = store.create("s", system="sys")
        session.rule = dict(RULE)
        store.save(session)
    assert store.load("s").rule == RULE


@pytest.mark.parametrize(
    ("rule", "problem"),
    [
        ({"strategy": "forget"}, "'rule.strategy' must be one of full, window, summary"),
        ({"recall_by": "vibes"}, "'rule.recall_by' must be one of words, meaning, both"),
        ({"window_turns": -1}, "'rule.window_turns' must be a whole number of at least 0"),
        ({"window_step": 0}, "'rule.window_step' must be a whole number of at least 1"),
        ({"max_input_tokens": None}, "'rule.max_input_tokens' must be a whole number of at least 1"),
        ({"recall": True}, "'rule.recall' must be a whole number of at least 0"),
        ({"summary_model": ""}, "'rule.summary_model' must be a model's name or null"),
        ({"summary_options": {"model": "x"}}, "'rule.summary_options.model': 'model' is set by chatbot itself"),
        # listed as healthy once, then refused when continued, naming a flag nobody gave: now refused as the file's
        (
            {"strategy": "summary", "summary_trigger": 8, "keep_turns": 10**30},
            "'rule.keep_turns' (1000000000000000000000000000000) must not be more than 'rule.summary_trigger' (8)",
        ),
        ({"strategy": "summary", "summary_trigger": 2, "keep_turns": 3}, "'rule.keep_turns' (3) must not be more"),
    ],
)
def test_a_rule_a_reader_could_not_use_is_refused_by_name(rule, problem):
    assert check_session_data(document(**rule)).startswith(problem)


def test_a_window_rule_may_keep_more_turns_than_its_unused_summary_trigger():
    assert check_session_data(document(strategy="window", summary_trigger=2, keep_turns=3)) == ""


def test_an_older_file_without_a_rule_loads_with_none_and_a_newer_setting_is_left_alone():
    data = document()
    del data["rule"]
    assert check_session_data(data) == "" and Session.from_dict(data, "s").rule == {}
    assert check_session_data(document(max_output_tokens=None, fold_every_reply=True)) == ""


def test_an_older_postgresql_table_gets_the_rule_column_and_its_rows_load_with_none(pg_url, open_pg):
    store = open_pg()
    with store.acquire("old"):
        store.save(store.create("old", system="sys"))
    store.close()
    with admin(pg_url) as conn:
        conn.execute("ALTER TABLE chatbot_sessions DROP COLUMN rule")  # as the chatbot before the rule made it
    again = open_pg()
    assert again.load("old").rule == {}
    with again.acquire("old"):
        session = again.load("old")
        session.rule = dict(RULE)
        again.save(session)
    assert open_pg().load("old").rule == RULE


def test_each_count_is_held_to_the_least_its_flag_takes():
    # --summary-trigger 0 (fold after every reply) was refused when the session was continued: the stored rule was
    # held to 1 while the flag took 0
    assert check_session_data(document(summary_trigger=0, keep_turns=0)) == ""
    for name, count in COUNTS.items():
        assert check_session_data(document(**{name: count.least})) == ""
        assert check_session_data(document(**{name: count.least - 1})).startswith(
            f"'rule.{name}' must be a whole number of at least {count.least}"
        )
