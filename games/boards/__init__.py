"""Board presenters, one module per game (``games/boards/<game>.py`` exporting ``PRESENTER``).

Until the boundary refactor moves every presenter here, ``games/views/boards/__init__.py``
registers them in ``PRESENTERS``.
"""

# The presenters here build on ``games.views.boards.common``, whose package registers them:
# import that package first, so that importing a presenter module directly finds it complete.
import games.views.boards  # noqa: E402, F401
