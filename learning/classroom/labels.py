"""How the classroom's pages name an assignment's game: from the engine's Display contract
(``games.display``), never its id. A "recommended" assignment names no game: the picker
chooses one for each student."""

from __future__ import annotations

from django.utils.translation import gettext

from games.display import game_label
from learning.classroom.models import Assignment


def assignment_game(assignment: Assignment) -> str:
    """The game, variant, options and script of ``assignment`` in words."""
    if assignment.is_recommended:
        return gettext("Any game the picker recommends")
    return game_label(assignment.engine, {**assignment.options, "script": assignment.script})


def assignment_name(assignment: Assignment) -> str:
    """The teacher's title for ``assignment``, or its game in words when it has none."""
    return assignment.title or assignment_game(assignment)
