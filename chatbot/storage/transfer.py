"""``--import-sessions PATH``: copy sessions into the store in use (any store), safely repeatable.

PATH is a folder (every ``*.json`` in it) or one file. A file is named ``<id>.json``, or is a rescue file
(``chatbot-rescue-….json``, whose session id is the one inside it). PATH can also be another store, as ``--store``
names it (``sqlite:///chat.db``, ``postgresql://…``): its every session is copied, with its id and times, which is
how sessions move out of a SQLite or PostgreSQL store (``--store DIR --import-sessions sqlite:///chat.db`` writes
them as JSON files). Each session is, for the store:

- **imported** when the store has no session with that id;
- **unchanged** when the store already holds exactly this session (so a second run changes nothing);
- **updated** when the file continues the stored session (same start, every stored turn, more after them): this is
  how a rescue file written while the database was unreachable goes back in;
- **refused** otherwise (a broken file, an id in use by another process, or a different session under the same id),
  each named with the reason. Nothing in the store is overwritten by a file that does not continue it. A whole
  rescue file whose session the store holds otherwise (another process wrote it since the turns were rescued) is
  imported under an id of its own, ``ID-rescued``, and the report says so: rescued turns always have a way back.

A file can name tools (``tool_sources``: ``--functions`` files, ``--mcp`` commands), which a continued session
starts again. A file anyone handed over must not run code by being opened, so its tools are kept marked
``imported`` (not attached until the user names them on the command line once, :mod:`chatbot.cli.reattach`), unless
they are the very ones the stored session already trusted; the report names each session whose tools were not
carried over as trusted, and the flags that attach them.

A small rescue file (``rescued_after: N``: only the turns after the first N, which the store held when it was
written) has its turns **appended** to the stored session that still ends at (or within) them, counted as updated,
or unchanged when the store has them all; with no such session stored, they become a session of their own, which
the same rescue (imported again) or a later one of the same turns then finds its turns in.

A store that cannot reach its database writes what it could not save with :func:`write_rescue`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from chatbot.errors import SessionChanged, SessionError, UsageError
from chatbot.storage import files
from chatbot.storage.base import SessionStore
from chatbot.storage.session import ID_PATTERN, Session
from chatbot.storage.session_format import decode_session


@dataclass
class ImportReport:
    """How many files went which way, and why each refused one was."""

    imported: int = 0
    updated: int = 0
    unchanged: int = 0
    source: str = ""  # what was imported, as messages name it (a store's URL without its password)
    refused: list[str] = field(default_factory=list)
    untrusted: list[str] = field(default_factory=list)  # sessions whose tools were not carried over as trusted
    moved: list[str] = field(default_factory=list)  # rescued sessions imported under an id of their own

    def summary(self, source: str, target: str) -> str:
        """The report for the user: one line of counts, then one line per refused file."""
        head = (
            f"imported {self.imported}, updated {self.updated}, unchanged {self.unchanged}, refused "
            f"{len(self.refused)} session(s) from {source} into {target}"
        )
        lines = [*(f"  refused {why}" for why in self.refused), *(f"  {m}" for m in self.moved)]
        return "\n".join([head, *lines, *(f"  {t}" for t in self.untrusted)])


def import_sessions(directory: str | os.PathLike[str], store: SessionStore) -> ImportReport:
    """Copy every session file of ``directory`` into ``store`` (see the module docstring for what happens to each)."""
    from chatbot.storage import open_store, sqlite_address, store_kind

    kind = store_kind(directory).name
    if kind == "sqlite" and not sqlite_address.path_of(os.fspath(directory)).exists():  # (opening it makes nothing)
        raise UsageError(f"--import-sessions: {os.fspath(directory)} does not exist: there is no SQLite file to read")
    if kind != "json":  # another store: every session of it
        source_store = open_store(directory)
        try:
            return _from_store(source_store, store)
        finally:
            source_store.close()
    source = Path(directory)
    if source.is_dir():
        paths = sorted(source.glob("*.json"))  # rescue files sort by their time: each continues the one before
    elif source.is_file():
        paths = [source]
    else:
        raise UsageError(f"--import-sessions: {source} is not a directory or a session file")
    report = ImportReport(source=str(source))
    for path in paths:
        rescued = path.name.startswith(RESCUE_PREFIX)
        if not rescued and not ID_PATTERN.fullmatch(path.stem):
            report.refused.append(f"{path.name}: the file name is not a session id")
            continue
        try:
            data, problem = decode_session(files.read_regular(path)[0])  # a FIFO or /dev/zero is refused unread
        except files.NotRegularFile as exc:
            data, problem = {}, f"it is {exc.strerror}"
        except OSError as exc:
            data, problem = {}, f"cannot read it: {exc.strerror}"
        sid = str(data.get("id")) if rescued else path.stem
        if not problem and not ID_PATTERN.fullmatch(sid):
            problem = f"the session id {sid!r} inside it is not a valid id"
        if problem:
            report.refused.append(f"{path.name}: {problem}")
            continue
        try:
            if "rescued_after" in data:
                _append_rescued(store, Session.from_dict(data, sid), data["rescued_after"], report)
            elif rescued:
                _import_rescued(store, Session.from_dict(data, sid), report, path.name)
            else:
                _import_one(store, Session.from_dict(data, sid), report)
        except SessionError as exc:
            report.refused.append(f"{path.name}: {exc.message}")
    return report


def _from_store(source: SessionStore, store: SessionStore) -> ImportReport:
    """Every session of another store into ``store``: imported, unchanged, updated or refused as a file would be."""
    report = ImportReport(source=source.location)
    if source.location == store.location:
        raise UsageError(f"--import-sessions: {source.location} is the store in use; name another store or folder")
    for info in source.list_sessions(0):
        if info.broken:
            report.refused.append(f"{info.id}: {info.broken}")
            continue
        try:
            _import_one(store, source.load(info.id), report)
        except SessionError as exc:
            report.refused.append(f"{info.id}: {exc.message}")
    return report


def _append_rescued(store: SessionStore, rescued: Session, after: int, report: ImportReport) -> None:
    """A small rescue: its turns follow the stored session's first ``after`` turns."""
    with store.acquire(rescued.id):
        if not store.exists(rescued.id):
            note = _distrust(rescued, None)
            store.save(rescued, touch=False)  # the stored turns are gone: the rescued ones make a session
            report.imported += 1
            report.untrusted += [note] if note else []
            return
        current = store.load(rescued.id)
        stored = [t.to_dict() for t in current.conversation.turns]
        new = rescued.conversation.turns
        new_dicts = [t.to_dict() for t in new]
        start = _where_they_follow(stored, new_dicts, after)
        have = stored[start:] if start is not None else []
        if start is not None and have[: len(new)] == new_dicts:
            report.unchanged += 1  # the store holds them all already
            return
        if start is None or new_dicts[: len(have)] != have:
            raise SessionError(
                f"session {rescued.id} in the store no longer ends with the turns these follow; it was left as it is"
            )
        for turn in new[len(have) :]:
            current.conversation.add_turn(turn)
        store.save(current)
        report.updated += 1


