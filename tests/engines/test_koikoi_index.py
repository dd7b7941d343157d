"""The speed-ups of ``games/engines/koikoi/index.py`` against the rulebook path they replace.

``ENG.apply`` takes the fast paths (a hand-card play, a koi-koi call) when it can;
``ENG.apply_by_the_rules`` always goes through ``rules.Round``. Both must give the same state
and the same events for every legal action and refuse the same illegal ones with the same
message. The deal helpers and the gated yaku judge are checked against plain reference
implementations written here from their definitions.
"""

import hashlib
import random
import struct
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from koikoi_setup import ENG, IDS, stacked
from test_koikoi_properties import games

from games.engines import IllegalAction
from games.engines.koikoi import index
from games.engines.koikoi.cards import DECK
from games.engines.koikoi.rules import four_of_a_month, shuffled, shuffled_deal
from games.engines.koikoi.yaku import _row_points, _settings, judge_for, judge_mask

WALKS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def both_paths(state, seat, action):
    """(state, events) or the IllegalAction message, by apply and by the rulebook path."""
    results = []
    for apply in (ENG.apply, ENG.apply_by_the_rules):
        try:
            results.append(apply(state, seat, action))
        except IllegalAction as refused:
            results.append(("refused", str(refused)))
    return results


def forged(state, seat):
    """Illegal variants of the actions of ``state``."""
    hand = state.hands[seat]
    other = state.hands[1 - seat]
    if state.phase == "draw":
        yield {"type": "take", "card": "no-such-card"}
        yield {"type": "take", "card": state.drawn}
        yield {"type": "take", "extra": 1}
        yield {"type": "take"}  # illegal when two cards match
        yield {"type": "leave"}  # illegal unless draw_capture is optional
        yield {"type": "play", "card": hand[0] if hand else "x"}
        return
    yield {"type": "play"}
    for outside in (*other[:1], *state.table[:1], *state.pile[:1]):
        yield {"type": "play", "card": outside}  # not in this hand
    yield {"type": "play", "card": hand[0] if hand else "x", "take": "no-such-card"}
    yield {"type": "play", "card": hand[0] if hand else "x", "extra": 1}
    yield {"type": "play", "card": ["not", "a", "str"]}
    yield {"type": "koikoi", "extra": True}
    if state.phase == "play":
        yield {"type": "shobu"}
        yield {"type": "koikoi"}
    for card in hand:
        same = index.MONTH_MASK_OF[card] & state.masks[2]
        if same.bit_count() == 2:
            yield {"type": "play", "card": card}  # a choice is needed
            yield {"type": "play", "card": card, "take": card}
            yield {"type": "play", "card": card, "take": ["unhashable"]}
        else:
            yield {"type": "play", "card": card, "take": (*state.table, card)[0]}
        if not same:
            yield {"type": "play", "card": card}  # a discard: illegal while another matches


@WALKS
@given(game=games, walk_seed=st.integers(0, 10_000))
def test_fast_paths_match_the_rulebook_for_every_action(game, walk_seed):
    rng = random.Random(walk_seed)
    state = ENG.new_game(2, game["seed"], game["options"])
    fast_used = 0
    while not ENG.is_over(state):
        seat = ENG.to_act(state)[0]
        legal = ENG.legal_actions(state, seat)
        for action in legal:
            fast, rulebook = both_paths(state, seat, action)
            assert fast == rulebook, (state, action)
            fast_used += index.fast_play(state, seat, action) is not None
        for action in forged(state, seat):
            if action not in legal:
                fast, rulebook = both_paths(state, seat, action)
                assert fast[0] == "refused" and fast == rulebook, action
        state, _ = ENG.apply(state, seat, rng.choice(legal))
    assert fast_used > 0  # the fast path was exercised


def test_fast_play_declines_the_last_card_and_stateless_rules():
    order = IDS[::2] + IDS[1::2]  # two cards of each month among the first 24
    state = stacked([order[0:8], order[8:16]], order[16:24], first=0)
    card = order[0]
    play = {"type": "play", "card": card}
    assert state.hands[0] == tuple(order[0:8]) and index.fast_play(state, 0, play) is not None
    emptied = state._replace(hands=((card,), ()))
    assert index.fast_play(emptied, 0, play) is None
    assert both_paths(emptied, 0, play)[0] == both_paths(emptied, 0, play)[1]
    no_rules = state._replace(rules=None)
    assert index.fast_play(no_rules, 0, play) is None
    fast, rulebook = both_paths(no_rules, 0, play)
    assert fast == rulebook and fast[0].phase in ("play", "draw", "decide")


