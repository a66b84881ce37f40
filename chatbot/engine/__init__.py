"""The engine: what is stored, what each request holds, and how tokens are counted. No I/O, no terminal, no SDK.

- :mod:`~chatbot.engine.turn`: messages, turns, the rules a request follows
- :mod:`~chatbot.engine.conversation`: the stored conversation
- :mod:`~chatbot.engine.memory`: the memory rule (full / window / summary, budget, folds, the summary prompt)
- :mod:`~chatbot.engine.tokens`: token counting (rough or a real tokenizer) and each model family's chat format
- :mod:`~chatbot.engine.calibration`: what the provider's counts taught, per model (correction and margin)
- :mod:`~chatbot.engine.usage`: a session's usage totals
"""
