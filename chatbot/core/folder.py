"""A folder as attachments (``/file src``, ``-f src``): its text files, each fenced with its path, in path order.

Inside a git work tree the files are the ones git lists (tracked, and untracked ones it does not ignore), so what
``.gitignore`` keeps out stays out; elsewhere a walk that skips hidden files and folders (``.git``, ``.env``,
``.venv``). Binaries, symbolic links, text that is not UTF-8, empty files, and whatever would take the folder over
its total size are skipped; every skip is named with why, so the user sees what the model did not get.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from chatbot.core.attach import read_limited
from chatbot.errors import UsageError

MAX_FOLDER_BYTES = 512 * 1024  # all its text together: the size limit of one text file
MAX_FOLDER_FILES = 500  # files looked at; a larger tree is a project, not an attachment
SHOWN_IGNORED = 20  # ignored paths named one by one; more are counted
SHOWN_SKIPPED = 40  # skipped things named one by one in all; more are counted (a large tree past its total)


@dataclass(frozen=True)
class FolderFile:
    """A text file of the folder: its label (the folder as typed, then its path inside) and text."""

    label: str
    text: str


@dataclass(frozen=True)
class Folder:
    """What a folder gave: its text files, and one line for each thing skipped (``NAME (why)``)."""

    files: tuple[FolderFile, ...]
    skipped: tuple[str, ...]


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
    files, left = [], MAX_FOLDER_BYTES
    for rel in paths:
        text, why = _read(path / rel, left)
        if why:
            skipped.append(line(rel, why))
            continue
        files.append(FolderFile(label(rel), text))
        left -= len(text.encode("utf-8", "surrogatepass"))
    if not files:
        reasons = "; ".join(skipped[:3]) + ("; ..." if len(skipped) > 3 else "")
        raise UsageError(f"{name} has no text file to attach" + (f" (skipped: {reasons})" if reasons else ""))
    if len(skipped) > SHOWN_SKIPPED:
        skipped[SHOWN_SKIPPED - 1 :] = [f"{len(skipped) - SHOWN_SKIPPED + 1} more (of {len(skipped)} skipped in all)"]
    return Folder(tuple(files), tuple(skipped))


def _read(path: Path, left: int) -> tuple[str, str]:
    """(text, "") for a text file that fits in ``left`` bytes, else ("", why it is skipped)."""
    if path.is_symlink():
        return "", "a symbolic link"
    try:
        data, size = read_limited(path, left, str(path))
    except UsageError as exc:
        return "", exc.message.removeprefix(f"{path} is ").removeprefix(f"{path}: ")
    if b"\x00" in data[:8192]:
        return "", "binary"
    if size > left:
        return "", f"{size:,} bytes: over the folder's {MAX_FOLDER_BYTES:,}-byte total"
    if not data.strip():
        return "", "empty"
    try:
        return data.decode("utf-8-sig"), ""
    except UnicodeDecodeError:
        return "", "not UTF-8 text"


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
    """Inside a git work tree: the files git lists under ``path`` and the ignored paths skipped; None elsewhere."""
    if (_git(path, "rev-parse", "--is-inside-work-tree") or "").strip() != "true":
        return None
    listed = _git(path, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    ignored = _git(path, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
    if listed is None:
        return None
    paths = sorted({p for p in listed.split("\0") if p and os.path.lexists(path / p)})
    gone = sorted(p for p in (ignored or "").split("\0") if p)
    skipped = [(p, "ignored by git") for p in gone[:SHOWN_IGNORED]]
    if len(gone) > SHOWN_IGNORED:
        skipped.append(("", f"{len(gone) - SHOWN_IGNORED} more paths ignored by git"))
    return paths, skipped


def _walk(path: Path) -> tuple[list[str], list[tuple[str, str]]]:
    """Outside git: every file under ``path`` but hidden ones (and those in hidden folders), and what was skipped."""
    paths: list[str] = []
    skipped: list[tuple[str, str]] = []
    for root, dirs, names in os.walk(path):
        here = os.path.relpath(root, path)
        prefix = "" if here == "." else f"{here}/"
        skipped += [(f"{prefix}{d}/", "hidden") for d in sorted(dirs) if d.startswith(".")]
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))  # os.walk descends into what is left, in order
        for n in sorted(names):
            if n.startswith("."):
                skipped.append((f"{prefix}{n}", "hidden"))
            else:
                paths.append(f"{prefix}{n}")
        if len(paths) > MAX_FOLDER_FILES:
            break  # enough to know the folder is too large: no need to walk all of it
    return paths, skipped
