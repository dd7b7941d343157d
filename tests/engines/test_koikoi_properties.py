"""Hypothesis properties of Koi-Koi over seeds, settings and random legal play."""

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from koikoi_setup import ENG, IDS

from games.engines import IllegalAction, action_key
from games.engines.conformance import check_state
from games.engines.koikoi.cards import DECK

GAME_SETTINGS = settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

games = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32),
        "options": st.fixed_dictionaries(
            {
                "rounds": st.sampled_from(["3", "6"]),
                "bright_points": st.sampled_from(["10_5", "15_6"]),
                "viewing": st.sampled_from(["5", "3", "off"]),
                "viewing_rule": st.sampled_from(["always", "with_other", "rain"]),
                "sake_cup": st.sampled_from(["animal", "both"]),
                "stacking": st.sampled_from(["modern", "older"]),
                "koikoi_bonus": st.sampled_from(["opponent", "self", "anyone", "per_call"]),
                "draw_scoring": st.sampled_from(["none", "oya_1", "oya_6"]),
                "dealt_hands": st.sampled_from(["off", "score", "redeal"]),
                "draw_capture": st.sampled_from(["always", "optional"]),
                "tsukifuda": st.booleans(),
                "koikoi_on": st.sampled_from(["new_or_raised", "new_only"]),
                "free_discard": st.booleans(),
            }
        ),
    }
)


def random_walk(game, walk_seed):
    rng = random.Random(walk_seed)
    state = ENG.new_game(2, game["seed"], game["options"])
    states, actions = [state], []
    while not ENG.is_over(state):
        seat = ENG.to_act(state)[0]
        action = rng.choice(ENG.legal_actions(state, seat))
        state, _ = ENG.apply(state, seat, action)
        states.append(state)
        actions.append((seat, action))
        assert len(actions) < 2000, "the game must end"
    return states, actions


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000))
def test_the_48_cards_are_always_somewhere_exactly_once(game, walk_seed):
    states, _ = random_walk(game, walk_seed)
    for state in states:
        where = [*state.hands[0], *state.hands[1], *state.table, *state.pile]
        where += [*state.captured[0], *state.captured[1]] + ([state.drawn] if state.drawn else [])
        assert Counter(where) == Counter(IDS)
    final = states[-1]
    assert len(final.results) == int(game["options"]["rounds"])
    assert ENG.outcome(final)["scores"] == list(final.scores)


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000), data=st.data())
def test_views_hide_the_opponent_hand_and_the_pile(game, walk_seed, data):
    states, _ = random_walk(game, walk_seed)
    rng = random.Random(walk_seed)
    for state in data.draw(st.lists(st.sampled_from(states), min_size=1, max_size=5)):
        for seat in (0, 1, None):
            view = ENG.view(state, seat)
            text = json.dumps(view)
            assert json.loads(text) == view
            assert "pile" not in view and "seed" not in view
            hidden = set(state.pile) | (set(state.hands[1 - seat]) if seat is not None else set())
            if seat is None:
                hidden |= set(state.hands[0]) | set(state.hands[1])
            assert not hidden & set(ENG.cards_shown(view))
            assert view["hand"] == (list(state.hands[seat]) if seat is not None else None)
            assert ENG.view(ENG.shuffle_hidden(state, seat, rng), seat) == view


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000), data=st.data())
def test_illegal_actions_change_nothing_and_legal_ones_keep_the_state_valid(game, walk_seed, data):
    states, _ = random_walk(game, walk_seed)
    for state in data.draw(st.lists(st.sampled_from(states), min_size=1, max_size=4)):
        assert check_state(ENG, state, 2, random.Random(walk_seed), sample=None) == []
        if ENG.is_over(state):
            continue
        seat = ENG.to_act(state)[0]
        keys = {action_key(a) for a in ENG.legal_actions(state, seat)}
        before = ENG.to_json(state)
        forged = data.draw(
            st.fixed_dictionaries(
                {
                    "type": st.sampled_from(["play", "take", "leave", "koikoi", "shobu", "x"]),
                    "card": st.sampled_from([*IDS, None, 3]),
                }
            )
        )
        for action in (forged, {**forged, "take": data.draw(st.sampled_from(IDS))}):
            if action_key(action) in keys:
                continue
            try:
                ENG.apply(state, seat, action)
                raise AssertionError(f"illegal {action} accepted")
            except IllegalAction as refusal:
                assert refusal.message
            assert ENG.to_json(state) == before
        try:
            ENG.apply(state, 1 - seat, ENG.legal_actions(state, seat)[0])
            raise AssertionError("out of turn accepted")
        except IllegalAction:
            pass


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000))
def test_a_card_that_captures_nothing_is_played_only_when_no_hand_card_matches(game, walk_seed):
    """koikoi.fr.txt: a hand card of a month on the table is played when there is one; a free
    discard only when nothing matches (``free_discard``: always allowed)."""
    states, actions = random_walk(game, walk_seed)
    free = game["options"]["free_discard"]
    discards_while_matching = 0
    for state, (seat, action) in zip(states, actions, strict=False):
        if state.phase != "play":
            continue
        months_on_table = {DECK.month_of[c] for c in state.table}
        matching = [c for c in state.hands[seat] if DECK.month_of[c] in months_on_table]
        played = [a["card"] for a in ENG.legal_actions(state, seat)]
        if matching and not free:
            assert set(played) == set(matching)
        else:
            assert set(played) == set(state.hands[seat])
        if matching and DECK.month_of[action["card"]] not in months_on_table:
            discards_while_matching += 1
    assert free or discards_while_matching == 0


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000))
def test_json_round_trip_and_determinism(game, walk_seed):
    states, actions = random_walk(game, walk_seed)
    for state in states[:: max(1, len(states) // 10)]:
        data = json.loads(json.dumps(ENG.to_json(state)))
        assert ENG.from_json(data) == state
        assert ENG.to_json(ENG.from_json(data)) == ENG.to_json(state)
    again = ENG.new_game(2, game["seed"], game["options"])
    for seat, action in actions:
        again, _ = ENG.apply(again, seat, action)
    assert again == states[-1]
