"""What one ``/file`` or ``-f`` names, attached: a file (text, PDF, PNG, JPEG), a folder of text files, or a web page.

Each gives one or more :class:`~chatbot.attachments.attach.Attachment`, the list of what was skipped (a folder's
binaries and ignored files) and the list of what was left out for its secrets (a folder's ``.env``:
:mod:`~chatbot.attachments.secret_files`); whatever cannot be attached at all is one UsageError naming it and why.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from chatbot.attachments.attach import MAX_TEXT_BYTES, USAGE, Attachment, Outbox, read_file
from chatbot.attachments.fetch import fetch, is_url
from chatbot.attachments.folder import read_folder
from chatbot.errors import UsageError
from chatbot.text import mask_password, one_line


@dataclass(frozen=True)
class Gathered:
    """What one source gave: its attachments, and one line for each thing skipped (``NAME (why)``) and each file
    left out because it holds secrets."""

    source: str
    items: tuple[Attachment, ...]
    skipped: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()
    folder: bool = False
    #: what a web page came through (" through the proxy URL ($VARIABLE)", a CA bundle), "" when nothing: told
    route: str = ""

    def describe(self) -> str:
        """What was attached, then what was left out for its secrets and what was skipped, one line each (every
        name on its line, its escapes and line breaks shown as codes: :func:`~chatbot.text.one_line`)."""
        shown = ", ".join(a.describe() for a in self.items)
        source = one_line(self.source)
        head = f"attached {len(self.items)} file(s) from {source}: {shown}" if self.folder else f"attached {shown}"
        head += f", fetched{self.route}" if self.route else ""
        secret = [f"left out {one_line(line)}" for line in self.left_out]
        return "\n".join([head, *secret, *(f"skipped {one_line(line)}" for line in self.skipped)])


def gather(source: str, *, allow_private_urls: bool = False) -> Gathered:
    """Read what ``source`` names (a path or an http(s) URL), or raise one UsageError naming it and why. A URL is
    fetched from a public address only, unless ``allow_private_urls`` (:mod:`chatbot.attachments.url_guard`)."""
    if not source.strip():
        raise UsageError(f"usage: /file PATH ({USAGE})")
    if is_url(source):
        text, kind, route = fetch(source.strip(), MAX_TEXT_BYTES, allow_private=allow_private_urls)
        # the label goes to the model and into the session: a password in the URL stays out of both
        label = mask_password(source.strip())
        return Gathered(label, (Attachment(label, text=text, kind=kind),), route=route)
    path = Path(source).expanduser()
    if path.is_dir():
        folder = read_folder(path, source)
        items = tuple(Attachment(f.label, text=f.text, kind=f.kind, real_path=f.real_path) for f in folder.files)
        return Gathered(source, items, folder.skipped, folder.left_out, folder=True)
    return Gathered(source, (read_file(source),))


def add_to(outbox: Outbox, gathered: Gathered) -> tuple[Gathered, list[tuple[Attachment, Attachment]]]:
    """Put what ``gathered`` holds in ``outbox``, each file once however it was named; returns what was added, and
    the files left out as repeats, each with the one waiting already (:func:`~chatbot.attachments.attach.repeats_line`
    says them in one line)."""
    added, repeats = [], []
    for attachment in gathered.items:
        same = outbox.add(attachment)
        if same is None:
            added.append(attachment)
        else:
            repeats.append((attachment, same))
    return replace(gathered, items=tuple(added)), repeats
