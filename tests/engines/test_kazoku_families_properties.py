"""Hypothesis property tests of Kazoku families over seeds, player counts and options."""

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kazoku_setup import DECK, ENG

from games.engines import IllegalAction, action_key
from games.engines.conformance import check_state

GAME_SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

games = st.fixed_dictionaries(
    {
        "players": st.integers(2, 6),
        "seed": st.integers(0, 2**32),
        "options": st.fixed_dictionaries(
            {
                "variant": st.sampled_from(["themed", "kana", "gojuon"]),
                "end": st.sampled_from(["all_families", "pile_empty"]),
                "lay": st.sampled_from(["choice", "immediate"]),
                "script": st.sampled_from(["hiragana", "katakana", "mixed"]),
                "start": st.sampled_from(["youngest", "random"]),
            }
        ),
    }
)


def random_walk(game, walk_seed):
    """Every state of one game played with random legal actions, and the actions taken."""
    rng = random.Random(walk_seed)
    state = ENG.new_game(game["players"], game["seed"], game["options"])
    states, actions = [state], []
    while not ENG.is_over(state):
        seat = ENG.to_act(state)[0]
        action = rng.choice(ENG.legal_actions(state, seat))
        state, _ = ENG.apply(state, seat, action)
        states.append(state)
        actions.append((seat, action))
        assert len(actions) < 5000, "the game must end"
    return states, actions


def laid_cards(state):
    family = ENG.view(state, None)["laid"]
    return [card for seat in family for f in seat for card in f["cards"]]


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000))
def test_the_45_cards_are_always_in_hands_pile_or_laid(game, walk_seed):
    states, _ = random_walk(game, walk_seed)
    for state in states:
        where = [c for hand in state.hands for c in hand] + list(state.pile) + laid_cards(state)
        assert Counter(where) == Counter(DECK)
    assert ENG.outcome(states[-1])["scores"] == [len(f) for f in states[-1].laid]


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000), data=st.data())
def test_views_never_show_other_hands_or_the_pile(game, walk_seed, data):
    states, _ = random_walk(game, walk_seed)
    rng = random.Random(walk_seed)
    for state in data.draw(st.lists(st.sampled_from(states), min_size=1, max_size=6)):
        for seat in [*range(state.players), None]:
            view = ENG.view(state, seat)
            text = json.dumps(view)
            assert json.loads(text) == view
            assert "pile" not in view and "seed" not in text
            assert all(event.get("private_to") in (None, seat) for event in view["log"])
            assert view["hand"] == (list(state.hands[seat]) if seat is not None else None)
            assert view["hand_sizes"] == [len(h) for h in state.hands]
            # only information hidden from `seat` changes: its view must not
            shuffled = ENG.shuffle_hidden(state, seat, rng)
            assert ENG.view(shuffled, seat) == view


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000), data=st.data())
def test_legal_actions_apply_and_illegal_ones_change_nothing(game, walk_seed, data):
    states, _ = random_walk(game, walk_seed)
    state = data.draw(st.sampled_from(states))
    if ENG.is_over(state):
        assert all(ENG.legal_actions(state, s) == [] for s in range(state.players))
        return
    seat = ENG.to_act(state)[0]
    legal = ENG.legal_actions(state, seat)
    before = ENG.to_json(state)
    for action in legal:
        ENG.apply(state, seat, action)
    keys = {action_key(a) for a in legal}
    junk = st.one_of(
        st.fixed_dictionaries(
            {
                "type": st.sampled_from(["ask", "lay", "draw"]),
                "target": st.integers(-1, 7),
                "card": st.sampled_from([*DECK, "si", "", "ka.2"]),
            }
        ),
        st.just({"type": "lay"}),
        st.dictionaries(st.text(max_size=5), st.integers()),
    )
    for action in data.draw(st.lists(junk, min_size=1, max_size=20)):
        if action_key(action) in keys:
            continue
        try:
            ENG.apply(state, seat, action)
            raise AssertionError(f"illegal {action} accepted")
        except IllegalAction as refused:
            assert refused.message
    for other in set(range(state.players)) - {seat}:
        assert ENG.legal_actions(state, other) == []
    assert ENG.to_json(state) == before


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000))
def test_json_round_trip_is_exact(game, walk_seed):
    states, _ = random_walk(game, walk_seed)
    for state in states[:: max(1, len(states) // 10)] + [states[-1]]:
        data = json.loads(json.dumps(ENG.to_json(state)))
        assert ENG.from_json(data) == state


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000))
def test_same_seed_and_actions_give_the_same_game(game, walk_seed):
    states, actions = random_walk(game, walk_seed)
    replay = ENG.new_game(game["players"], game["seed"], game["options"])
    assert replay == states[0]
    for (seat, action), expected in zip(actions, states[1:], strict=True):
        replay, _ = ENG.apply(replay, seat, action)
        assert replay == expected


@settings(max_examples=8, deadline=None)
@given(game=games, walk_seed=st.integers(0, 1000))
def test_the_generic_conformance_checks_pass_along_a_game(game, walk_seed):
    states, _ = random_walk(game, walk_seed)
    rng = random.Random(walk_seed)
    for state in states[:: max(1, len(states) // 8)] + [states[-1]]:
        assert check_state(ENG, state, state.players, rng, sample=3) == []


def reread_visible_log(events, players):
    """Reference for ``view["known"]``: re-read a seat's whole visible log, event by event."""
    holders, draws = {}, [0] * players
    refused, asked = [{} for _ in range(players)], [[] for _ in range(players)]
    for event in events:
        kind, seat, card = event["type"], event.get("seat"), event.get("card")
        if kind == "draw":
            draws[seat] += 1
        elif kind == "ask":
            refused[seat][card] = draws[seat]
            if event["family"] not in asked[seat]:
                asked[seat].append(event["family"])
        elif kind == "given":
            holders[card] = event["to"]
            refused[seat][card] = draws[seat]
            refused[event["to"]].pop(card, None)
        elif kind == "go_fish":
            refused[seat][card] = draws[seat]
        elif kind == "good_pick":
            holders[card] = seat
            refused[seat].pop(card, None)
        elif kind == "family_laid":
            for laid in event["cards"]:
                holders.pop(laid, None)
            if event["family"] in asked[seat]:
                asked[seat].remove(event["family"])
    return {"holders": holders, "refused": refused, "draws": draws, "asked_families": asked}


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000), data=st.data())
def test_known_sums_up_the_whole_visible_log_and_the_log_is_its_latest_window(
    game, walk_seed, data
):
    from games.engines.base import visible_events
    from games.engines.kazoku.families import LOG_WINDOW

    states, _ = random_walk(game, walk_seed)
    for state in data.draw(st.lists(st.sampled_from(states), min_size=1, max_size=5)):
        full_log = [event for group in state.log for event in group]
        for seat in [*range(state.players), None]:
            view = ENG.view(state, seat)
            visible = visible_events(full_log, seat)
            assert view["known"] == reread_visible_log(visible, state.players)
            assert view["log"] == visible[-LOG_WINDOW:]
            named = {event["card"] for event in visible if "card" in event}
            assert named <= set(view["kana"])  # cards named long ago keep their glyphs
