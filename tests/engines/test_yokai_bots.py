"""Yokai CPU teammates: they play legal moves, remember peeks, signal with clues, and a team of
them wins far more often than a team playing at random."""

import random

import pytest
from yokai_setup import ENG, ROWS, cell, game, peek, play

from games.engines import action_key
from games.engines.conformance import playout
from games.engines.yokai.bots import beliefs


def test_beliefs_come_from_own_peeks_and_teammates_clues():
    state = game(ROWS, clues=["clue-kappa-oni", "clue-kitsune"])
    state, _ = play(state, peek(0, 0), peek(0, 1))
    view = ENG.view(state, 0)
    belief = beliefs(view, read_clues=True)
    assert belief[(0, 0)] == {"kitsune"} and len(belief[(3, 3)]) == 4
    view["cells"][15]["clue"] = "clue-kappa-oni"  # as if a teammate had placed it
    assert beliefs(view, read_clues=True)[(3, 3)] == {"kappa", "oni"}
    assert len(beliefs(view, read_clues=False)[(3, 3)]) == 4


def test_a_bot_peeks_at_what_it_does_not_know_and_declares_a_known_appeased_grid():
    bot, rng = ENG.bot("normal"), random.Random(1)
    state = game(ROWS)
    state, _ = play(state, peek(0, 0))
    choice = bot.choose(ENG.view(state, 0), ENG.legal_actions(state, 0), rng)
    assert choice["type"] == "peek" and (choice["row"], choice["col"]) != (0, 0)
    # a seat that has seen every yokai of an appeased grid declares at the start of its turn
    known = state._replace(peeks=(tuple((c, 1) for _, _, c in state.grid), ()), peeked_now=())
    choice = bot.choose(ENG.view(known, 0), ENG.legal_actions(known, 0), rng)
    assert choice == {"type": "declare"}


def test_a_bot_signals_a_known_well_placed_yokai_with_a_matching_clue():
    state = game(ROWS, clues=["clue-kitsune", "clue-oni"])
    state, _ = play(state, peek(0, 0), peek(0, 1), {"type": "move", "row": 3, "col": 3,
                    "to_row": 4, "to_col": 2}, {"type": "reveal"})  # fmt: skip
    state, _ = play(state, peek(2, 0), peek(2, 1))
    state = state._replace(peeks=(state.peeks[0], state.peeks[0]))  # seat 1 knows row 0
    state, _ = play(state, {"type": "move", "row": 4, "col": 2, "to_row": 3, "to_col": 3})
    choice = ENG.bot("normal").choose(ENG.view(state, 1), ENG.legal_actions(state, 1),
                                      random.Random(0))  # fmt: skip
    assert choice["type"] == "place" and choice["row"] == 0 and choice["col"] in (0, 1)
    assert cell(ENG.view(state, 1), 0, 0)["family"] == "kitsune"


@pytest.mark.parametrize("level", ["easy", "normal", "hard", "random"])
def test_bots_choose_legal_actions(level):
    bot, rng = ENG.bot(level), random.Random(3)
    state = ENG.new_game(3, 3, {"level": 2})
    while not ENG.is_over(state):
        seat = ENG.to_act(state)[0]
        legal = ENG.legal_actions(state, seat)
        action = bot.choose(ENG.view(state, seat), legal, rng)
        assert action_key(action) in {action_key(a) for a in legal}
        state, _ = ENG.apply(state, seat, action)


def test_a_cpu_team_wins_far_more_often_than_a_random_team():
    def wins(bots):
        summary = playout(ENG, players=3, games=30, seed=100, options={"level": 1}, bots=bots,
                          check=False)  # fmt: skip
        return summary["wins_by_seat"][0]

    assert wins(["hard"]) >= 8 and wins(["random"]) <= 1
