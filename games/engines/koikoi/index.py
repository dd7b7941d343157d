"""Speed-ups for the engine's hot path, kept apart from the rulebook (``rules.py``).

``fast_play`` is the common action — a hand card played in phase ``play`` — done in one
function over bit masks and tuples, without the ``rules.Round`` scratch object: the hand card
captures what it matches (or stays on the table), the top card of the pile is turned and
matched, and the capturing player's yaku are judged again. It returns ``None`` (and the
engine takes the rulebook path, ``rules.Round``) for everything it does not handle: an
illegal action (so the rulebook path raises its ``IllegalAction``), a state without its
ruleset, and the last play of a round (scoring, the next deal). It must produce exactly
what the rulebook path produces — the same state, the same events in the same order:
``bench/engines_ab_koikoi.py --same-games`` compares both over hundreds of seeded games and
``tests/engines/test_koikoi_index.py`` compares them action by action. ``fast_take`` (the
turned card taken or left, phase ``draw``) and ``fast_koikoi`` do the same for those actions.

Why: an action through the contract cost about 20 µs, two thirds of it in building and
freezing the scratch and in small helper calls (docs/bench.md, Koi-Koi).
"""

from __future__ import annotations

import hashlib
import struct
from operator import itemgetter
from typing import Any

from games.engines.koikoi.cards import DECK
from games.engines.koikoi.yaku import judge_mask

BIT: dict[str, int] = dict(DECK.bit)
# card id -> the mask of the 4 cards of its month
MONTH_MASK_OF: dict[str, int] = {card: DECK.month_mask[DECK.month_of[card]] for card in DECK.ids}
# a one-card mask -> its card
CARD_OF_BIT: dict[int, str] = {bit: card for card, bit in DECK.bit.items()}

_new = tuple.__new__

# --- deals -----------------------------------------------------------------------------------

_KEYS = struct.Struct("<48I")
_IDS = DECK.ids
_ALL = range(48)
# dealt two by two, four times: ko, table, oya (positions in the shuffled deck)
_KO_CARDS = itemgetter(*[6 * turn + k for turn in range(4) for k in (0, 1)])
_TABLE_CARDS = itemgetter(*[6 * turn + k for turn in range(4) for k in (2, 3)])
_OYA_CARDS = itemgetter(*[6 * turn + k for turn in range(4) for k in (4, 5)])
# the months are the nibbles of a mask (cards 4m-4 .. 4m-1 are month m): checked here
assert all(DECK.month_mask[m] == 0xF << 4 * (m - 1) for m in range(1, 13))
_NIBBLE_LOW = sum(1 << 4 * m for m in range(12))


def shuffled_ids(seed: int, label: str) -> tuple[str, ...]:
    """``rules.shuffled`` as a tuple: the 48 cards sorted by their SHAKE-256 keys, ties by deck
    order (a stable sort of the deck indices: the same order as sorting ``key << 6 | index``)."""
    keys = _KEYS.unpack(hashlib.shake_256(f"{seed}/{label}".encode()).digest(4 * 48))
    return itemgetter(*sorted(_ALL, key=keys.__getitem__))(_IDS)


def deal_cards(seed: int, round_number: int, attempt: int, oya: int) -> tuple:
    """``rules.shuffled_deal``: (hands, table, pile) of one deal."""
    deck = shuffled_ids(seed, f"{round_number}/{attempt}")
    ko, oya_hand = _KO_CARDS(deck), _OYA_CARDS(deck)
    hands = (oya_hand, ko) if oya == 0 else (ko, oya_hand)
    return hands, _TABLE_CARDS(deck), deck[24:]


def mask_of(cards: tuple[str, ...] | list[str]) -> int:
    return sum(map(BIT.__getitem__, cards))


def has_four_of_a_month(mask: int) -> bool:
    """All four cards of some month in ``mask`` (a full nibble)."""
    return bool(mask & mask >> 1 & mask >> 2 & mask >> 3 & _NIBBLE_LOW)


# --- the common action -----------------------------------------------------------------------


