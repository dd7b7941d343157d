"""Bōzu Mekuri: the engine ``bozu``.

``rules.py`` (the engine, reading like the rulebook), ``state.py`` (the frozen state and its
log), ``data.py`` (the 100 poet cards), ``effects.py`` (what a card does under the table's
settings), ``index.py`` (speed-ups), ``bots.py`` (CPU players), ``decisive.py`` (the
second-half question for learners). Rules notes: ``docs/rules/bozu.md``.
"""

from games.engines.bozu.data import KANA_ID, SEMIMARU, Poet, card_id, load_poets
from games.engines.bozu.effects import Rules, effect_table
from games.engines.bozu.rules import ENGINE, WARNING_PILE, Bozu, BozuState, log_groups

__all__ = [
    "ENGINE",
    "KANA_ID",
    "SEMIMARU",
    "WARNING_PILE",
    "Bozu",
    "BozuState",
    "Poet",
    "Rules",
    "card_id",
    "effect_table",
    "load_poets",
    "log_groups",
]
