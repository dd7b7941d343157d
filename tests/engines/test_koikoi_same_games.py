"""Koi-Koi plays the same games as the engine this digest was recorded on.

Seeded random games under eight option sets: every legal-action list, every action, every
event list, the state (``to_json``) after each action, and the refusal message of forged
illegal actions at every step, hashed. ``DIGEST`` was recorded on main at 0c00281, before the
turn was rewritten as one implementation (issue 23): the old engine had a rulebook path
(``rules.Round``) and fast paths (``index.fast_play``/``fast_take``/``fast_koikoi``) that had
to agree; the new one has one turn, and this test holds it to the old games.

A deliberate change of the rules changes the digest: check the games by other means
(``bench/engines_ab_koikoi.py --base <commit> --same-games`` shows whether they differ) and
record the new value. Changes since 0c00281 (digest ``5fe98804…``):

- a yaku formed by the hand card is asked when the turned card is then left on the table
  (``draw_capture="optional"``): option sets 1 and 7 changed, the six others are the same
  games (checked set by set against 0c00281).
"""

import hashlib
import json
import random

from koikoi_setup import ENG

from games.engines import IllegalAction
from games.engines.koikoi.cards import DECK

OPTION_SETS: list[dict] = [
    {},
    {"rounds": "3", "draw_capture": "optional", "koikoi_on": "new_only"},
    {"dealt_hands": "score", "tsukifuda": True, "draw_scoring": "oya_6", "viewing": "3"},
    {"dealt_hands": "redeal", "stacking": "older", "sake_cup": "both", "viewing_rule": "rain"},
    {"viewing_rule": "with_other", "sanko_rain_man": True, "bright_points": "15_6"},
    {"koikoi_bonus": "per_call", "double_at_seven": False, "draw_scoring": "oya_1"},
    {"koikoi_bonus": "self", "viewing": "off", "rounds": "6", "free_discard": True},
    {"koikoi_bonus": "anyone", "draw_capture": "optional", "dealt_hands": "score"},
]
SEEDS = 3
DIGEST = "3991068ab479175990a0e147f518013639fc473afd8950539b0606e17cc3a10b"


def forged(state, seat):
    """Illegal variants of the actions of ``state`` (and a few legal ones: refused or not,
    both engines must agree)."""
    hand = state.hands[seat]
    first = hand[0] if hand else "x"
    yield {"type": "play"}
    for outside in (*state.hands[1 - seat][:1], *state.table[:1], *state.pile[:1]):
        yield {"type": "play", "card": outside}  # not in this hand
    yield {"type": "play", "card": first, "take": "no-such-card"}
    yield {"type": "play", "card": first, "extra": 1}
    yield {"type": "play", "card": ["not", "a", "str"]}
    yield {"type": "take", "card": "no-such-card"}
    yield {"type": "take", "card": state.drawn}
    yield {"type": "take", "extra": 1}
    yield {"type": "take"}
    yield {"type": "leave"}
    yield {"type": "koikoi", "extra": True}
    yield {"type": "koikoi"}
    yield {"type": "shobu"}
    yield {"type": "x"}
    yield ["not", "a", "dict"]
    for card in hand:
        same = [c for c in state.table if DECK.month_of[c] == DECK.month_of[card]]
        yield {"type": "play", "card": card}
        yield {"type": "play", "card": card, "take": card}
        yield {"type": "play", "card": card, "take": ["unhashable"]}
        for other in same:
            yield {"type": "play", "card": card, "take": other}


def outcome_of(state, seat, action):
    try:
        new_state, events = ENG.apply(state, seat, action)
    except IllegalAction as refused:
        return ["refused", str(refused)]
    return [events, ENG.to_json(new_state)]


def games_digest() -> str:
    digest = hashlib.sha256()

    def feed(value) -> None:
        digest.update(json.dumps(value, sort_keys=True).encode())

    for options in OPTION_SETS:
        for seed in range(SEEDS):
            rng = random.Random(seed)
            state = ENG.new_game(2, seed, options)
            feed(ENG.to_json(state))
            while not ENG.is_over(state):
                seat = ENG.to_act(state)[0]
                legal = ENG.legal_actions(state, seat)
                feed(legal)
                for action in forged(state, seat):
                    feed(outcome_of(state, seat, action))
                feed(outcome_of(state, 1 - seat, legal[0]))  # out of turn
                action = rng.choice(legal)
                state, events = ENG.apply(state, seat, action)
                feed([action, events, ENG.to_json(state)])
            feed(ENG.outcome(state))
            feed(outcome_of(state, 0, {"type": "shobu"}))  # the game is over
    return digest.hexdigest()


def test_seeded_games_with_forged_actions_are_the_recorded_ones():
    assert games_digest() == DIGEST
