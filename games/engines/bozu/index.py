"""Speed-ups of the Bōzu Mekuri engine (figures in docs/bench.md).

``quick_reveal`` is ``apply`` for the common reveals, inlined: it gives exactly the state and
events of the general path in ``rules._Turn`` (a property test compares both:
``tests/engines/test_bozu_properties.py``), or ``None`` when the general path must decide.
"""

from __future__ import annotations

from games.engines.bozu.state import REVEAL, BozuState

DRAW = {"type": "draw"}  # the action ``apply`` tries on this path first
_new_state = tuple.__new__


def quick_reveal(state: BozuState, seat: int) -> tuple[BozuState, list[dict]] | None:
    """The common case of ``apply``, inlined for speed (see docs/bench.md): a noble, a monk or
    a lady without extra draw, the game going on, and the next seat neither out nor skipped.
    ``None`` when the general path (``_Turn``) must decide. Gives the same state and events.
    """
    pile = state.pile
    if len(pile) < 2:
        return None
    card = pile[0]
    effect = state.effects[card]
    players = state.players
    following = seat + 1 if seat + 1 < players else 0
    if state.out[following] or state.skips[following]:
        return None
    hands = state.hands
    common = state.common
    if effect == "noble":
        hand = (*hands[seat], card)
        event = {"type": "reveal", "seat": seat, "card": card, "effect": effect}
    elif effect == "monk":
        common = (*common, *hands[seat], card)
        hand = ()
        event = {
            "type": "reveal",
            "seat": seat,
            "card": card,
            "effect": effect,
            "lost": len(hands[seat]) + 1,
        }
    elif effect == "lady" and state.rules.lady == "take_pile":
        hand = (*hands[seat], card, *common)
        event = {
            "type": "reveal",
            "seat": seat,
            "card": card,
            "effect": effect,
            "taken": len(common),
        }
        common = ()
    else:
        return None
    new = _new_state(
        BozuState,
        (
            players,
            state.seed,
            state.options,
            state.rules,
            (*hands[:seat], hand, *hands[seat + 1 :]),
            pile[1:],
            common,
            following,
            REVEAL,
            state.out,
            state.skips,
            ((event,), state.log),
            state.effects,
        ),
    )
    return new, [event.copy()]
