"""Slash commands that act on sessions: list, search, start, switch, rename, delete, fork and export them."""

from __future__ import annotations

import re

from chatbot.commands.base import Command, Confirm
from chatbot.commands.effects import Effects, Note, Show
from chatbot.core.app import App, Opened
from chatbot.errors import UsageError
from chatbot.providers.endpoint import base_url_needed
from chatbot.providers.table import PROVIDERS
from chatbot.storage.base import SessionStore
from chatbot.storage.export import export_markdown
from chatbot.storage.output_files import split_force, write_file
from chatbot.storage.session import validate_id
from chatbot.text import preview

#: how many of the newest sessions a listing shows unless told otherwise (``/sessions N``, ``--limit N``)
LISTED = 50


def _sessions(app: App, arg: str, confirm: Confirm | None) -> Effects:
    if arg and not (arg.isascii() and arg.isdigit()):
        raise UsageError(f"usage: /sessions [N]: the newest N sessions (default {LISTED}; 0 lists all)")
    limit = int(arg) if arg else LISTED
    listing = format_sessions(app.store, app.chat.session.id, limit, more="/sessions")
    if not app.store.exists(app.chat.session.id):
        listing += f"\n* {app.chat.session.id} (in use, not saved until its first turn)"
    return Show(listing)


def format_sessions(store: SessionStore, current: str | None = None, limit: int = LISTED, more: str = "--limit") -> str:
    """The session listing: id, title, turns, last used, model; the newest ``limit`` (0: all) first, ``current``
    marked, then how many older ones are not shown and how to see them (``more N``: ``--limit`` from the shell,
    ``/sessions`` in a chat)."""
    infos = store.list_sessions(limit)
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
    hidden = store.count_sessions() - len(infos) if limit and len(infos) >= limit else 0
    if hidden > 0:  # counted only when the listing is full: a small store costs no count
        older = f"{hidden:,} older session{'s' if hidden != 1 else ''}"
        lines.append(f"… {older} not shown ({more} 0 lists all, {more} N the newest N)")
    return "\n".join(lines)


def _search(app: App, arg: str, confirm: Confirm | None) -> Effects:
    return Show(format_hits(app.store, arg))


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


def _new(app: App, arg: str, confirm: Confirm | None) -> Effects:
    chat = app.new()
    return Note(f"new session {chat.session.id}")


def _load(app: App, arg: str, confirm: Confirm | None) -> Effects:
    if not arg:
        raise UsageError("usage: /load ID (see /sessions)")
    if not app.store.exists(validate_id(arg)):
        raise UsageError(f"no session {arg}; /sessions lists them, /new starts one")
    _refuse_leaving_its_server(app, arg)
    opened = app.opened(arg)
    chat = opened.chat
    loaded = Note(f"loaded session {chat.session.id} ({len(chat.conversation.turns)} turn(s))")
    return (loaded, Note(moved_notice(opened))) if opened.moved else loaded


def _refuse_leaving_its_server(app: App, session_id: str) -> None:
    """A session made at another address than its provider's own service is not loaded into a chat that sends to a
    provider's own service: its next message would go there (the address is never stored), as ``-c`` refuses it."""
    provider = app.settings.provider_name
    info = PROVIDERS.get(provider)
    if app.settings.endpoint or info is None or not info.default_base_url:
        return  # this chat sends to a server the user named, or nowhere (echo)
    if why := base_url_needed(app.store.load(session_id).endpoint, provider):
        raise UsageError(
            f"session {session_id} was not loaded: {why}, and this chat sends to {provider}'s own service; to go on "
            f"with it at its server: /quit, then chatbot --session {session_id} --base-url URL"
        )


