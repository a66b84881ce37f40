"""What one request may hold, and what a server's answer teaches about it.

- **The budget** of a request's messages is ``--max-input-tokens``, capped by the model's context window once a
  server has named it (less room for the reply), less what the tool definitions take: they ride beside the
  messages, and servers count them in the prompt (:func:`message_budget`).
- **Calibration** compares the local count with the server's ``prompt_tokens``, which include the tool definitions
  the request offered: so the local count it is compared with includes them too (:func:`learn_from_usage`).
- **A context-length error that names the window** ("maximum context length is 3000 tokens") is learned for the
  model, kept in the session with its calibration, and every later request is built under it; the user is told once
  (:func:`retry_budget`). An error that names nothing halves the request for its one retry, as before.
- **A server that leaves the system message out** (its count is the rest of the request: :func:`left_out_system`)
  is learned for the model, kept with its calibration: every later request carries the system text in its first
  user message (:mod:`chatbot.engine.system_carry`), and the user is told once (:func:`learn_from_usage`).
"""

from __future__ import annotations

import math

from chatbot.engine.calibration import MAX_MARGIN, Calibration
from chatbot.engine.conversation import Conversation
from chatbot.engine.folds import reply_room as summary_reply_room
from chatbot.engine.memory import SUMMARY_MAX_TOKENS, Request
from chatbot.engine.tokens import TokenCounter, rough_count
from chatbot.engine.turn import Message, content_text
from chatbot.errors import ContextLengthError
from chatbot.providers.base import Usage

#: without --max-output-tokens, the share of a named context window left for the reply (at most REPLY_MOST tokens)
REPLY_SHARE = 4
REPLY_MOST = 4096
#: the share of a named window a request leaves unplanned: the calibrated count is learned from earlier requests and
#: can run a little under the server's for this one (1,984 counted was 1,989 by llama.cpp's count of a Gemma request
#: with tools its template leaves out, 0.25%): a hundredth keeps prompt plus reply inside the window (vLLM refuses
#: otherwise) and takes little from a small one (10 tokens of 1,024)
SAFETY_SHARE = 100


