"""A folder as attachments (``/file src``, ``-f src``): its text files, each fenced with its path, in path order;
a PDF or a Word document among them by its text (the readers of :data:`~chatbot.attachments.attach.READERS` that
read inside folders), an image is not attached with its folder.

Inside a git work tree the files are the ones git lists (tracked, and untracked ones it does not ignore), so what
``.gitignore`` keeps out stays out; elsewhere a walk that skips hidden files and folders (``.git``, ``.env``,
``.venv``). Files that hold secrets (``.env``, private keys: the table of :mod:`~chatbot.attachments.secret_files`)
are left out wherever they are, tracked or not. Other binaries, symbolic links, text that is not UTF-8, empty files,
and whatever would take the folder over its total size are skipped; every file left out or skipped is named with
why, so the user sees what the model did not get.
"""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from chatbot.attachments.attach import READ_SECONDS, READERS, Reader, read_limited
from chatbot.attachments.secret_files import secret_why
from chatbot.errors import UsageError

MAX_FOLDER_BYTES = 512 * 1024  # all its text together: the size limit of one text file
MAX_FOLDER_FILES = 500  # files looked at; a larger tree is a project, not an attachment
MAX_FOLDER_DEPTH = 64  # folders inside folders; deeper ones are named, not read
SHOWN_IGNORED = 20  # ignored paths named one by one; more are counted
SNIFF_BYTES = 64 * 1024  # read at least this much of a file to tell its kind (a Word document names its parts there)
SHOWN_SKIPPED = 40  # skipped things named one by one in all; more are counted (a large tree past its total)


@dataclass(frozen=True)
class FolderFile:
    """A text file of the folder: its label (the folder as typed, then its path inside) and text."""

    label: str
    text: str
    kind: str = ""  # what the text came from when it is not a text file: "PDF, 3 page(s)", "Word document"
    real_path: str = ""  # the file, its symbolic links resolved (the folder's own path may be one)


@dataclass(frozen=True)
class Folder:
    """What a folder gave: its text files, one line for each file left out because it holds secrets and one for
    each thing skipped (``NAME (why)``)."""

    files: tuple[FolderFile, ...]
    skipped: tuple[str, ...]
    left_out: tuple[str, ...] = ()


def read_folder(path: Path, name: str) -> Folder:
    """The text files of the folder ``path`` (typed as ``name``); one UsageError when none can be attached."""
    base = name.rstrip("/")

    def label(rel: str) -> str:
        """A file's name for the user and the model: the folder as typed, then the path inside it."""
        return rel if base == "." else f"{base}/{rel}"

    def line(rel: str, why: str) -> str:
        """One skipped thing and why (``rel`` "" for a line about several)."""
        return f"{label(rel)} ({why})" if rel else why

    listed = _git_listing(path)
    paths, passed = listed if listed is not None else _walk(path)
    skipped = [line(rel, why) for rel, why in passed]
    paths = sorted(paths)
    if len(paths) > MAX_FOLDER_FILES:
        paths = paths[:MAX_FOLDER_FILES]
        skipped.append(f"the files after {paths[-1]} (a folder attaches at most {MAX_FOLDER_FILES} files)")
    files, secret, left = [], [], MAX_FOLDER_BYTES
    deadline = time.monotonic() + READ_SECONDS  # for the whole folder: its PDFs together, as one PDF alone
    for rel in paths:
        text, kind, why = _read(path / rel, left, deadline)
        held = secret_why(rel, text.encode("utf-8", "surrogatepass"))  # by its name, or by its text (a .pem)
        if held:
            secret.append(line(rel, held))
            continue
        if why:
            skipped.append(line(rel, why))
            continue
        files.append(FolderFile(label(rel), text, kind, str((path / rel).resolve())))
        left -= len(text.encode("utf-8", "surrogatepass"))
    if not files:
        reasons = "; ".join([*secret, *skipped][:3]) + ("; ..." if len(secret) + len(skipped) > 3 else "")
        raise UsageError(f"{name} has no text file to attach" + (f" (skipped: {reasons})" if reasons else ""))
    return Folder(tuple(files), _cut(skipped, "skipped"), _cut(secret, "left out"))


def _cut(lines: list[str], what: str) -> tuple[str, ...]:
    """``lines`` named one by one up to :data:`SHOWN_SKIPPED`, then how many more."""
    if len(lines) <= SHOWN_SKIPPED:
        return tuple(lines)
    return (*lines[: SHOWN_SKIPPED - 1], f"{len(lines) - SHOWN_SKIPPED + 1} more (of {len(lines)} {what} in all)")


def _read(path: Path, left: int, deadline: float) -> tuple[str, str, str]:
    """(text, kind, "") for a text file, or a file a reader of :data:`READERS` knows (a PDF, a Word document: its
    kind says which), whose text fits in ``left`` bytes; else ("", "", why it is skipped). A reader reads until
    ``deadline`` (a PDF of many pages)."""
    if path.is_symlink():
        return "", "", "a symbolic link"
    try:
        data, size = read_limited(path, max(left, SNIFF_BYTES), str(path))
        reader = next((r for r in READERS if r.in_folders and r.sniff(data)), None)
        if reader is not None:
            return (*_read_kind(path, reader, left, deadline), "")
    except UsageError as exc:
        return "", "", exc.message.removeprefix(f"{path} is ").removeprefix(f"{path}: ").removeprefix(f"{path} ")
    if b"\x00" in data[:8192]:
        return "", "", "binary"
    if size > left:
        return "", "", f"{size:,} bytes: over the folder's {MAX_FOLDER_BYTES:,}-byte total"
    if not data.strip():
        return "", "", "empty"
    try:
        return data.decode("utf-8-sig"), "", ""
    except UnicodeDecodeError:
        return "", "", "not UTF-8 text"


