"""Kazoku: the kana card deck and its two games, one folder (ARCHITECTURE §1).

- ``deck.py``: the 45-card deck, read once from ``fixtures/kazoku_deck.json``; scripts.
- ``families.py``: engine ``kazoku-families`` (happy families), the rules as the rulebook says.
- ``words.py``: engine ``kazoku-words`` (form the words printed on the cards).
- ``index.py``: the speed-ups both share with their bots (bit masks, subset tables, the word
  index, memoised hand summaries).
- ``bots_families.py``, ``bots_words.py``: the CPU players (they import ``index``, never the
  engines, so engines import their bots without a cycle).

The registry (``games.engines.ENGINES``) names the two engine modules; each exports ``ENGINE``.
"""
