"""Session usage totals: what adds up, what survives a round trip."""

from __future__ import annotations

from chatbot.engine.usage import Totals


def test_requests_with_and_without_provider_counts_add_up_apart():
    totals = Totals()
    totals.add_request(100, 20, prompt=90, completion=25)
    totals.add_request(150, 30)  # the server sent no usage
    totals.add_request(200, 40, prompt=180, completion=44)
    assert totals == Totals(
        requests=3,
        reported_requests=2,
        prompt_tokens=270,
        completion_tokens=69,
        estimated_prompt_tokens=450,
        estimated_completion_tokens=90,
    )


def test_a_request_counts_provider_numbers_only_when_both_prompt_and_completion_came():
    totals = Totals()
    totals.add_request(100, 20, prompt=90, cached=64)  # no completion count: nothing of it is taken as reported
    totals.add_request(100, 20, completion=25)
    totals.add_request(100, 20, prompt=90, completion=25, cached=64)
    totals.add_request(100, 20, prompt=90, completion=25)  # no cached count: none of the prompt was cached
    assert totals == Totals(
        requests=4,
        reported_requests=2,
        prompt_tokens=180,
        completion_tokens=50,
        cached_tokens=64,
        estimated_prompt_tokens=400,
        estimated_completion_tokens=80,
    )


def test_summaries_are_counted_apart_from_chat_requests():
    totals = Totals()
    totals.add_summary(300)
    totals.add_summary(None)  # no usage reported: counted, no tokens
    totals.add_summary(120)
    assert (totals.summary_requests, totals.summary_tokens, totals.requests) == (3, 420, 0)


def test_round_trip_and_older_documents():
    totals = Totals(requests=4, prompt_tokens=10, summary_tokens=7)
    assert Totals.from_dict(totals.to_dict()) == totals
    # a document from before a field existed, or with a key this version does not know
    assert Totals.from_dict({"requests": 2, "someday": 9}) == Totals(requests=2)
