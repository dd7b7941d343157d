"""Re-running a table's game from its seed, options and Move log."""

from __future__ import annotations

from typing import Any

from games.engines import get_engine
from games.models import Move, Table
from games.services.tables import options_split


def table_replay(*, table: Table, step: int) -> tuple[Any, list[dict], Move | None]:
    """The state after ``step`` moves, the events of that last move, and the move itself."""
    eng = get_engine(table.engine)
    engine_options, _table_options = options_split(eng=eng, options=table.options)
    state = eng.new_game(players=table.players, seed=table.seed, options=engine_options)
    events: list[dict] = []
    move = None
    for move in Move.objects.filter(table=table, version__lte=step).order_by("version"):
        state, events = eng.apply(state, move.seat, move.action)
    return state, events, move
