"""Yokai scenarios on stacked grids: the three steps, clues, levels, endings, scoring."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from yokai_setup import (
    DECLARE,
    ENG,
    MIXED,
    REVEAL,
    ROWS,
    cell,
    game,
    move,
    peek,
    place,
    play,
    whole_turn,
)

from games.engines import IllegalAction
from games.engines.yokai import judge
from games.engines.yokai.data import RATING_THRESHOLDS, rating


def refused(state, action, match, seat=None):
    before = ENG.to_json(state)
    with pytest.raises(IllegalAction, match=match):
        ENG.apply(state, state.turn if seat is None else seat, action)
    assert ENG.to_json(state) == before


# --- step 1: peeking ---------------------------------------------------------------------------


def test_a_peek_is_private_and_remembered_with_its_turn():
    state, events = play(game(players=3), peek(1, 2))
    private = [e for e in events if e["type"] == "peek" and "private_to" in e]
    assert private == [
        {
            "type": "peek", "seat": 0, "row": 1, "col": 2, "card": "kappa-3",
            "family": "kappa", "private_to": 0,
        }
    ]  # fmt: skip
    mine = cell(ENG.view(state, 0), 1, 2)
    assert (mine["family"], mine["card"], mine["seen"], mine["now"]) == (
        "kappa",
        "kappa-3",
        1,
        True,
    )
    for seat in (1, 2, None):
        other = ENG.view(state, seat)
        assert cell(other, 1, 2)["family"] is None and cell(other, 1, 2)["card"] is None
        assert "kappa-3" not in str(other) and "kappa" not in other["kana"]
        assert {"type": "peek", "seat": 0, "row": 1, "col": 2, "except": 0} in other["log"]


def test_two_peeks_then_the_move_step_and_no_third_peek():
    state, _ = play(game(), peek(0, 0))
    assert state.step == "peek"
    refused(state, peek(0, 0), "already peeked")
    refused(state, move(0, 0, 4, 0), "First peek")
    state, _ = play(state, peek(3, 3))
    assert state.step == "move"
    refused(state, peek(2, 2), "Now move")


def test_a_peek_needs_a_yokai_and_the_turn():
    state = game()
    refused(state, peek(5, 5), "no yokai")
    refused(state, peek(0, 0), "not your turn", seat=1)
    refused(state, {"type": "peek", "row": "0", "col": 0}, "fields")
    refused(state, {"type": "peek", "row": 0, "col": 0, "extra": 1}, "fields")


def test_as_printed_a_peeked_yokai_is_put_back_and_not_shown_after_the_turn():
    """« Regardez-les secrètement. Puis remettez-les à leur place. »: without memory aids (the
    default) the board shows a peeked family during the peeking turn only; afterwards neither
    the grid, the kana nor the log name it (the CPU teammates still remember: bot_view)."""
    state, _ = play(game(), peek(0, 0), peek(0, 1), move(0, 0, 4, 0))
    during = ENG.view(state, 0)
    assert cell(during, 4, 0)["family"] == "kitsune" and cell(during, 0, 1)["now"] is True
    assert during["memory_aids"] is False
    state, _ = play(state, REVEAL)  # the turn ends
    after = ENG.view(state, 0)
    assert all(c["family"] is None for c in after["cells"])
    assert "kitsune-1" not in str(after) and "kitsune-2" not in str(after)
    peeks = [e for e in after["log"] if e["type"] == "peek"]
    assert peeks and all("card" not in e and "family" not in e for e in peeks)
    assert cell(ENG.bot_view(state, 0), 4, 0)["family"] == "kitsune"
    for seat in (0, 1):
        assert ENG.view(ENG.shuffle_hidden(state, seat, random.Random(3)), seat) == (
            ENG.view(state, seat)
        )


def test_memory_follows_a_card_when_it_moves():
    state = game(memory_aids=True)
    state, _ = play(state, peek(0, 0), peek(0, 1), move(0, 0, 4, 0), REVEAL)
    view = ENG.view(state, 0)
    assert view["memory_aids"] is True
    assert cell(view, 4, 0)["family"] == "kitsune"
    assert all((c["row"], c["col"]) != (0, 0) for c in view["cells"])
    assert cell(view, 4, 0)["seen"] == 1 and cell(view, 4, 0)["now"] is False


# --- step 2: moving ----------------------------------------------------------------------------


def test_a_move_must_touch_the_group_by_a_side():
    state, _ = play(game(), peek(0, 0), peek(0, 1))
    refused(state, move(0, 0, -1, -1), "one group")  # diagonal contact only
    refused(state, move(0, 0, 0, 1), "taken")
    refused(state, move(9, 9, 0, 5), "no yokai")
    state, events = play(state, move(0, 0, -1, 1))
    assert events[0] == {"type": "move", "seat": 0, "row": 0, "col": 0, "to_row": -1, "to_col": 1}


def test_a_move_may_never_split_the_yokai_into_two_groups():
    state, _ = play(game(), peek(0, 0), peek(0, 1))
    legal = ENG.legal_actions(state, 0)
    assert move(0, 0, -1, 1) in legal  # touches (0, 1)
    assert move(0, 0, -1, 0) not in legal  # would touch only the place it leaves
    refused(state, move(0, 0, -1, 0), "one group")
    # hang (3, 3) under (3, 0): then (3, 0) is the only link of (4, 0) to the rest
    state, _ = play(state, move(3, 3, 4, 0), REVEAL)
    state, _ = play(state, peek(0, 0), peek(0, 1))
    refused(state, move(3, 0, 0, 4), "one group")
    targets = {
        (a["to_row"], a["to_col"])
        for a in ENG.legal_actions(state, 1)
        if (a["type"], a.get("row"), a.get("col")) == ("move", 3, 0)
    }
    assert targets == {(4, 1)}  # the one place touching both parts


def test_a_locked_yokai_can_neither_be_peeked_nor_moved():
    state, _ = play(game(), peek(0, 0), peek(0, 1), move(3, 3, 4, 2), REVEAL)
    state, _ = play(state, peek(0, 0), peek(0, 1), move(4, 2, 3, 3), place(0, 1, 1))
    assert cell(ENG.view(state, 1), 1, 1) == {
        "row": 1, "col": 1, "card": None, "family": None, "seen": None, "now": False,
        "locked": True, "clue": "clue-kitsune",
    }  # fmt: skip
    refused(state, peek(1, 1), "locks this yokai")
    state, _ = play(state, peek(0, 0), peek(0, 1))
    refused(state, move(1, 1, 4, 1), "locks this yokai")
    assert all((a.get("row"), a.get("col")) != (1, 1) for a in ENG.legal_actions(state, 0))


def test_the_move_step_is_skipped_when_no_yokai_can_move():
    from games.engines.yokai.rules import movable_sources

    grid = {(0, c): "x" for c in range(16)}  # a line: only the ends may move
    assert set(movable_sources(grid, {(0, 0), (0, 15)})) == set()
    assert set(movable_sources(grid, set())) == {(0, 0), (0, 15)}


# --- step 3: clues -----------------------------------------------------------------------------


def test_reveal_puts_the_top_clue_face_up_and_passes_the_turn():
    state, events = whole_turn(game(clues=["clue-kappa-oni", "clue-kitsune"]))
    assert {"type": "reveal", "seat": 0, "clue": "clue-kappa-oni", "slot": 0} in events
    assert {"type": "turn", "seat": 1, "turn_no": 2} in events
    for seat in (0, 1, None):
        assert ENG.view(state, seat)["aside"] == ["clue-kappa-oni"]
        assert ENG.view(state, seat)["clues_left"] == 1


def test_clues_are_never_stacked_and_a_placed_clue_stays():
    state, _ = whole_turn(game(clues=["clue-kitsune", "clue-kappa"]))
    state, _ = whole_turn(state)
    state, _ = whole_turn(state, clue=place(0, 2, 2))
    assert state.placed == ((2, 2, "clue-kitsune"),) and state.aside == ("clue-kappa",)
    state, _ = play(state, peek(0, 0), peek(0, 1))
    state, _ = play(state, ENG.legal_actions(state, state.turn)[-2])
    refused(state, place(0, 2, 2), "never stacked")
    refused(state, REVEAL, "No clue card is left")
    refused(state, place(1, 0, 0), "no such revealed clue")
    places = [a for a in ENG.legal_actions(state, 1) if a["type"] == "place"]
    assert places == [place(0, r, c) for r, c, _ in state.grid if (r, c) != (2, 2)]
    assert {"type": "reveal"} not in ENG.legal_actions(state, 1)


def test_level_3_stacks_clues_only_the_last_revealed_can_be_placed():
    state = game(clues=["clue-kitsune", "clue-kappa", "clue-oni"], level=3)
    state, _ = whole_turn(state)
    state, _ = whole_turn(state)
    state, _ = play(state, peek(0, 0), peek(0, 1))
    state, _ = play(state, ENG.legal_actions(state, state.turn)[-2])
    refused(state, place(0, 1, 1), "only the last clue")
    assert {a["slot"] for a in ENG.legal_actions(state, 0) if a["type"] == "place"} == {1}
    state, _ = play(state, place(1, 1, 1))
    assert state.placed == ((1, 1, "clue-kappa"),)


def test_level_4_clues_are_drawn_face_down_and_only_lock():
    state = game(clues=["clue-kitsune", "clue-kappa"], level=4)
    state, events = whole_turn(state)
    assert {"type": "draw_clue", "seat": 0, "slot": 0} in events
    assert "clue-kitsune" not in str(events)
    state, events = whole_turn(state, clue=place(0, 2, 2))
    assert events[-2]["type"] == "place" and events[-2]["clue"] is None
    for seat in (0, 1, None):
        view = ENG.view(state, seat)
        assert cell(view, 2, 2)["locked"] and cell(view, 2, 2)["clue"] is None
        assert "clue-kitsune" not in str(view)
    refused(state, peek(2, 2), "locks this yokai")


# --- endings, winning and scoring ---------------------------------------------------------------


def test_declaring_an_appeased_grid_wins_with_every_unrevealed_clue_worth_5():
    state, events = play(game(ROWS, clues=["clue-kitsune", "clue-kappa", "clue-oni"]), DECLARE)
    assert ENG.is_over(state) and ENG.to_act(state) == []
    outcome = ENG.outcome(state)
    assert outcome["won"] and outcome["ended_by"] == "declared"
    assert outcome["points"] == 15 and outcome["scores"] == [15, 15]
    assert outcome["ranks"] == [1, 1] and outcome["rating"] == "legendary"
    assert events[-1] == {
        "type": "game_over", "reason": "declared", "won": True, "points": 15,
        "rating": "legendary",
    }  # fmt: skip


def test_declaring_a_mixed_grid_loses_and_scores_nothing():
    state, _ = play(game(MIXED), peek(0, 0), DECLARE)
    outcome = ENG.outcome(state)
    assert not outcome["won"] and not outcome["families_ok"]
    assert outcome["points"] is None and outcome["rating"] is None and outcome["scores"] == [0, 0]
    refused(state, peek(0, 1), "game is over")
    # every yokai is turned over for every seat at the end
    assert all(c["family"] for c in ENG.view(state, 1)["cells"])


def test_using_the_last_clue_ends_the_game():
    state = game(ROWS, clues=["clue-kitsune"])
    state, _ = whole_turn(state, moving=move(0, 0, -1, 1))
    assert not ENG.is_over(state)
    state, events = whole_turn(state, clue=place(0, 1, 1), moving=move(-1, 1, 0, 0))
    assert ENG.is_over(state) and events[-1]["reason"] == "clues_used"
    outcome = ENG.outcome(state)
    assert outcome["won"] and outcome["breakdown"] == {
        "right": 0, "wrong": 1, "revealed": 0, "unrevealed": 0,
    }  # fmt: skip
    assert outcome["points"] == -1 and outcome["rating"] == "honourable"


def test_scoring_right_wrong_revealed_and_unrevealed_clues():
    clues = ["clue-kitsune", "clue-kappa-oni", "clue-oni", "clue-rokurokubi", "clue-kappa"]
    state = game(ROWS, clues=clues)
    state, _ = whole_turn(state, moving=move(0, 0, -1, 1))  # reveals clue-kitsune
    state, _ = whole_turn(state, clue=place(0, 0, 1), moving=move(-1, 1, 0, 0))  # right
    state, _ = whole_turn(state, moving=move(0, 0, -1, 1))  # reveals clue-kappa-oni
    state, _ = whole_turn(state, clue=place(0, 0, 2), moving=move(-1, 1, 0, 0))  # wrong
    state, _ = whole_turn(state, moving=move(0, 0, -1, 1))  # reveals clue-oni
    state, _ = play(state, peek(1, 1), peek(1, 2), move(-1, 1, 0, 0), DECLARE)
    outcome = ENG.outcome(state)
    assert outcome["breakdown"] == {"right": 1, "wrong": 1, "revealed": 1, "unrevealed": 2}
    assert outcome["points"] == 1 - 1 + 2 + 2 * 5 == 12 and outcome["won"]


@pytest.mark.parametrize(
    ("players", "points", "expected"),
    [
        (2, 7, "honourable"), (2, 8, "glorious"), (2, 11, "glorious"), (2, 12, "legendary"),
        (3, 9, "honourable"), (3, 10, "glorious"), (3, 15, "glorious"), (3, 16, "legendary"),
        (4, 10, "honourable"), (4, 11, "glorious"), (4, 18, "glorious"), (4, 19, "legendary"),
        (2, -3, "honourable"),
    ],
)  # fmt: skip
def test_ratings_follow_the_table_per_player_count(players, points, expected):
    assert rating(points, players) == expected


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_won_game_is_rated_for_its_player_count(players):
    glorious, legendary = RATING_THRESHOLDS[players]
    clues = [f"clue-{f}" for f in ("kitsune", "kappa", "rokurokubi", "oni")]
    state, _ = play(game(ROWS, clues=clues[:2], players=players), DECLARE)  # 10 points
    expected = "legendary" if 10 >= legendary else "glorious" if 10 >= glorious else "honourable"
    assert ENG.outcome(state)["rating"] == expected
    assert ENG.outcome(state)["scores"] == [10] * players


# --- levels 2 and 5 ----------------------------------------------------------------------------


def test_level_2_the_affinity_is_seen_only_by_the_first_player():
    state = game(ROWS, level=2, players=3, first=1, affinity="affinity-kitsune-oni")
    assert ENG.view(state, 1)["affinity"] == "affinity-kitsune-oni"
    assert "affinity-kitsune-oni" in ENG.view(state, 1)["kana"]
    for seat in (0, 2, None):
        view = ENG.view(state, seat)
        assert view["affinity"] is None and view["affinity_hidden"]
        assert "affinity-kitsune-oni" not in str(view)
    assert ENG.to_act(state) == [1]


def test_level_2_a_failed_affinity_means_no_win():
    apart = game(ROWS, level=2, affinity="affinity-kitsune-oni")  # rows 0 and 3
    state, _ = play(apart, DECLARE)
    outcome = ENG.outcome(state)
    assert outcome["families_ok"] and outcome["affinity_ok"] is False and not outcome["won"]
    touching = game(ROWS, level=2, affinity="affinity-kitsune-kappa")
    state, _ = play(touching, DECLARE)
    assert ENG.outcome(state)["won"] and ENG.outcome(state)["affinity_ok"]
    assert ENG.view(state, 1)["affinity"] == "affinity-kitsune-kappa"  # shown at the end


def test_level_5_the_objective_is_seen_by_all_and_must_be_met():
    square = game(ROWS, level=5, objective="square")
    assert all(ENG.view(square, seat)["objective"] == "square" for seat in (0, 1, None))
    state, _ = play(square, DECLARE)
    assert ENG.outcome(state)["won"] and ENG.outcome(state)["objective_ok"]
    scroll = game(ROWS, level=5, objective="scroll")
    state, _ = play(scroll, DECLARE)
    outcome = ENG.outcome(state)
    assert outcome["families_ok"] and outcome["objective_ok"] is False and not outcome["won"]


def test_objective_shapes_may_be_turned_or_mirrored():
    from games.engines.yokai.data import OBJECTIVE
    from games.engines.yokai.index import has_shape

    scroll = OBJECTIVE["scroll"].cells
    assert has_shape({(r + 5, c - 3) for r, c in scroll}, scroll)
    assert has_shape({(c, r) for r, c in scroll}, scroll)  # standing up
    lantern = OBJECTIVE["lantern"].cells
    assert has_shape({(c, -r) for r, c in lantern}, lantern)
    assert not has_shape(OBJECTIVE["square"].cells, lantern)
    assert all(len(o.cells) == 16 for o in OBJECTIVE.values())


def test_judge_turns_every_yokai_over():
    assert judge(game(ROWS))["families_ok"] and not judge(game(MIXED))["families_ok"]
    columns = ["kitsune", "kappa", "rokurokubi", "oni"] * 4  # each family in one column
    assert judge(game(columns))["families_ok"]


# --- options and setup -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"level": 6}, "level"),
        ({"script": "romaji"}, "script"),
        ({"colour": "red"}, "unknown option"),
        ({"setup": {"grid": ROWS[:-1], "clues": ["clue-oni"]}}, "16 family ids"),
        ({"setup": {"grid": ["oni"] * 16, "clues": ["clue-oni"]}}, "four of each"),
        ({"setup": {"grid": ROWS, "clues": []}}, "non-empty"),
        ({"setup": {"grid": ROWS, "clues": ["clue-oni", "clue-oni"]}}, "distinct"),
        ({"setup": {"grid": ROWS, "clues": ["clue-tanuki"]}}, "clue ids"),
        ({"setup": {"grid": ROWS, "clues": ["clue-oni"], "deck": []}}, "unknown setup"),
        ({"setup": {"grid": ROWS, "clues": ["clue-oni"], "pile": ["x"]}}, "setup.pile"),
        ({"setup": {"grid": ROWS, "clues": ["clue-oni"], "first": 2}}, "setup.first"),
        ({"setup": {"grid": ROWS, "clues": ["clue-oni"], "affinity": "x"}}, "level 2"),
        ({"level": 2, "setup": {"grid": ROWS, "clues": ["clue-oni"]}}, "setup.affinity"),
        ({"level": 5, "setup": {"grid": ROWS, "clues": ["clue-oni"]}}, "setup.objective"),
        ({"first": 3}, "first"),
    ],
)
def test_bad_options_and_setups_are_refused(options, match):
    with pytest.raises(ValueError, match=match):
        ENG.new_game(players=2, seed=1, options=options)


@pytest.mark.parametrize(("players", "counts"), [(2, (2, 3, 2)), (3, (2, 4, 3)), (4, (3, 4, 3))])
def test_the_deal_draws_the_clue_counts_of_the_player_count(players, counts):
    from games.engines.yokai.data import CLUE_FAMILIES

    for seed in range(5):
        state = ENG.new_game(players=players, seed=seed)
        sizes = [len(CLUE_FAMILIES[clue]) for clue in state.clue_pile]
        assert tuple(sizes.count(n) for n in (1, 2, 3)) == counts
        assert len(state.boxed) == 14 - sum(counts)
        assert sorted(card for _, _, card in state.grid) == sorted(ENG.deck(state)[:16])
        assert {(r, c) for r, c, _ in state.grid} == {(r, c) for r in range(4) for c in range(4)}


def test_level_2_and_5_deal_an_affinity_and_an_objective():
    assert ENG.new_game(2, 3, {"level": 2}).affinity.startswith("affinity-")
    assert ENG.new_game(2, 3, {"level": 5}).objective in ("square", "scroll", "lantern")
    assert ENG.new_game(2, 3, {"level": 1}).affinity is None


@settings(max_examples=200, deadline=None)
@given(cells=st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=2, max_size=16))
def test_the_fast_move_listing_agrees_with_trying_every_place(cells):
    from games.engines.yokai.index import (
        all_destinations,
        components,
        is_connected,
        neighbours,
    )

    group = frozenset(max(components(cells), key=len))  # one connected group
    if len(group) < 2:
        return
    fast = all_destinations(group, sorted(group))
    for source in group:
        empty = {n for p in group for n in neighbours(p)} - group
        slow = sorted(p for p in empty if is_connected((group - {source}) | {p}))
        assert fast[source] == slow, source
