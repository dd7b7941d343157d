"""Yokai CPU teammates: they play legal moves, remember peeks, signal with clues, and a team of
them wins far more often than a team playing at random."""

import random

import pytest
from yokai_setup import DECLARE, ENG, REVEAL, ROWS, cell, game, move, peek, play

from games.engines import action_key
from games.engines.conformance import playout
from games.engines.yokai.bots import FRAMES, beliefs, frame_of, read_frame_moves
from games.engines.yokai.data import AFFINITY_FAMILIES, FAMILY_IDS, OBJECTIVE
from games.engines.yokai.index import is_connected, neighbours, normalised, shape_variants


def test_beliefs_come_from_own_peeks_and_teammates_clues():
    state = game(ROWS, clues=["clue-kappa-oni", "clue-kitsune"])
    state, _ = play(state, peek(0, 0), peek(0, 1))
    view = ENG.bot_view(state, 0)
    belief = beliefs(view, read_clues=True)
    assert belief[(0, 0)] == {"kitsune"} and len(belief[(3, 3)]) == 4
    view["cells"][15]["clue"] = "clue-kappa-oni"  # as if a teammate had placed it
    assert beliefs(view, read_clues=True)[(3, 3)] == {"kappa", "oni"}
    assert len(beliefs(view, read_clues=False)[(3, 3)]) == 4


def test_a_bot_peeks_at_what_it_does_not_know_and_declares_a_known_appeased_grid():
    bot, rng = ENG.bot("normal"), random.Random(1)
    state = game(ROWS)
    state, _ = play(state, peek(0, 0))
    choice = bot.choose(ENG.bot_view(state, 0), ENG.legal_actions(state, 0), rng)
    assert choice["type"] == "peek" and (choice["row"], choice["col"]) != (0, 0)
    # a seat that has seen every yokai of an appeased grid declares at the start of its turn
    known = state._replace(peeks=(tuple((c, 1) for _, _, c in state.grid), ()), peeked_now=())
    choice = bot.choose(ENG.bot_view(known, 0), ENG.legal_actions(known, 0), rng)
    assert choice == {"type": "declare"}


def test_a_bot_signals_a_known_well_placed_yokai_with_a_matching_clue():
    state = game(ROWS, clues=["clue-kitsune", "clue-oni"])
    state, _ = play(state, peek(0, 0), peek(0, 1), {"type": "move", "row": 3, "col": 3,
                    "to_row": 4, "to_col": 2}, {"type": "reveal"})  # fmt: skip
    state, _ = play(state, peek(2, 0), peek(2, 1))
    state = state._replace(peeks=(state.peeks[0], state.peeks[0]))  # seat 1 knows row 0
    state, _ = play(state, {"type": "move", "row": 4, "col": 2, "to_row": 3, "to_col": 3})
    choice = ENG.bot("normal").choose(ENG.bot_view(state, 1), ENG.legal_actions(state, 1),
                                      random.Random(0))  # fmt: skip
    assert choice["type"] == "place" and choice["row"] == 0 and choice["col"] in (0, 1)
    assert cell(ENG.bot_view(state, 1), 0, 0)["family"] == "kitsune"


@pytest.mark.parametrize("level", ["easy", "normal", "hard", "random"])
def test_bots_choose_legal_actions(level):
    bot, rng = ENG.bot(level), random.Random(3)
    state = ENG.new_game(3, 3, {"level": 2})
    while not ENG.is_over(state):
        seat = ENG.to_act(state)[0]
        legal = ENG.legal_actions(state, seat)
        action = bot.choose(ENG.bot_view(state, seat), legal, rng)
        assert action_key(action) in {action_key(a) for a in legal}
        state, _ = ENG.apply(state, seat, action)


def test_a_cpu_team_wins_far_more_often_than_a_random_team():
    def wins(bots):
        summary = playout(ENG, players=3, games=30, seed=100, options={"level": 1}, bots=bots,
                          check=False)  # fmt: skip
        return summary["wins_by_seat"][0]

    assert wins(["hard"]) >= 8 and wins(["random"]) <= 1


