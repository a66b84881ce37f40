"""The names of the memory strategies (the rule itself is :mod:`chatbot.engine.memory`).

Apart from the rule so that the flag table (``--memory``) can name them without importing it: ``chatbot --version``
and ``--help`` stay as fast as a bare interpreter allows.
"""

STRATEGIES = ("full", "window", "summary")

#: earlier turns recall brings back at most, by default: one keeps a long conversation within 10% more prompt tokens
#: with window and summary memory and recalls every probed fact (bench/bench_recall.py, docs/memory.md)
DEFAULT_RECALL = 1
