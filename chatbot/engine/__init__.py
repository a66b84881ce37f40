"""The engine: what is stored, what each request holds, and how tokens are counted. No I/O, no terminal, no SDK.

- :mod:`~chatbot.engine.turn`: messages, turns, the rules a request follows
- :mod:`~chatbot.engine.conversation`: the stored conversation
- :mod:`~chatbot.engine.memory`: the memory rule (full / window / summary, budget, folds, the summary prompt)
- :mod:`~chatbot.engine.tokens`: token counting and calibration
- :mod:`~chatbot.engine.usage`: a session's usage totals
"""
