"""The text of a Word document (``.docx``), for an attachment (``/file notes.docx``, ``-f``, a folder's file, a URL
that serves one), read with ``python-docx``.

Paragraphs and tables are read in the order they stand in the document. A heading keeps its level as Markdown does
(``## Methods`` for "Heading 2"; the title as a first level), a list item starts with ``- ``, and a table is its rows, a
line each (``| cell | cell``), as a web page's tables are (:mod:`~chatbot.attachments.page_text`). Headers, footers,
comments and images are left out.

A ``.docx`` is a ZIP archive: the sizes its entries say they unpack to are checked before anything is unpacked (a few
kilobytes must not become gigabytes). A password-protected ``.docx`` is not a ZIP but an OLE compound file, as the old
binary ``.doc`` is: both are told apart by their first bytes and refused in one line saying what to do.
"""

from __future__ import annotations

import io
import zipfile
from typing import TYPE_CHECKING

from chatbot.errors import UsageError

if TYPE_CHECKING:
    from docx.document import Document
    from docx.table import Table, _Cell
    from docx.text.paragraph import Paragraph

ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an encrypted Office file, or an old binary .doc/.xls/.ppt
MAX_DOCX_BYTES = 20 * 1024 * 1024  # the file; its text is held to the text limit (attach.MAX_TEXT_BYTES)
MAX_UNPACKED_BYTES = 100 * 1024 * 1024  # what its entries may unpack to, all together
DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
SNIFF_BYTES = 64 * 1024  # the first entries' names (``word/...``) stand in the first bytes of the archive


def is_word(data: bytes) -> bool:
    """Whether ``data`` starts as a Word document does: a ZIP whose first entries name ``word/``, or an OLE file
    (password-protected or old-format; :func:`word_text` says which and refuses it)."""
    return data.startswith(OLE_MAGIC) or (data.startswith(ZIP_MAGIC) and b"word/" in data[:SNIFF_BYTES])


def word_text(data: bytes, name: str, max_bytes: int) -> str:
    """The text of the Word document ``data`` (see the module docstring); one UsageError naming ``name`` when it is
    password-protected, in the old binary format, damaged, has no text, or more than ``max_bytes`` of it."""
    if data.startswith(OLE_MAGIC):
        if "EncryptedPackage".encode("utf-16-le") in data:
            raise UsageError(f"{name} is a password-protected Word document; save a copy without the password first")
        raise UsageError(f"{name} is an Office file in the old binary format (.doc); save it as .docx first")
    document = _open(data, name)
    try:
        lines = [line for block in document.iter_inner_content() for line in _block(block)]
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as exc:  # an odd document python-docx trips on
        raise UsageError(f"{name} is not a readable Word document ({type(exc).__name__}: {exc})") from None
    text = "\n".join(lines).strip()
    if not text:
        raise UsageError(f"{name} is a Word document with no text")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise UsageError(f"{name} holds {size:,} bytes of text; attached text can be at most {max_bytes:,}")
    return text


def _open(data: bytes, name: str) -> Document:
    """The document python-docx reads from ``data``, after the archive's sizes are checked."""
    from docx import Document as open_document
    from docx.opc.exceptions import PackageNotFoundError
    from lxml.etree import LxmlError

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(entry.file_size for entry in archive.infolist())
            if unpacked > MAX_UNPACKED_BYTES:
                limit = f"a Word document may unpack to at most {MAX_UNPACKED_BYTES:,}"
                raise UsageError(f"{name} unpacks to {unpacked:,} bytes; {limit}")
        return open_document(io.BytesIO(data))
    except (zipfile.BadZipFile, PackageNotFoundError) as exc:
        raise UsageError(f"{name} is not a readable Word document (a damaged archive: {exc})") from None
    except LxmlError as exc:
        raise UsageError(f"{name} is not a readable Word document (its XML is damaged: {exc})") from None
    except (ValueError, KeyError, TypeError, AttributeError, EOFError, NotImplementedError) as exc:
        # a damaged archive makes zipfile and python-docx fail in ways that are not their own error classes
        raise UsageError(f"{name} is not a readable Word document ({type(exc).__name__}: {exc})") from None


def _block(block: Paragraph | Table) -> list[str]:
    """The lines of one paragraph or table."""
    from docx.table import Table

    if isinstance(block, Table):
        return ["", *(_row(row.cells) for row in block.rows), ""]
    text = block.text.strip()
    if not text:
        return []
    style = (block.style.name if block.style is not None else "") or ""
    if style == "Title":
        return [f"# {text}"]
    level = style.removeprefix("Heading ")
    if level != style and level.isdigit():
        return [f"{'#' * min(int(level), 6)} {text}"]
    return [f"- {text}"] if style.startswith("List") else [text]


def _row(cells: list[_Cell]) -> str:
    """One table row as ``| cell | cell``; a cell merged across columns (python-docx gives it once a column) is said
    once, its paragraphs on one line."""
    shown: list[str] = []
    last = None
    for cell in cells:
        if cell._tc is not last:
            shown.append(" ".join(cell.text.split()))
        last = cell._tc
    return " ".join(f"| {text}" for text in shown).rstrip()
