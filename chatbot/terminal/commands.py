"""Slash commands: each takes the app and its argument and returns what to show; no terminal code here."""

from __future__ import annotations

import os
from pathlib import Path

from chatbot.app import App
from chatbot.budget import input_budget
from chatbot.engine.turn import content_text, one_line
from chatbot.errors import ChatbotError, UsageError
from chatbot.providers.base import ChatProvider
from chatbot.storage.base import SessionStore
from chatbot.storage.export import export_markdown, write_private
from chatbot.storage.session import validate_id
from chatbot.terminal import turn_commands
from chatbot.terminal.command_types import Command, Confirm, Result

#: bare words that quit like /quit (what people type without thinking)
QUIT_WORDS = {"exit", "quit", "종료", "/quit", "/exit"}
PREVIEW = 48  # keeps a /context row within 80 columns


def is_command(line: str) -> bool:
    """Whether an input line is a command rather than a message (``//`` starts a message that begins with ``/``)."""
    stripped = line.strip()
    return (stripped.startswith("/") and not stripped.startswith("//")) or stripped in QUIT_WORDS


def as_message(line: str) -> str:
    """The message an input line that is not a command sends: ``//path ...`` sends ``/path ...``."""
    return line.lstrip()[1:] if line.lstrip().startswith("//") else line


def run(app: App, line: str, confirm: Confirm | None = None) -> Result:
    """Run one command line. ``confirm`` asks the user a yes/no question (None in script mode: no questions)."""
    stripped = line.strip()
    if stripped in QUIT_WORDS:
        return Result(quit=True)
    name, _, arg = stripped.partition(" ")
    command = COMMANDS.get(name.lower())
    if command is None:
        raise UsageError(f"unknown command {name}; /help lists the commands")
    return command.run(app, arg.strip(), confirm)


def preview(text: str, width: int = PREVIEW) -> str:
    """One line of at most ``width`` characters."""
    return one_line(text, width)


# --- the commands -----------------------------------------------------------------------------------------------


def _help(app: App, arg: str, confirm: Confirm | None) -> Result:
    width = max(len(c.usage) for c in COMMANDS.values())
    lines = ["Commands (anything else is sent to the model as your message):"]
    seen = set()
    for cmd in COMMANDS.values():
        if cmd.usage in seen:
            continue
        seen.add(cmd.usage)
        lines.append(f"  {cmd.usage.ljust(width)}  {cmd.help}")
    lines.append("Alt-Enter (or Esc then Enter) inserts a newline; //text sends a message that starts with /.")
    lines.append("Ctrl-C cancels a reply; Ctrl-D quits.")
    return Result("\n".join(lines))


def _quit(app: App, arg: str, confirm: Confirm | None) -> Result:
    return Result(quit=True)


def _reset(app: App, arg: str, confirm: Confirm | None) -> Result:
    count = app.chat.reset()
    return Result(f"forgot {count} turn(s) and the summary; the system message stays", notice=True)


def _summary(app: App, arg: str, confirm: Confirm | None) -> Result:
    if arg:
        return _summary_now(app, arg)
    conv = app.chat.conversation
    total = len(conv.turns)
    mem = conv.memory
    if not conv.summary:
        if mem.strategy != "summary":
            return Result(f"no summary: memory is '{mem.strategy}' (use --memory summary for a rolling summary)")
        return Result(
            f"no summary yet: {total} turn(s) stored; earlier turns are summarized when more than "
            f"{mem.summary_trigger} are unsummarized (the last {mem.keep_turns} stay verbatim)"
        )
    uncovered = total - conv.summary_covers
    head = f"Summary of turns 1-{conv.summary_covers} of {total} ({uncovered} later turn(s) are sent verbatim):"
    note = "" if mem.strategy == "summary" else f"\n(memory is '{mem.strategy}': the summary is not sent now)"
    return Result(f"{head}\n{conv.summary}{note}")