def test_events_returned_are_copies_of_the_logged_ones():
    state = ENG.new_game(2, 5, {})
    seat = ENG.to_act(state)[0]
    action = ENG.legal_actions(state, seat)[0]
    new_state, events = ENG.apply(state, seat, action)
    events[0]["type"] = "changed"
    assert new_state.log[-1][0]["type"] == "play"


def reference_shuffle(seed, label):
    """The definition: each card's 32-bit SHAKE-256 key, sorted by key then deck order."""
    digest = hashlib.shake_256(f"{seed}/{label}".encode()).digest(4 * 48)
    keys = struct.unpack("<48I", digest)
    return [IDS[i] for _key, i in sorted(zip(keys, range(48), strict=True))]


@pytest.mark.parametrize("seed", [0, 1, 7, 2**31, 123456789])
def test_deal_helpers_match_their_definitions(seed):
    for round_number in (1, 5, 12):
        for attempt in (0, 1):
            deck = reference_shuffle(seed, f"{round_number}/{attempt}")
            assert shuffled(seed, f"{round_number}/{attempt}") == deck
            for oya in (0, 1):
                hands, table, pile = shuffled_deal(seed, round_number, attempt, oya)
                ko, oya_hand, dealt_table = [], [], []
                for turn in range(4):
                    ko += deck[6 * turn : 6 * turn + 2]
                    dealt_table += deck[6 * turn + 2 : 6 * turn + 4]
                    oya_hand += deck[6 * turn + 4 : 6 * turn + 6]
                assert list(hands[oya]) == oya_hand and list(hands[1 - oya]) == ko
                assert list(table) == dealt_table and list(pile) == deck[24:]


def test_four_of_a_month_by_mask_matches_the_count():
    rng = random.Random(3)
    samples = [tuple(rng.sample(IDS, 8)) for _ in range(2000)]
    samples += [DECK.by_month[m] + tuple(IDS[40:44]) for m in range(1, 13)]
    for cards in samples:
        mask = index.mask_of(cards)
        assert mask == DECK.mask(cards)
        assert index.has_four_of_a_month(mask) == four_of_a_month(cards)


def reference_judge(options, mask, month):
    """Every row read by ``_row_points``, the best of each group (first in table order on a
    tie), the viewing rule, in table order: the judge without its gates."""
    judge = judge_for(_settings(options))
    best = {}
    for row in judge.pile_rows:
        points = _row_points(row, mask, month)
        if points and (row.group not in best or points > best[row.group][0]):
            best[row.group] = (points, row.id)
    found = {yaku_id: points for points, yaku_id in best.values()}
    viewing = {row.id for row in judge.pile_rows if row.viewing}
    if judge.viewing_rule != "always" and viewing & found.keys():
        rain = judge.viewing_rule == "rain" and mask & judge.rain_mask
        alone = judge.viewing_rule == "with_other" and not found.keys() - viewing
        if rain or alone:
            found = {k: v for k, v in found.items() if k not in viewing}
    return [(row.id, found[row.id]) for row in judge.pile_rows if row.id in found]


RULESETS = [
    {},
    {"stacking": "older", "sake_cup": "both", "tsukifuda": True},
    {"viewing_rule": "with_other", "sanko_rain_man": True, "bright_points": "15_6"},
    {"viewing_rule": "rain", "viewing": "3"},
    {"viewing": "off", "dealt_hands": "score"},
]


@pytest.mark.parametrize("options", RULESETS)
def test_gated_judge_matches_every_row_read_in_full(options):
    judge = judge_for(_settings(options))
    rng = random.Random(11)
    masks = [DECK.mask(rng.sample(IDS, rng.randint(0, 24))) for _ in range(3000)]
    # every pile of up to 3 of the brights, animals and viewing cards (gates at their edge)
    special = [c for c in IDS if DECK.cards[c].kind in ("bright", "animal")]
    masks += [DECK.mask(combo) for size in (2, 3) for combo in combinations(special, size)]
    for mask in masks:
        month = rng.randint(1, 12)
        assert judge_mask(judge, mask, month) == reference_judge(options, mask, month)
