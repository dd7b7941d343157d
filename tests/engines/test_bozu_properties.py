"""Hypothesis properties of Bōzu Mekuri over seeds, player counts and every setting."""

import json
import random
from collections import Counter

from bozu_setup import DECK, ENG
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engines import IllegalAction, action_key
from games.engines.conformance import check_state

GAME_SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

games = st.fixed_dictionaries(
    {
        "players": st.integers(2, 6),
        "seed": st.integers(0, 2**32),
        "options": st.fixed_dictionaries(
            {
                "semimaru": st.sampled_from(["eliminate", "skip", "monk", "noble", "all_hands"]),
                "emperor": st.sampled_from(["draw_again", "take_hands", "ordinary"]),
                "lady": st.sampled_from(["take_pile", "take_pile_draw", "draw_if_empty"]),
                "allow_stop": st.booleans(),
                "nyudo_monks": st.booleans(),
            }
        ),
    }
)


def random_walk(game, walk_seed):
    rng = random.Random(walk_seed)
    state = ENG.new_game(game["players"], game["seed"], game["options"])
    states, actions = [state], []
    while not ENG.is_over(state):
        seat = ENG.to_act(state)[0]
        action = rng.choice(ENG.legal_actions(state, seat))
        state, _ = ENG.apply(state, seat, action)
        states.append(state)
        actions.append((seat, action))
        assert len(actions) < 1000, "the game must end"
    return states, actions


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000))
def test_the_100_cards_are_always_in_the_pile_the_hands_or_the_common_pile(game, walk_seed):
    states, _ = random_walk(game, walk_seed)
    for state in states:
        where = [c for hand in state.hands for c in hand] + list(state.pile) + list(state.common)
        assert Counter(where) == Counter(DECK) and len(where) == 100
        for seat, gone in enumerate(state.out):  # eliminated players hold nothing
            assert not gone or state.hands[seat] == ()
    outcome = ENG.outcome(states[-1])
    assert sum(outcome["cards"]) + outcome["common_left"] + len(states[-1].pile) == 100


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000), shuffle_seed=st.integers(0, 1000))
def test_views_hide_the_order_of_the_pile(game, walk_seed, shuffle_seed):
    states, _ = random_walk(game, walk_seed)
    rng = random.Random(shuffle_seed)
    for state in states[:: max(1, len(states) // 8)]:
        pile = list(state.pile)
        rng.shuffle(pile)
        other = state._replace(pile=tuple(pile))
        for seat in [*range(state.players), None]:
            view = ENG.view(state, seat)
            assert view == ENG.view(other, seat)
            text = json.dumps(view)
            assert '"pile":' not in text and "rng" not in text and '"seed"' not in text


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000))
def test_illegal_actions_are_refused_and_change_nothing(game, walk_seed):
    states, _ = random_walk(game, walk_seed)
    junk = [{"type": "stop"}, {"type": "draw", "n": 2}, {"type": "take"}, "draw", None, {}]
    for state in states[:: max(1, len(states) // 10)]:
        before = ENG.to_json(state)
        acting = ENG.to_act(state)
        for seat in range(state.players):
            legal = {action_key(a) for a in ENG.legal_actions(state, seat)}
            for action in [*junk, {"type": "draw"}]:
                if seat in acting and action_key(action) in legal:
                    continue
                try:
                    ENG.apply(state, seat, action)
                except IllegalAction as refusal:
                    assert refusal.message
                else:
                    raise AssertionError(f"seat {seat} played {action!r}")
        assert ENG.to_json(state) == before


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000))
def test_json_round_trip_and_determinism(game, walk_seed):
    states, actions = random_walk(game, walk_seed)
    for state in states[:: max(1, len(states) // 10)] + [states[-1]]:
        text = json.dumps(ENG.to_json(state))
        assert ENG.from_json(json.loads(text)) == state
    replay = ENG.new_game(game["players"], game["seed"], game["options"])
    for seat, action in actions:
        replay, _ = ENG.apply(replay, seat, action)
    assert replay == states[-1]
    assert ENG.outcome(replay) == ENG.outcome(states[-1])


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games, walk_seed=st.integers(0, 1000))
def test_every_state_passes_the_conformance_checks(game, walk_seed):
    states, _ = random_walk(game, walk_seed)
    rng = random.Random(walk_seed)
    for state in states[:: max(1, len(states) // 6)] + [states[-1]]:
        assert check_state(ENG, state, state.players, rng, sample=None) == []


@GAME_SETTINGS
@given(game=games)
def test_the_game_ends_with_an_empty_pile_or_one_player_standing(game):
    states, _ = random_walk(game, 0)
    last = states[-1]
    assert not last.pile or last.out.count(False) == 1
    ranks = ENG.outcome(last)["ranks"]
    for seat, gone in enumerate(last.out):
        if gone:
            assert ranks[seat] == max(ranks)


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000))
def test_the_quick_path_gives_what_the_general_path_gives(game, walk_seed):
    from games.engines.bozu.index import quick_reveal
    from games.engines.bozu.rules import _fresh, _Turn

    states, _ = random_walk(game, walk_seed)
    compared = 0
    for state in states[:-1]:
        seat = state.turn
        if state.phase != "reveal" or (quick := quick_reveal(state, seat)) is None:
            continue
        turn = _Turn(state)
        turn.reveal(seat)
        assert quick == (turn.frozen(), [_fresh(e) for e in turn.events])
        compared += 1
    assume(compared > 0)  # a game may end on its first card (Semimaru, two players)
