"""Hypothesis properties of Bōzu Mekuri over seeds, player counts and every setting."""

import json
import random
from collections import Counter

import pytest
from bozu_setup import DECK, ENG
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import IllegalAction, action_key
from games.engines.bozu import load_poets
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


class Rulebook:
    """The rules as plainly as they read (lists, one card at a time): the oracle the engine's
    state representation (ropes, a shared pile, a log kept once) is checked against."""

    def __init__(self, state):
        data = ENG.to_json(state)
        self.players, self.options = data["players"], data["options"]
        self.hands = [list(hand) for hand in data["hands"]]
        self.pile, self.common = list(data["pile"]), list(data["common"])
        self.turn, self.phase = data["turn"], data["phase"]
        self.out, self.skips = list(data["eliminated"]), list(data["skips"])

    def effect(self, poet):
        rule = self.options
        if poet.category == "semimaru":
            return {"monk": "monk", "noble": "noble"}.get(rule["semimaru"], rule["semimaru"])
        if poet.emperor and rule["emperor"] == "take_hands":
            return "take_hands"
        if poet.emperor and rule["emperor"] == "draw_again":
            return "empress" if poet.category == "lady" else "emperor"
        if poet.category == "monk" or (poet.nyudo and rule["nyudo_monks"]):
            return "monk"
        return poet.category

    def play(self, kind):
        seat, events = self.turn, []
        if kind == "stop":
            events.append({"type": "stop", "seat": seat})
            self.next_turn(seat, events)
            return events
        card = self.pile.pop(0)
        poet = load_poets().cards[card]
        effect = self.effect(poet)
        event = {"type": "reveal", "seat": seat, "card": card, "effect": effect}
        events.append(event)
        hand, extra = self.hands[seat], False
        if effect in ("monk", "eliminate"):
            event["lost"] = len(hand) + 1
            self.common += [*hand, card]
            hand.clear()
            self.out[seat] = effect == "eliminate"
        elif effect == "all_hands":
            event["lost"] = sum(map(len, self.hands)) + 1
            for other in self.hands:
                self.common += other
                other.clear()
            self.common.append(card)
        elif poet.category == "lady" and effect != "noble":
            was_empty = not self.common
            event["taken"] = len(self.common)
            hand += [card, *self.common]
            self.common.clear()
            lady = self.options["lady"]
            extra = effect == "empress" or (
                effect == "lady"
                and (lady == "take_pile_draw" or (lady == "draw_if_empty" and was_empty))
            )
        else:
            hand.append(card)
            extra = effect == "emperor"
            self.skips[seat] = effect == "skip"
        if effect == "take_hands":
            others = [other for other in range(self.players) if other != seat]
            event["from_hands"] = sum(len(self.hands[other]) for other in others)
            for other in others:
                hand += self.hands[other]
                self.hands[other] = []
        if self.out.count(False) <= 1 or not self.pile:
            self.phase = "over"
            scores = [-1 if gone else len(h) for h, gone in zip(self.hands, self.out, strict=True)]
            events.append(
                {
                    "type": "game_over",
                    "reason": "last_standing" if self.out.count(False) <= 1 else "pile_empty",
                    "scores": scores,
                    "ranks": [1 + sum(other > score for other in scores) for score in scores],
                    "common_left": len(self.common),
                }
            )
        elif extra:
            self.phase = "extra"
            events.append({"type": "extra_draw", "seat": seat})
        else:
            self.next_turn(seat, events)
        return events

    def next_turn(self, seat, events):
        while True:
            seat = (seat + 1) % self.players
            if self.skips[seat]:
                self.skips[seat] = False
                events.append({"type": "skipped", "seat": seat})
            elif not self.out[seat]:
                self.turn, self.phase = seat, "reveal"
                return

    def legal(self):
        if self.phase == "over":
            return []
        if self.phase == "extra" and self.options["allow_stop"]:
            return ["draw", "stop"]
        return ["draw"]

    def zones(self):
        hands = tuple(map(tuple, self.hands))
        return hands, tuple(self.pile), tuple(self.common), tuple(self.out), tuple(self.skips)


@GAME_SETTINGS
@given(game=games, walk_seed=st.integers(0, 1000))
def test_the_engine_plays_every_move_as_the_rulebook_reads(game, walk_seed):
    states, actions = random_walk(game, walk_seed)
    book = Rulebook(states[0])
    for step, (seat, action) in enumerate(actions):
        state = states[step]
        assert ENG.legal_actions(state, seat) == [{"type": k} for k in book.legal()]
        _, events = ENG.apply(state, seat, action)
        assert (seat, events) == (book.turn, book.play(action["type"]))
        after = states[step + 1]
        assert (after.hands, after.pile, after.common, after.out, after.skips) == book.zones()
        assert (after.turn, after.phase) == (book.turn, book.phase)
    assert ENG.to_act(states[-1]) == [] and book.legal() == []


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**64), size=st.integers(0, 120))
def test_the_quick_shuffle_is_random_shuffle(seed, size):
    from games.engines.bozu.index import shuffle

    ours, theirs = list(range(size)), list(range(size))
    ours_rng, their_rng = random.Random(seed), random.Random(seed)
    shuffle(ours, ours_rng)
    their_rng.shuffle(theirs)
    assert ours == theirs and ours_rng.getstate() == their_rng.getstate()


@pytest.mark.parametrize(
    ("players", "seed", "top", "bottom", "first"),
    [
        (4, 7, ["p034", "p026", "p100", "p085"], ["p020", "p042"], 0),
        (2, 12345, ["p064", "p020", "p084", "p088"], ["p094", "p054"], 1),
        (6, 0, ["p024", "p009", "p012", "p008"], ["p098", "p050"], 0),
    ],
)
def test_a_seed_deals_the_same_game_as_it_always_did(players, seed, top, bottom, first):
    state = ENG.new_game(players, seed)
    assert list(state.pile[:4]) == top and list(state.pile[-2:]) == bottom
    assert state.turn == first
