"""Slash commands that show what is there without changing it: /context, /recall, /timeline (its own module),
/tokens, /tools, /models and /copy."""

from __future__ import annotations

from chatbot.commands.base import Command, Confirm
from chatbot.commands.cost import run_cost
from chatbot.commands.diff import carrier_row, context_at, message_preview, run_diff
from chatbot.commands.effects import Chart, Copy, Effects, Note, Show
from chatbot.commands.request_view import readable
from chatbot.commands.timeline import plain, timeline_of
from chatbot.commands.timeline_html import write_html
from chatbot.core.app import App
from chatbot.core.budget import input_budget
from chatbot.engine import recall_meaning
from chatbot.engine.calibration import SMALL_TOKENS
from chatbot.engine.memory import Request
from chatbot.engine.recall import Hit, search
from chatbot.errors import UsageError
from chatbot.providers.base import ChatProvider
from chatbot.storage.output_files import split_force
from chatbot.text import clean, code_blocks, json_shown, preview

PREVIEW = 48  # keeps a /context row within 80 columns
RECALL_SHOWN = 10  # turns /recall lists
#: what /copy hands the terminal at most: most accept about this much through OSC 52 (xterm more, some less)
MAX_BYTES = 100_000


#: what /context accepts after its name (anything else is a usage error, never silently the plain view)
CONTEXT_USAGE = (
    "usage: /context (the next request, a row per message), /context for MESSAGE (the request MESSAGE would send, "
    "with the turns recall brings back for it), /context json [--exact] [MESSAGE] (its JSON body: readable in the "
    "terminal, exact with --exact and in script mode) or /context at N (the request of turn N, as the model saw it)"
)


def _context(app: App, arg: str, confirm: Confirm | None) -> Effects:
    view, _, message = arg.partition(" ")
    message = message.strip()
    if view.lower() == "json":
        exact, _, rest = message.partition(" ")
        return _context_json(app, rest.strip(), exact=True) if exact == "--exact" else _context_json(app, message)
    if view.lower() == "at":
        return context_at(app, message)
    if arg and (view.lower() != "for" or not message):
        raise UsageError(CONTEXT_USAGE)
    chat = app.chat
    conv = chat.conversation
    counter = conv.counter
    # /context for MESSAGE: recall picks turns for that message; the files waiting for the next message go with it
    request = chat.next_request(chat.next_message(message))
    waiting = len(chat.outbox.items())
    lines = [
        "The model keeps nothing between requests: the next request sends exactly these messages, "
        f"then {'that message' if message else 'your new message'}.",
        f"{'#':>3}  {'role':<10} {'tokens':>6}  preview",
        *_rows(app, request),
        _next_row(app, request, message, waiting),
        f"total {request.tokens} of {request.budget} tokens {_counted(message, waiting)} "
        f"(counter: {counter.name}; memory: {conv.memory.strategy})",
        *_budget_lines(app, request, _counted(message, waiting)),
    ]
    lines += _notes(app, request, lines)
    lines += app.rule.describe() if app.rule else []  # the rule that made this request, and where each setting is from
    return Show("\n".join(lines))


def _notes(app: App, request: Request, rows: list[str]) -> list[str]:
    """What /context's rows hold, in words: the tool definitions beside them, tool results shortened, what rides in
    the system message (or the first user message), a fold due first, the turns left out."""
    chat, notes = app.chat, []
    counter, conv = chat.conversation.counter, chat.conversation
    if chat.tools:
        notes.append(
            f"the request also carries {len(chat.tools.openai_tools(counter, conv.memory.max_input_tokens))} tool "
            "definition(s), about "
            f"{chat.tool_definition_tokens()} tokens, counted in the budget (/tools lists them)"
        )
    shortened = sum(", shortened]" in row for row in rows)
    if shortened:
        notes.append(
            f"shortened: {shortened} tool result(s) of earlier turns are sent cut to their start, with a note of their "
            "size; the session keeps them whole"
        )
    if request.system_in_user:
        held = ", with the rolling summary," if request.summary_included else ""
        notes.append(
            f"user+sys: this server leaves out system messages, so the system message{held} rides at the head of the "
            "first user message"
        )
    elif request.summary_included:
        notes.append("system+S: the system message carries the rolling summary of the earlier conversation")
    if request.recalled:
        notes.append(
            f"system+R: the system message carries {_turns(request.recalled)} again, verbatim "
            f"({request.parts.recalled} tokens): recalled for this message (/recall TEXT shows why)"
        )
    if request.summarized:
        first = request.summary_covers - request.summarized + 1
        notes.append(
            f"before sending, turns {first}-{request.summary_covers} are folded into the summary (one model call); "
            "until it is written the system+S size is a guess"
        )
    if request.dropped:
        notes.append(_left_out(request, len(conv.turns)))
    return notes


