"""The error tree drawn in chatbot/errors.py's docstring is the real one: every class, its parent and exit code."""

from __future__ import annotations

import re

import chatbot.errors as errors


def drawn() -> dict[str, tuple[str | None, int | None]]:
    """name -> (parent, exit code drawn or None) from the docstring's tree."""
    tree: dict[str, tuple[str | None, int | None]] = {}
    stack: list[tuple[int, str]] = []
    for line in (errors.__doc__ or "").splitlines():
        if "KeyboardInterrupt" in line:
            break  # below the ChatbotError tree: the one interruption that is not an error
        m = re.match(r"^(?P<indent>[ │├└─]*)(?P<name>[A-Z]\w+)(?:\s+(?P<code>\d+))?", line.strip("\n")[4:])
        if not m or not line.startswith("    "):
            continue
        depth = len(m["indent"]) // 4
        while stack and stack[-1][0] >= depth:
            stack.pop()
        tree[m["name"]] = (stack[-1][1] if stack else None, int(m["code"]) if m["code"] else None)
        stack.append((depth, m["name"]))
    return tree


def test_the_docstring_draws_every_error_with_its_parent_and_code():
    real = {
        name: cls
        for name, cls in vars(errors).items()
        if isinstance(cls, type) and issubclass(cls, errors.ChatbotError)
    }
    tree = drawn()
    assert set(tree) == set(real)
    for name, (parent, code) in tree.items():
        cls = real[name]
        if parent is not None:
            assert cls.__bases__[0] is real[parent], name
        if code is not None:
            assert cls.exit_code == code, name


def test_an_interruption_is_drawn_beside_the_tree_and_is_not_an_error():
    assert "KeyboardInterrupt ── Interrupted" in (errors.__doc__ or "")
    assert issubclass(errors.Interrupted, KeyboardInterrupt) and not issubclass(errors.Interrupted, errors.ChatbotError)
