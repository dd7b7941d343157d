"""Board presenters: one per engine, turning ``eng.view(state, seat)`` into template data.

A presenter receives only the viewer's view (never the state) and returns plain dicts:
cards with glyph and romaji, players, legal actions as labelled buttons (each carrying its
``action_key``), and the public log in sentences. Adding a game = one presenter module and
one board template.
"""

from __future__ import annotations

from games.boards.koikoi import PRESENTER as KOIKOI_PRESENTER
from games.views.boards.common import BoardPresenter
from games.views.boards.kazoku_families import KazokuFamiliesBoard
from games.views.boards.kazoku_words import KazokuWordsBoard

PRESENTERS: dict[str, BoardPresenter] = {
    "kazoku-families": KazokuFamiliesBoard(),
    "kazoku-words": KazokuWordsBoard(),
    "koikoi": KOIKOI_PRESENTER,
}


def presenter_for(engine: str) -> BoardPresenter:
    return PRESENTERS.get(engine) or BoardPresenter()


__all__ = ["PRESENTERS", "BoardPresenter", "presenter_for"]