def _where_they_follow(stored: list[dict[str, Any]], new: list[dict[str, Any]], after: int) -> int | None:
    """Where rescued turns begin among the stored ones, or None when the stored session went another way.

    In the session they were rescued from, that is at ``after``; in a session an earlier import made of the rescued
    turns alone (its own was gone), it is where their first turn is (a turn's time makes it one of a kind).
    """
    if new and new[0] in stored:
        return stored.index(new[0])
    return after if len(stored) == after or (not new and len(stored) >= after) else None


def _import_one(store: SessionStore, session: Session, report: ImportReport) -> None:
    with store.acquire(session.id):
        current = store.load(session.id) if store.exists(session.id) else None
        note = _distrust(session, current)
        if current is None:
            store.save(session, touch=False)
            report.imported += 1
        elif current.to_dict() == session.to_dict():
            report.unchanged += 1
        elif _continues(session, current):
            store.save(session, touch=False)
            report.updated += 1
        else:
            raise SessionChanged(f"the store holds a different session {session.id}; it was left as it is")
        report.untrusted += [note] if note else []


def _import_rescued(store: SessionStore, session: Session, report: ImportReport, name: str) -> None:
    """A whole session from a rescue file: as any session file, and when the store's session of that id went another
    way (another process wrote it since), under an id of its own (``ID-rescued``, ``ID-rescued-2`` ...), which a later
    rescue of the same session then continues: the rescued turns are never refused for having nowhere to go. A
    stored session that holds every rescued turn already (it went on from them: a later save, or the user carried on
    in ``ID-rescued``) counts the file unchanged, so an import is safe to run again."""
    original = session.id
    for n in range(MAX_RESCUED_IDS + 1):
        session.id = rescued_id(original, n) if n else original
        unchanged = report.unchanged
        try:
            _import_one(store, session, report)
        except SessionChanged:
            if _holds_already(store, session):
                report.unchanged += 1
                return
            continue  # that id went another way: the next one
        if n and report.unchanged == unchanged:  # imported or updated under an id of its own: said where
            report.moved.append(f"{name}: session {original} in the store went on without these turns since; they "
                                f"are in session {session.id}")  # fmt: skip
        return
    raise SessionError(f"session {original} in the store went on without these turns, and so did {session.id}")


