"""Kept for the branches written before ``games/boards/``: explicit presenter overrides.

New games need no line here: ``games.boards.presenter_for`` finds ``PRESENTER`` in
``games/boards/<engine name with - as _>.py``. An entry in ``PRESENTERS`` wins over that
convention (a stop-gap for presenters not yet moved there).
"""

from __future__ import annotations

from games.boards import presenter_for as _by_convention
from games.boards.common import BoardPresenter

PRESENTERS: dict[str, BoardPresenter] = {}


def presenter_for(engine: str) -> BoardPresenter:
    return PRESENTERS.get(engine) or _by_convention(engine)


__all__ = ["PRESENTERS", "BoardPresenter", "presenter_for"]
