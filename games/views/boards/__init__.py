"""Board presenters: one per engine, turning ``eng.view(state, seat)`` into template data.

A presenter receives only the viewer's view (never the state) and returns plain dicts:
cards with glyph and romaji, players, legal actions as labelled buttons (each carrying its
``action_key``), and the public log in sentences. Adding a game = one presenter module and
one board template.
"""

from __future__ import annotations

from importlib import import_module

from games.views.boards.common import BoardPresenter
from games.views.boards.kazoku_families import KazokuFamiliesBoard
from games.views.boards.kazoku_words import KazokuWordsBoard

PRESENTERS: dict[str, BoardPresenter] = {
    "kazoku-families": KazokuFamiliesBoard(),
    "kazoku-words": KazokuWordsBoard(),
}
# Presenters already in their boundary place, games/boards/<module>.py (exporting PRESENTER).
# Imported on first use: they import this package's ``common``, so importing them while this
# package loads would be a cycle whenever one of them is imported first.
BOARD_MODULES: dict[str, str] = {
    "yokai": "games.boards.yokai",
}


def presenter_for(engine: str) -> BoardPresenter:
    if engine in BOARD_MODULES:
        return import_module(BOARD_MODULES[engine]).PRESENTER
    return PRESENTERS.get(engine) or BoardPresenter()


__all__ = ["PRESENTERS", "BoardPresenter", "presenter_for"]
