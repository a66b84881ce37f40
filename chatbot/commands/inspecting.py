"""Slash commands that show what is there without changing it: /context, /timeline (its own module), /tokens, /tools,
/models and /copy."""

from __future__ import annotations

from chatbot.commands.base import Command, Confirm, Result
from chatbot.commands.timeline import run_timeline
from chatbot.core.app import App
from chatbot.core.budget import input_budget
from chatbot.engine.text import clean, code_blocks, preview
from chatbot.engine.turn import content_text
from chatbot.errors import UsageError
from chatbot.providers.base import ChatProvider

PREVIEW = 48  # keeps a /context row within 80 columns
#: what /copy hands the terminal at most: most accept about this much through OSC 52 (xterm more, some less)
MAX_BYTES = 100_000


def _context(app: App, arg: str, confirm: Confirm | None) -> Result:
    chat = app.chat
    conv = chat.conversation
    counter = conv.counter
    request = chat.next_request("")
    lines = [
        "The model keeps nothing between requests: the next request sends exactly these messages, "
        "then your new message.",
        f"{'#':>3}  {'role':<10} {'tokens':>6}  preview",
    ]
    for i, msg in enumerate(request.messages[:-1], start=1):
        role = msg["role"]
        text = content_text(msg.get("content"))
        if isinstance(msg.get("content"), list):
            text = f"[{sum(p.get('type') == 'image_url' for p in msg['content'])} image(s)] {text}"
        if msg.get("tool_calls"):
            names = ", ".join(c.get("function", {}).get("name", "?") for c in msg["tool_calls"])
            text = f"[calls {names}] {text}"
        if role == "system" and request.summary_included:
            role = "system+S"
            text = f"[+ summary of turns 1-{request.summary_covers}] {conv.system}"
        lines.append(f"{i:>3}  {role:<10} {counter.count_message(msg):>6}  {preview(text, PREVIEW)}")
    lines.append(f"{len(request.messages):>3}  {'user':<10} {'?':>6}  (your next message)")
    correction = f", correction x{counter.correction:.3f}" if counter.correction != 1.0 else ""
    lines.append(
        f"total {request.tokens} of {request.budget} tokens before your message "
        f"(counter: {counter.name}{correction}; memory: {conv.memory.strategy})"
    )
    if app.tools:
        lines.append(
            f"the request also carries {len(app.tools.openai_tools(counter, conv.memory.max_input_tokens))} tool "
            "definition(s), about "
            f"{chat.tool_definition_tokens()} tokens, counted in the budget (/tools lists them)"
        )
    if request.summary_included:
        lines.append("system+S: the system message carries the rolling summary of the earlier conversation")
    if request.summarized:
        first = request.summary_covers - request.summarized + 1
        lines.append(
            f"before sending, turns {first}-{request.summary_covers} are folded into the summary (one model call); "
            "until it is written the system+S size is a guess"
        )
    if request.dropped:
        lines.append(f"{request.dropped} earlier turn(s) are stored but not sent")
    return Result("\n".join(lines))


