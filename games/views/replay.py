"""Replays: step through a finished game, move by move, from its Move log.

The engine re-runs the deal from the table's seed and options, then applies the logged
actions. Each step is shown from the viewer's own seat (a player) or as a spectator (a
teacher): never another seat's hidden cards.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.boards import presenter_for
from games.engines import get_engine
from games.engines.base import visible_events
from games.params import BadParam, optional_id_param
from games.selectors import table_access
from games.services.replay import table_replay
from games.views.common import TableInfo, board_for, players_of
from games.views.errors import PageError, table_errors
from games.views.lookup import table_found


@login_required
@table_errors
@require_GET
def replay(request: HttpRequest, code: str) -> HttpResponse:
    table = table_found(code, request)
    access = table_access(table=table, user=request.user)
    if access.seat is None and not access.can_watch:
        raise PageError(_("You may not watch this table."), 403)
    if table.status != "finished":
        raise PageError(_("Replays open when the game is over."), 409)
    total = table.version
    try:
        step = optional_id_param(request.GET.get("step"))
    except BadParam:
        raise PageError(_("The step must be a number."), 400) from None
    step = total if step is None else step
    if not 0 <= step <= total:
        raise PageError(_("There is no such step in this game."), 404)
    state, events, move = table_replay(table=table, step=step)
    me = access.seat.index if access.seat is not None else None
    view = get_engine(table.engine).view(state, me)
    players = players_of(table, me)
    board = board_for(
        table=table, seat=access.seat, state=state, actions=False, view=view, players=players
    )
    presenter = presenter_for(table.engine)
    romaji = table.options.get("romaji", "always")
    sentences = [
        s for e in visible_events(events, me) if (s := presenter.sentence(e, players, view, romaji))
    ]
    context = {
        "info": TableInfo.of(table),
        "board": board,
        "me": me,
        "step": step,
        "total": total,
        "mover": players[move.seat] if move is not None else None,
        "step_sentences": sentences,
        "replay": True,
    }
    template = "games/replay.html#replay" if request.htmx else "games/replay.html"
    return render(request, template, context)
