"""The Kazoku word-game board (filled in once the engine's view settles)."""

from __future__ import annotations

from games.views.boards.common import BoardPresenter


class KazokuWordsBoard(BoardPresenter):
    template = "games/boards/generic.html"