def _left_out(request: Request, stored: int) -> str:
    """Which earlier turns the request leaves out: a run before the turns it sends, or a gap between the first turns
    and the latest (first-last memory)."""
    covered = request.summary_covers if request.summary_included else 0
    left = _span(max(request.head, covered) + 1, request.first_turn)
    line = f"{request.dropped} earlier turn(s) are stored but not sent ({left})"
    if request.head:
        latest = _span(request.first_turn + 1, stored) if request.first_turn < stored else "none: no room"
        line += f": a gap between the first, {_span(1, request.head)}, and the latest sent, {latest}"
    # a turn left out may still come back, recalled into the system message (the R of system+R)
    return line + (f"; recalled from them: {_turns(request.recalled)}" if request.recalled else "")


def _span(low: int, high: int) -> str:
    """``turn 3`` or ``turns 3-5`` (1-based, both ends in)."""
    return f"turn {low}" if low == high else f"turns {low}-{high}"


def _rows(app: App, request: Request) -> list[str]:
    """A row per message the request sends before the new one; a tool result sent shortened says both sizes."""
    conv = app.chat.conversation
    counter = conv.counter
    stored = {m.get("tool_call_id"): m for t in conv.turns for m in t.messages if m.get("role") == "tool"}
    rows = []
    carrier = carrier_row(request.messages, request.system_in_user)
    for i, msg in enumerate(request.messages[:-1], start=1):
        role = "user+sys" if i == carrier else msg["role"]
        text = message_preview(msg)
        whole = stored.get(msg.get("tool_call_id")) if role == "tool" else None
        if whole is not None and whole.get("content") != msg.get("content"):
            text = f"[{counter.count_message(whole):,} → {counter.count_message(msg):,} tokens, shortened] {text}"
        if role == "system" and (request.summary_included or request.recalled):
            role, text = _system_row(request, conv.system)
        rows.append(f"{i:>3}  {role:<10} {counter.count_message(msg):>6}  {preview(text, PREVIEW)}")
    return rows


def _next_row(app: App, request: Request, message: str, waiting: int = 0) -> str:
    """The last row: the message the view was asked for, or a stand-in for the next one (which carries the system
    text when no earlier message does), with the ``waiting`` files attached to it (counted: they go with it)."""
    last = len(request.messages)
    role = "user+sys" if carrier_row(request.messages, request.system_in_user) == last else "user"
    files = f"[{waiting} file(s) attached] " if waiting else ""
    if not message and not waiting:
        return f"{last:>3}  {role:<10} {'?':>6}  (your next message)"
    tokens = app.chat.conversation.counter.count_message(request.messages[-1])
    return f"{last:>3}  {role:<10} {tokens:>6}  {preview(files + (message or '(your next message)'), PREVIEW)}"


def _counted(message: str, waiting: int = 0) -> str:
    """What a /context total holds of the new message: /context for MESSAGE counts that message, /context none yet;
    the files waiting for it are counted either way."""
    files = f"the {waiting} file(s) attached to it" if waiting else ""
    if message:
        return f"with that message{f' and {files}' if files else ''}"
    return f"with {files}, before your message" if files else "before your message"


def _budget_lines(app: App, request: Request, counted: str = "before your message") -> list[str]:
    """The budget in one line (budget − tool definitions − safety margin = room for the conversation), and what
    the correction does, in words."""
    chat = app.chat
    counter = chat.conversation.counter
    calibration = counter.calibration
    whole = input_budget(chat.conversation.memory.max_input_tokens, calibration.context, chat.run.max_output_tokens)
    source = (
        "the server's context window less room for the reply"
        if whole < chat.conversation.memory.max_input_tokens
        else "--max-input-tokens"
    )
    tools = whole - request.budget  # message_budget: what the tool definitions take, corrected like the messages
    # counts are multiplied by correction × (1 + margin): the margin's share of what is left is kept free
    margin = request.budget - round(request.budget / (1 + calibration.margin))
    room = request.budget - margin
    used = round(request.tokens / (1 + calibration.margin))
    lines = [
        f"budget {whole:,} ({source}) − {tools:,} tool definitions − {margin:,} safety margin = {room:,} for the "
        f"conversation, about {used:,} of it used {counted}"
    ]
    if not calibration.ratios:
        lines.append(
            "correction: none yet; until a provider count teaches one (one lower than the estimate only from a "
            f"request of {SMALL_TOKENS} tokens or more), this app's own estimate "
            f"(counter: {counter.name}) is used as it is, and it errs high"
        )
    else:
        lines.append(
            f"correction x{calibration.correction:.3f}: the provider counted {calibration.correction:.3f} tokens for "
            f"each token this app estimates (learned from its replies), so every estimate is multiplied by it; "
            f"the safety margin ({calibration.margin:.1%}) stays free because that ratio varies"
        )
    return lines


