"""A PDF's text (pdf.py) is read within bounds, and what it cannot read is one clear line: reading stops at the
text limit, at a page count and at a time, says what was left out, and never ends in an internal error."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys

import pytest
from pypdf import PdfWriter
from pypdf.generic import DictionaryObject, NameObject, StreamObject

from chatbot.attachments.pdf import pdf_text
from chatbot.errors import UsageError
from tests.support.cli import ROOT
from tests.support.pdfs import WITHOUT_AES_READERS, aes_pdf, text_pdf

PAGE = ["a line of words on this page " * 3] * 20  # about 1.8 KB of text a page


def test_reading_stops_at_the_text_limit_and_says_which_pages_were_left_out():
    pdf = pdf_text(text_pdf([PAGE] * 10), "big.pdf", 5_000)
    assert (pdf.pages, pdf.read) == (10, 2)
    assert pdf.kind == "PDF, 2 of 10 pages: pages 3-10 left out (over the 5,000-byte text limit)"
    assert pdf.text.endswith("\n\n[2 of 10 pages: pages 3-10 left out (over the 5,000-byte text limit)]")
    assert len(pdf.text.encode()) < 5_000 + 200


def test_reading_stops_when_its_time_is_over():
    pdf = pdf_text(text_pdf([PAGE] * 5), "slow.pdf", 1_000_000, seconds=0)
    assert (pdf.read, pdf.why) == (1, "reading them took too long")  # the first page is always read
    assert pdf.kind == "PDF, 1 of 5 pages: pages 2-5 left out (reading them took too long)"


def test_a_whole_pdf_says_nothing_was_left_out():
    pdf = pdf_text(text_pdf([["one"], ["two"]]), "a.pdf", 1_000)
    assert (pdf.text, pdf.kind) == ("one\n\ntwo", "PDF, 2 page(s)")


def test_a_first_page_over_the_limit_is_refused():
    with pytest.raises(UsageError, match="big.pdf's first page holds over 100 bytes of text"):
        pdf_text(text_pdf([PAGE]), "big.pdf", 100)


def pdf_with_content_filter(name: str) -> bytes:
    """A one-page PDF whose page content stream is packed with the filter ``name``."""
    writer = PdfWriter()
    page = writer.add_blank_page(612, 792)
    stream = StreamObject()
    stream._data = b"\x97JB2\r\n\x1a\n\x01\x00\x00\x00\x01"  # a JBIG2 header: what a reader must decode first
    stream[NameObject("/Filter")] = NameObject(name)
    page[NameObject("/Contents")] = writer._add_object(stream)
    font = DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                             NameObject("/BaseFont"): NameObject("/Helvetica")})  # fmt: skip
    page[NameObject("/Resources")] = DictionaryObject(
        {NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})}
    )
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.mark.skipif(shutil.which("jbig2dec") is not None, reason="jbig2dec is installed: the stream is decoded")
def test_a_jbig2_stream_without_jbig2dec_is_one_clear_line():
    with pytest.raises(UsageError) as err:
        pdf_text(pdf_with_content_filter("/JBIG2Decode"), "scan.pdf", 10_000)
    assert err.value.message == "scan.pdf is a PDF that cannot be read here (jbig2dec binary is not available.)"


def test_an_aes_pdf_without_cryptography_is_one_clear_line(tmp_path):
    (tmp_path / "sitecustomize.py").write_text(WITHOUT_AES_READERS)
    read = (
        "import sys\nfrom chatbot.attachments.pdf import pdf_text\nfrom chatbot.errors import UsageError\n"
        "try:\n    pdf_text(sys.stdin.buffer.read(), 'locked.pdf', 10_000)\n"
        "except UsageError as exc:\n    print(exc.message)\n"
    )
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    done = subprocess.run([sys.executable, "-c", read], input=aes_pdf(["secret words"]), capture_output=True, env=env)
    assert done.returncode == 0, done.stderr.decode()
    said = done.stdout.decode()
    assert said.startswith("locked.pdf is a PDF that cannot be read here (") and "cryptography" in said
