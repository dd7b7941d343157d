"""Hypothesis properties of Yokai over seeds, player counts and levels, on whole games."""

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from yokai_setup import ENG

from games.engines import IllegalAction, action_key
from games.engines.yokai.data import CLUES, YOKAI
from games.engines.yokai.index import is_connected

GAME_SETTINGS = settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

games = st.fixed_dictionaries(
    {
        "players": st.integers(2, 4),
        "seed": st.integers(0, 2**32),
        "options": st.fixed_dictionaries(
            {
                "level": st.integers(1, 5),
                "script": st.sampled_from(["hiragana", "katakana"]),
                "memory_aids": st.booleans(),
            }
        ),
    }
)


def random_walk(game, walk_seed, declare=False):
    """Every state of one game played with random legal actions (``declare`` only at the end
    unless asked), and the actions taken."""
    rng = random.Random(walk_seed)
    state = ENG.new_game(game["players"], game["seed"], game["options"])
    states, actions = [state], []
    while not ENG.is_over(state):
        seat = ENG.to_act(state)[0]
        legal = ENG.legal_actions(state, seat)
        if not declare:
            legal = [a for a in legal if a["type"] != "declare"]
        action = rng.choice(legal)
        state, _ = ENG.apply(state, seat, action)
        states.append(state)
        actions.append((seat, action))
        assert len(actions) < 200, "the game must end"
    return states, actions


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000))
def test_16_yokai_and_14_clues_are_conserved_and_the_grid_stays_one_group(game, walk_seed):
    states, _ = random_walk(game, walk_seed)
    for state in states:
        assert Counter(ENG.cards_in_play(state)) == Counter([*YOKAI, *CLUES])
        assert len({(r, c) for r, c, _ in state.grid}) == 16
        assert is_connected((r, c) for r, c, _ in state.grid)
        assert {(r, c) for r, c, _ in state.placed} <= {(r, c) for r, c, _ in state.grid}
        assert len({(r, c) for r, c, _ in state.placed}) == len(state.placed)  # never stacked
    assert states[-1].ended_by == "clues_used" and not states[-1].clue_pile


def peeked_by(actions_and_states, seat):
    """card -> family for every yokai ``seat`` peeked at, replayed from the actions."""
    seen = {}
    for state, (actor, action) in actions_and_states:
        if actor == seat and action["type"] == "peek":
            card = dict(((r, c), card) for r, c, card in state.grid)[(action["row"], action["col"])]
            seen[card] = card.rsplit("-", 1)[0]
    return seen


def seen_now(history, seat, turn_no):
    """card -> family for the yokai ``seat`` peeked at during the turn ``turn_no`` (what it
    holds up now: the rules' « regardez-les secrètement, puis remettez-les à leur place »)."""
    current = []
    for state, (actor, action) in reversed(history):
        if state.turn_no != turn_no:
            break
        current.append((state, (actor, action)))
    return peeked_by(current[::-1], seat)


@pytest.mark.slow  # make test leaves it out; make test-slow and CI run it
@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000))
def test_a_view_shows_only_the_colours_its_seat_has_peeked(game, walk_seed):
    """With memory aids (a help for beginners) a view shows every family its seat ever peeked;
    without them (the printed game, the default) only the ones it peeked during the turn it is
    playing: never a family the seat does not see now, in the cells, the log or anywhere."""
    states, actions = random_walk(game, walk_seed)
    players = game["players"]
    aids = game["options"]["memory_aids"]
    for index, state in enumerate(states[:-1]):
        history = list(zip(states[:index], actions[:index], strict=True))
        for seat in [*range(players), None]:
            view = ENG.view(state, seat)
            if seat is None:
                mine = {}
            elif aids:
                mine = peeked_by(history, seat)
            else:
                mine = seen_now(history, seat, state.turn_no)
            assert view["memory_aids"] is aids
            shown = {c["card"]: c["family"] for c in view["cells"] if c["family"] is not None}
            assert shown == mine  # exactly what this seat peeked, never another seat's peeks
            cards_named = {card for card in YOKAI if f'"{card}"' in json.dumps(view)}
            assert cards_named <= set(mine)
            assert all(e.get("private_to") in (None, seat) for e in view["log"])
            assert set(ENG.cards_shown(view)) <= set(mine) | set(CLUES) | {view["affinity"]}
    final = states[-1]
    for seat in [*range(players), None]:  # at the end every yokai is turned over
        assert all(c["family"] for c in ENG.view(final, seat)["cells"])


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000), data=st.data())
def test_illegal_actions_change_nothing_and_views_hide_what_is_hidden(game, walk_seed, data):
    states, _ = random_walk(game, walk_seed)
    rng = random.Random(walk_seed)
    for state in data.draw(st.lists(st.sampled_from(states[:-1]), min_size=1, max_size=4)):
        before = ENG.to_json(state)
        seat = ENG.to_act(state)[0]
        legal = {action_key(a) for a in ENG.legal_actions(state, seat)}
        junk = data.draw(
            st.fixed_dictionaries(
                {
                    "type": st.sampled_from(["peek", "move", "reveal", "place", "declare", "x"]),
                    "row": st.integers(-3, 6),
                    "col": st.integers(-3, 6),
                    "to_row": st.integers(-3, 6),
                    "to_col": st.integers(-3, 6),
                    "slot": st.integers(-1, 3),
                }
            )
        )
        for action in (junk, {k: junk[k] for k in ("type", "row", "col")}, {"type": "reveal"}):
            if action_key(action) in legal:
                continue
            try:
                ENG.apply(state, seat, action)
                raise AssertionError(f"illegal {action} accepted")
            except IllegalAction:
                pass
            assert ENG.to_json(state) == before
        for other in range(game["players"]):
            shuffled = ENG.shuffle_hidden(state, other, rng)
            assert ENG.view(shuffled, other) == ENG.view(state, other)


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000))
def test_json_round_trip_and_determinism(game, walk_seed):
    states, actions = random_walk(game, walk_seed, declare=True)
    for state in states:
        assert ENG.from_json(json.loads(json.dumps(ENG.to_json(state)))) == state
    replay = ENG.new_game(game["players"], game["seed"], game["options"])
    for seat, action in actions:
        replay, _ = ENG.apply(replay, seat, action)
    assert replay == states[-1]
    assert ENG.new_game(game["players"], game["seed"], game["options"]) == states[0]
