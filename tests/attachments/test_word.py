"""A Word document (.docx) is attached by its text, through the one table of readers: by itself, inside a folder and
from a URL. Paragraphs and tables come in reading order, headings stay recognisable, and a document that cannot be
read (damaged, password-protected, an archive that unpacks to gigabytes) is one clear line, never a traceback."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import docx
import pytest
from msoffcrypto.format.ooxml import OOXMLFile

from chatbot.attachments.attach import read_file
from chatbot.attachments.fetch import fetch
from chatbot.attachments.sources import gather
from chatbot.attachments.word import DOCX_TYPE, MAX_UNPACKED_BYTES, word_text
from chatbot.errors import UsageError
from tests.support.images import png
from tests.support.pages import Page, PageServer
from tests.support.pdfs import text_pdf
from tests.support.words import REPORT_TEXT, report


def test_paragraphs_headings_lists_and_tables_are_read_in_order(tmp_path):
    (tmp_path / "trip.docx").write_bytes(report())
    attached = read_file(str(tmp_path / "trip.docx"))
    assert attached.text == REPORT_TEXT
    assert attached.kind == "Word document"
    assert attached.describe() == f"{tmp_path / 'trip.docx'} (Word document, {len(REPORT_TEXT.splitlines())} lines)"


def test_a_cell_merged_across_columns_is_said_once():
    document = docx.Document()
    table = document.add_table(rows=2, cols=3)
    table.cell(0, 0).merge(table.cell(0, 2)).text = "whole row"
    for cell, text in zip(table.rows[1].cells, ["a", "b", "c"], strict=True):
        cell.text = text
    out = io.BytesIO()
    document.save(out)
    assert word_text(out.getvalue(), "t.docx", 10_000) == "| whole row\n| a | b | c"


def test_a_folder_attaches_its_word_documents_and_pdfs_by_their_text_but_not_its_images(tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.txt").write_text("plain\n")
    (notes / "b.docx").write_bytes(report())
    (notes / "c.pdf").write_bytes(text_pdf([["page one"]]))
    (notes / "d.png").write_bytes(png(2, 2))
    gathered = gather(str(notes))
    assert [(a.name, a.kind) for a in gathered.items] == [
        (f"{notes}/a.txt", ""),
        (f"{notes}/b.docx", "Word document"),
        (f"{notes}/c.pdf", "PDF, 1 page(s)"),
    ]
    assert gathered.items[1].text == REPORT_TEXT
    assert gathered.skipped == (f"{notes}/d.png (binary)",)


def test_a_damaged_word_document_in_a_folder_is_skipped_with_why(tmp_path):
    (tmp_path / "ok.txt").write_text("fine\n")
    (tmp_path / "torn.docx").write_bytes(report()[:3000])
    gathered = gather(str(tmp_path))
    (line,) = gathered.skipped
    assert line.startswith(f"{tmp_path}/torn.docx (not a readable Word document (a damaged archive")


def test_a_word_document_served_from_a_url_is_read_by_the_same_reader():
    with PageServer({"/trip.docx": Page(report(), headers={"Content-Type": DOCX_TYPE})}) as site:
        text, kind, _ = fetch(site.url("/trip.docx"), 10_000, allow_private=True)
    assert (text, kind) == (REPORT_TEXT, "Word document")


def test_a_type_no_reader_is_fetched_for_names_every_kind_that_is():
    binary = Page(b"\x00\x01", headers={"Content-Type": "application/octet-stream"})
    with PageServer({"/x.bin": binary}) as site, pytest.raises(UsageError) as err:
        fetch(site.url("/x.bin"), 10_000, allow_private=True)
    assert err.value.message.endswith("is application/octet-stream, not a web page, text, PDF or Word document")


def test_a_password_protected_word_document_is_one_clear_line(tmp_path):
    locked = io.BytesIO()
    OOXMLFile(io.BytesIO(report())).encrypt("secret", locked)
    (tmp_path / "locked.docx").write_bytes(locked.getvalue())
    with pytest.raises(UsageError) as err:
        read_file(str(tmp_path / "locked.docx"))
    assert err.value.message == (
        f"{tmp_path / 'locked.docx'} is a password-protected Word document; save a copy without the password first"
    )


def zipped(entries: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (report()[:3000], "not a readable Word document (a damaged archive"),
        (zipped({"word/document.xml": b"<w:document"}), "not a readable Word document"),
        (zipped({"word/document.xml": b"x", "[Content_Types].xml": b"<Types/>"}), "not a readable Word document"),
    ],
    ids=["cut-short", "no-content-types", "not-xml"],
)
def test_a_damaged_word_document_is_one_clear_line(tmp_path, data, why):
    path = Path(tmp_path / "bad.docx")
    path.write_bytes(data)
    with pytest.raises(UsageError) as err:
        read_file(str(path))
    assert err.value.message.startswith(f"{path} is {why}")


def test_an_archive_that_unpacks_to_too_much_is_refused_before_it_is_unpacked():
    bomb = zipped({"word/document.xml": b"\0" * (MAX_UNPACKED_BYTES + 1)})
    assert len(bomb) < 1_000_000
    with pytest.raises(UsageError, match=f"bomb.docx unpacks to {MAX_UNPACKED_BYTES + 1:,} bytes"):
        word_text(bomb, "bomb.docx", 10_000)


def test_a_word_document_with_no_text_is_refused():
    out = io.BytesIO()
    docx.Document().save(out)
    with pytest.raises(UsageError, match="empty.docx is a Word document with no text"):
        word_text(out.getvalue(), "empty.docx", 10_000)


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda whole: whole[:500], "is not a readable Word document (a damaged archive: "),  # cut off (a download)
        (lambda whole: _zip_of({"notes.txt": "x"}), "is not a readable Word document ("),  # a ZIP, but no Word parts
    ],
    ids=["truncated", "a-zip-with-no-word-parts"],
)
def test_a_damaged_docx_is_said_to_be_a_damaged_word_document_not_binary_text(tmp_path, damage, said):
    path = tmp_path / "notes.docx"
    path.write_bytes(damage(report()))
    with pytest.raises(UsageError) as refused:
        read_file(str(path))
    assert said in refused.value.message and "binary" not in refused.value.message


def _zip_of(entries: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in entries.items():
            archive.writestr(name, text)
    return buffer.getvalue()
