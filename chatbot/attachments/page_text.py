"""A fetched page's bytes as the text attached (:mod:`~chatbot.attachments.fetch`): a file of a type a reader of
:data:`~chatbot.attachments.attach.READERS` is fetched for (a PDF, a Word document) by its text, HTML made readable
by ``inscriptis``, any other text as it is.

HTML is laid out flat: a table as its rows, a line each (``| cell | cell``), lists and quotes without indentation.
inscriptis pads every row of a table to its widest cell and indents every line of a nested list, so a page could grow a
thousandfold (2.3 MB of HTML became gigabytes of text before any size check): laid out flat, the text cannot
outgrow the HTML's own characters by more than a few line breaks and bullets an element.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatbot.errors import UsageError

if TYPE_CHECKING:
    from chatbot.attachments.url_guard import Deadline

HTML_TYPES = ("text/html", "application/xhtml+xml")


def page_text(url: str, kind: str, data: bytes, encoding: str, max_text: int, deadline: Deadline) -> tuple[str, str]:
    """The text of a page of type ``kind`` and what it was ("web page", "PDF, ...", the type); one UsageError naming
    ``url`` when it is binary, has no text, or more than ``max_text`` bytes of it. A reader's file (a PDF) is read in
    what is left of the fetch's ``deadline``, to the attachment text limit."""
    from chatbot.attachments.attach import READERS

    reader = next((r for r in READERS if kind in r.types), None)
    if reader is not None:  # a PDF, a Word document: read as the same file attached from disk would be
        read = reader.read(data, url, max(1.0, deadline.left()))
        return read.text, read.kind
    try:
        decoded = data.decode(encoding, "replace")
    except LookupError:  # a charset Python does not know
        decoded = data.decode("utf-8", "replace")
    if "\x00" in decoded[:8192]:  # as for a file: text holds no NUL, whatever its stated type
        raise UsageError(f"{url} is binary, though the server calls it {kind or 'nothing'}: not a web page or text")
    if kind in HTML_TYPES:
        decoded, what = html_text(decoded).strip(), "web page"
    else:
        what = kind
    if not decoded.strip():
        raise UsageError(f"{url} has no text (an empty page, or one its scripts fill in)")
    size = len(decoded.encode("utf-8", "surrogatepass"))
    if size > max_text:
        raise UsageError(f"{url} holds {size:,} bytes of text; attached text can be at most {max_text:,}")
    return decoded, what


def html_text(html: str) -> str:
    """``html`` as readable text, laid out flat (see the module docstring)."""
    from inscriptis import get_text

    return get_text(html, _flat_config())


def _flat_config() -> object:
    """inscriptis's strict layout without indentation, and tables as plain blocks of cells."""
    from inscriptis.css_profiles import CSS_PROFILES
    from inscriptis.html_properties import Display
    from inscriptis.model.config import ParserConfig
    from inscriptis.model.html_element import HtmlElement
    from inscriptis.model.tag import CustomHtmlTagHandlerMapping

    css = {name: _flat(element) for name, element in CSS_PROFILES["strict"].items()}
    css |= {
        "table": HtmlElement(display=Display.block, margin_before=1, margin_after=1),
        "caption": HtmlElement(display=Display.block),
        "tr": HtmlElement(display=Display.block),
        "td": HtmlElement(display=Display.inline, prefix="| ", suffix=" "),
        "th": HtmlElement(display=Display.inline, prefix="| ", suffix=" "),
    }
    tags = ("table", "tr", "td", "th")  # inscriptis's own handlers lay out (and pad) a grid: none at all
    plain = CustomHtmlTagHandlerMapping(
        start_tag_mapping=dict.fromkeys(tags, _nothing), end_tag_mapping=dict.fromkeys(tags, _nothing)
    )
    return ParserConfig(css=css, custom_html_tag_handler_mapping=plain)


def _flat(element: object) -> object:
    """``element`` (an inscriptis ``HtmlElement``) without indentation."""
    from copy import copy

    flat = copy(element)
    flat.padding_inline = 0  # type: ignore[attr-defined]
    return flat


def _nothing(*_: object) -> None:
    """A tag handler that does nothing: the element is laid out by its CSS alone."""