def _summary_now(app: App, arg: str) -> Result:
    if arg.lower() != "now":
        raise UsageError("usage: /summary (show it) or /summary now (summarize the earlier turns now)")
    chat = app.chat
    try:
        done, warnings = chat.summarize_now()
    except KeyboardInterrupt:  # Ctrl-C stops this command, not the app; a fold is kept only whole
        raise ChatbotError("/summary now stopped; the summary is unchanged") from None
    if done:
        covers = chat.conversation.summary_covers
        return Result(f"summarized {done} earlier turn(s); the summary now covers turns 1-{covers}", notice=True)
    keep = chat.conversation.memory.keep_turns
    reason = "; ".join(warnings) or f"nothing to summarize: only the last {keep} turn(s) are uncovered"
    raise ChatbotError(f"no summary written: {reason}")


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
        lines.append(f"{i:>3}  {role:<10} {counter.count_message(msg):>6}  {preview(text)}")
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
        budget = input_budget(chat.conversation.memory.max_input_tokens, context, chat.max_output_tokens)
        lines.append(
            f"  context of {chat.model}: {context} tokens, as the server said; requests are kept under {budget} "
            f"(the rest is room for the reply)"
        )
    return Result("\n".join(lines))


def _sessions(app: App, arg: str, confirm: Confirm | None) -> Result:
    listing = format_sessions(app.store, app.chat.session.id)
    if not app.store.exists(app.chat.session.id):
        listing += f"\n* {app.chat.session.id} (in use, not saved until its first turn)"
    return Result(listing)


def format_models(provider: ChatProvider) -> str:
    """The endpoint's models, one a line, the provider's model marked; a clear line when it lists none."""
    names = provider.list_models()
    if not names:
        return f"the endpoint of provider {provider.name} lists no models; name one with --model"
    return "\n".join(f"{'*' if n == provider.model else ' '} {n}" for n in names)


def format_sessions(store: SessionStore, current: str | None = None) -> str:
    """The session listing: id, title, turns, last used, model; newest first; ``current`` marked."""
    infos = store.list_sessions()
    if not infos:
        return f"no sessions in {store.location}"
    lines = [f"  {'id':<22} {'turns':>5}  {'last used':<25} {'model':<22} title"]
    for info in infos:
        mark = "*" if info.id == current else " "
        if info.broken:
            lines.append(f"{mark} {info.id:<22} {'-':>5}  {info.updated_at:<25} {'':<22} BROKEN: {info.broken}")
        else:
            title = preview(info.title, 40)
            lines.append(f"{mark} {info.id:<22} {info.turns:>5}  {info.updated_at:<25} {info.model:<22} {title}")
    return "\n".join(lines)


def _search(app: App, arg: str, confirm: Confirm | None) -> Result:
    return Result(format_hits(app.store, arg))


def format_hits(store: SessionStore, text: str, opener: str = "/load ID") -> str:
    """Past turns of every session that contain ``text``: session id, title, turn number, date and a snippet.

    ``opener`` is how the user opens one from where they are: ``/load ID`` in a chat, ``chatbot --session ID`` in
    the shell (``--search``)."""
    if not text.strip():
        raise UsageError("usage: /search TEXT (or --search TEXT): finds past turns across all sessions")
    hits = store.search(text)
    if not hits:
        return f"no turn in {store.location} contains {text!r}"
    lines = [f"  {'session':<22} {'turn':>4}  {'date':<10}  title / match"]
    for hit in hits:
        lines.append(f"  {hit.session_id:<22} {hit.turn:>4}  {hit.created_at[:10]:<10}  {preview(hit.title, 40)}")
        lines.append(f"  {'':<22} {'':>4}  {'':<10}  {hit.snippet}")
    more = " (the first 50; make the text more specific)" if len(hits) >= 50 else ""
    return "\n".join([*lines, f"{len(hits)} matching turn(s){more}; {opener} opens a session"])


def _new(app: App, arg: str, confirm: Confirm | None) -> Result:
    chat = app.new()
    return Result(f"new session {chat.session.id}", notice=True)


def _load(app: App, arg: str, confirm: Confirm | None) -> Result:
    if not arg:
        raise UsageError("usage: /load ID (see /sessions)")
    if not app.store.exists(validate_id(arg)):
        raise UsageError(f"no session {arg}; /sessions lists them, /new starts one")
    chat = app.open(arg)
    turns = len(chat.conversation.turns)
    return Result(f"loaded session {chat.session.id} ({turns} turn(s))", notice=True)


def _rename(app: App, arg: str, confirm: Confirm | None) -> Result:
    if not arg:
        raise UsageError("usage: /rename TITLE")
    app.chat.rename(arg)
    return Result(f"session {app.chat.session.id} is now titled {preview(arg, 60)!r}", notice=True)


