"""The bit masks and deal helpers the rules (``rules.py``) work with, kept apart from the
rulebook: card ids to bits and month masks, the shuffle and the deal cut, four of a month as a
full nibble of a mask. Each is tested against its plain definition
(``tests/engines/test_koikoi_index.py``).

There is no second copy of the turn here: ``rules.Round`` plays every action over these masks
(until issue 23 ``fast_play``, ``fast_take`` and ``fast_koikoi`` repeated the turn for speed;
docs/bench.md has the figures of that change).
"""

from __future__ import annotations

import hashlib
import struct
from operator import itemgetter

from games.engines.koikoi.cards import DECK

BIT: dict[str, int] = dict(DECK.bit)
# card id -> the mask of the 4 cards of its month
MONTH_MASK_OF: dict[str, int] = {card: DECK.month_mask[DECK.month_of[card]] for card in DECK.ids}
# a one-card mask -> its card
CARD_OF_BIT: dict[int, str] = {bit: card for card, bit in DECK.bit.items()}


# --- deals -----------------------------------------------------------------------------------

_KEYS = struct.Struct("<48I")
_IDS = DECK.ids
_ALL = range(48)
# dealt two by two, four times: ko, table, oya (positions in the shuffled deck)
_KO_CARDS = itemgetter(*[6 * turn + k for turn in range(4) for k in (0, 1)])
_TABLE_CARDS = itemgetter(*[6 * turn + k for turn in range(4) for k in (2, 3)])
_OYA_CARDS = itemgetter(*[6 * turn + k for turn in range(4) for k in (4, 5)])
# the months are the nibbles of a mask (cards 4m-4 .. 4m-1 are month m): checked here
assert all(DECK.month_mask[m] == 0xF << 4 * (m - 1) for m in range(1, 13))
_NIBBLE_LOW = sum(1 << 4 * m for m in range(12))


def shuffled_ids(seed: int, label: str) -> tuple[str, ...]:
    """``rules.shuffled`` as a tuple: the 48 cards sorted by their SHAKE-256 keys, ties by deck
    order (a stable sort of the deck indices: the same order as sorting ``key << 6 | index``)."""
    keys = _KEYS.unpack(hashlib.shake_256(f"{seed}/{label}".encode()).digest(4 * 48))
    return itemgetter(*sorted(_ALL, key=keys.__getitem__))(_IDS)


def deal_cards(seed: int, round_number: int, attempt: int, oya: int) -> tuple:
    """``rules.shuffled_deal``: (hands, table, pile) of one deal."""
    deck = shuffled_ids(seed, f"{round_number}/{attempt}")
    ko, oya_hand = _KO_CARDS(deck), _OYA_CARDS(deck)
    hands = (oya_hand, ko) if oya == 0 else (ko, oya_hand)
    return hands, _TABLE_CARDS(deck), deck[24:]


def mask_of(cards: tuple[str, ...] | list[str]) -> int:
    return sum(map(BIT.__getitem__, cards))


def has_four_of_a_month(mask: int) -> bool:
    """All four cards of some month in ``mask`` (a full nibble)."""
    return bool(mask & mask >> 1 & mask >> 2 & mask >> 3 & _NIBBLE_LOW)
