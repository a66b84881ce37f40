"""The text of a PDF, for an attachment (``/file report.pdf``, ``-f``, a URL that serves one), read with ``pypdf``.

Only the text layer is read: a scanned PDF has none and is refused, as is an encrypted one that needs a password (a
PDF encrypted with an empty password, only to restrict printing or copying, opens as any other).
"""

from __future__ import annotations

import io
import logging

from chatbot.errors import UsageError

PDF_MAGIC = b"%PDF-"
MAX_PDF_BYTES = 20 * 1024 * 1024  # the file; its text is held to the text limit (attach.MAX_TEXT_BYTES)


def is_pdf(data: bytes) -> bool:
    """Whether ``data`` starts as a PDF does (a header may follow a few bytes of junk; 1 KiB is what readers allow)."""
    return PDF_MAGIC in data[:1024]


def pdf_text(data: bytes, name: str, max_bytes: int) -> tuple[str, int]:
    """The text of the PDF ``data`` (pages apart by a blank line) and its page count; one UsageError naming ``name``
    when it is encrypted, unreadable, has no text, or its text is over ``max_bytes`` (UTF-8)."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    quiet = logging.getLogger("pypdf")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # pypdf warns about every small flaw of a file on stderr; what matters is raised
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise UsageError(f"{name} is an encrypted PDF that needs a password; save a decrypted copy first")
        pages = [page.extract_text() or "" for page in reader.pages]
    except PyPdfError as exc:
        raise UsageError(f"{name} is not a readable PDF ({exc})") from None
    except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as exc:
        # a damaged file makes pypdf fail in many ways that are not its own error class
        raise UsageError(f"{name} is not a readable PDF ({type(exc).__name__}: {exc})") from None
    finally:
        quiet.setLevel(level)
    text = "\n\n".join(p.strip() for p in pages if p.strip())
    if not text:
        raise UsageError(f"{name} is a PDF with no text to extract ({len(pages)} page(s); a scan needs OCR first)")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise UsageError(f"{name} holds {size:,} bytes of text; attached text can be at most {max_bytes:,}")
    return text, len(pages)
