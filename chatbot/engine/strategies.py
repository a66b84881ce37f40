"""The names of the memory strategies (the rule itself is :mod:`chatbot.engine.memory`).

Apart from the rule so that the flag table (``--memory``) can name them without importing it: ``chatbot --version``
and ``--help`` stay as fast as a bare interpreter allows.
"""

STRATEGIES = ("full", "window", "summary")

#: earlier turns recall brings back at most, by default: one keeps a long conversation within 10% more prompt tokens
#: with window and summary memory and recalls every probed fact (bench/bench_recall.py, docs/memory.md)
DEFAULT_RECALL = 1

#: how recall finds earlier turns (``--recall-by``): by shared words (BM25), by meaning (sentence vectors of the
#: ``embed`` extra), or both fused; words by default (meaning needs the extra, and embeds each turn once)
RECALL_BY = ("words", "meaning", "both")
DEFAULT_RECALL_BY = "words"
