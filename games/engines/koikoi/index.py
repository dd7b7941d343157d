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
``tests/engines/test_koikoi_index.py`` compares them action by action.

Why: an action through the contract cost about 20 µs, two thirds of it in building and
freezing the scratch and in small helper calls (docs/bench.md, Koi-Koi).
"""

from __future__ import annotations

from typing import Any

from games.engines.koikoi.cards import DECK
from games.engines.koikoi.yaku import judge_mask

BIT: dict[str, int] = dict(DECK.bit)
# card id -> the mask of the 4 cards of its month
MONTH_MASK_OF: dict[str, int] = {card: DECK.month_mask[DECK.month_of[card]] for card in DECK.ids}
PLAY_KEYS = frozenset({"type", "card"})
PLAY_TAKE_KEYS = frozenset({"type", "card", "take"})

_new = tuple.__new__


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
    table, masks = state.table, state.masks
    table_mask = masks[2]
    # step 1: the hand card
    same = table_mask & MONTH_MASK_OF[card]
    count = same.bit_count()
    if count == 2:
        if action.keys() != PLAY_TAKE_KEYS:
            return None
        take = action["take"]
        if type(take) is not str or not BIT.get(take, 0) & same:
            return None
    elif action.keys() != PLAY_KEYS:
        return None
    hand = tuple([c for c in hand if c != card])
    other_hand = hands[1 - seat]
    if not hand and not other_hand:
        return None  # the last card of the round: the rulebook path scores and deals
    new_hands = (hand, other_hand) if seat == 0 else (other_hand, hand)
    captured = state.captured
    pile_mask = masks[seat]
    taken = False
    if not count:
        table = (*table, card)
        table_mask |= BIT[card]
        played: list[str] = []
    else:
        if count == 2:
            chosen = [take]
            gained = BIT[card] | BIT[take]
        else:  # 1 or 3: all of them, in table order
            chosen = [c for c in table if BIT[c] & same]
            gained = BIT[card] | same
        table = tuple([c for c in table if c not in chosen])
        mine = (*captured[seat], card, *chosen)
        captured = (mine, captured[1]) if seat == 0 else (captured[0], mine)
        table_mask &= ~gained
        pile_mask |= gained
        taken = True
        played = [card, *chosen]
    events = [{"type": "play", "seat": seat, "card": card, "captured": played}]
    # step 2: the turned card
    pile = state.pile
    top = pile[0]
    pile = pile[1:]
    same = table_mask & MONTH_MASK_OF[top]
    count = same.bit_count()
    phase = "play"
    turn = state.turn
    drawn = None
    yaku = state.yaku
    if count == 2 or (count and rules.draw_capture == "optional"):
        drawn = top
        phase = "draw"
        events.append({"type": "draw", "seat": seat, "card": top, "captured": None})
    else:
        if not count:
            table = (*table, top)
            table_mask |= BIT[top]
            turned: list[str] = []
        else:  # 1 or 3
            chosen = [c for c in table if BIT[c] & same]
            table = tuple([c for c in table if c not in chosen])
            mine = (*captured[seat], top, *chosen)
            captured = (mine, captured[1]) if seat == 0 else (captured[0], mine)
            gained = BIT[top] | same
            table_mask &= ~gained
            pile_mask |= gained
            taken = True
            turned = [top, *chosen]
        events.append({"type": "draw", "seat": seat, "card": top, "captured": turned})
        # the end of the turn
        improved = False
        if taken:
            before = dict(yaku[seat])
            now = judge_mask(rules.judge, pile_mask, (state.round - 1) % 12 + 1)
            mine_yaku = tuple(now)
            yaku = (mine_yaku, yaku[1]) if seat == 0 else (yaku[0], mine_yaku)
            if rules.koikoi_on == "new_or_raised":
                improved = any(points > before.get(yaku_id, 0) for yaku_id, points in now)
            else:
                improved = any(yaku_id not in before for yaku_id, _points in now)
            if improved:
                events.append({"type": "yaku", "seat": seat, "yaku": [list(y) for y in now]})
                phase = "decide"
                turn = seat
        if not improved:
            turn = 1 - seat
    log = state.log
    group = tuple(events)
    if seat == 0:
        new_masks = (pile_mask, masks[1], table_mask)
    else:
        new_masks = (masks[0], pile_mask, table_mask)
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
            captured,
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
    return new_state, [dict(event) for event in events]
