"""Python functions as tools, for ``--functions``: every public function defined here is offered to the model.

    chatbot --provider echo --functions examples/functions.py

With the offline echo provider, a message line ``@tool word_count {"text": "one two two"}`` makes the call.
"""

from __future__ import annotations


def word_count(text: str, unique: bool = False) -> int:
    """Count the words in a text (``unique``: count each distinct word once)."""
    words = text.split()
    return len(set(words)) if unique else len(words)


def shout(text: str) -> str:
    """Return the text in capital letters."""
    return text.upper()