def reply_room(context: int, max_output_tokens: int | None) -> int:
    """Tokens of a ``context``-token window kept for the reply: ``--max-output-tokens`` when set, else a quarter of
    the window (at most ``REPLY_MOST``); never more than half of it."""
    room = max_output_tokens or min(context // REPLY_SHARE, REPLY_MOST)
    return min(room, context // 2)


def window_share(context: int, max_output_tokens: int | None) -> int:
    """What a request may count in a ``context``-token window: the window less the reply's room and a hundredth
    (``SAFETY_SHARE``) for a count that runs under the server's."""
    return context - reply_room(context, max_output_tokens) - context // SAFETY_SHARE


def input_budget(max_input_tokens: int, context: int | None, max_output_tokens: int | None) -> int:
    """What a whole request may count: ``--max-input-tokens``, or less when the server's window (``context``, None
    when unknown) leaves less once the reply has its room (:func:`window_share`)."""
    if not context:
        return max_input_tokens
    return min(max_input_tokens, window_share(context, max_output_tokens))


def message_budget(conv: Conversation, tool_tokens: int, max_output_tokens: int | None) -> int:
    """The budget for a request's messages: :func:`input_budget` for the model in use, less the tool definitions
    (``tool_tokens``, uncorrected: the calibration's correction applies to them as to the messages)."""
    counter = conv.counter
    whole = input_budget(conv.memory.max_input_tokens, counter.calibration.context, max_output_tokens)
    return whole - tools_estimate(conv, tool_tokens)


def tools_estimate(conv: Conversation, tool_tokens: int) -> int:
    """What tool definitions of ``tool_tokens`` (uncorrected) add to a request's estimate, corrected like it."""
    return math.ceil(tool_tokens * conv.counter.correction)


#: what the user is told, once, when a server is seen to leave system messages out
DROPS_SYSTEM_NOTICE = (
    "this server leaves out system messages; the system prompt and summary now ride in the first user message"
)


def learn_from_usage(conv: Conversation, request: Request, usage: Usage, tool_tokens: int) -> str:
    """Let the counter learn from a reply's ``prompt_tokens`` for ``request``, sent with tool definitions of
    ``tool_tokens`` (0 when none were offered): the server counted them, so the local count holds them too.

    ``prompt_tokens`` counts the cached prefix too (a cache discounts tokens, it does not remove them). When the
    server's count shows that its template left the system message out, the request is learned from without it
    (:func:`left_out_system`), and so is the drop: the model's calibration keeps it, and later requests carry the
    system text in their first user message, which the server counts (so nothing is taken off their counts again).
    Returns what to tell the user: ``DROPS_SYSTEM_NOTICE`` when the drop is news, else "".
    """
    local = request.uncorrected + tool_tokens
    dropped = left_out_system(conv, request, local, usage.prompt_tokens)
    conv.counter.calibrate(local - dropped, usage.prompt_tokens, tool_tokens)
    calibration = conv.counter.calibration
    if not dropped or calibration.drops_system:
        return ""
    calibration.drops_system = True
    return DROPS_SYSTEM_NOTICE


def left_out_system(conv: Conversation, request: Request, local: int, prompt: int) -> int:
    """The raw tokens of ``request``'s system message when the server counted it as left out, else 0.

    llama-cpp-python's ``gemma`` chat format drops the system message (Gemma has no system role), and with it the
    rolling summary. Learned against the whole request, a system message holding a summary of ~1,000 tokens taught
    ratios of 0.46 and up: the turns of later requests, counted at that rate, went over the window again and again.
    Taken as left out: once a correction is learned, a system message of at least a tenth of the request, and a
    server count no more than the rest of the request counts at that correction (with ``MAX_MARGIN``); a server that
    counts the system message counts at least a tenth more. ``local``: the request's uncorrected count, its tool
    definitions in: the correction it is compared at was learned from chat requests that offered them, whether the
    server counted them or not (a summary request's count teaches only requests without them), so the two agree.
    """
    calibration = conv.counter.calibration
    first = request.messages[0] if request.messages else {}
    if not calibration.ratios or first.get("role") != "system":
        return 0
    fixed = conv.counter.chat_format.per_request
    system, whole = conv.count_system(first), local - fixed
    if system * 10 < whole or prompt - fixed > calibration.correction * (whole - system) * (1 + MAX_MARGIN):
        return 0
    return system


def learn_window(calibration: Calibration, exc: ContextLengthError) -> bool:
    """Keep the window a context-length error named in the model's ``calibration``; whether it was news."""
    if not exc.limit or calibration.context == exc.limit:
        return False
    calibration.context = exc.limit
    return True


def window_notice(context: int, max_output_tokens: int | None) -> str:
    """What the user is told, once, when a model's window is learned."""
    room = reply_room(context, max_output_tokens)
    share = window_share(context, max_output_tokens)
    return (
        f"the server's context is {context} tokens: requests are kept under it from now on "
        f"({share} for the request, {room} for the reply, {context - room - share} to spare)"
    )


def retry_budget(
    conv: Conversation, request: Request, exc: ContextLengthError, tool_tokens: int, max_output_tokens: int | None
) -> tuple[int | None, list[str]]:
    """The budget for the one retry after ``request`` met a context-length error, and what to tell the user.

    A window the error names is learned for the model (its calibration keeps it) and the retry is built under it,
    said once per new window. When the error names none, or the request already fit the named window by the local
    count (the count ran under the server's), the request is halved. None: nothing can be left out.
    """
    told = []
    if exc.limit:
        if learn_window(conv.counter.calibration, exc):
            told.append(window_notice(exc.limit, max_output_tokens))
        budget = message_budget(conv, tool_tokens, max_output_tokens)
        if budget < request.tokens:
            return budget, told
    return conv.shrink_budget(request), told


def round_retry_budget(
    conv: Conversation, request: Request, extra: int, exc: ContextLengthError, tool_tokens: int, out: int | None
) -> tuple[int, list[str]]:
    """The budget a later round of a turn (its tool calls and results re-sent, ``extra`` tokens beside ``request``)
    is fit to again after the server refused it for its length, and what to tell the user.

    A window the error names is learned (the tool results arrived before it was known) and the round is fit under
    it; when it names none, or the round already fit it by the local count, the round is fit into half its size.
    """
    told = []
    if exc.limit and learn_window(conv.counter.calibration, exc):
        told.append(window_notice(exc.limit, out))
    budget = message_budget(conv, tool_tokens, out) if exc.limit else request.budget
    size = request.tokens + extra
    return (budget if budget < size else size // 2), told


def summary_max_tokens(messages: list[Message], context: int | None, counter: TokenCounter) -> int:
    """``max_tokens`` for a summary request: ``SUMMARY_MAX_TOKENS``, or what the model's named window leaves
    after the request (servers such as vLLM refuse a prompt plus ``max_tokens`` over the window), never less than
    the reply room of :func:`chatbot.engine.folds.reply_room`: the fold planned the request to leave that room.

    Once the rough counter is calibrated, the request is counted as the fold counted it (calibrated by the ratios of
    requests without tool definitions: a rough count that runs 30% high no longer starves the answer), with 10
    tokens a message and a twentieth for safety (a calibration learned from chat requests ran 3% under Qwen's count
    of a summary request, and vLLM refused it).
    Before that, or with a tokenizer, roughly, with 10 tokens a message and a tenth for safety: this runs on the
    thread that writes summaries ahead, where a tokenizer shared with the main thread must not be used (the rough
    count is plain arithmetic).
    """
    if not context:
        return SUMMARY_MAX_TOKENS
    if type(counter) is TokenCounter and counter.calibration.ratios:
        # and 10 tokens a message: a server's template may wrap messages in more than the chat format assumed
        raw = counter.count_request(messages) - counter.chat_format.per_request
        prompt = math.ceil((counter.plain_total(raw) + 10 * len(messages)) * 1.05)
    else:
        prompt = math.ceil(sum(rough_count(content_text(m.get("content"))) + 10 for m in messages) * 1.1)
    return max(summary_reply_room(context), min(SUMMARY_MAX_TOKENS, context - prompt))