def _read_kind(path: Path, reader: Reader, left: int, deadline: float) -> tuple[str, str]:
    """(text, kind) of a file ``reader`` knows; a UsageError saying why it is skipped otherwise."""
    data, size = read_limited(path, reader.limit, str(path))
    if size > reader.limit:
        raise UsageError(f"{path} is {size:,} bytes; {reader.too_big} at most {reader.limit:,}")
    read = reader.read(data, str(path), max(0.0, deadline - time.monotonic()))
    used = len(read.text.encode("utf-8", "surrogatepass"))
    if used > left:
        raise UsageError(f"{path}: {used:,} bytes of text: over the folder's {MAX_FOLDER_BYTES:,}-byte total")
    return read.text, read.kind


def _git(path: Path, *args: str) -> str | None:
    """``git ARGS`` run in ``path`` (its output), or None when git is missing or refuses (not a work tree)."""
    # core.fsmonitor off: a repository's own config must not start a program of its choosing
    command = ["git", "-c", "core.fsmonitor=false", "-C", str(path), *args]
    try:
        done = subprocess.run(command, capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.decode("utf-8", "surrogateescape") if done.returncode == 0 else None


def _git_listing(path: Path) -> tuple[list[str], list[tuple[str, str]]] | None:
    """Inside a git work tree: the files git lists under ``path`` and what was skipped (ignored paths, and any path
    the index would lead outside the folder or through a symbolic link); None elsewhere."""
    if (_git(path, "rev-parse", "--is-inside-work-tree") or "").strip() != "true":
        return None
    listed = _git(path, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    ignored = _git(path, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
    if listed is None:
        return None
    paths, skipped = [], []
    for rel in sorted({p for p in listed.split("\0") if p}):
        why = outside(path, rel)
        if why:
            skipped.append((rel, why))
        elif os.path.lexists(path / rel):  # a tracked file deleted from the work tree is not there to read
            paths.append(rel)
    gone = sorted(p for p in (ignored or "").split("\0") if p)
    skipped += [(p, "ignored by git") for p in gone[:SHOWN_IGNORED]]
    if len(gone) > SHOWN_IGNORED:
        skipped.append(("", f"{len(gone) - SHOWN_IGNORED} more paths ignored by git"))
    return paths, skipped


def outside(folder: Path, rel: str) -> str:
    """Why the path ``rel`` that git listed must not be read as a file of ``folder`` ("" when it may): it leaves the
    folder (absolute, ``..``), or one of its folders is a symbolic link. A repository's index is anyone's to write,
    and a tracked folder can be replaced by a link to ``/etc`` or ``~/.ssh``: each component is looked at, not the
    joined path alone."""
    parts = rel.split("/")
    if os.path.isabs(rel) or any(p in ("", ".", "..") for p in parts):
        return "outside the folder: not read"
    here = folder
    for i, part in enumerate(parts[:-1]):
        here = here / part
        if here.is_symlink():
            return f"reached through the symbolic link {'/'.join(parts[: i + 1])}/: not read"
    real, top = os.path.realpath(folder / rel), os.path.realpath(folder)
    if os.path.commonpath([real, top]) != top and not (folder / rel).is_symlink():
        return "outside the folder: not read"  # a last word: whatever the components said, the file is elsewhere
    return ""


def _walk(path: Path) -> tuple[list[str], list[tuple[str, str]]]:
    """Outside git: every file under ``path`` but hidden ones (and those in hidden folders), and what was skipped:
    hidden things, symbolic links, folders that cannot be read or are too deep. A stack, not recursion: a folder
    thousands of levels deep is one more line, not a crash."""
    paths: list[str] = []
    skipped: list[tuple[str, str]] = []
    stack = [""]  # folders to look in, as paths inside ``path`` ("" the folder itself), the next one last
    while stack and len(paths) <= MAX_FOLDER_FILES:  # past the limit: enough to know the folder is too large
        prefix = stack.pop()
        try:
            with os.scandir(path / prefix if prefix else path) as found:
                entries = sorted(found, key=lambda e: e.name)
        except OSError as exc:
            skipped.append((prefix, f"cannot be read: {exc.strerror or exc}"))
            continue
        folders = []
        for entry in entries:
            rel = f"{prefix}{entry.name}"
            why = _walk_skip(entry, rel)
            if why:
                skipped.append((f"{rel}/" if entry.is_dir() else rel, why))
            elif entry.is_dir(follow_symlinks=False):
                folders.append(f"{rel}/")
            else:
                paths.append(rel)
        stack += reversed(folders)  # the first folder is looked in next: path order
    return paths, skipped


def _walk_skip(entry: os.DirEntry[str], rel: str) -> str:
    """Why the walk skips ``entry`` ("" when it does not)."""
    if entry.name.startswith("."):  # a .env is hidden, but that it holds secrets is what the user needs to hear
        return ("" if entry.is_dir(follow_symlinks=False) else secret_why(rel, b"")) or "hidden"
    if entry.is_symlink():
        return "a symbolic link"
    if entry.is_dir(follow_symlinks=False) and rel.count("/") >= MAX_FOLDER_DEPTH:
        return f"more than {MAX_FOLDER_DEPTH} folders deep: not read"
    return ""
