"""Text from a model, a server or a file made safe to print: no terminal control sequences get through.

A reply can carry ``ESC[2J`` (clear the screen), OSC 52 (write the clipboard), OSC 8 (hidden links) or OSC 0
(the window title); printed raw, the terminal obeys them. It can carry a bidi override (U+202E) too, and the text
after it reads reversed on screen ("Trojan Source": ``\u202etxt.exe`` shows as ``exe.txt``). :func:`clean` is
applied wherever such text is printed; what is stored stays exactly as received.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

# --- the character table: every rule about which characters act on a terminal or hide text lives here -----------

# whole escape sequences, so that no "[2J" litter is left: CSI (ESC [ ... final), OSC and the other string commands
# (ESC ] ... BEL or ESC \), and two-character escapes (ESC 7 save cursor, ESC M reverse index, ESC c reset ...)
_SEQUENCE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[0-~]")
#: what a terminal acts on: the C0 controls but tab and newline, DEL, and the C1 controls (U+0080-U+009F: 8-bit
#: CSI, OSC, ...); that is, Unicode category Cc less tab and newline
CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f"
#: what takes no room: zero-width spaces and joiners, marks, the word joiner, BOM, soft hyphen
INVISIBLE = "\u200b-\u200f\u2060-\u2064\ufeff\u00ad\u034f\u180e"
#: what reorders the text around it on screen: the bidi embeddings and overrides (LRE, RLE, PDF, LRO, RLO) and
#: isolates (LRI, RLI, FSI, PDI). Right-to-left text (Hebrew, Arabic) needs none of them to show right; the marks
#: U+200E and U+200F only nudge neutral characters and are left alone.
BIDI = "\u202a-\u202e\u2066-\u2069"
_CONTROL = re.compile(f"[{CONTROLS}]")
_BIDI = re.compile(f"[{BIDI}]")
# a message made only of invisible characters (or of NUL and spaces) is empty
_INVISIBLE = re.compile(f"[\\s\\x00{INVISIBLE}]+")


def hides_text(ch: str) -> bool:
    """Whether ``ch`` acts on a terminal or hides or reorders text: every control, format (zero-width, bidi
    override), surrogate, private or unassigned character (category C*), and every separator but the space."""
    if ch in " \n":
        return False
    kind = unicodedata.category(ch)
    return kind[0] == "C" or kind in ("Zl", "Zp") or (kind == "Zs" and ch != " ")


def clean(text: str) -> str:
    """``text`` without control characters other than newline and tab (what a terminal would act on), and with
    each bidi control shown as its code (``\\u202e``) instead of reordering what follows: shown, not dropped, so
    a reader sees that the text carried one (a file name ``\\u202etxt.exe`` is not mistaken for ``exe.txt``)."""
    return _BIDI.sub(lambda m: _escaped(m.group()), _CONTROL.sub("", _SEQUENCE.sub("", text)))


# the start of an escape sequence a piece of streamed text ends inside: an ESC alone, a CSI's parameters so far, a
# string command (OSC, DCS ...) not yet ended, or one whose ending ESC \\ is split after its ESC
_PARTIAL = re.compile(r"\x1b(?:\[[0-?]*[ -/]*|[\]PX^_][^\x07\x1b]*\x1b?)?\Z")
#: the most a :class:`StreamCleaner` holds back: a string command that never ends is let go past this (cleaned:
#: its ESC dropped, so it is shown, not obeyed), so a reply is never held back whole
HOLD_MOST = 4096


class StreamCleaner:
    """:func:`clean` for text that comes in pieces (a streamed reply): a sequence split between two pieces is removed
    whole, as from the whole text, rather than its two halves cleaned apart (which showed what an OSC 52 or an OSC 8
    hides, and left ``[2J`` litter, wherever a server happened to split it). What might be the start of one is held
    back until the next piece (or :meth:`flush`) says."""

    def __init__(self) -> None:
        self._held = ""

    def feed(self, piece: str) -> str:
        """The cleaned text that can be shown now (a sequence ``piece`` ends inside is held back)."""
        text = self._held + piece
        at = _partial_start(text)
        if at is None or len(text) - at > HOLD_MOST:
            self._held = ""
            return clean(text)
        self._held = text[at:]
        return clean(text[:at])

    def flush(self) -> str:
        """What was held back, cleaned, once no piece follows (a sequence never ended: its ESC dropped)."""
        held, self._held = self._held, ""
        return clean(held)


def _partial_start(text: str) -> int | None:
    """Where the escape sequence ``text`` ends inside begins; None when it ends inside none. The ESC before the last
    is tried first: the last may be the ESC of the ``ESC \\`` that ends a string command begun at it."""
    last = text.rfind("\x1b")
    if last < 0:
        return None
    before = text.rfind("\x1b", 0, last)
    for start in (before, last):
        if start >= 0 and _PARTIAL.match(text, start):
            return start
    return None


#: what starts every line of text that rides, quoted, inside the system message (recalled turns, the summary)
QUOTE = "> "


def quote_lines(text: str) -> list[str]:
    """``text`` as quoted lines, for the system message: every line (split wherever a reader may see a line break:
    ``\\r``, U+2028 ...) starts with ``> ``, so none of it can open a heading or anything a line begins."""
    return [f"{QUOTE}{line}" if line else QUOTE.rstrip() for line in text.splitlines() or [""]]


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def wire_safe(value: Any) -> Any:
    """``value`` (messages: dicts, lists, strings) with lone surrogates replaced by U+FFFD.

    A reply can carry ``"\\ud800"`` (valid JSON, not valid UTF-8); stored as received, it must still not make every
    later request of the session unencodable.
    """
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {k: wire_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [wire_safe(v) for v in value]
    return value


def preview(text: str, width: int = 100) -> str:
    """One line of at most ``width`` terminal columns, cut with an ellipsis: whole escape sequences and control
    characters removed first (text from a model, a server or a user), then cut, so no fragment of a sequence
    (``[2J``) is left. A wide character (Hangul, kana, CJK) takes two columns, as a terminal draws it, so a Korean
    preview is no wider than an English one. The one preview of the package: titles, /context rows, tool calls,
    waiting lines."""
    flat = " ".join(clean(str(text)).split())
    if sum(map(_columns, flat)) <= width:
        return flat
    kept, used = [], 1  # the ellipsis takes one column
    for ch in flat:
        used += _columns(ch)
        if used > width:
            break
        kept.append(ch)
    return "".join(kept) + "…"


def _columns(ch: str) -> int:
    """How many terminal columns ``ch`` takes: two for East Asian wide and full-width characters, else one."""
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


_BLANK_RUN = re.compile(r"\s{4,}")


def visible(text: str) -> str:
    """``text`` whole, every character visible, nothing cut (what a user confirms).

    A run of more than three blank characters becomes ``⟨N blanks⟩`` (padding cannot push the rest out of view); the
    characters :func:`hides_text` names are shown as ``\\uXXXX``.
    """
    collapsed = _BLANK_RUN.sub(lambda m: f"⟨{len(m.group())} blanks⟩", text)
    return "".join(_escaped(ch) if hides_text(ch) else ch for ch in collapsed)


def one_line(name: str) -> str:
    """``name`` (a file's, a folder's, a URL's) as one line that shows every character it holds: each character
    :func:`hides_text` names (an escape, a bidi override, a zero-width space) and each newline written as its code
    (``\\u001b``, ``\\u000a``). A name is shown so that it can be recognised, and typed again: :func:`clean` would
    drop the ``ESC`` of ``a<ESC>[2Jb.txt`` and show a name that is not the file's, and a newline would make one name
    look like two entries of a list."""
    return "".join(_escaped(ch) if hides_text(ch) or ch == "\n" else ch for ch in name)


def json_shown(value: Any) -> str:
    """``value`` as indented JSON that reads back to the same value, safe to show: every character :func:`hides_text`
    names is written as its JSON escape (``\\u200b``), so a terminal shows it and cannot act on it."""
    text = json.dumps(value, ensure_ascii=False, indent=2)
    return "".join(json.dumps(ch)[1:-1] if hides_text(ch) else ch for ch in text)


def _escaped(ch: str) -> str:
    return f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}"


def is_blank(text: str) -> bool:
    """Whether ``text`` shows nothing: only whitespace, NUL, zero-width and other invisible characters."""
    return not _INVISIBLE.sub("", text)


#: a fenced code block of Markdown (its ``body`` without the fences)
FENCED = re.compile(
    r"^[ \t]{0,3}(?P<fence>`{3,}|~{3,})[^\n]*\n(?P<body>.*?)^[ \t]{0,3}(?P=fence)[`~]*[ \t]*$", re.M | re.S
)


def code_blocks(text: str) -> list[str]:
    """The contents of the fenced code blocks in Markdown ``text``, in order (fences and info strings removed)."""
    return [m.group("body") for m in FENCED.finditer(text)]


_SECRET_PARAMETER = re.compile(r"([?&](?:ssl)?password=)[^&#]*", re.IGNORECASE)
# a libpq connection string's password (host=db password=…): a bare word, or a quoted value with \' and \\ inside
CONNINFO_PASSWORD = re.compile(r"(\b(?:ssl)?password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s']*)", re.IGNORECASE)


def mask_password(location: str) -> str:
    """``location`` as it may be shown (``--config``, notices, errors): a URL's password (a store's, a base URL's or
    a proxy's), in its user part or a ``password=`` parameter, or a libpq connection string's ``password=…``,
    replaced by ``***``. Plain text work only: a malformed URL is masked too, never an error."""
    scheme, sep, rest = location.partition("://")
    if not sep:
        return CONNINFO_PASSWORD.sub(r"\1***", location)
    query = min([i for i in (rest.find("?"), rest.find("#")) if i >= 0], default=None)
    userinfo = rest[:query].rpartition("@")[0]  # (the last @ before the query: a password may hold one)
    if ":" in userinfo:
        rest = userinfo.partition(":")[0] + ":***" + rest[len(userinfo) :]
    return scheme + sep + _SECRET_PARAMETER.sub(r"\1***", rest)
