"""Bōzu Mekuri: the engine ``bozu`` (rules in ``rules.py``, cards in ``data.py``, what a card
does under the table's settings in ``effects.py``, CPU players in ``bots.py``)."""

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