def fast_play(state: Any, seat: int, action: Any) -> tuple[Any, list[dict]] | None:
    """``engine.apply`` for a legal hand-card play that does not end the round, else None."""
    rules = state.rules
    if rules is None or type(action) is not dict or action.get("type") != "play":
        return None
    card = action.get("card")
    hands = state.hands
    hand = hands[seat]
    if type(card) is not str or card not in hand:
        return None
    at = hand.index(card)
    table, masks = state.table, state.masks
    table_mask = masks[2]
    # step 1: the hand card
    same = table_mask & MONTH_MASK_OF[card]
    count = same.bit_count()
    # "type" and "card" are keys of the action (read above): its other keys, by count
    if count == 2:
        if len(action) != 3 or "take" not in action:
            return None
        take = action["take"]
        if type(take) is not str or not BIT.get(take, 0) & same:
            return None
    elif len(action) != 2:
        return None
    elif not count and not rules.free_discard:
        # a discard is legal only when no hand card matches (rules.playable)
        for other in hand:
            if table_mask & MONTH_MASK_OF[other]:
                return None
    hand = hand[:at] + hand[at + 1 :]
    other_hand = hands[1 - seat]
    if not hand and not other_hand:
        return None  # the last card of the round: the rulebook path scores and deals
    captured = state.captured
    mine = captured[seat]
    pile_mask = masks[seat]
    taken = False
    if not count:
        table = (*table, card)
        table_mask |= BIT[card]
        played: list[str] = []
    else:
        if count == 1:
            other = CARD_OF_BIT[same]
            at = table.index(other)
            table = table[:at] + table[at + 1 :]
            played = [card, other]
        elif count == 2:
            at = table.index(take)
            table = table[:at] + table[at + 1 :]
            played = [card, take]
            same = BIT[take]
        else:  # 3: all of them, in table order
            chosen = [c for c in table if BIT[c] & same]
            table = tuple([c for c in table if c not in chosen])
            played = [card, *chosen]
        mine = (*mine, *played)
        gained = BIT[card] | same
        table_mask &= ~gained
        pile_mask |= gained
        taken = True
    play_event = {"type": "play", "seat": seat, "card": card, "captured": played}
    # step 2: the turned card
    pile = state.pile
    top = pile[0]
    pile = pile[1:]
    same = table_mask & MONTH_MASK_OF[top]
    count = same.bit_count()
    yaku = state.yaku
    if count == 2 or (count and rules.draw_capture == "optional"):
        drawn = top
        phase = "draw"
        turn = state.turn
        events = [play_event, {"type": "draw", "seat": seat, "card": top, "captured": None}]
    else:
        drawn = None
        phase = "play"
        if not count:
            table = (*table, top)
            table_mask |= BIT[top]
            turned: list[str] = []
        else:
            if count == 1:
                other = CARD_OF_BIT[same]
                at = table.index(other)
                table = table[:at] + table[at + 1 :]
                turned = [top, other]
            else:  # 3: all of them, in table order
                chosen = [c for c in table if BIT[c] & same]
                table = tuple([c for c in table if c not in chosen])
                turned = [top, *chosen]
            mine = (*mine, *turned)
            gained = BIT[top] | same
            table_mask &= ~gained
            pile_mask |= gained
            taken = True
        events = [play_event, {"type": "draw", "seat": seat, "card": top, "captured": turned}]
        # the end of the turn: the capturing player's yaku judged again
        turn = 1 - seat
        if taken:
            now = judge_mask(rules.judge, pile_mask, (state.round - 1) % 12 + 1)
            before = yaku[seat]
            mine_yaku = tuple(now)
            yaku = (mine_yaku, yaku[1]) if seat == 0 else (yaku[0], mine_yaku)
            if now and mine_yaku != before:
                before_points = dict(before)
                if rules.koikoi_on == "new_or_raised":
                    improved = any(p > before_points.get(y, 0) for y, p in now)
                else:
                    improved = any(y not in before_points for y, _p in now)
                if improved:
                    events.append({"type": "yaku", "seat": seat, "yaku": [list(y) for y in now]})
                    phase = "decide"
                    turn = seat
    if seat == 0:
        new_hands = (hand, other_hand)
        new_captured = (mine, captured[1])
        new_masks = (pile_mask, masks[1], table_mask)
    else:
        new_hands = (other_hand, hand)
        new_captured = (captured[0], mine)
        new_masks = (masks[0], pile_mask, table_mask)
    log = state.log
    group = tuple(events)
    new_state = _new(
        type(state),
        (
            state.seed,
            state.options,
            state.round,
            state.oya,
            state.attempt,
            new_hands,
            table,
            pile,
            new_captured,
            phase,
            turn,
            drawn,
            state.calls,
            yaku,
            state.scores,
            state.results,
            (*log, group) if log else (group,),
            new_masks,
            rules,
        ),
    )
    return new_state, list(map(dict, events))