def _holds_already(store: SessionStore, session: Session) -> bool:
    """Whether the stored session of ``session.id`` is ``session`` gone on: the same start, every turn of it first."""
    stored = store.load(session.id)
    mine = [t.to_dict() for t in session.conversation.turns]
    theirs = [t.to_dict() for t in stored.conversation.turns[: len(mine)]]
    return stored.created_at == session.created_at and theirs == mine


#: how many ``ID-rescued-N`` ids a rescue file is tried under before it is refused
MAX_RESCUED_IDS = 20


def rescued_id(sid: str, n: int) -> str:
    """The id a rescued session takes when ``sid`` in the store went another way: ``sid-rescued`` (then
    ``-rescued-2`` ...), ``sid`` shortened to keep it a valid id."""
    tail = "-rescued" if n == 1 else f"-rescued-{n}"
    return sid[: 64 - len(tail)] + tail


def _distrust(session: Session, stored: Session | None) -> str:
    """Mark the tools ``session`` names as imported (not attached until the user names them), unless the stored
    session already trusted the very same ones; what the report says of them ("" when there is nothing to say)."""
    sources = session.tool_sources
    if not sources:
        return ""
    trusted = stored is not None and not stored.tool_sources.imported and stored.tool_sources.same_tools(sources)
    session.tool_sources = replace(sources, imported=not trusted)
    if trusted:
        return ""
    return (
        f"session {session.id}: its tools are not trusted, so they are not started until you attach them once "
        f"(--session {session.id} {sources.as_flags()})"
    )


def _continues(new: Session, stored: Session) -> bool:
    """Whether ``new`` is ``stored`` plus later turns (or later changes of the same turns' session)."""
    old_turns = [t.to_dict() for t in stored.conversation.turns]
    new_turns = [t.to_dict() for t in new.conversation.turns[: len(old_turns)]]
    return new.created_at == stored.created_at and new_turns == old_turns and new.updated_at >= stored.updated_at


RESCUE_PREFIX = "chatbot-rescue-"  # how every rescue file's name begins (chatbot.storage.rescue)


def default_rescue_dir() -> Path:
    """Where a store that lost its database writes the sessions it could not save."""
    import platformdirs

    return platformdirs.user_data_path("chatbot") / "rescue"


def write_rescue(session: Session, rescue_dir: Path) -> Path:
    """Write ``session`` as a JSON session file in a new folder of ``rescue_dir`` (importable as it is)."""
    folder = rescue_dir / datetime.now().strftime("%Y%m%dT%H%M%S")
    files.open_private_directory(rescue_dir)
    files.open_private_directory(folder)
    path = folder / f"{session.id}.json"
    files.write_atomic(path, session.to_json())
    return path
