"""What goes into a user message besides what was typed: piped text and attached files.

Layout (docs/config.md shows it to users): each attachment is a fenced block labelled with its name (``stdin`` for
piped text, the path for a file), in the order given, then a blank line and the typed text. The fence is longer
than any run of backticks inside, so a file that itself holds Markdown fences stays intact. Images (PNG, JPEG)
become OpenAI ``image_url`` parts with a base64 ``data:`` URL; a message with an image is a list of parts (one
text part first, then the images), otherwise it stays a plain string.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from chatbot.attachments.pdf import MAX_PDF_BYTES, MAX_PDF_SECONDS, is_pdf, pdf_text
from chatbot.attachments.secret_files import refusal, secret_why
from chatbot.attachments.word import DOCX_TYPE, MAX_DOCX_BYTES, is_word, word_text
from chatbot.engine.tokens import image_size, image_tokens_for_size
from chatbot.engine.turn import content_text
from chatbot.errors import UsageError
from chatbot.storage.files import NotRegularFile, read_regular
from chatbot.text import one_line, preview

MAX_TEXT_BYTES = 512 * 1024  # larger text would not fit any sensible budget; the budget check still applies below
MAX_IMAGE_BYTES = 20 * 1024 * 1024  # OpenAI's limit for one image
IMAGE_TYPES = {b"\x89PNG\r\n\x1a\n": "image/png", b"\xff\xd8\xff": "image/jpeg"}

Content = str | list[dict[str, Any]]

#: characters of a title made from a first message: as many as a listing shows of an untitled session's first message
TITLE_CHARS = 50

#: what /file and -f take, for usage lines
USAGE = "a text file, PDF, Word document (.docx), PNG or JPEG, a folder of text files, or an http(s) URL"


@dataclass(frozen=True)
class Attachment:
    """One piece of attached context: ``text`` for text, ``data_url`` for an image."""

    name: str
    text: str = ""
    data_url: str = ""
    size: tuple[int, int] | None = None  # an image's pixels, when its header says
    kind: str = ""  # what the text came from when it is not a text file: "PDF, 3 pages", "web page"
    #: the file it was read from, its symbolic links resolved ("" for piped text and a web page): what makes two
    #: attachments the same file (notes.txt, ./notes.txt, a link to it, the folder holding it)
    real_path: str = ""

    @property
    def is_image(self) -> bool:
        """Whether this is an image part rather than fenced text."""
        return bool(self.data_url)

    def describe(self) -> str:
        """One line for the user: what was attached and roughly what it costs."""
        if self.is_image:
            w, h = self.size or (0, 0)
            return f"{one_line(self.name)} (image {w}x{h}, ~{image_tokens_for_size(w, h)} tokens)"
        kind = f"{self.kind}, " if self.kind else ""
        return f"{one_line(self.name)} ({kind}{len(self.text.splitlines())} lines)"


def repeats_line(repeats: list[tuple[Attachment, Attachment]]) -> str:
    """One line for the files left out as repeats, each ``(left out, the one attached)``: "" for none."""
    if not repeats:
        return ""
    named = ", ".join(
        one_line(new.name) + (f" (the same file as {one_line(old.name)})" if new.name != old.name else "")
        for new, old in repeats
    )
    return f"left out {named}: attached already, and a file goes once with a message"


def fence(label: str, text: str) -> str:
    """``text`` in a fenced block labelled ``label``; the fence outgrows any backtick run inside."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{fence_label(label)}\n{text.rstrip(chr(10))}\n{ticks}"


def fence_label(label: str) -> str:
    """``label`` as one line that cannot end the fence it opens: a newline (any line break or control), or a
    backtick (an info string holding one is no fence), would let a file's name put text outside the fences, where it
    reads as the user's own words; each such character is written as its escape (``\\n`` as ``\\u000a``)."""
    return one_line(label).replace("`", "\\u0060")


