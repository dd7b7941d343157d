"""Every registered engine passes the generic conformance checks through bot playouts.

Also proves the checks can fail: a leaky view, lost cards and a mutating apply are caught.
"""

import random

import pytest

from games.engines import ENGINES, get_engine
from games.engines.conformance import check_conservation, check_state, check_views, playout
from games.engines.kazoku_families import KazokuFamilies


@pytest.mark.parametrize("name", sorted(ENGINES))
@pytest.mark.parametrize("players", [2, 4])
def test_every_engine_plays_bot_games_without_invariant_errors(name, players):
    engine = get_engine(name)
    players = max(engine.MIN_PLAYERS, min(players, engine.MAX_PLAYERS))
    summary = playout(
        engine, players=players, games=2, seed=11, bots=list(engine.BOT_LEVELS), check=True
    )
    assert summary["errors"] == [] and summary["invariant_errors"] == 0
    assert summary["games"] == 2 and summary["actions"] > 0
    if getattr(engine, "cooperative", False):  # one team: every seat wins or loses together
        assert len(set(summary["wins_by_seat"])) == 1
    else:
        assert sum(summary["wins_by_seat"]) >= 2


class LeakyFamilies(KazokuFamilies):
    def view(self, state, seat):
        view = super().view(state, seat)
        view["hand_sizes"] = [list(hand) for hand in state.hands]  # shows every hand
        return view


class MutatingFamilies(KazokuFamilies):
    def apply(self, state, seat, action):
        new_state, events = super().apply(state, seat, action)
        state.log[-1][-1]["type"] = "tampered"
        return new_state, events


def test_the_checks_catch_a_view_leaking_hands():
    engine = LeakyFamilies()
    state = engine.new_game(players=3, seed=1)
    errors = check_views(engine, state, 3, random.Random(0))
    assert any("changes with information hidden" in error for error in errors)


def test_the_checks_catch_lost_cards():
    engine = get_engine("kazoku-families")
    state = engine.new_game(players=3, seed=1)
    broken = state._replace(pile=state.pile[1:])
    assert check_conservation(engine, broken)[0].startswith("card conservation broken")


def test_the_checks_catch_an_apply_that_mutates_its_input():
    engine = MutatingFamilies()
    state = engine.new_game(players=3, seed=1)
    errors = check_state(engine, state, 3, random.Random(0), sample=1)
    assert "apply mutated the state it was given" in errors
