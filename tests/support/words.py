"""Real Word documents (.docx) written by python-docx, for the tests of attached documents."""

from __future__ import annotations

import io

import docx


def report() -> bytes:
    """A small real .docx, written by python-docx: a title, headings, a list, a table between paragraphs."""
    document = docx.Document()
    document.add_heading("Trip report", level=0)
    document.add_paragraph("Who went: Ana and Bo.")
    document.add_heading("Costs", level=1)
    table = document.add_table(rows=3, cols=2)
    for row, cells in zip(table.rows, [("item", "euros"), ("train", "120"), ("hotel", "300")], strict=True):
        for cell, text in zip(row.cells, cells, strict=True):
            cell.text = text
    document.add_paragraph("Paid by the team.")
    document.add_heading("Next steps", level=2)
    document.add_paragraph("book earlier", style="List Bullet")
    document.add_paragraph("")  # an empty paragraph says nothing
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


REPORT_TEXT = """# Trip report
Who went: Ana and Bo.
# Costs

| item | euros
| train | 120
| hotel | 300

Paid by the team.
## Next steps
- book earlier"""