def decode_text(data: bytes, name: str) -> str:
    """``data`` as UTF-8 text (a BOM is dropped), or a UsageError saying where it is not text."""
    if b"\x00" in data[:8192]:
        raise UsageError(f"{name} is binary, not text (attach text files, PDF, Word documents, PNG or JPEG)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"{name} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); convert it first, "
            "e.g. with iconv"
        ) from None


def from_stdin(data: bytes) -> Attachment | None:
    """Piped text as an attachment labelled ``stdin``; None when nothing (or only whitespace) was piped."""
    if len(data) > MAX_TEXT_BYTES:
        raise UsageError(f"piped input is {len(data):,} bytes; the limit is {MAX_TEXT_BYTES:,}")
    text = decode_text(data, "piped input")
    return Attachment("stdin", text=text) if text.strip() else None


@dataclass(frozen=True)
class Reader:
    """One kind of file an attachment can be: told apart by its first bytes (``sniff``), at most ``limit`` bytes
    (``too_big`` says so), read into an attachment named ``name`` in at most ``seconds`` (``read(data, name,
    seconds)``). The same row reads it attached by itself, as one of a folder's files (unless not ``in_folders``) and
    fetched from a URL that serves it as one of ``types`` (none: never fetched); ``what`` names it there. A file
    attached by itself whose name ends in one of ``suffixes`` is read by the row even when its bytes are not what
    ``sniff`` knows (a damaged ``.docx`` is then said to be a damaged Word document, not binary text)."""

    sniff: Callable[[bytes], bool]
    limit: int
    too_big: str  # "a PDF can be", "images can be": what the size error says
    read: Callable[[bytes, str, float], Attachment]
    types: tuple[str, ...] = ()
    what: str = ""
    in_folders: bool = True
    suffixes: tuple[str, ...] = ()


def _pdf(data: bytes, name: str, seconds: float) -> Attachment:
    pdf = pdf_text(data, name, MAX_TEXT_BYTES, seconds)
    return Attachment(name, text=pdf.text, kind=pdf.kind)


def _word(data: bytes, name: str, seconds: float) -> Attachment:
    return Attachment(name, text=word_text(data, name, MAX_TEXT_BYTES), kind="Word document")


def _image_type(data: bytes) -> str | None:
    return next((mime for magic, mime in IMAGE_TYPES.items() if data.startswith(magic)), None)


def _image(data: bytes, name: str, seconds: float) -> Attachment:
    url = f"data:{_image_type(data)};base64,{base64.b64encode(data).decode('ascii')}"
    return Attachment(name, data_url=url, size=image_size(data))


#: the kinds of file an attachment can be, asked in order; a file none of them knows is read as UTF-8 text (a new
#: kind is a row here)
READERS = (
    Reader(is_pdf, MAX_PDF_BYTES, "a PDF can be", _pdf, ("application/pdf",), "PDF"),
    Reader(
        is_word, MAX_DOCX_BYTES, "a Word document can be", _word, (DOCX_TYPE,), "Word document", suffixes=(".docx",)
    ),
    Reader(lambda data: _image_type(data) is not None, MAX_IMAGE_BYTES, "images can be", _image, in_folders=False),
)
#: text, when no reader knows the file
TEXT = Reader(
    lambda data: True,
    MAX_TEXT_BYTES,
    "text files can be",
    lambda data, name, seconds: Attachment(name, text=decode_text(data, name)),
)
#: how long reading one file may take at most (a PDF of many pages); a URL's: what is left of the fetch's deadline
READ_SECONDS = MAX_PDF_SECONDS


