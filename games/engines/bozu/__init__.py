"""Bōzu Mekuri: the engine ``bozu``.

``rules.py`` (the engine, reading like the rulebook), ``state.py`` (the immutable state: the
deal shared by a game's states, and a log kept once), ``data.py`` (the 100 poet cards),
``effects.py`` (what a card does under the table's settings), ``index.py`` (speed-ups: hands
as ropes, a quicker shuffle), ``bots.py`` (CPU players), ``decisive.py`` (the second-half
question for learners). Rules notes: ``docs/rules/bozu.md``.
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
