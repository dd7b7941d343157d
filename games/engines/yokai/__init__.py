"""Yokai: the cooperative memory game on a moving grid (engine ``yokai``).

``rules.py`` reads like the rulebook, ``index.py`` holds the grid geometry (connectivity,
legal destinations, shapes), ``bots.py`` the CPU teammates, ``data.py`` the cards.
"""

from games.engines.yokai.data import (
    AFFINITIES,
    CLUE_COUNTS,
    CLUES,
    FAMILIES,
    FAMILY_IDS,
    OBJECTIVES,
    YOKAI,
)
from games.engines.yokai.rules import ENGINE_NAME, YokaiEngine, YokaiState, judge

ENGINE = YokaiEngine()

__all__ = [
    "AFFINITIES",
    "CLUES",
    "CLUE_COUNTS",
    "ENGINE",
    "ENGINE_NAME",
    "FAMILIES",
    "FAMILY_IDS",
    "OBJECTIVES",
    "YOKAI",
    "YokaiEngine",
    "YokaiState",
    "judge",
]
