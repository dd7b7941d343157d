"""Stacked Koi-Koi deals for scenario tests (imported by the tests of this folder)."""

from __future__ import annotations

from games.engines import get_engine
from games.engines.koikoi.cards import DECK

ENG = get_engine("koikoi")
IDS = DECK.ids

# A deal where the oya (seat 0) forms 花見酒 on the first turn, and the ko (seat 1) then
# forms 三光 over two turns (crane + phoenix, then the moon).
OYA_HAND = [
    "kiku-sakazuki", "ume-chaff-1", "yanagi-tsubame", "yanagi-tanzaku", "yanagi-kasu",
    "ume-chaff-2", "ume-uguisu", "ume-akatan",
]  # fmt: skip
KO_HAND = [
    "kiri-hoo", "susuki-tsuki", "momiji-shika", "momiji-aotan", "momiji-chaff-2", "botan-cho",
    "botan-aotan", "botan-chaff-2",
]  # fmt: skip
TABLE = [
    "kiku-chaff-1", "sakura-maku", "kiri-chaff-1", "matsu-chaff-1", "susuki-chaff-1",
    "fuji-chaff-1", "ayame-chaff-1", "hagi-chaff-1",
]  # fmt: skip
PILE_TOP = ["sakura-chaff-1", "matsu-tsuru", "botan-chaff-1", "momiji-chaff-1"]


def stacked(hands, table, pile_top=(), *, first=0, **options):
    """A new game: ``hands`` (8 each) and ``table`` (8) dealt, ``pile_top`` turned first,
    then the rest of the deck in deck order. ``first`` is the oya."""
    placed = [card for hand in hands for card in hand] + list(table) + list(pile_top)
    pile = list(pile_top) + [card for card in IDS if card not in set(placed)]
    setup = {"hands": [list(h) for h in hands], "table": list(table), "pile": pile, "first": first}
    return ENG.new_game(players=2, seed=0, options={**options, "setup": setup})


def events_of(events, kind):
    return [event for event in events if event["type"] == kind]


def play_out(state, policy=None, stop=None):
    """Apply ``policy(state, legal) -> action`` (default: the first legal action) until the
    game ends or ``stop(state, events)`` is true. Returns (state, every event)."""
    every = []
    while not ENG.is_over(state):
        seat = ENG.to_act(state)[0]
        legal = ENG.legal_actions(state, seat)
        action = policy(state, legal) if policy else legal[0]
        state, events = ENG.apply(state, seat, action)
        every += events
        if stop and stop(state, events):
            break
    return state, every
