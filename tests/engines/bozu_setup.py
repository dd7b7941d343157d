"""Stacked Bōzu Mekuri deals for scenario tests (imported by the tests of this folder)."""

from __future__ import annotations

from games.engines import get_engine
from games.engines.bozu import load_poets

ENG = get_engine("bozu")
DECK = load_poets().ids
NOBLES = [
    c
    for c in DECK
    if load_poets().cards[c].category == "noble"
    and not load_poets().cards[c].emperor
    and not load_poets().cards[c].nyudo
]
TENJI, JITO, SEMIMARU, KISEN, KOMACHI, ISE = "p001", "p002", "p010", "p008", "p009", "p019"
NYUDO = "p076"


def stacked(pile_top, *, players=2, hands=None, common=(), first=0, **options):
    """A new game: ``pile_top`` revealed first, then nobles only (so what follows a scenario is
    calm), then the rest of the deck. ``hands`` and ``common`` start in play."""
    hands = [list(h) for h in (hands or [[] for _ in range(players)])]
    placed = set(pile_top) | set(common) | {card for hand in hands for card in hand}
    rest = [c for c in NOBLES if c not in placed] + [
        c for c in DECK if c not in placed and c not in NOBLES
    ]
    setup = {"hands": hands, "pile": [*pile_top, *rest], "table": list(common), "first": first}
    return ENG.new_game(players=len(hands), seed=0, options={**options, "setup": setup})


def play(state, *actions):
    """Apply ``actions`` (``"draw"`` / ``"stop"``) by whoever is to act; return the state and
    every event."""
    events = []
    for kind in actions:
        state, new = ENG.apply(state, ENG.to_act(state)[0], {"type": kind})
        events += new
    return state, events


def kinds(state, seat):
    return [action["type"] for action in ENG.legal_actions(state, seat)]