def _delete(app: App, arg: str, confirm: Confirm | None) -> Result:
    if not arg:
        raise UsageError("usage: /delete ID")
    session_id = validate_id(arg)
    if not app.store.exists(session_id):
        raise UsageError(f"no session {session_id}")
    if confirm is not None and not confirm(f"Delete session {session_id} for good?"):
        return Result("not deleted", notice=True)
    app.delete(session_id)
    return Result(f"deleted session {session_id}", notice=True)


def _undo(app: App, arg: str, confirm: Confirm | None) -> Result:
    turn = app.chat.undo()
    if turn is None:
        raise UsageError("nothing to undo")
    return Result(f"dropped the last turn ({preview(turn.user_text)})", notice=True)


def _retry(app: App, arg: str, confirm: Confirm | None) -> Result:
    return Result(send=app.chat.retry_text())


def _system(app: App, arg: str, confirm: Confirm | None) -> Result:
    chat = app.chat
    if not arg:
        return Result(f"system message:\n{chat.conversation.system}")
    chat.set_system(arg)
    return Result("system message set; it is sent first in every request from now on", notice=True)


def _model(app: App, arg: str, confirm: Confirm | None) -> Result:
    chat = app.chat
    if not arg:
        return Result(f"model: {chat.model} (provider {app.provider.name})")
    app.set_model(arg)
    return Result(f"model set to {arg}", notice=True)


def _export(app: App, arg: str, confirm: Confirm | None) -> Result:
    session = app.chat.session
    force = arg == "--force" or arg.endswith(" --force")
    arg = arg.removesuffix("--force").strip()
    path = Path(os.path.expanduser(arg or f"{session.id}.md"))
    if os.path.isdir(app.store.location) and _inside(path, Path(app.store.location)):
        raise UsageError(f"{path} is inside the sessions directory; export somewhere else (sessions live there)")
    if os.path.lexists(path) and not force:
        if confirm is None or not confirm(f"{path} exists. Overwrite it?"):
            raise UsageError(f"{path} already exists; choose another path, or add --force to overwrite it")
        force = True
    try:
        write_private(path, export_markdown(session), overwrite=force)
    except OSError as exc:
        raise ChatbotError(f"cannot write {path}: {exc.strerror}") from None
    return Result(f"wrote the transcript of {session.id} to {path}", notice=True)


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


def _inside(path: Path, directory: Path) -> bool:
    """Whether ``path`` (resolved, symlinks followed) is ``directory`` or inside it."""
    return path.resolve().is_relative_to(directory.resolve())


COMMANDS: dict[str, Command] = {
    "/help": Command("/help", "show this help", _help),
    "/quit": Command("/quit, /exit", "leave (the session is saved)", _quit),
    "/exit": Command("/quit, /exit", "leave (the session is saved)", _quit),
    "/reset": Command("/reset", "forget this session's turns and summary (keeps the system message)", _reset),
    "/summary": Command(
        "/summary [now]", "show the rolling summary and which turns it covers; `now`: summarize now", _summary
    ),
    "/context": Command("/context", "show exactly what the next request sends, with token counts", _context),
    "/tokens": Command("/tokens", "usage so far: provider-reported and estimated", _tokens),
    "/sessions": Command("/sessions", "list sessions, newest first", _sessions),
    "/search": Command("/search TEXT", "find past turns across all sessions", _search),
    "/new": Command("/new", "start a new session", _new),
    "/load": Command("/load ID", "switch to session ID", _load),
    "/rename": Command("/rename TITLE", "give this session a title", _rename),
    "/delete": Command("/delete ID", "delete session ID", _delete),
    "/undo": Command("/undo", "drop the last turn", _undo),
    "/retry": Command("/retry", "resend the last (or failed) message", _retry),
    "/system": Command("/system [TEXT]", "show or set the system message", _system),
    "/model": Command("/model [NAME]", "show or switch the model", _model),
    "/export": Command(
        "/export [PATH] [--force]", "write a Markdown transcript (default: ID.md; --force overwrites)", _export
    ),
    "/tools": Command("/tools", "list the tools the model may call, and where they come from", _tools),
    **turn_commands.COMMANDS,
}
