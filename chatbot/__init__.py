"""chatbot: a provider-agnostic terminal chatbot that shows how conversation memory works.

The model is stateless: every request re-sends the conversation, and this package decides what to keep.
"""

__version__ = "0.1.0"