def _card_at(state, row, col):
    return next(card for r, c, card in state.grid if (r, c) == (row, col))


def test_a_bot_declares_right_after_the_move_that_completes_what_it_knows():
    """After its peeks or its move a `hard` bot declares a grid it believes appeased (the next
    teammate's move could spoil it); between its two peeks it looks first."""
    bot, rng = ENG.bot("hard"), random.Random(0)
    state = game(ROWS, clues=["clue-kitsune", "clue-kappa", "clue-oni"])
    everything = tuple((card, 1) for _, _, card in state.grid)
    state = state._replace(peeks=(everything, ()))
    state, _ = play(state, peek(0, 0))
    assert bot.choose(ENG.bot_view(state, 0), ENG.legal_actions(state, 0), rng)["type"] == "peek"
    state, _ = play(state, peek(0, 1), move(3, 3, 4, 2))  # the oni row stays one group
    assert state.step == "clue"
    assert bot.choose(ENG.bot_view(state, 0), ENG.legal_actions(state, 0), rng) == DECLARE
    state, _ = play(state, DECLARE)
    assert ENG.outcome(state)["won"]


def test_at_level_5_the_last_move_brings_the_yokai_back_into_the_objective():
    """One clue: two turns. Seat 0 moves a yokai out of the square; seat 1's bot, knowing
    nothing of the families, has one move left and must make the square whole again."""
    state = game(ROWS, clues=["clue-kitsune"], level=5, objective="square")
    state, _ = play(state, peek(0, 0), peek(0, 1), move(3, 3, 0, 4), REVEAL)
    state, _ = play(state, peek(1, 0), peek(1, 1))
    choice = ENG.bot("hard").choose(ENG.bot_view(state, 1), ENG.legal_actions(state, 1),
                                    random.Random(0))  # fmt: skip
    assert choice == move(0, 4, 3, 3)


def test_at_level_5_a_bot_never_locks_a_yokai_the_objective_cannot_take_back():
    """A clue locks its yokai for good: seat 1 knows only the oni moved out of the square, and
    a matching clue is beside the grid, but two moves are left and locking that yokai where it
    stands leaves the square out of reach, so the bot reveals the next clue instead. At level 1
    (no objective) the same placement is its signal."""
    for level, expected in ((5, "reveal"), (1, "place")):
        extra = {"objective": "square"} if level == 5 else {}
        state = game(ROWS, clues=["clue-oni", "clue-kitsune"], level=level, **extra)
        oni = _card_at(state, 3, 3)
        state, _ = play(state, peek(0, 0), peek(0, 1), move(3, 3, 0, 4), REVEAL)
        state, _ = play(state, peek(1, 0), peek(1, 1), move(3, 2, 3, 3))
        state = state._replace(peeks=(state.peeks[0], ((oni, 2),)))
        choice = ENG.bot("hard").choose(ENG.bot_view(state, 1), ENG.legal_actions(state, 1),
                                        random.Random(0))  # fmt: skip
        assert choice["type"] == expected, level
        if expected == "place":
            assert (choice["row"], choice["col"]) == (0, 4)


def test_at_level_5_a_cpu_team_keeps_the_frame_within_reach_and_usually_wins():
    """Over whole games of `hard` teammates, every move leaves no more yokai off the team's
    frame than moves left after it, and most games end with the exact shape."""
    bot, exact, won, games = ENG.bot("hard"), 0, 0, 24
    for g in range(games):
        rng = random.Random(g)
        state = ENG.new_game(2 + g % 3, 500 + g, {"level": 5})
        frame = frame_of(state.objective)
        while not ENG.is_over(state):
            seat = ENG.to_act(state)[0]
            action = bot.choose(ENG.bot_view(state, seat), ENG.legal_actions(state, seat), rng)
            moves_after = 2 * len(state.clue_pile) + len(state.aside) - 1
            state, _ = ENG.apply(state, seat, action)
            if action["type"] == "move":
                off = sum(1 for r, c, _ in state.grid if (r, c) not in frame)
                assert off <= max(moves_after, 0), (g, action)
        exact += bool(ENG.outcome(state)["objective_ok"])
        won += ENG.outcome(state)["won"]
    assert exact >= games * 3 // 4 and won >= games // 4


