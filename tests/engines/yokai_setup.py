"""Stacked Yokai games for scenario tests (imported by the tests of this folder)."""

from __future__ import annotations

from games.engines import get_engine

ENG = get_engine("yokai")

# Row by row: each family in its own row (already appeased) ...
ROWS = ["kitsune"] * 4 + ["kappa"] * 4 + ["rokurokubi"] * 4 + ["oni"] * 4
# ... and a grid where no two yokai of a family touch (each row shifts the last by one).
_ORDER = ["kitsune", "kappa", "rokurokubi", "oni"]
MIXED = [_ORDER[(row + col) % 4] for row in range(4) for col in range(4)]


def game(
    grid=ROWS,
    clues=("clue-kitsune", "clue-kappa"),
    *,
    players=2,
    level=1,
    first=0,
    memory_aids=False,
    **extra,
):
    setup = {"grid": list(grid), "clues": list(clues), "first": first, **extra}
    options = {"level": level, "memory_aids": memory_aids, "setup": setup}
    return ENG.new_game(players=players, seed=0, options=options)


def play(state, *actions):
    """Apply ``actions`` for whoever is to act; return the final state and all events."""
    events = []
    for action in actions:
        state, new = ENG.apply(state, ENG.to_act(state)[0], action)
        events += new
    return state, events


def peek(row, col):
    return {"type": "peek", "row": row, "col": col}


def move(row, col, to_row, to_col):
    return {"type": "move", "row": row, "col": col, "to_row": to_row, "to_col": to_col}


def place(slot, row, col):
    return {"type": "place", "slot": slot, "row": row, "col": col}


REVEAL = {"type": "reveal"}
DECLARE = {"type": "declare"}


def whole_turn(state, clue=REVEAL, moving=None):
    """Peek at the first two yokai allowed, make ``moving`` (default: the last legal move,
    which moves the last yokai of the grid and keeps the top-left places filled), then
    ``clue``."""
    state, events = play(state, ENG.legal_actions(state, state.turn)[0])
    state, more = play(state, ENG.legal_actions(state, state.turn)[0])
    events += more
    if state.step == "move":
        moving = moving or ENG.legal_actions(state, state.turn)[-2]  # [-1] is declare
        state, more = play(state, moving)
        events += more
    state, more = play(state, clue)
    return state, events + more


def cell(view, row, col):
    return next(c for c in view["cells"] if (c["row"], c["col"]) == (row, col))
