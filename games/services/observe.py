"""The learning hook, on the games side: what a committed deal or move showed each human.

For every human seat (not played by its CPU stand-in), compare that seat's own views before and
after with the engine's ``cards_shown(view)``: ``shown`` are the (kana id, script) pairs of the
cards newly shown, ``entered_hand`` those of cards newly among the seat's own
(``cards_held(view)``: its hand, unless the engine counts more, such as a capture pile);
``kana_on`` maps a card to its kana; ``asked`` the kana the seat named with its own action
(``kana_named``); ``cards`` the engine's ``card_question`` for each card newly shown that it
can ask about (the learning app counts how often each learner saw each card). Nothing here
knows a game's view shape, and nothing here knows who records what: the result goes out as
``games.signals.seat_observed`` (the learning app listens).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engines.base import CardQuestion, Engine
from games.models import Move, Seat, Table
from games.signals import KanaPairs, SeatObservation, seat_observed


def _held(eng: Engine, view: Mapping[str, Any] | None) -> set[str]:
    """The cards the seat holds as its own (``eng.cards_held``: its hand unless the engine
    says more, e.g. a capture pile)."""
    if not view:
        return set()
    return {card for card in eng.cards_held(view) if isinstance(card, str)}


def _pairs(
    *, eng: Engine, cards: Iterable[str], scripts: Mapping[str, str], options: Mapping
) -> KanaPairs:
    pairs: list[tuple[str, str]] = []
    for card in sorted(cards):
        script = scripts.get(card) or options.get("script", "hiragana")
        pairs.extend((kana_id, script) for kana_id in eng.kana_on(card, options))
    return tuple(pairs)


@dataclass(frozen=True)
class SeatSaw:
    """What one seat's view newly shows: kana pairs, and the questions about its new cards."""

    shown: KanaPairs
    entered: KanaPairs
    cards: tuple[CardQuestion, ...]


def _questions(*, eng: Engine, cards: Iterable[str], options: Mapping) -> tuple:
    if not eng.asks_about_cards:
        return ()
    asked = (eng.card_question(card, options) for card in sorted(cards))
    return tuple(question for question in asked if question is not None)


def seat_observed_pairs(
    *,
    eng: Engine,
    before: Any | None,
    after: Any,
    seat: int,
    options: Mapping,
    views_before: dict[int, Any] | None = None,
    views_after: dict[int, Any] | None = None,
) -> SeatSaw:
    """The ``shown`` and ``entered`` pairs for one seat between two states, and the
    ``card_question`` of each card newly shown (engines that ask about their cards).

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
    seen_before = eng.cards_shown(view_before) if view_before is not None else {}
    seen_after = eng.cards_shown(view_after)
    new_cards = seen_after.keys() - seen_before.keys()
    entered = _held(eng, view_after) - _held(eng, view_before)
    return SeatSaw(
        shown=_pairs(eng=eng, cards=new_cards, scripts=seen_after, options=options),
        entered=_pairs(eng=eng, cards=entered, scripts=seen_after, options=options),
        cards=_questions(eng=eng, cards=new_cards, options=options),
    )


def human_views(*, eng: Engine, state: Any, seats: Mapping[int, Seat]) -> dict[int, Any] | None:
    """The views of ``state`` that ``moves_observed`` reads as ``views_before`` (each seat a
    person plays), or ``None`` when nothing listens to ``seat_observed``.

    Taken before a move is applied, they cost what the hook would spend on them after the
    commit, and an engine that keeps on a state a cache of what the state determines (what its
    log has made public, say) fills it on ``state`` before ``apply``, which carries it to the
    states that follow: one read of the log per request instead of one per state.
    """
    if not seat_observed.has_listeners():
        return None
    return {
        index: eng.view(state, index)
        for index, seat in seats.items()
        if seat.is_human and not seat.autoplay
    }


def moves_observed(
    *,
    table: Table,
    eng: Engine,
    steps: Sequence[tuple[Any | None, Any, Move | None]],
    seats: Mapping[int, Seat],
    views_before: dict[int, Any] | None = None,
    views_after: dict[int, Any] | None = None,
    handover: dict | None = None,
) -> None:
    """Send ``seat_observed`` once (after commit) with what each human seat newly saw.

    ``steps``: ``(before, after, move)`` of each step the commit saved, in order: a deal
    (``before`` and ``move`` None), a move, a CPU burst (its last Move), or a human move and
    the CPU replies saved with it. Each step gives one observation per human seat that newly
    saw something, as if each step had been committed on its own.
    ``views_before`` / ``views_after``: see ``seat_observed_pairs`` (a cache of seat views of
    the first ``before`` and of the last ``after``). ``handover``: passed to the receivers
    (``games.signals``: what they read that the board of this request may reuse).
    """
    if not seat_observed.has_listeners():
        return
    observations: list[SeatObservation] = []
    views = views_before
    for before, after, move in steps:
        following: dict[int, Any] = {}
        observations += _step_observations(
            table=table,
            eng=eng,
            before=before,
            after=after,
            move=move,
            seats=seats,
            views_before=views,
            views_after=following,
        )
        views = following
    if views_after is not None:
        views_after.update(views or {})
    if observations:
        seat_observed.send(sender=Table, observations=tuple(observations), handover=handover)


def _step_observations(
    *,
    table: Table,
    eng: Engine,
    before: Any | None,
    after: Any,
    move: Move | None,
    seats: Mapping[int, Seat],
    views_before: dict[int, Any] | None,
    views_after: dict[int, Any],
) -> list[SeatObservation]:
    options = table.options
    prompt_mode = options.get("prompts", "off")
    action = move.action if move is not None and isinstance(move.action, dict) else {}
    found = []
    for index, seat in seats.items():
        if not seat.is_human or seat.autoplay:
            continue
        saw = seat_observed_pairs(
            eng=eng,
            before=before,
            after=after,
            seat=index,
            options=options,
            views_before=views_before,
            views_after=views_after,
        )
        shown, entered = saw.shown, saw.entered
        asked: KanaPairs = ()
        if move is not None and move.seat == index and action:
            script = options.get("script", "hiragana")
            named = [(kana, script) for kana in eng.kana_named(action, options)]
            asked = tuple(pair for pair in named if pair not in entered)
        if not shown and not entered and not asked and not saw.cards:
            continue
        found.append(
            SeatObservation(
                user=seat.user,
                seat=index,
                table_id=table.pk,
                move_id=move.pk if move is not None else None,
                shown=shown,
                entered_hand=entered,
                asked=asked,
                prompt_mode=prompt_mode,
                engine=table.engine,
                cards=saw.cards,
                card_prompts=bool(options.get("card_prompts", False)),
            )
        )
    return found
