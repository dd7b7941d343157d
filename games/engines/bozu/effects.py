"""What each card does under a table's settings: one lookup per revealed card.

``effect_table(rules)`` maps every card id to one effect name (built once per settings):

- ``noble``: the card stays before you.
- ``monk``: your hand and the monk go to the common pile.
- ``lady``: take her card and the whole common pile (then an extra draw per ``lady``).
- ``emperor``: keep the card and draw one more (``emperor="draw_again"``).
- ``empress``: Jitō under ``draw_again``: she is also a lady, so take the common pile, keep
  her and draw one more (one extra draw, whatever ``lady`` says).
- ``take_hands``: keep the card and take every other player's hand (``emperor="take_hands"``;
  Jitō also takes the common pile, as a lady).
- ``eliminate``: Semimaru (default): your hand and his card to the common pile, you play no
  more.
- ``skip``: Semimaru: you keep his card and your next turn is skipped.
- ``all_hands``: Semimaru: every hand, yours included, and his card to the common pile.
"""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import NamedTuple

from games.engines.bozu.data import load_poets

SEMIMARU_RULES = ("eliminate", "skip", "monk", "noble", "all_hands")
EMPEROR_RULES = ("draw_again", "take_hands", "ordinary")
LADY_RULES = ("take_pile", "take_pile_draw", "draw_if_empty")


class Rules(NamedTuple):
    """The settings that change what a card does (display settings are not here)."""

    semimaru: str = "eliminate"
    emperor: str = "draw_again"
    lady: str = "take_pile"
    allow_stop: bool = True
    nyudo_monks: bool = False


def effect_of_poet(poet, rules: Rules) -> str:  # noqa: ANN001 - a data.Poet
    """The effect of one card under ``rules`` (see the module docstring)."""
    if poet.category == "semimaru":
        return {"monk": "monk", "noble": "noble"}.get(rules.semimaru, rules.semimaru)
    if poet.emperor and rules.emperor != "ordinary":
        if rules.emperor == "take_hands":
            return "take_hands"
        return "empress" if poet.category == "lady" else "emperor"
    if poet.category == "monk" or (poet.nyudo and rules.nyudo_monks):
        return "monk"
    return poet.category  # noble or lady


@lru_cache(maxsize=64)
def effect_table(rules: Rules) -> MappingProxyType:
    """Card id -> effect name, for every card, under ``rules``."""
    poets = load_poets()
    return MappingProxyType({cid: effect_of_poet(poets.cards[cid], rules) for cid in poets.ids})
