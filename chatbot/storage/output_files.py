"""A file the user names for chatbot to write: a transcript (``/export``), a timeline page (``/timeline html FILE``,
``--timeline ID --html FILE``) and the request log (``--log-requests FILE``). One guard for all of them:

- never the session store's own files (a session file, the SQLite file and its journals, the lock folders) nor
  anything inside the sessions folder: text written there breaks a session, the one in use included;
- never through a symbolic link at the path: a link planted there would send the text to whatever it points at
  (the log takes one that leads to a terminal or a pipe: ``--log-requests /dev/stderr``);
- never an existing file with other names (a hard link): ``ln sessions/s.json notes.md`` makes ``notes.md`` the
  session file itself, wherever it lies; one that is a file of the store is named as the store's. The path is checked
  first (before any question), then the file as opened (without following a link, without truncating it), so a swap
  between the check and the open does not get through;
- never a folder: it is named as one, with a file in it to name instead (``/tmp`` -> ``/tmp/chat.html``);
- an existing file is replaced only with consent: the user's yes to a question, or ``--force`` where nobody can be
  asked. The request log is the one file appended to instead (it is a log: each run adds its lines); it is never
  replaced, so it asks for no consent.

Every file is created readable by the user only (0600).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path

from chatbot.errors import ChatbotError, UsageError

#: asks the user a yes/no question (a terminal's prompt); None where nobody can be asked (a script)
Ask = Callable[[str], bool]


def split_force(arg: str) -> tuple[str, bool]:
    """A command's file argument, and whether ``--force`` follows it as a word of its own (``notes--force`` is a
    file's name)."""
    words = arg.strip()
    if words == "--force" or words.endswith(" --force"):
        return words.removesuffix("--force").strip(), True
    return words, False


def check_place(path: Path, store_paths: Sequence[Path], *, streams: bool = False, example: str = "chat.md") -> None:
    """Refuse (:class:`UsageError`) a symbolic link at ``path`` (with ``streams``, one to a terminal or a pipe is
    taken: a log may go to ``/dev/stderr``, itself a link), and a path that is one of ``store_paths`` (the store's files
    and folders, :attr:`SessionStore.paths`) or lies inside one, symbolic links on the way followed. A folder is
    refused with a file in it to name instead (``example``, the name suggested)."""
    if path.is_symlink() and not (streams and _stream(path)):
        raise UsageError(f"{path} is a symbolic link; chatbot never writes through one: name the file itself")
    resolved = path.resolve()
    for kept in store_paths:
        if resolved.is_relative_to(kept.resolve()):
            raise UsageError(f"{path} is inside the session store {kept} (sessions live there); write somewhere else")
    if path.is_dir():
        raise UsageError(f"{path} is a folder; name a file in it, e.g. {path / example}")
    named = os.lstat(path) if os.path.lexists(path) else None
    if named and named.st_nlink > 1:  # a file of one name is the store's only inside it (refused above)
        check_names(named, path, store_paths)


def check_names(found: os.stat_result, path: Path, store_paths: Sequence[Path]) -> None:
    """Refuse (:class:`UsageError`) a file (``found``, the status of what ``path`` names) that is one of the store's
    files under another name, and any with other names (a hard link, possibly to a session). The store's files are
    looked for whatever the count of names: the other name may be gone by the time an opened file is checked."""
    for kept in store_paths:
        if (found.st_dev, found.st_ino) in _identities(kept):
            raise UsageError(
                f"{path} is another name (a hard link) for a file of the session store {kept}; write somewhere else"
            )
    if found.st_nlink > 1 and not stat.S_ISDIR(found.st_mode):  # a folder's names count its subfolders
        raise UsageError(
            f"{path} has other names (a hard link, possibly to a session); chatbot never writes to one: write elsewhere"
        )


def _identities(kept: Path) -> set[tuple[int, int]]:
    """The (device, inode) of ``kept`` and of every file under it (a folder's): what a hard link to one shares."""
    paths = [kept, *(Path(folder, name) for folder, _, files in os.walk(kept) for name in files)]
    found = set()
    for path in paths:
        with contextlib.suppress(OSError):  # gone since (a lock released): it has no other name to check
            status = os.stat(path)
            found.add((status.st_dev, status.st_ino))
    return found


