"""Splitting streamed Markdown into finished top-level blocks: each is printed once, only the tail stays live."""

from __future__ import annotations

import re

_FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_HEADING = re.compile(r"^#{1,6}(?:[ \t]|$)")


class BlockSplitter:
    """Incrementally splits Markdown text into finished top-level blocks and an unfinished tail.

    A block is finished, and will not change however the text goes on, when:

    * a blank line outside a fenced code block is followed by a line that starts at column 0 (a new
      paragraph, heading, list, fence...). Waiting for that line, rather than cutting at the blank line
      itself, keeps loose list items and indented continuations (``"1. a\\n\\n   more"``) in one block;
    * a fenced code block that starts at column 0 reaches its closing fence (blank lines inside a fence
      never split it);
    * an ATX heading line (``# Title``) at column 0 is complete: it stands alone.

    Invariant: ``"".join(all blocks returned so far) + tail`` is exactly the text fed so far, and the blocks
    do not depend on how the text was chunked.
    """

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self._buf = ""  # the unfinished tail: text after the last cut
        self._pos = 0  # offset in _buf of the first line not yet classified
        self._fence: str | None = None  # the opening fence ("```", "~~~~") while inside a fenced code block
        self._fence_top = False  # that fence started at column 0: its closing line finishes the block
        self._content = False  # the current block has a non-blank line
        self._blank_after = False  # ... followed by at least one blank line

    @property
    def tail(self) -> str:
        """The text that does not form a finished block yet."""
        return self._buf

    @property
    def in_fence(self) -> bool:
        """True while the tail ends inside an unclosed fenced code block."""
        return self._fence is not None

    def feed(self, text: str) -> list[str]:
        """Add ``text``; return the blocks it finished (often none), in order."""
        self._buf += text
        blocks: list[str] = []
        buf = self._buf
        start = 0  # offset in buf where the current (unfinished) block starts
        pos = self._pos
        while True:
            end = buf.find("\n", pos)
            if end < 0:
                break
            line = buf[pos:end]
            if self._starts_new_block(line, complete=True) and pos > start:
                blocks.append(buf[start:pos])
                start = pos
            if self._classify(line):
                blocks.append(buf[start : end + 1])
                start = end + 1
            pos = end + 1
        # The first character of an incomplete line is enough to know that the previous block is over.
        rest = buf[pos:]
        if rest and self._starts_new_block(rest, complete=False) and pos > start:
            blocks.append(buf[start:pos])
            start = pos
        self._buf = buf[start:]
        self._pos = pos - start
        return blocks

    def flush(self) -> str:
        """End of the text: return the tail (the last, possibly partial, block) and reset."""
        tail = self._buf
        self._reset()
        return tail

    def _starts_new_block(self, line: str, *, complete: bool) -> bool:
        """Does ``line`` (complete, or just its beginning) begin a new block, finishing the current one?

        A heading is only recognised on a complete line: ``"#"`` may still become ``"#hashtag"``.
        """
        if self._fence is not None or not line or line[0] in " \t":
            return False
        if self._blank_after or (complete and self._content and _HEADING.match(line)):
            self._content = self._blank_after = False
            return True
        return False

    def _classify(self, line: str) -> bool:
        """Update the state with one complete line; True when the block ends right after it."""
        stripped = line.strip()
        if self._fence is not None:
            if stripped and stripped == self._fence[0] * len(stripped) and len(stripped) >= len(self._fence):
                self._fence = None
                if self._fence_top:
                    self._content = False
                    return True
                return False
            return False
        if not stripped:
            self._blank_after = self._content
            return False
        self._content = True
        self._blank_after = False
        match = _FENCE_OPEN.match(line.rstrip("\r"))
        if match and not (match["fence"][0] == "`" and "`" in match["info"]):
            self._fence = match["fence"]
            self._fence_top = not match["indent"]
            return False
        if _HEADING.match(line):
            self._content = False
            return True
        return False


def split_blocks(text: str) -> tuple[list[str], str]:
    """Split a whole text into its finished Markdown blocks and the unfinished tail (a pure function)."""
    splitter = BlockSplitter()
    blocks = splitter.feed(text)
    return blocks, splitter.tail
