"""A request is made in three steps: a plan that calls nothing and changes nothing, a fold whose outcome is a value
(the conversation changes only when it takes it), and an assembly that calls nothing; the preview is the same steps
with a placeholder summary, kept by no one."""

from __future__ import annotations

from chatbot.engine.folds import FoldStep, fold, placeholder_summarizer
from chatbot.engine.memory import Folds, assemble, build_request, plan, preview_request


def _stored(conv):
    return conv.summary, conv.summary_covers, list(conv.summaries), conv.backoff.due(len(conv.turns))


def test_a_plan_names_the_fold_due_and_calls_nothing(conv_factory):
    conv = conv_factory(9, summary_trigger=8, keep_turns=4)
    before = _stored(conv)
    planned = plan(conv, {"role": "user", "content": "hi"}, 100_000, Folds(conv.rolling))
    assert planned.fold == FoldStep(5, trigger=True)  # all uncovered turns but the last 4
    assert _stored(conv) == before


def test_a_fold_changes_nothing_until_the_conversation_takes_what_it_came_to(conv_factory, summarizer):
    conv = conv_factory(9, summary_trigger=8, keep_turns=4)
    folded = fold(conv, FoldStep(5, trigger=True), summarizer, conv.rolling)
    assert folded.kept and folded.folded == 5 and folded.summary.covers == 5 and not folded.problem
    assert (conv.summary, conv.summary_covers) == ("", 0)
    conv.take_fold(folded)
    assert (conv.summary, conv.summary_covers) == (folded.summary.text, 5)


def test_a_failed_fold_starts_the_backoff_only_once_taken(conv_factory):
    conv = conv_factory(9, summary_trigger=8, keep_turns=4)

    def failing(previous, turns, first):
        raise RuntimeError("the model is away")

    folded = fold(conv, FoldStep(5, trigger=True), failing, conv.rolling)
    assert folded.problem == "summarizing failed (the model is away)" and not folded.kept
    assert conv.backoff.due(len(conv.turns))
    conv.take_fold(folded)
    assert not conv.backoff.due(len(conv.turns)) and conv.summary_covers == 0


def test_a_plan_after_its_fold_assembles_the_request_build_request_makes(conv_factory, summarizer):
    conv = conv_factory(9, summary_trigger=8, keep_turns=4)
    message = {"role": "user", "content": "hi"}
    folds = Folds(conv.rolling)
    first = plan(conv, message, 100_000, folds)
    folded = fold(conv, first.fold, summarizer, folds.summary)
    folds = folds.after(first.fold, folded)
    planned = plan(conv, message, 100_000, folds)
    assert planned.fold is None and planned.summary == folded.summary
    stepwise = assemble(conv, message, planned)  # the conversation never took the fold: assembled from the plan
    built = build_request(conv_factory(9, summary_trigger=8, keep_turns=4), "hi", summarizer)
    assert stepwise.messages == built.messages and stepwise.summarized == built.summarized == 5


def test_the_preview_is_the_request_a_placeholder_summary_builds_and_keeps_nothing(conv_factory):
    conv = conv_factory(12, summary_trigger=8, keep_turns=4)
    before = _stored(conv)
    preview = preview_request(conv, "hi")
    assert _stored(conv) == before
    built = build_request(conv, "hi", placeholder_summarizer)
    assert preview.messages == built.messages and preview.summarized == built.summarized == 8
    assert preview.refs == built.refs  # the new summary numbered as its request numbers it
