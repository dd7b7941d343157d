"""Demo learning history (seed_demo) and the synthetic histories the tests use.

``history_build`` replays a simple simulated learner through the real scheduler
(learning/srs.py) day by day: each day it answers the due kana (recall drawn from the
card's retrievability, with look-alike confusions), plus a few new ones, and sees kana in
play (exposures). Rows are written with bulk inserts, so a year of history takes seconds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from kanagame.accounts import rows
from learning import kana_table, srs
from learning.models import KanaMemory, LearningEvent
from learning.services.memory import memory_apply_card

DEMO_LEARNER = "learner"
DEMO_STUDENTS = tuple(f"student{i}" for i in range(1, 6))


def history_build(
    *,
    learner,
    days: int,
    now: datetime | None = None,
    answers_per_day: int = 25,
    exposures_per_day: int = 40,
    scripts: Sequence[str] = ("hiragana", "katakana"),
    seed: int = 1,
) -> int:
    """Write ``days`` days of history ending yesterday; returns the number of events."""
    now = now or timezone.now()
    rng = random.Random(seed)
    scheduler = srs.scheduler_build(fuzzing=False)
    pool = [(k, s) for s in scripts for k in kana_table.kana_ids(s, basic_only=True)]
    memories = {pair: KanaMemory(learner=learner, kana_id=pair[0], script=pair[1]) for pair in pool}
    cards: dict[tuple[str, str], object] = {}
    last_right: dict[tuple[str, str], bool] = {}
    events: list[LearningEvent] = []
    next_new = 0
    start = (now - timedelta(days=days)).replace(hour=18, minute=0, second=0, microsecond=0)
    for day in range(days):
        moment = start + timedelta(days=day)
        visible = pool[: max(10, next_new + 5)]
        seen = [rng.choice(visible) for _ in range(exposures_per_day)]
        for kana_id, script in seen:
            memories[(kana_id, script)].exposures += 1
            events.append(_event(learner, kana_id, script, "exposure", moment, source="play"))
        due = [p for p, c in cards.items() if c.due <= moment]
        rng.shuffle(due)
        todo = due[:answers_per_day]
        while len(todo) < answers_per_day and next_new < len(pool):
            todo.append(pool[next_new])
            next_new += 1
        for index, pair in enumerate(todo):
            at = moment + timedelta(seconds=20 * index)
            card = cards.get(pair) or srs.card_new(card_id=index + 1, now=at)
            # the answer kind the product would ask (play.py): typed once the last answer
            # was right, else four readings to choose from; graded and predicted as that kind
            typed = srs.recall_ready(last_correct=last_right.get(pair))
            kind, choices = ("typed", 0) if typed else ("reading", 4)
            predicted = srs.predict(
                scheduler=scheduler, card=card, now=at, choices=choices, kind=kind
            )
            recall = srs.retrievability(scheduler=scheduler, card=card, now=at)
            recall = 0.55 + 0.4 * recall if card.last_review else 0.3
            correct = rng.random() < (recall if typed else recall + (1 - recall) / choices)
            confused = ""
            if not correct:
                confused = kana_table.distractors(
                    kana_id=pair[0], script=pair[1], count=1, rng=rng
                )[0]
            ms = rng.randint(1200, 9000)
            cards[pair] = srs.review(
                scheduler=scheduler,
                card=card,
                correct=correct,
                response_ms=ms,
                at=at,
                recognition=not typed,
            ).card
            last_right[pair] = correct
            _tally(memories[pair], correct=correct, lapse=card.last_review is not None)
            events.append(
                _event(
                    learner,
                    *pair,
                    "answer",
                    at,
                    source="quiz" if index % 2 else "prompt",
                    correct=correct,
                    confused_with=confused,
                    response_ms=ms,
                    answer_kind=kind,
                    predicted=predicted,
                )
            )
    _history_save(learner, memories, cards, events)
    return len(events)


def _tally(memory: KanaMemory, *, correct: bool, lapse: bool) -> None:
    """One more answer on the simulated memory (a wrong one on a reviewed card is a lapse)."""
    memory.last_correct = correct
    memory.reps += 1
    memory.errors += int(not correct)
    memory.lapses += int(not correct and lapse)


def _history_save(learner, memories: dict, cards: dict, events: list) -> None:
    """Add the simulated memories to the learner's rows (some may exist already) and write
    the events, in one transaction."""
    with transaction.atomic():
        touched = [pair for pair, m in memories.items() if m.exposures or pair in cards]
        # rows may exist already (e.g. exposures from a demo game): add to them
        KanaMemory.objects.bulk_create(
            [KanaMemory(learner=learner, kana_id=k, script=s) for k, s in touched],
            batch_size=500,
            ignore_conflicts=True,
        )
        saved = {(m.kana_id, m.script): m for m in KanaMemory.objects.filter(learner=learner)}
        for pair in touched:
            memory, source = saved[pair], memories[pair]
            memory.exposures += source.exposures
            if pair in cards:
                card = cards[pair]
                card.card_id = memory.pk
                memory_apply_card(memory=memory, card=card)
                memory.reps, memory.errors, memory.lapses = (
                    source.reps,
                    source.errors,
                    source.lapses,
                )
        KanaMemory.objects.bulk_update(
            [saved[p] for p in touched],
            [
                "card",
                "due",
                "stability",
                "difficulty",
                "last_review",
                "reps",
                "errors",
                "lapses",
                "exposures",
            ],
            batch_size=500,
        )
        rows.insert_many(events)  # a year of events: one statement, not one per 55 rows


def _event(
    learner,
    kana_id,
    script,
    kind,
    at,
    *,
    source,
    correct=None,
    confused_with="",
    response_ms=None,
    answer_kind="",
    predicted=None,
) -> LearningEvent:
    return LearningEvent(
        learner=learner,
        kana_id=kana_id,
        script=script,
        kind=kind,
        correct=correct,
        confused_with=confused_with,
        response_ms=response_ms,
        answer_kind=answer_kind,
        predicted=predicted,
        source=source,
        created_at=at,
    )


def seed_demo_learning(stdout) -> None:
    """Idempotent: give the self-learner ``learner`` 60 days of history and each demo student
    a week, unless they have answered anything already (exposures from a demo game do not
    count: the history is added to them)."""
    users = get_user_model().objects.filter(username__in=(DEMO_LEARNER, *DEMO_STUDENTS))
    now = datetime.now(UTC)
    for user in users.order_by("username"):
        if LearningEvent.objects.filter(learner=user, kind="answer").exists():
            continue
        if user.username == DEMO_LEARNER:
            count = history_build(learner=user, days=60, now=now, seed=7)
        else:
            count = history_build(
                learner=user,
                days=7,
                now=now,
                answers_per_day=12,
                exposures_per_day=20,
                scripts=("hiragana",),
                seed=sum(map(ord, user.username)),
            )
        stdout.write(f"Learning history for {user.username}: {count} events.\n")