def _tokens(app: App, arg: str, confirm: Confirm | None) -> Result:
    chat = app.chat
    t = chat.session.totals
    counter = chat.conversation.counter
    lines = [f"Usage in session {chat.session.id} ({t.requests} request(s), model {chat.model}):"]
    if t.reported_requests:
        lines.append(
            f"  provider-reported: prompt {t.prompt_tokens}, completion {t.completion_tokens}, total "
            f"{t.prompt_tokens + t.completion_tokens} ({t.reported_requests} of {t.requests} request(s) reported usage)"
        )
        if t.cached_tokens:
            share = 100 * t.cached_tokens // max(1, t.prompt_tokens)
            lines.append(f"  cached by the provider: {t.cached_tokens} of the prompt tokens ({share}%)")
    else:
        lines.append("  provider-reported: none yet (the server sent no usage, or no request was made)")
    lines.append(
        f"  estimated: prompt {t.estimated_prompt_tokens}, completion {t.estimated_completion_tokens} "
        f"(counter: {counter.name})"
    )
    if t.summary_requests:
        lines.append(f"  summaries: {t.summary_requests} request(s), {t.summary_tokens} tokens reported")
    last = next((t for t in reversed(chat.conversation.turns) if t.usage), None)
    if last and last.usage:
        u = last.usage
        if u.get("prompt_tokens") is not None:
            cached = f" ({u['cached_tokens']} cached)" if u.get("cached_tokens") else ""
            lines.append(
                f"  last turn: provider prompt {u['prompt_tokens']}{cached} vs estimate "
                f"{u.get('estimated_prompt_tokens')}"
            )
        else:
            lines.append(f"  last turn: estimate prompt {u.get('estimated_prompt_tokens')} (no provider count)")
    lines.append(f"  correction for {chat.model}: {counter.calibration.describe()}")
    context = counter.calibration.context
    if context:
        budget = input_budget(chat.conversation.memory.max_input_tokens, context, chat.run.max_output_tokens)
        lines.append(
            f"  context of {chat.model}: {context} tokens, as the server said; requests are kept under {budget} "
            f"(the rest is room for the reply)"
        )
    return Result("\n".join(lines))


def _tools(app: App, arg: str, confirm: Confirm | None) -> Result:
    specs = app.tools.specs() if app.tools else []
    if not specs:
        return Result("no tools: start with --mcp SERVER or --functions FILE.py to give the model tools")
    width = max(len(s.name) for s in specs)
    lines = [
        f"{len(specs)} tool(s) the model may call (sent with every request, "
        f"about {app.chat.tool_definition_tokens()} tokens):"
    ]
    conv = app.chat.conversation
    fitting = app.tools.fitting(conv.counter, conv.memory.max_input_tokens) if app.tools else ([], [])
    left_out = {s.name for s in fitting[1]}
    for source in dict.fromkeys(s.source for s in specs):
        lines.append(f"from {source}:")
        lines += [
            f"  {s.name:<{width}}  {'[left out: does not fit] ' if s.name in left_out else ''}"
            f"{preview(s.description, 70)}"
            for s in specs
            if s.source == source
        ]
    return Result("\n".join(lines))


def format_models(provider: ChatProvider) -> str:
    """The endpoint's models, one a line, the provider's model marked; a clear line when it lists none."""
    names = provider.list_models()
    if not names:
        return f"the endpoint of provider {provider.name} lists no models; name one with --model"
    return "\n".join(f"{'*' if n == provider.model else ' '} {n}" for n in names)


def _models(app: App, arg: str, confirm: Confirm | None) -> Result:
    return Result(format_models(app.provider))


def _copy(app: App, arg: str, confirm: Confirm | None) -> Result:
    turns = app.chat.conversation.turns
    # what was shown, not what was stored: a sequence the screen dropped may hide a line ("curl … | sh") in between
    reply = clean(turns[-1].answer_text) if turns else ""
    if not reply:
        raise UsageError("no reply to copy yet")
    if arg not in ("", "code"):
        raise UsageError("usage: /copy (the last reply) or /copy code (its last code block)")
    if arg == "code":
        blocks = code_blocks(reply)
        if not blocks:
            raise UsageError("the last reply has no fenced code block")
        reply = blocks[-1]
    if len(reply.encode("utf-8")) > MAX_BYTES:
        raise UsageError(f"that is over {MAX_BYTES:,} bytes, more than terminals accept through OSC 52")
    return Result(clipboard=reply)


COMMANDS: dict[str, Command] = {
    "/context": Command("/context", "show exactly what the next request sends, with token counts", _context),
    "/timeline": Command(
        "/timeline", "one row per turn: the tokens its request sent, in parts, against the budget", run_timeline
    ),
    "/tokens": Command("/tokens", "usage so far: provider-reported and estimated", _tokens),
    "/tools": Command("/tools", "list the tools the model may call, and where they come from", _tools),
    "/models": Command("/models", "list the models the endpoint serves", _models),
    "/copy": Command("/copy [code]", "copy the last reply (or its last code block) to the clipboard", _copy),
}
