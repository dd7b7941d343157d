"""Board presenters by game (``games/boards/<game>.py`` exporting ``PRESENTER``).

Until the boundary refactor moves every presenter here, ``games.views.boards`` finds the ones
in this package through its ``BOARD_MODULES`` (engine name -> module), imported on first use.
"""