def read_file(path_text: str) -> Attachment:
    """A file as an attachment: text (UTF-8) fenced with its name, or what a reader of :data:`READERS` makes of it
    (a PDF's or Word document's text, a PNG/JPEG image). One clear error otherwise, and for a file that holds
    secrets (a ``.env``: :mod:`~chatbot.attachments.secret_files`). (A folder or a URL:
    :func:`chatbot.attachments.sources.gather`.)"""
    if not path_text.strip():
        raise UsageError(f"usage: /file PATH ({USAGE})")
    path, shown = Path(path_text).expanduser(), one_line(path_text)  # (an error names it on one line, as shown)
    data, size = read_limited(path, max(r.limit for r in READERS), shown)
    held = secret_why(path.name, data) or secret_why(path.resolve().name, data)  # a link named notes.txt to .env
    if held:
        raise UsageError(refusal(shown, held))
    reader = next((r for r in READERS if r.sniff(data)), None)
    reader = reader or next((r for r in READERS if r.suffixes and path.name.lower().endswith(r.suffixes)), TEXT)
    if size > reader.limit:
        raise UsageError(f"{shown} is {size:,} bytes; {reader.too_big} at most {reader.limit:,}")
    return replace(reader.read(data, path_text, READ_SECONDS), real_path=str(path.resolve()))


def read_limited(path: Path, limit: int, name: str) -> tuple[bytes, int]:
    """At most ``limit`` + 1 bytes of the regular file ``path`` and its size (what was read, when that is more than
    the size said: a growing file, ``/proc``), or one UsageError naming the problem (a FIFO, a device, a socket)."""
    try:
        data, st = read_regular(path, limit + 1)
    except NotRegularFile as exc:
        raise UsageError(
            f"{name} is {exc.strerror}: only files are read (save a command's output to one first)"
        ) from None
    except OSError as exc:
        raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from None
    return data, max(st.st_size, len(data))


def compose(text: str, attachments: list[Attachment] | tuple[Attachment, ...]) -> Content:
    """The user message content for ``text`` with ``attachments`` (see the module docstring for the layout)."""
    blocks = [fence(a.name, a.text) for a in attachments if not a.is_image]
    body = "\n\n".join([*blocks, text]) if blocks else text
    images = [a for a in attachments if a.is_image]
    if not images:
        return body
    parts: list[dict[str, Any]] = [{"type": "text", "text": body}]
    parts += [{"type": "image_url", "image_url": {"url": a.data_url}} for a in images]
    return parts


def with_text(old: Content | None, text: str) -> Content:
    """A message that replaces ``old`` with the edited ``text`` (/edit): the images ``old`` carried stay with it (its
    text, fenced files included, is what was edited)."""
    if isinstance(old, list):
        images = [p for p in old if isinstance(p, dict) and p.get("type") == "image_url"]
        if images:
            return [{"type": "text", "text": text}, *images]
    return text


class Outbox:
    """The files attached (``/file``, ``-f``, piped stdin) to the next message, until it is sent."""

    def __init__(self) -> None:
        self._items: list[Attachment] = []

    def add(self, attachment: Attachment) -> Attachment | None:
        """Attach ``attachment`` to the next message (it is stored with that turn), unless the same file waits
        already: a file goes once per message, however it was named. Returns the one waiting then (not added)."""
        same = next((a for a in self._items if attachment.real_path and a.real_path == attachment.real_path), None)
        if same is None:
            self._items.append(attachment)
        return same

    def items(self) -> tuple[Attachment, ...]:
        """What is waiting for the next message."""
        return tuple(self._items)

    def clear(self) -> int:
        """Drop what is waiting; returns how many there were."""
        count, self._items = len(self._items), []
        return count

    def title(self, text: Content) -> str:
        """What a session whose first message is ``text`` with what is waiting is called: the start of what the user
        typed, never a file's contents (which come first in the message); with nothing typed, the files' names."""
        typed = preview(content_text(text), TITLE_CHARS)
        return typed or preview(", ".join(a.name for a in self._items), TITLE_CHARS)

    def take(self, text: Content) -> Content:
        """The next message's content: ``text`` with everything waiting (which is then cleared)."""
        items, self._items = self._items, []
        return compose(text, items) if items and isinstance(text, str) else text
