"""Writing kana memory: grading answers with FSRS (learning/srs.py) and recording events."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from fsrs import ReviewLog, Scheduler

from learning import srs
from learning.models import KanaMemory, LearnerSettings, LearningEvent
from learning.selectors import scheduler_for
from learning.srs import MIN_REVIEWS_TO_FIT


def memory_review(
    *,
    learner,
    kana_id: str,
    script: str,
    correct: bool,
    response_ms: int | None,
    source: str,
    confused_with: str = "",
    table_id: int | None = None,
    move_id: int | None = None,
    at: datetime | None = None,
    scheduler: Scheduler | None = None,
    answer_kind: str = "",
    choices: int = 0,
) -> KanaMemory:
    """Record one answer: an ``answer`` event, and the kana's FSRS card reviewed.

    ``answer_kind`` is the prompt kind: answers picked among choices (``reading``,
    ``glyph``) are recognition, at best Hard unless fast on a stable kana (srs.rating_for);
    ``typed``, ``write`` or "" are not; a written answer is graded without its time
    (``srs.UNTIMED_KINDS``). ``choices``: how many buttons were offered (0: typed). Before
    grading, the model's P(correct) (``srs.predict``) is stored on the event.
    """
    at = at or timezone.now()
    scheduler = scheduler or scheduler_for(learner=learner)
    with transaction.atomic():
        memory, _ = KanaMemory.objects.select_for_update().get_or_create(
            learner=learner, kana_id=kana_id, script=script
        )
        card = srs.card_from_json(memory.card) if memory.card else None
        if card is None:
            card = srs.card_new(card_id=memory.pk, now=at)
        recognition = srs.is_recognition(answer_kind)
        predicted = srs.predict(
            scheduler=scheduler,
            card=card,
            now=at,
            choices=choices if recognition else 0,
            kind=answer_kind,
            taught=memory.introduced_at is not None,
            source=source,
            seen=memory.exposures > 0,
        )
        result = srs.review(
            scheduler=scheduler,
            card=card,
            correct=correct,
            response_ms=None if answer_kind in srs.UNTIMED_KINDS else response_ms,
            at=at,
            recognition=recognition,
        )
        memory_apply_card(memory=memory, card=result.card)
        memory.reps += 1
        memory.last_correct = correct
        if not correct:
            memory.errors += 1
            if card.last_review is not None:
                memory.lapses += 1
        memory.save()
        LearningEvent.objects.create(
            learner=learner,
            kana_id=kana_id,
            script=script,
            kind="answer",
            correct=correct,
            confused_with=confused_with if not correct else "",
            response_ms=response_ms,
            answer_kind=answer_kind,
            predicted=predicted,
            source=source,
            table_id=table_id,
            move_id=move_id,
            created_at=at,
        )
    return memory


def memory_apply_card(*, memory: KanaMemory, card) -> None:
    """Copy an fsrs card into the row's JSON and its denormalised columns (not saved)."""
    memory.card = srs.card_to_json(card)
    memory.due = card.due
    memory.stability = card.stability
    memory.difficulty = card.difficulty
    memory.last_review = card.last_review


# --- per-learner parameter optimisation ---------------------------------------------------


def optimizer_class():
    """``fsrs.Optimizer`` when the optional extra ``fsrs[optimizer]`` (torch) is installed,
    else None. A seam: tests replace it to exercise both branches."""
    try:
        import torch  # noqa: F401  (the extra's heavy dependency)
        from fsrs import Optimizer
    except ImportError:
        return None
    return Optimizer


def review_logs_for(*, learner) -> list:
    """The learner's answers as fsrs ReviewLogs (card id = the KanaMemory row's pk).

    Ratings are those ``memory_review`` gave: recognition answers depend on the card's
    stability before the answer, so each card is replayed with the default scheduler."""
    scheduler = srs.scheduler_build(fuzzing=False)
    replay: dict[int, object] = {}

    ids = {
        (kana_id, script): pk
        for pk, kana_id, script in KanaMemory.objects.filter(learner=learner).values_list(
            "pk", "kana_id", "script"
        )
    }
    logs = []
    answers = (
        LearningEvent.objects.filter(learner=learner, kind="answer")
        .order_by("created_at", "id")
        .values_list("kana_id", "script", "correct", "response_ms", "answer_kind", "created_at")
    )
    for kana_id, script, correct, response_ms, kind, at in answers.iterator():
        card_id = ids.get((kana_id, script))
        if card_id is None:
            continue
        card = replay.get(card_id) or srs.card_new(card_id=card_id, now=at)
        result = srs.review(
            scheduler=scheduler,
            card=card,
            correct=bool(correct),
            response_ms=response_ms,
            at=at,
            recognition=srs.is_recognition(kind),
        )
        replay[card_id] = result.card
        logs.append(ReviewLog(card_id, result.rating, at, response_ms))
    return logs


def parameters_fit(*, learner, now: datetime | None = None) -> LearnerSettings:
    """Fit the learner's FSRS parameters when possible; else keep the defaults and say why.

    ``parameters_note`` records the outcome for the learner's page: ``fitted``,
    ``too_few`` (fewer than MIN_REVIEWS_TO_FIT answers), ``no_optimizer`` (the optional
    extra is not installed) or ``failed`` (the optimiser raised; defaults kept).
    """
    now = now or timezone.now()
    row, _ = LearnerSettings.objects.get_or_create(learner=learner)
    reviews = LearningEvent.objects.filter(learner=learner, kind="answer").count()
    optimizer = optimizer_class()
    if reviews < MIN_REVIEWS_TO_FIT:
        row.parameters_note = "too_few"
    elif optimizer is None:
        row.parameters_note = "no_optimizer"
    else:
        try:
            parameters = optimizer(review_logs_for(learner=learner)).compute_optimal_parameters()
        except Exception:  # noqa: BLE001 - a failed fit must never break the learner's memory
            row.parameters_note = "failed"
        else:
            row.fsrs_parameters = [float(p) for p in parameters]
            row.parameters_fitted_at = now
            row.parameters_note = "fitted"
    with transaction.atomic():
        row.save(update_fields=["fsrs_parameters", "parameters_fitted_at", "parameters_note"])
        if row.parameters_note == "fitted":
            cards_reschedule(learner=learner)
    return row


def cards_reschedule(*, learner) -> int:
    """Replay every card of the learner through the (newly fitted) scheduler with
    ``Scheduler.reschedule_card``, so due times and stabilities follow the new parameters
    (fsrs 6: fitted parameters otherwise only apply to the next review). Returns the count."""
    scheduler = scheduler_for(learner=learner)
    by_card: dict[int, list] = {}
    for log in review_logs_for(learner=learner):
        by_card.setdefault(log.card_id, []).append(log)
    rows = list(KanaMemory.objects.select_for_update().filter(learner=learner, pk__in=by_card))
    for memory in rows:
        first = min(log.review_datetime for log in by_card[memory.pk])
        card = srs.card_new(card_id=memory.pk, now=first)
        memory_apply_card(memory=memory, card=scheduler.reschedule_card(card, by_card[memory.pk]))
    KanaMemory.objects.bulk_update(
        rows, ["card", "due", "stability", "difficulty", "last_review"], batch_size=500
    )
    return len(rows)
