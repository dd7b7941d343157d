"""Stacked Kazoku deals for scenario tests (imported by the tests of this folder)."""

from __future__ import annotations

from games.engines import get_engine
from games.engines.kazoku.deck import load_deck

ENG = get_engine("kazoku-families")
DECK = load_deck().ids


def stacked(hands, pile_top=(), *, first=0, pile=None, **options):
    """A new game with ``hands`` dealt, ``pile_top`` drawn first, then the rest of the deck.

    ``pile=[]`` gives an empty pile: then ``hands`` must hold the whole deck.
    """
    placed = {card for hand in hands for card in hand} | set(pile_top)
    if pile is None:
        pile = list(pile_top) + [card for card in DECK if card not in placed]
    setup = {"hands": [list(h) for h in hands], "pile": list(pile), "table": [], "first": first}
    return ENG.new_game(players=len(hands), seed=0, options={**options, "setup": setup})


def rest_of_deck(*taken):
    """Every card not in the given lists, in deck order."""
    used = {card for cards in taken for card in cards}
    return [card for card in DECK if card not in used]


def events_of(events, kind):
    return [event for event in events if event["type"] == kind]
