"""Files attached to a message: what ``/file`` and ``-f`` name (a file, a folder, a URL) read within limits, and how
they sit in the message (:mod:`~chatbot.attachments.attach`). Below the chat loop, which only composes them."""
