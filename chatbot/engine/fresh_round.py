"""A later tool round whose fresh results do not fit the budget even beside the system message and the user's
alone: the request is made without earlier turns or the summary, and the results are shortened to share the room
(the session keeps them whole)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatbot.engine.memory import Request
from chatbot.engine.parts import request_parts
from chatbot.engine.system_carry import carry_system
from chatbot.engine.tool_results import rounds_cost, shorten_to_fit, shorten_tool_result
from chatbot.engine.turn import Message
from chatbot.errors import BudgetError

if TYPE_CHECKING:
    from chatbot.engine.conversation import Conversation


def fresh_results_request(
    conv: Conversation, user: Message, rounds: list[Message], budget: int
) -> tuple[Request, list[Message]]:
    """A later tool round whose results do not fit beside even the system message and the user's alone: the request
    without earlier turns or the summary, and ``rounds`` (this turn's calls and results) with the results shortened
    to share what the budget leaves (:func:`~chatbot.engine.tool_results.shorten_to_fit`, marked as older results
    are). The session keeps them whole.

    Raises :class:`BudgetError` when even the calls, with their results shortened to one token, do not fit.
    """
    counter = conv.counter
    raw = conv.system_tokens(False) + counter.count_message(user)
    bare = counter.total(raw)
    fitted = shorten_to_fit(rounds, counter, budget - bare)
    if fitted is None:
        needed = bare + rounds_cost([shorten_tool_result(m, counter, 1) for m in rounds], counter)
        raise BudgetError(
            f"the tool calls of this turn need {needed - bare} tokens even with their results shortened; with the "
            f"system message and yours that is {needed}, more than the budget (--max-input-tokens) of {budget}",
            needed=needed,
            budget=budget,
        )
    sent, limit = fitted
    cut = sum(a != b for a, b in zip(rounds, sent, strict=True))
    warning = (
        f"{cut} tool result(s) of this turn sent shortened to {limit} tokens each to fit the budget "
        "(--max-input-tokens); the session keeps them whole"
    )
    carried = counter.calibration.drops_system  # the server leaves system messages out: engine/system_carry.py
    messages = [conv.system_message(False), dict(user)]
    request = Request(
        messages=carry_system(messages) if carried else messages,
        tokens=bare,
        uncorrected=raw + counter.chat_format.per_request,
        budget=budget,
        first_turn=len(conv.turns),
        summary_included=False,
        summary_covers=conv.summary_covers,
        summarized=0,
        dropped=len(conv.turns),
        warnings=(warning,) if cut else (),
        parts=request_parts(conv, len(conv.turns), None, counter.count_message(user)),
        system_in_user=carried,
        new_tokens=counter.count_message(user),
    )
    return request, sent