def _context_json(app: App, message: str, *, exact: bool = False) -> Effects:
    """``/context json [--exact] [MESSAGE]``: the exact JSON body the next request sends, built by the code that
    sends it; the terminal shows it readable (folded, real line breaks) unless ``--exact`` asks for the JSON."""
    chat = app.chat
    body = chat.next_body(message)
    shown = json_shown(body)
    request = chat.next_request(message)
    if request.summarized:  # only the model can write it: until then the body holds a placeholder
        first = request.summary_covers - request.summarized + 1
        shown = (
            f"(before this is sent, turns {first}-{request.summary_covers} are folded into the summary by one model "
            "call, so the system message below holds a placeholder for it; /summary now writes it first)\n" + shown
        )
    return Show(shown, readable=None if exact else readable(body))


def _numbers(numbers: tuple[int, ...]) -> str:
    return ", ".join(map(str, numbers))


def _turns(numbers: tuple[int, ...]) -> str:
    """``turn 3`` or ``turns 1, 2``."""
    return f"turn{'s' * (len(numbers) > 1)} {_numbers(numbers)}"


def _system_row(request: Request, system: str) -> tuple[str, str]:
    """The role column and preview of a system message that carries the summary (S), recalled turns (R) or both."""
    role = "system+" + "S" * request.summary_included + "R" * bool(request.recalled)
    summary = f"[+ summary of turns 1-{request.summary_covers}] " if request.summary_included else ""
    recalled = f"[+ recalled {_turns(request.recalled)}] " if request.recalled else ""
    return role, f"{summary}{recalled}{system}"


#: what /recall says of a message with no cue (chatbot.engine.recall_cues): what recall then asks for more of
NO_CUE = "no cue that it points back at the conversation: one shared word is not enough, meaning must stand out more"
#: ... and of one that asks for something new to be written
WRITES = "it asks for something new to be written: meaning alone brings back nothing"


def _recall(app: App, arg: str, confirm: Confirm | None) -> Effects:
    text = arg.strip()
    if not text:
        raise UsageError("usage: /recall TEXT: which earlier turns TEXT would bring back, with their scores")
    chat = app.chat
    conv = chat.conversation
    request = chat.next_request(text)
    left_out = range(request.head, request.first_turn)
    hits = search(conv, text, left_out)  # judged among the turns left out, as the request judges them
    hits += [h for h in search(conv, text) if h.number - 1 not in left_out]  # sent anyway: shown, not chosen from
    k, by = conv.memory.recall, conv.memory.recall_by
    lines = [f"earlier turns found for it, the best first (--recall {k}, --recall-by {by}; why each is in or out):"]
    if by != "words" and not recall_meaning.available():
        lines[0] += f"\n  (by words only: recall by meaning needs {recall_meaning.INSTALL})"
    if hits:
        cue = hits[0].cue
        lines.append(f"  it points back at the conversation by: {cue}" if cue else f"  {NO_CUE}")
        if hits[0].writes and not cue:
            lines.append(f"  {WRITES}")
    for hit in hits[:RECALL_SHOWN]:
        lines.append(
            f"  turn {hit.number:>4}  {_why(hit, request, k):<13} {preview(conv.turns[hit.number - 1].user_text, 40)}\n"
            f"             {hit.why}"
        )
    if len(hits) > RECALL_SHOWN:
        lines.append(f"  ... and {len(hits) - RECALL_SHOWN} more turn(s) with a lower score")
    if request.recalled:
        lines.append(
            # the part /diff and /timeline show: with the learned correction, as the request's total counts it
            f"it would recall turn(s) {_numbers(request.recalled)}: {request.parts.recalled} tokens added to the "
            "system message (as the request counts them)"
        )
    else:
        lines.append(f"it would recall nothing: {_why_nothing(hits, request, k)}")
    return Show("\n".join(lines))


def _why_nothing(hits: list[Hit], request: Request, k: int) -> str:
    """Why a request recalls no turn: recall is off, no turn shares a word, a relevant one left out does not fit in
    the room the request leaves, or none left out is relevant enough."""
    if not hits:
        return "no earlier turn shares a word with it"
    if k <= 0:
        return "recall is off (--recall 0)"
    unfit = next((h.number for h in hits if _why(h, request, k) == "passed over"), None)
    if unfit:  # the best relevant turn left out was passed over: only for want of room
        return (
            f"turn {unfit} is relevant but does not fit in the room the request leaves "
            f"({request.tokens} of {request.budget} tokens used; raise --max-input-tokens)"
        )
    return "no turn left out of the request is relevant enough"


