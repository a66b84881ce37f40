"""The public token estimate: ``chatbot.tokens.rough_count(text) -> int`` (implemented in :mod:`chatbot.engine.tokens`).

It estimates the tokens of a text without a tokenizer, close to real tokenizers on English, Korean and other
scripts, code and JSON, and errs high.
"""

from chatbot.engine.tokens import rough_count

__all__ = ["rough_count"]
