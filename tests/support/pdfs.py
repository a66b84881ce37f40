"""Real small PDFs with a text layer, written by ``pypdf`` (the reader the app uses is not asked to agree with itself:
the text is drawn with the standard Helvetica font, as any PDF producer does)."""

from __future__ import annotations

import io

from pypdf import PdfWriter
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject


def text_pdf(pages: list[list[str]], password: str | None = None) -> bytes:
    """A PDF with one page per list of lines (an empty list: a page with no text), encrypted with ``password``."""
    writer = PdfWriter()
    helvetica = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
        }
    )
    for lines in pages:
        page = writer.add_blank_page(612, 792)
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): helvetica})}
        )
        shown = [f"({_escaped(line)}) Tj T*" for line in lines]
        stream = DecodedStreamObject()
        stream.set_data("\n".join(["BT", "/F1 12 Tf", "72 720 Td", "14 TL", *shown, "ET"]).encode("latin-1"))
        page.replace_contents(stream)
    if password is not None:
        writer.encrypt(password)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _escaped(line: str) -> str:
    """``line`` as a PDF string literal's inside: backslashes and parentheses escaped."""
    return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def aes_pdf(lines: list[str]) -> bytes:
    """A one-page PDF that says it is AES-128 encrypted (empty user password), as pypdf writes it when the
    ``cryptography`` package is there. Without that package pypdf can compute the password values (RC4, MD5) but not
    encrypt, so the objects are written as they are: to a reader, the file is AES-encrypted all the same, and the
    first object it decrypts needs AES."""
    writer = PdfWriter(clone_from=io.BytesIO(text_pdf([lines])))
    writer.encrypt("", algorithm="AES-128")
    writer._encryption = None  # the values stay in /Encrypt; only the encryption of each object is skipped
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


#: a ``sitecustomize.py`` for a child Python in which the packages that read AES (``cryptography``, pycryptodome's
#: ``Crypto``) are not installed, as on a machine without them: importing one fails as a missing module does
WITHOUT_AES_READERS = """
import sys


class _NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("cryptography", "Crypto"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, _NotInstalled())
"""
