"""What the learning app hears from the games app below it (connected in ``LearningConfig``).

``games`` imports nothing of ``learning``: it sends ``games.signals`` and these receivers turn
them into service calls.
"""

from __future__ import annotations

from typing import Any

from games.signals import SeatObservation
from learning.services.cards import cards_observed
from learning.services.play import ask_observed, play_observed, prompts_pending


def seat_observation_record(*, observation: SeatObservation, **_signal: Any) -> None:
    """A learner's seat newly saw cards: count the sightings of those the game can ask about
    (and ask about one they know, first: they chose these questions), ask about the kana they
    named, record the exposures."""
    if observation.cards:
        cards_observed(
            user=observation.user,
            table_id=observation.table_id,
            move_id=observation.move_id,
            engine=observation.engine,
            questions=observation.cards,
            ask=observation.card_prompts,
        )
    if observation.asked:
        ask_observed(
            user=observation.user,
            table_id=observation.table_id,
            move_id=observation.move_id,
            asked=list(observation.asked),
            prompt_mode=observation.prompt_mode,
        )
    if observation.shown or observation.entered_hand:
        play_observed(
            user=observation.user,
            table_id=observation.table_id,
            move_id=observation.move_id,
            shown=list(observation.shown),
            entered_hand=list(observation.entered_hand),
            prompt_mode=observation.prompt_mode,
        )


def table_prompts_panel(*, user: Any, table_id: int) -> dict[str, Any]:
    """The board page's recognition prompts (``learn/partials/table_prompts.html``)."""
    return {"prompts": prompts_pending(user=user, table_id=table_id)}