@pytest.mark.parametrize("name", sorted(FRAMES))
def test_each_frame_has_the_objectives_shape_and_four_connected_regions_of_four(name):
    frame = frame_of(name)
    shape = OBJECTIVE[name].cells if name in OBJECTIVE else OBJECTIVE["square"].cells
    assert normalised(frame) in shape_variants(shape)
    regions = {f: [pos for pos, fam in frame.items() if fam == f] for f in FAMILY_IDS}
    assert all(len(cells) == 4 and is_connected(cells) for cells in regions.values())
    if name in ("square", "affinity"):  # laid on the deal: the game starts inside it
        assert set(frame) == {(r, c) for r in range(4) for c in range(4)}
    if name == "affinity":  # whatever the affinity, its two families touch in a full frame
        for first, second in AFFINITY_FAMILIES.values():
            assert any(n in regions[second] for p in regions[first] for n in neighbours(p))


def test_teammates_moves_into_the_frame_tell_the_family_unless_they_break_the_convention():
    """Square frame: kitsune top left, kappa top right, rokurokubi bottom left, oni bottom
    right. Seat 1 moved a yokai into the kappa region, seat 2 one into the kitsune region and
    one into the rokurokubi region; seat 0 reads them, but not seat 2's once its own peek
    shows that seat 2 put an oni among the kitsune."""
    moves = [[0, 0, 2, -1, 1], [1, 1, 0, 0, 2], [2, 2, 0, 1, 0], [2, 3, 3, 2, 0]]
    places = ({(r, c) for r in range(4) for c in range(4)} - {(3, 3)}) | {(-1, 1)}
    belief = dict.fromkeys(places, frozenset(FAMILY_IDS))
    view = {"seat": 0, "moves": moves}
    frame = frame_of("square")
    read = read_frame_moves(view, belief, frame)
    assert (read[(0, 2)], read[(1, 0)], read[(2, 0)]) == (
        {"kappa"}, {"kitsune"}, {"rokurokubi"},
    )  # fmt: skip
    assert read[(-1, 1)] == frozenset(FAMILY_IDS)  # moved out of the frame: says nothing
    assert read_frame_moves({"seat": 1, "moves": moves}, belief, frame)[(0, 2)] == frozenset(
        FAMILY_IDS
    )  # its own move teaches seat 1 nothing
    belief[(1, 0)] = frozenset({"oni"})
    read = read_frame_moves(view, belief, frame)
    assert read[(1, 0)] == {"oni"} and read[(2, 0)] == frozenset(FAMILY_IDS)
    assert read[(0, 2)] == {"kappa"}


def test_with_three_players_a_bot_moves_a_known_yokai_into_the_hole_of_its_region():
    """Level 1, three players: the frame is the deal's 4 x 4 in 2 x 2 blocks. Seat 0 moved a
    kitsune out of the kappa block; seat 1 knows the kappa sitting in the kitsune block and
    moves it into the hole, which also tells seat 2 its family."""
    state = game(ROWS, players=3, clues=["clue-kitsune", "clue-kappa", "clue-oni"])
    state, _ = play(state, peek(0, 0), peek(0, 1), move(0, 2, -1, 1), REVEAL)
    kappa = _card_at(state, 1, 0)
    state = state._replace(peeks=(state.peeks[0], ((kappa, 1),), ()))
    state, _ = play(state, peek(0, 0), peek(0, 1))
    choice = ENG.bot("hard").choose(ENG.bot_view(state, 1), ENG.legal_actions(state, 1),
                                    random.Random(0))  # fmt: skip
    assert choice == move(1, 0, 0, 2)
    state, _ = play(state, choice, REVEAL)
    view = ENG.view(state, 2)
    assert read_frame_moves(view, beliefs(view, True), frame_of("square"))[(0, 2)] == {"kappa"}
