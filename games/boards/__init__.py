"""Board presenters: one module per game, turning ``eng.view(state, seat)`` into template data.

A presenter receives only the viewer's view (never the state) and returns plain dicts:
cards with glyph and romaji, players, legal actions as labelled buttons (each carrying its
``action_key``), and the public log in sentences (one small function per event type).

Found by convention, so a new game edits no registry: the presenter of engine ``card-game``
is ``PRESENTER`` in ``games/boards/card_game.py`` (the engine name with ``-`` replaced by
``_``), with its template in ``templates/games/boards/card_game.html``. An engine without a
module gets the generic ``BoardPresenter`` (plain buttons, raw events).
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from games.boards.common import BoardPresenter


def presenter_module(engine: str) -> str:
    """The module that holds ``engine``'s presenter: ``games.boards.<engine with - as _>``."""
    return f"{__name__}.{engine.replace('-', '_')}"


@cache
def presenter_for(engine: str) -> BoardPresenter:
    """``PRESENTER`` of the engine's module, or the generic presenter when it has none."""
    module_path = presenter_module(engine)
    try:
        module = import_module(module_path)
    except ModuleNotFoundError as exc:
        if exc.name != module_path:  # the module exists but one of its imports is missing
            raise
        return BoardPresenter()
    return module.PRESENTER


__all__ = ["BoardPresenter", "presenter_for", "presenter_module"]