def _stream(path: Path) -> bool:
    """Whether ``path`` leads to a terminal or a pipe (``/dev/stderr``), not to a file a link could have been planted
    to reach (a ``link.jsonl`` to ``~/.bashrc``)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def write_file(
    path: str, text: str, store_paths: Sequence[Path], *, force: bool = False, ask: Ask | None = None
) -> Path:
    """Write ``text`` to the file the user named (``~`` expanded) after :func:`check_place`; the path written.

    An existing file is replaced when ``force`` is set or ``ask`` gets a yes; otherwise :class:`UsageError` says how
    to replace it (``--force``). A file the system refuses to write is a :class:`ChatbotError` naming it.
    """
    target = Path(os.path.expanduser(path))
    example = "chat.html" if text.startswith("<!DOCTYPE html>") else "chat.md"  # a timeline page, else a transcript
    try:
        check_place(target, store_paths, example=example)
        if os.path.lexists(target) and not force:
            if ask is None or not ask(f"{target} exists. Overwrite it?"):
                raise UsageError(f"{target} already exists; choose another path, or add --force to overwrite it")
            force = True
        write_private(target, text, overwrite=force, store_paths=store_paths)
    except (OSError, ValueError) as exc:  # a name too long, a folder not readable, a NUL byte in the name ...
        raise ChatbotError(f"cannot write {target}: {getattr(exc, 'strerror', None) or exc}") from None
    return target


def open_appending(path: str, store_paths: Sequence[Path]) -> int:
    """A descriptor that appends to the file the user named (created 0600), after :func:`check_place`: a log's (it
    may be ``/dev/stderr``, a link to a terminal or a pipe). The system's refusal is raised as it comes (OSError)."""
    target = Path(os.path.expanduser(path))
    check_place(target, store_paths, streams=True, example="requests.jsonl")
    linked = target.is_symlink()  # check_place let through only a link to a terminal or a pipe
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | (0 if linked else os.O_NOFOLLOW)
    return _checked(_opened(target, flags), target, store_paths, linked=linked)


def write_private(path: Path, text: str, *, overwrite: bool = False, store_paths: Sequence[Path] = ()) -> None:
    """Write ``text`` to a new file at ``path``, readable by the user only (0600).

    Never follows a symlink at ``path``; an existing file is replaced only with ``overwrite`` (FileExistsError
    otherwise), and never one with other names (:func:`check_names`, on the file as opened: it is truncated only
    after). Text that UTF-8 cannot hold (a lone surrogate) is written as "?" (the encoder's replacement).
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | (0 if overwrite else os.O_EXCL)
    fd = _checked(_opened(path, flags), path, store_paths)
    with os.fdopen(fd, "w", encoding="utf-8", errors="replace") as f:
        # A replaced file keeps its old mode and its text otherwise (a new one has 0600 from os.open). A device or a
        # pipe (/dev/null, a terminal) is left as it is: it has nothing to cut, and its mode is the system's (run as
        # root, a chmod here once made /dev/null unusable for every other user on the machine).
        if overwrite and stat.S_ISREG(os.fstat(fd).st_mode):
            os.fchmod(fd, 0o600)
            os.ftruncate(fd, 0)
        f.write(text)


def _opened(path: Path, flags: int) -> int:
    """``os.open(path, flags, 0o600)``, except that a named pipe no program reads is refused at once: opened to write,
    it waits for a reader, and /export, /timeline html or --log-requests hung with no word (a user trial)."""
    try:
        fd = os.open(path, flags | os.O_NONBLOCK, 0o600)  # a pipe without a reader: ENXIO instead of a wait
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise UsageError(f"{path} is a named pipe that no program is reading: start the reader first") from None
        raise
    os.set_blocking(fd, True)  # writes wait for a slow reader as usual
    return fd


def _checked(fd: int, path: Path, store_paths: Sequence[Path], *, linked: bool = False) -> int:
    """``fd`` once the file it opened passes :func:`check_names` (and, ``linked``, is still a terminal or a pipe: the
    link may have been swapped since it was checked); closed and refused otherwise."""
    try:
        opened = os.fstat(fd)
        if linked and not (stat.S_ISCHR(opened.st_mode) or stat.S_ISFIFO(opened.st_mode)):
            raise UsageError(f"{path} is a symbolic link; chatbot never writes through one: name the file itself")
        check_names(opened, path, store_paths)
    except BaseException:
        os.close(fd)
        raise
    return fd
