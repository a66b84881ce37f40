"""The text of a PDF, for an attachment (``/file report.pdf``, ``-f``, a URL that serves one), read with ``pypdf``.

Only the text layer is read: a scanned PDF has none and is refused, as is an encrypted one that needs a password (a
PDF encrypted with an empty password, only to restrict printing or copying, opens as any other). Pages are read in
order until the text limit, :data:`MAX_PDF_PAGES` pages or :data:`MAX_PDF_SECONDS` seconds: a PDF of a hundred
thousand pages must not keep the chat busy for half an hour. What was left out is said, to the user and the model.
"""

from __future__ import annotations

import io
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chatbot.errors import UsageError

if TYPE_CHECKING:
    from pypdf import PdfReader

PDF_MAGIC = b"%PDF-"
MAX_PDF_BYTES = 20 * 1024 * 1024  # the file; its text is held to the text limit (attach.MAX_TEXT_BYTES)
MAX_PDF_PAGES = 1000  # pages read at most; the rest are left out, and said to be
MAX_PDF_SECONDS = 20.0  # seconds of reading at most (a URL's: what is left of its deadline)


@dataclass(frozen=True)
class PdfText:
    """What was read of a PDF: its text (pages apart by a blank line), its page count, how many pages were read and,
    when that is not all, why the rest were left out."""

    text: str
    pages: int
    read: int
    why: str = ""

    @property
    def kind(self) -> str:
        """What the attachment is, for the line that says what was attached."""
        if self.read == self.pages:
            return f"PDF, {self.pages} page(s)"
        return f"PDF, {self.read} of {self.pages} pages: pages {self.read + 1}-{self.pages} left out ({self.why})"


def is_pdf(data: bytes) -> bool:
    """Whether ``data`` starts as a PDF does (a header may follow a few bytes of junk; 1 KiB is what readers allow)."""
    return PDF_MAGIC in data[:1024]


def pdf_text(data: bytes, name: str, max_bytes: int, seconds: float = MAX_PDF_SECONDS) -> PdfText:
    """The text of the PDF ``data``, read until ``max_bytes`` of text (UTF-8), :data:`MAX_PDF_PAGES` pages or
    ``seconds``; one UsageError naming ``name`` when it is encrypted, unreadable, needs what is not installed, or
    has no text (or its first page alone is over ``max_bytes``)."""
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, PyPdfError

    quiet = logging.getLogger("pypdf")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # pypdf warns about every small flaw of a file on stderr; what matters is raised
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise UsageError(f"{name} is an encrypted PDF that needs a password; save a decrypted copy first")
        return _read_pages(reader, name, max_bytes, time.monotonic() + seconds)
    except PyPdfError as exc:
        raise UsageError(f"{name} is not a readable PDF ({exc})") from None
    except (DependencyError, NotImplementedError) as exc:
        # AES without the cryptography package, a JBIG2 stream without jbig2dec, a filter pypdf does not know
        raise UsageError(f"{name} is a PDF that cannot be read here ({_needs(exc)})") from None
    except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as exc:
        # a damaged file makes pypdf fail in many ways that are not its own error class
        raise UsageError(f"{name} is not a readable PDF ({type(exc).__name__}: {exc})") from None
    finally:
        quiet.setLevel(level)


def _needs(exc: Exception) -> str:
    """What a DependencyError or NotImplementedError says is missing, in one line."""
    said = " ".join(str(exc).split()) or type(exc).__name__
    return said if len(said) <= 200 else said[:199] + "…"


def _read_pages(reader: PdfReader, name: str, max_bytes: int, deadline: float) -> PdfText:
    """The pages' text, read in order until a limit (see :func:`pdf_text`)."""
    count = len(reader.pages)
    texts: list[str] = []
    read, size, why = 0, 0, ""
    for page in reader.pages:
        why = _stop(read, deadline)
        if why:
            break
        text = (page.extract_text() or "").strip()
        added = len(text.encode("utf-8", "surrogatepass")) + (2 if texts and text else 0)
        if size + added > max_bytes:
            if read == 0:
                raise UsageError(f"{name}'s first page holds over {max_bytes:,} bytes of text, the most attached")
            why = f"over the {max_bytes:,}-byte text limit"
            break
        texts += [text] if text else []
        size += added
        read += 1
    if not texts:
        raise UsageError(f"{name} is a PDF with no text to extract ({count} page(s); a scan needs OCR first)")
    text = "\n\n".join(texts)
    if why:  # the model is told too: it must not take a part for the whole
        text += f"\n\n[{PdfText('', count, read, why).kind.removeprefix('PDF, ')}]"
    return PdfText(text, count, read, why)


def _stop(read: int, deadline: float) -> str:
    """Why no more pages are read after ``read`` of them ("" to read on)."""
    if read >= MAX_PDF_PAGES:
        return f"chatbot reads at most {MAX_PDF_PAGES} pages"
    if read and time.monotonic() > deadline:  # the first page is always read
        return "reading them took too long"
    return ""