def fast_koikoi(state: Any, seat: int) -> tuple[Any, list[dict]] | None:
    """``engine.apply`` of ``{"type": "koikoi"}`` in phase ``decide`` (checked by the caller),
    else None (a hand is empty: the rulebook path refuses or ends the round)."""
    hands = state.hands
    if not hands[0] or not hands[1] or state.rules is None:
        return None
    calls = state.calls
    mine = calls[seat] + 1
    calls = (mine, calls[1]) if seat == 0 else (calls[0], mine)
    event = {"type": "koikoi", "seat": seat, "calls": mine}
    group = (event,)
    log = state.log
    new_state = _new(
        type(state),
        (
            state.seed,
            state.options,
            state.round,
            state.oya,
            state.attempt,
            hands,
            state.table,
            state.pile,
            state.captured,
            "play",
            1 - seat,
            state.drawn,
            calls,
            state.yaku,
            state.scores,
            state.results,
            (*log, group) if log else (group,),
            state.masks,
            state.rules,
        ),
    )
    return new_state, [dict(event)]


def fast_take(state: Any, seat: int, action: Any) -> tuple[Any, list[dict]] | None:
    """``engine.apply`` in phase ``draw`` (checked by the caller): take or leave the turned
    card. None for an illegal action and when both hands are empty (the round may end)."""
    rules = state.rules
    hands = state.hands
    if rules is None or (not hands[0] and not hands[1]):
        return None
    card = state.drawn
    table, masks = state.table, state.masks
    table_mask = masks[2]
    same = table_mask & MONTH_MASK_OF[card]
    if same.bit_count() == 2:
        pair = [c for c in table if BIT[c] & same]
        legal = [{"type": "take", "card": pair[0]}, {"type": "take", "card": pair[1]}]
    else:
        legal = [{"type": "take"}]
    if rules.draw_capture == "optional":
        legal.append({"type": "leave"})
    if action not in legal:
        return None
    captured = state.captured
    mine = captured[seat]
    pile_mask = masks[seat]
    yaku = state.yaku
    phase = "play"
    turn = 1 - seat
    if action["type"] == "leave":
        table = (*table, card)
        table_mask |= BIT[card]
        event = {"type": "take", "seat": seat, "card": card, "captured": []}
        events = [event]
    else:
        if same.bit_count() == 2:  # one of two: the one named
            take = action["card"]
            same = BIT[take]
            chosen = [take]
        else:  # one or three: all of them, in table order
            chosen = [c for c in table if BIT[c] & same]
        table = tuple([c for c in table if c not in chosen])
        taken = [card, *chosen]
        mine = (*mine, *taken)
        gained = BIT[card] | same
        table_mask &= ~gained
        pile_mask |= gained
        events = [{"type": "take", "seat": seat, "card": card, "captured": taken}]
        now = judge_mask(rules.judge, pile_mask, (state.round - 1) % 12 + 1)
        before = yaku[seat]
        mine_yaku = tuple(now)
        yaku = (mine_yaku, yaku[1]) if seat == 0 else (yaku[0], mine_yaku)
        if now and mine_yaku != before:
            before_points = dict(before)
            if rules.koikoi_on == "new_or_raised":
                improved = any(p > before_points.get(y, 0) for y, p in now)
            else:
                improved = any(y not in before_points for y, _p in now)
            if improved:
                events.append({"type": "yaku", "seat": seat, "yaku": [list(y) for y in now]})
                phase = "decide"
                turn = seat
    if seat == 0:
        new_captured = (mine, captured[1])
        new_masks = (pile_mask, masks[1], table_mask)
    else:
        new_captured = (captured[0], mine)
        new_masks = (masks[0], pile_mask, table_mask)
    log = state.log
    group = tuple(events)
    new_state = _new(
        type(state),
        (
            state.seed,
            state.options,
            state.round,
            state.oya,
            state.attempt,
            hands,
            table,
            state.pile,
            new_captured,
            phase,
            turn,
            None,
            state.calls,
            yaku,
            state.scores,
            state.results,
            (*log, group) if log else (group,),
            new_masks,
            rules,
        ),
    )
    return new_state, list(map(dict, events))
