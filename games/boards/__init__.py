"""Board presenters by game (``games/boards/<game>.py`` exporting ``PRESENTER``).

Until the boundary refactor moves every presenter here, ``games.views.boards`` registers the
ones in this package in its ``PRESENTERS`` dict.
"""
