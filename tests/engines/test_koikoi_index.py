"""The mask and deal helpers of ``games/engines/koikoi/index.py`` and the gated yaku judge,
checked against plain reference implementations written here from their definitions.

The turn has one implementation (``rules.apply`` on a ``rules.Round``); that it still plays
the games of the engine it replaced (which had fast paths beside the rulebook path) is
``test_koikoi_same_games.py``.
"""

import hashlib
import random
import struct
from itertools import combinations

import pytest
from koikoi_setup import ENG, IDS, stacked

from games.engines.koikoi import index
from games.engines.koikoi.cards import DECK
from games.engines.koikoi.rules import four_of_a_month, shuffled, shuffled_deal
from games.engines.koikoi.yaku import _row_points, _settings, judge_for, judge_mask


def test_a_state_without_its_ruleset_plays_the_same():
    """``rules`` is derived (not serialised): a state built without it looks it up."""
    order = IDS[::2] + IDS[1::2]  # two cards of each month among the first 24
    state = stacked([order[0:8], order[8:16]], order[16:24], first=0)
    for action in ENG.legal_actions(state, 0):
        assert ENG.apply(state._replace(rules=None), 0, action) == ENG.apply(state, 0, action)
    last = state._replace(hands=((order[0],), ()))  # the last card of the round
    play = {"type": "play", "card": order[0]}
    assert ENG.apply(last._replace(rules=None), 0, play) == ENG.apply(last, 0, play)


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
