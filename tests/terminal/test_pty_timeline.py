"""`/timeline` in a real pseudo-terminal: each part of a bar is a block in its own colour (rich), with a legend."""

from __future__ import annotations

import re

import pytest

pexpect = pytest.importorskip("pexpect")

ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: rich's codes for the colours of the parts: system blue, summary magenta, earlier turns green, new bright white
SYSTEM, SUMMARY, EARLIER, NEW = "34", "35", "32", "97"


def test_timeline_draws_coloured_bars_in_the_terminal(spawn):
    flags = ["--memory", "summary", "--summary-trigger", "2", "--keep-turns", "1", "--max-input-tokens", "1200"]
    flags += ["--recall", "0"]  # "fourth question" would recall the other questions (every one says "question")
    # colour on: the test runner's NO_COLOR would turn it off
    child = spawn("--provider", "echo", "--session", "tl", *flags, env={"CHATBOT_ECHO_DELAY": "0", "NO_COLOR": None})
    for text in ("first question", "second question", "third question", "fourth question"):
        child.expect("›")
        child.sendline(text)
        child.expect("tokens")
    child.expect("›")
    child.sendline("/timeline")
    child.expect("Timeline of session tl")
    child.expect(r"room left")
    legend = child.before
    child.expect(r"   1 +\d+ +\d+ ▕(.*?)▏")
    first = child.match.group(1)
    child.expect(r"   4 +\d+ +\d+ ▕(.*?)▏([^\r\n]*)")
    fourth, marks = child.match.group(1), ANSI.sub("", child.match.group(2))
    child.expect("›")
    child.sendeof()
    child.expect(pexpect.EOF)
    assert re.search(rf"\x1b\[{SUMMARY}m██\x1b\[0m summary", legend)  # the legend shows each colour with its name
    blocks = [(code, len(run)) for code, run in re.findall(r"\x1b\[([0-9;]+)m(█+)", fourth)]
    assert [code for code, _ in blocks] == [SYSTEM, SUMMARY, EARLIER, NEW]  # the parts, in the request's order
    assert [code for code, _ in re.findall(r"\x1b\[([0-9;]+)m(█+)", first)] == [SYSTEM, NEW]
    assert ANSI.sub("", fourth).endswith("·")  # the room left under the budget
    assert len(ANSI.sub("", fourth)) == 40
    assert "summary made: turns 1-2 folded" in marks
