"""What the learning app hears from the games app below it (connected in ``LearningConfig``).

``games`` imports nothing of ``learning``: it sends ``games.signals`` and these receivers turn
them into service calls.
"""

from __future__ import annotations

from typing import Any

from django.utils import formats, timezone

from games.signals import SeatObservation
from learning.picker import AssignmentInfo
from learning.selectors_classroom import assignments_open_for
from learning.services.play import ask_observed, play_observed, prompts_pending
from learning.tasks_classroom import refresh_summaries_after_game


def seat_observation_record(*, observation: SeatObservation, **_signal: Any) -> None:
    """A learner's seat newly saw kana: ask about the one they named, record the exposures."""
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


def game_summaries_refresh(*, table_id: int, **_signal: Any) -> None:
    """Teacher dashboards: refresh the players' class summaries once the transaction commits.

    Classroom code, registered here until the classroom becomes its own app.
    """
    refresh_summaries_after_game.delay_on_commit(table_id)


def table_prompts_panel(*, user: Any, table_id: int) -> dict[str, Any]:
    """The board page's recognition prompts (``learn/partials/table_prompts.html``)."""
    return {"prompts": prompts_pending(user=user, table_id=table_id)}


def picker_assignments(*, learner: Any, now: Any) -> list[AssignmentInfo]:
    """The student's open assignments, earliest due first, for the picker to put first.

    Classroom code, registered here until the classroom becomes its own app.
    """
    return [
        AssignmentInfo(
            id=a.pk,
            engine=a.engine,
            options=dict(a.options or {}),
            script=a.script,
            due_label=formats.date_format(timezone.localtime(a.due_at), "DATE_FORMAT"),
            title=a.title,
        )
        for a in assignments_open_for(student=learner, now=now)
    ]
