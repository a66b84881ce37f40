"""The names of the memory strategies (the rule itself is :mod:`chatbot.engine.memory`).

Apart from the rule so that the flag table (``--memory``) can name them without importing it: ``chatbot --version``
and ``--help`` stay as fast as a bare interpreter allows.
"""

STRATEGIES = ("full", "window", "summary")
