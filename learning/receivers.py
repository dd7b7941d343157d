"""What the learning app hears from the games app below it (connected in ``LearningConfig``).

``games`` imports nothing of ``learning``: it sends ``games.signals`` and these receivers turn
them into service calls.
"""

from __future__ import annotations

from typing import Any

from games.signals import SeatObservation
from learning.models import DailySession
from learning.services.cards import cards_observed
from learning.services.play import SeenStep, plays_observed, prompts_pending

# Where ``seat_observations_record`` leaves a learner's open prompts at a table in the
# signal's ``handover`` (the request's own dict: ``games.signals``), for the board's panel.
PROMPTS_HANDOVER = "learning.open_prompts"


def seat_observations_record(
    *,
    observations: tuple[SeatObservation, ...],
    handover: dict | None = None,
    **_signal: Any,
) -> None:
    """Learners' seats newly saw cards or kana over one commit: per learner, count the
    sightings of the cards the game can ask about (and ask about one they know, first: they
    chose these questions), then ask about the kana they named and record the exposures and
    prompts of every step, in one transaction. When that transaction read the learner's open
    prompts and opened none, they go in ``handover`` (the board of the same request shows
    them without reading them again)."""
    by_learner: dict[int, list[SeatObservation]] = {}
    for observation in observations:
        by_learner.setdefault(observation.user.pk, []).append(observation)
    for seen in by_learner.values():
        for o in seen:
            if o.cards:
                cards_observed(
                    user=o.user,
                    table_id=o.table_id,
                    move_id=o.move_id,
                    engine=o.engine,
                    questions=o.cards,
                    ask=o.card_prompts,
                )
        steps = [
            SeenStep(move_id=o.move_id, shown=o.shown, entered_hand=o.entered_hand, asked=o.asked)
            for o in seen
            if o.shown or o.entered_hand or o.asked
        ]
        if steps:
            opened = plays_observed(
                user=seen[0].user,
                table_id=seen[0].table_id,
                prompt_mode=seen[0].prompt_mode,
                steps=steps,
            )
            if handover is not None and opened is not None:
                handover[PROMPTS_HANDOVER, seen[0].user.pk, seen[0].table_id] = opened


def table_prompts_panel(
    *, user: Any, table_id: int, handover: dict | None = None
) -> dict[str, Any]:
    """The board page's recognition prompts and the template that shows them (the board
    includes ``prompts_template``: games names no template of learning's); the open prompts
    the learning hook of this request read, when it left them in ``handover``."""
    opened = (handover or {}).get((PROMPTS_HANDOVER, getattr(user, "pk", None), table_id))
    return {
        "prompts": prompts_pending(user=user, table_id=table_id, opened=opened),
        "prompts_template": "learn/partials/table_prompts.html",
    }


def daily_result_panel(user: Any, table: Any) -> tuple[str, dict] | None:
    """Under the result of today's daily game: the way back to the session, to its summary
    or, when the game came first (``DailySession.play_first``), to its warm-up."""
    found = (
        DailySession.objects.filter(learner=user, table_id=table.pk)
        .values_list("play_first", "warmup_done_at")
        .first()
    )
    if found is None:
        return None
    play_first, warmup_done_at = found
    return "daily/result_panel.html", {"warmup_next": play_first and warmup_done_at is None}