def moved_notice(opened: Opened) -> str:
    """What ``/load`` says of a session that another provider or model than its own answers in this chat (a chat's
    provider stays the one it was started with: its key and client): which one made it, which one answers now, and
    how to go on with its own."""
    session, chat = opened.chat.session, opened.chat
    made = f"{opened.provider}, model {opened.model}" if opened.model else opened.provider
    now = f"{session.provider}, model {chat.model}"
    if opened.provider == session.provider:  # the same provider: /model switches back in this chat
        back = f"/model {opened.model}"
    else:
        model = f" --model {opened.model}" if opened.model else ""
        back = f"/quit, then chatbot --session {session.id} --provider {opened.provider}{model}"
    here = session.provider if opened.provider != session.provider else chat.model
    return (
        f"session {session.id} was made with {made}; this chat answers it with {now} (a turn sent here is stored "
        f"as {here}'s, and the session goes on with it); to go on with {made} instead: {back}"
    )


def _rename(app: App, arg: str, confirm: Confirm | None) -> Effects:
    if not arg:
        raise UsageError("usage: /rename TITLE")
    app.chat.rename(arg)
    # quoted as shown: a repr would escape again the codes preview already shows (\u202e read as \\u202e)
    return Note(f"session {app.chat.session.id} is now titled '{preview(arg, 60)}'")


def _delete(app: App, arg: str, confirm: Confirm | None) -> Effects:
    arg, force = split_force(arg)
    if not arg:
        raise UsageError("usage: /delete ID [--force]")
    session_id = app.deletable(arg)  # the session in use is refused before the question, not after a yes
    if not app.store.exists(session_id):
        raise UsageError(f"no session {session_id}")
    if not force:
        if confirm is None:  # a script: nobody to ask, and a deletion is for good, so only when the line says so
            raise UsageError(
                f"not deleted: /delete asks first and a script has nobody to ask; /delete {session_id} --force "
                "deletes without a question"
            )
        if not confirm(f"Delete session {session_id} for good?"):
            return Note("not deleted")
    app.delete(session_id)
    return Note(f"deleted session {session_id}")


def _export(app: App, arg: str, confirm: Confirm | None) -> Effects:
    session = app.chat.session
    arg, force = split_force(arg)
    path = write_file(arg or f"{session.id}.md", export_markdown(session), app.store.paths, force=force, ask=confirm)
    return Note(f"wrote the transcript of {session.id} to {path}")


def _fork(app: App, arg: str, confirm: Confirm | None) -> Effects:
    words = arg.split()
    turns = int(words.pop(0)) if words and re.fullmatch(r"[0-9]+", words[0]) else None
    if len(words) > 1:
        raise UsageError("usage: /fork [N] [ID]: turns 1..N (default: all) into session ID (default: a fresh id)")
    if turns == 0:  # a branch of nothing is a new session: say so rather than make one titled "fork ... at turn 0"
        raise UsageError("/fork 0 would keep no turn: /new starts an empty session, /fork N keeps turns 1..N")
    old = app.chat.session.id
    chat = app.fork(words[0] if words else None, turns)
    count = len(chat.conversation.turns)
    at = "" if turns is None else f" at turn {turns}"
    return Note(f"forked {old}{at} into {chat.session.id} ({count} turn(s)); now in {chat.session.id}")


COMMANDS: dict[str, Command] = {
    "/sessions": Command("/sessions [N]", f"list the newest N sessions (default {LISTED}; 0: all)", _sessions),
    "/search": Command("/search TEXT", "find past turns across all sessions", _search),
    "/new": Command("/new", "start a new session", _new),
    "/load": Command("/load ID", "switch to session ID", _load),
    "/fork": Command("/fork [N] [ID]", "copy this session (or its turns 1..N) into a new one and switch to it", _fork),
    "/rename": Command("/rename TITLE", "give this session a title", _rename),
    "/delete": Command("/delete ID [--force]", "delete session ID (asks first; --force: no question)", _delete),
    "/export": Command(
        "/export [PATH] [--force]", "write a Markdown transcript (default: ID.md; --force overwrites)", _export
    ),
}
