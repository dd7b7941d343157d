"""The learning hook: what a committed deal or move showed each human learner.

For every human seat whose user is a learner, compare that seat's own view before and after:
``shown`` are the (kana id, script) pairs of cards newly visible in the view (the engine's
``view["kana"]`` lists every card the seat may see, with the script it shows), ``entered_hand``
those of cards that entered the seat's hand. ``eng.kana_on`` maps a card to its kana.
LEARNING records them (``learning.services.play.play_observed``) in one bulk insert.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from games.engines.base import Engine
from games.engines.kazoku_deck import load_deck
from games.models import Move, Seat, Table
from learning.services.play import ask_observed, play_observed

logger = logging.getLogger(__name__)


def _cards_seen(view: Mapping[str, Any] | None) -> dict[str, str]:
    """Card id -> script for every card the view shows.

    Engines that list their visible cards in ``view["kana"]`` (Kazoku families) give the
    script per card; others (the word game) are read from their zones: hand, table cards,
    scored words, publicly known cards and the cards named by the visible log, with the script
    letters of ``view["scripts"]`` (one per deck card, deck order).
    """
    if not view:
        return {}
    if "kana" in view:
        return {card: (info or {}).get("script", "") for card, info in view["kana"].items()}
    cards: set[str] = set(view.get("hand") or [])
    cards.update(view.get("table") or [])
    for zone in ("scored", "known"):
        for seat_cards in view.get(zone) or []:
            cards.update(seat_cards)
    for event in view.get("log") or []:
        if isinstance(event.get("card"), str):
            cards.add(event["card"])
        cards.update(c for c in event.get("cards") or () if isinstance(c, str))
    return {card: _script_letter(view, card) for card in cards}


def _script_letter(view: Mapping[str, Any], card: str) -> str:
    letters = view.get("scripts")
    deck = load_deck()
    base = card.split(".")[0]
    if isinstance(letters, str) and base in deck.cards and len(letters) == len(deck.ids):
        return "katakana" if letters[deck.ids.index(base)] == "k" else "hiragana"
    return ""


def _hand(view: Mapping[str, Any] | None) -> set[str]:
    """The cards the seat holds: its hand, plus the cards it has won where the engine lists
    them as ``view["taken"]`` (Koi-Koi's capture pile), so capturing a card may prompt too."""
    if not view:
        return set()
    held = [*(view.get("hand") or []), *(view.get("taken") or [])]
    return {card for card in held if isinstance(card, str)}


def _pairs(
    *, eng: Engine, cards: Iterable[str], scripts: Mapping[str, str], options: Mapping
) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for card in sorted(cards):
        script = scripts.get(card) or options.get("script", "hiragana")
        pairs.extend((kana_id, script) for kana_id in eng.kana_on(card, options))
    return pairs


def seat_observed(
    *,
    eng: Engine,
    before: Any | None,
    after: Any,
    seat: int,
    options: Mapping,
    views_before: dict[int, Any] | None = None,
    views_after: dict[int, Any] | None = None,
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """``(shown, entered_hand)`` pairs for one seat between two states.

    ``views_before`` may hold the seat's view of ``before`` already computed (the CPU burst
    starts from the state the human's move produced); ``views_after`` receives the view of
    ``after`` so the next hook call can reuse it. Views are only read, never changed.
    """
    if before is None:
        view_before = None
    elif views_before is not None and seat in views_before:
        view_before = views_before[seat]
    else:
        view_before = eng.view(before, seat)
    view_after = eng.view(after, seat)
    if views_after is not None:
        views_after[seat] = view_after
    seen_before, seen_after = _cards_seen(view_before), _cards_seen(view_after)
    new_cards = set(seen_after) - set(seen_before)
    entered = _hand(view_after) - _hand(view_before)
    shown = _pairs(eng=eng, cards=new_cards, scripts=seen_after, options=options)
    entered_pairs = _pairs(eng=eng, cards=entered, scripts=seen_after, options=options)
    return shown, entered_pairs


def moves_observed(
    *,
    table: Table,
    eng: Engine,
    before: Any | None,
    after: Any,
    seats: Mapping[int, Seat],
    move: Move | None,
    views_before: dict[int, Any] | None = None,
    views_after: dict[int, Any] | None = None,
) -> None:
    """Tell LEARNING what each human learner seat newly saw (after commit).

    ``views_before`` / ``views_after``: see ``seat_observed`` (a cache of seat views).
    """

    for index, seat in seats.items():
        if not seat.is_human or seat.autoplay:
            continue
        profile = getattr(seat.user, "profile", None)
        if profile is None or not profile.is_learner:
            continue
        shown, entered = seat_observed(
            eng=eng,
            before=before,
            after=after,
            seat=index,
            options=table.options,
            views_before=views_before,
            views_after=views_after,
        )
        action = move.action if move is not None and isinstance(move.action, dict) else {}
        if action.get("type") == "ask" and move.seat == index:
            # LEARNING: the learner asked for a card (Kazoku families) or a kana (Kazoku
            # words) by name; unless it came to their hand (a reading prompt follows), ask
            # them to pick its glyph.
            if action.get("card"):
                asked = _pairs(
                    eng=eng, cards=[str(action["card"])], scripts={}, options=table.options
                )
            else:
                asked = [(str(action.get("kana", "")), table.options.get("script", "hiragana"))]
            ask_observed(
                user=seat.user,
                table_id=table.pk,
                move_id=move.pk,
                asked=[pair for pair in asked if pair not in entered],
                prompt_mode=table.options.get("prompts", "off"),
            )
        if not shown and not entered:
            continue
        play_observed(
            user=seat.user,
            table_id=table.pk,
            move_id=move.pk if move is not None else None,
            shown=shown,
            entered_hand=entered,
            prompt_mode=table.options.get("prompts", "off"),
        )