def _why(hit: Hit, request: Request, k: int) -> str:
    """What happens to a turn a search found, in the request for the same message: a relevant turn left out is
    past the ``--recall`` limit when as many turns were recalled, else passed over for want of room."""
    if hit.number in request.recalled:
        return "recalled"
    if hit.number > request.first_turn or hit.number <= request.head:
        return "sent anyway"
    if not hit.relevant:
        return "not relevant"
    return "past --recall" if len(request.recalled) >= k else "passed over"


def _tokens(app: App, arg: str, confirm: Confirm | None) -> Effects:
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
    return Show("\n".join(lines))


def _tools(app: App, arg: str, confirm: Confirm | None) -> Effects:
    tools = app.chat.tools  # the run's, and the built-in search beside them
    specs = tools.specs() if tools else []
    if not specs:
        return Show("no tools: start with --mcp SERVER or --functions FILE.py to give the model tools")
    width = max(len(s.name) for s in specs)
    lines = [
        f"{len(specs)} tool(s) the model may call (sent with every request, "
        f"about {app.chat.tool_definition_tokens()} tokens):"
    ]
    conv = app.chat.conversation
    fitting = tools.fitting(conv.counter, conv.memory.max_input_tokens) if tools else ([], [])
    left_out = {s.name for s in fitting[1]}
    for source in dict.fromkeys(s.source for s in specs):
        lines.append(f"from {source}:")
        lines += [
            f"  {s.name:<{width}}  {'[left out: does not fit] ' if s.name in left_out else ''}"
            f"{preview(s.description, 70)}"
            for s in specs
            if s.source == source
        ]
    return Show("\n".join(lines))


def format_models(provider: ChatProvider, current: str | None = None) -> str:
    """The endpoint's models, one a line, ``current`` (the model in use, an alias already resolved; default the
    provider's) marked; a clear line when it lists none."""
    names = provider.list_models()
    if not names:
        return f"the endpoint of provider {provider.name} lists no models; name one with --model"
    current = current or provider.model
    return "\n".join(f"{'*' if n == current else ' '} {n}" for n in names)


def _models(app: App, arg: str, confirm: Confirm | None) -> Effects:
    return Show(format_models(app.provider, app.chat.model))  # the session's model (after /model, an alias's)


def _copy(app: App, arg: str, confirm: Confirm | None) -> Effects:
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
    return Copy(reply)


def _timeline(app: App, arg: str, confirm: Confirm | None) -> Effects:
    """``/timeline``: the rows as text, and the timeline itself for a front end that draws it in colour."""
    view, _, path = arg.partition(" ")
    path, force = split_force(path)  # "html --force" names no file: the usage below
    if arg and (view != "html" or not path):
        raise UsageError(
            "usage: /timeline (one row per turn of this session) or /timeline html FILE [--force] (as a web page; "
            "--force overwrites)"
        )
    chat = app.chat
    memory, context = chat.conversation.memory, chat.conversation.counter.calibration.context
    budget = input_budget(memory.max_input_tokens, context, chat.run.max_output_tokens)  # the window, when learned
    timeline = timeline_of(chat.session.id, chat.conversation.turns, budget, learned=context is not None)
    if view == "html":
        window = budget if context else None
        return Note(write_html(timeline, path, app.store.paths, window, force=force, ask=confirm))
    return Chart(timeline) if timeline.rows else Show(plain(timeline))


COMMANDS: dict[str, Command] = {
    "/context": Command(
        "/context [json] [for MESSAGE] | at N",
        "show exactly what the next request (for MESSAGE) sends: token counts, or its JSON body",
        _context,
    ),
    "/recall": Command("/recall TEXT", "show which earlier turns TEXT would bring back, with scores", _recall),
    "/timeline": Command(
        "/timeline [html FILE [--force]]",
        "one row per turn: the tokens its request sent, in parts, against the budget (html: as a web page)",
        _timeline,
    ),
    "/diff": Command("/diff [N]", "what request N (default: the next) changed from the one before, by parts", run_diff),
    "/cost": Command("/cost [json]", "what each request sent, in tokens and money, against full memory", run_cost),
    "/tokens": Command("/tokens", "usage so far: provider-reported and estimated", _tokens),
    "/tools": Command("/tools", "list the tools the model may call, and where they come from", _tools),
    "/models": Command("/models", "list the models the endpoint serves", _models),
    "/copy": Command("/copy [code]", "copy the last reply (or its last code block) to the clipboard", _copy),
}
