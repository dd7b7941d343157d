"""Yokai's cards as plain data: families, yokai cards, clue cards, affinities, objectives.

Card ids (stable, documented in docs/rules/yokai.md):

- yokai: ``"<family>-<n>"`` (``"kitsune-1"`` .. ``"oni-4"``), four per family;
- clues: ``"clue-<family>[-<family>...]"``, families in ``FAMILY_IDS`` order
  (``"clue-kitsune"``, ``"clue-kitsune-kappa"``, ``"clue-kitsune-kappa-rokurokubi"``);
- affinities: ``"affinity-<family>-<family>"``; objectives: ``"square"``, ``"scroll"``,
  ``"lantern"``.

The kana of each family name are checked against the kana catalogue (``fixtures/kana.json``)
by ``tests/engines/test_yokai_data.py``. Pure Python: built once at import, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from types import MappingProxyType

from games.engines.base import gettext_noop


@dataclass(frozen=True)
class Family:
    id: str
    hiragana: str
    katakana: str
    romaji: str
    kana_ids: tuple[str, ...]  # catalogue kana ids the name shows, once each, in reading order
    meaning: str


# The sokuon っ of かっぱ (a small tsu: a pause, not read "tsu") is not in the catalogue of
# 71 kana, so kappa shows the kana ids ka and pa.
FAMILIES = (
    Family("kitsune", "きつね", "キツネ", "kitsune", ("ki", "tsu", "ne"), gettext_noop("fox")),
    Family("kappa", "かっぱ", "カッパ", "kappa", ("ka", "pa"), gettext_noop("river child")),
    Family(
        "rokurokubi",
        "ろくろくび",
        "ロクロクビ",
        "rokurokubi",
        ("ro", "ku", "bi"),
        gettext_noop("long-necked woman"),
    ),
    Family("oni", "おに", "オニ", "oni", ("o", "ni"), gettext_noop("demon")),
)
FAMILY_IDS = tuple(family.id for family in FAMILIES)
FAMILY = MappingProxyType({family.id: family for family in FAMILIES})
CARDS_PER_FAMILY = 4
YOKAI = tuple(f"{family}-{n}" for family in FAMILY_IDS for n in range(1, CARDS_PER_FAMILY + 1))
FAMILY_OF_YOKAI = MappingProxyType({card: card.rsplit("-", 1)[0] for card in YOKAI})
GRID_SIZE = 4  # the deal: 4 rows x 4 columns

# 14 clue cards: every family alone (4), every pair (6), every triple (4).
CLUE_FAMILIES = MappingProxyType(
    {
        "clue-" + "-".join(group): group
        for size in (1, 2, 3)
        for group in combinations(FAMILY_IDS, size)
    }
)
CLUES = tuple(CLUE_FAMILIES)

# Clue cards drawn per player count, as (single, double, triple). The seed's table lost its row
# labels; rows read in card order (singles, pairs, triples): see docs/rules/yokai.md.
CLUE_COUNTS = MappingProxyType({2: (2, 3, 2), 3: (2, 4, 3), 4: (3, 4, 3)})

# Six affinity cards: the six pairs of families. At level 2 one is drawn; the two families must
# touch (one card of each orthogonally adjacent) at the end of the game.
AFFINITY_FAMILIES = MappingProxyType(
    {"affinity-" + "-".join(pair): pair for pair in combinations(FAMILY_IDS, 2)}
)
AFFINITIES = tuple(AFFINITY_FAMILIES)


@dataclass(frozen=True)
class Objective:
    id: str
    name: str
    rows: tuple[str, ...]  # "#" = a yokai; the shape may be turned or mirrored

    @property
    def cells(self) -> frozenset[tuple[int, int]]:
        return frozenset(
            (r, c) for r, line in enumerate(self.rows) for c, mark in enumerate(line) if mark == "#"
        )


# Three objective cards: the shape the 16 yokai must form at the end (level 5).
OBJECTIVES = (
    Objective("square", gettext_noop("Square (4 × 4)"), ("####",) * 4),
    Objective("scroll", gettext_noop("Scroll (2 × 8)"), ("########",) * 2),
    Objective("lantern", gettext_noop("Lantern"), (".##.", "####", "####", "####", ".##.")),
)
OBJECTIVE = MappingProxyType({objective.id: objective for objective in OBJECTIVES})

# Team rating of a won game, by player count: (lowest Glorieuse score, lowest Légendaire score).
RATINGS = ("honourable", "glorious", "legendary")
RATING_LABELS = MappingProxyType(
    {
        "honourable": gettext_noop("Honourable victory"),
        "glorious": gettext_noop("Glorious victory"),
        "legendary": gettext_noop("Legendary victory"),
    }
)
RATING_THRESHOLDS = MappingProxyType({2: (8, 12), 3: (10, 16), 4: (11, 19)})

# Scoring of a won game (the seed's "décompte").
POINTS_RIGHT, POINTS_WRONG, POINTS_REVEALED, POINTS_UNREVEALED = 1, -1, 2, 5


def families_on(card_id: str) -> tuple[str, ...]:
    """The families a yokai, clue or affinity card names; ``ValueError`` for an unknown id."""
    if card_id in FAMILY_OF_YOKAI:
        return (FAMILY_OF_YOKAI[card_id],)
    if card_id in CLUE_FAMILIES:
        return CLUE_FAMILIES[card_id]
    if card_id in AFFINITY_FAMILIES:
        return AFFINITY_FAMILIES[card_id]
    raise ValueError(f"there is no card {card_id!r} in Yokai")


def rating(points: int, players: int) -> str:
    glorious, legendary = RATING_THRESHOLDS[players]
    if points >= legendary:
        return "legendary"
    return "glorious" if points >= glorious else "honourable"
