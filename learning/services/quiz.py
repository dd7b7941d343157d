"""The warm-up quiz: a short run of recognition questions on the kana that need it most.

A run is ``QUIZ_LENGTH`` prompts (source ``quiz``) created together, so they share their
``shown_at``: that shared time identifies the run. Kana are chosen in this order: taught by a
lesson card but never asked yet (in the order they were taught: a lesson is recalled within
the session), due (most overdue first; under a backlog the warm-up cannot answer, for a
learner whose daily goal is in minutes, highest retrievability first; when one script's mean
retrievability over its basic kana is below ``SCRIPT_BALANCE`` times the other's, that script's
due kana first, each script's order kept), weak, then the lowest retrievability among kana
already answered. A kana never taught and
never answered is not asked: the lesson (``learning.services.lesson``) introduces it first.
A kana whose last answer was right is asked by recall, typed romaji (``srs.recall_ready``);
the others among four buttons, alternating glyph → reading and reading → glyph. Answers go
through the same ``prompt_answer`` as prompts in play: same events, same FSRS scheduler.
Typed recall alternates with writing once typed right (``learning.services.writing``).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from learning import kana_table, selectors, srs, syllabus
from learning.models import KanaMemory, Prompt
from learning.models.memory import PromptKind, PromptStatus
from learning.services.play import confusions_for, prompt_choices
from learning.services.syllabus import scripts_for
from learning.services.warmup import ANSWER_SECONDS, warmup_seconds_for
from learning.services.writing import writing_kinds

QUIZ_LENGTH = 10
QUIZ_TTL = timedelta(minutes=30)
# Under a backlog (due kana's answers more than this many warm-ups' seconds), the quiz asks the
# due kana still likely remembered first (``quiz_order``; issue 27, session 18). Tuned on the
# development seeds among 1, 1.5 and 2 (bench/srs_sim.py --tune; docs/bench.md, "Session 18").
BACKLOG_FACTOR = 1.5
# A script balance (issue 27, session 25): when one script's mean retrievability over its basic
# kana is below this times the other's, the due kana of the lagging script are asked first
# (``lagging_script``). Chosen among 0.8, 0.9, 0.95, 0.97 and 1 on the development seeds, checked
# on the held-out ones (docs/bench.md, "Session 25"); None: one order across both scripts.
SCRIPT_BALANCE: float | None = 0.95


def quiz_kana_for(*, learner, now: datetime, length: int = QUIZ_LENGTH) -> list[tuple[str, str]]:
    """The kana of the next run (see the module docstring for the order)."""
    cells = quiz_cells_for(learner=learner, now=now)
    return [(c.kana_id, c.script) for c in cells[:length]]


def quiz_cells_for(*, learner, now: datetime) -> list:
    """Every kana the quiz may ask, in the order of the module docstring (``KanaCell``s),
    knowing the learner's warm-up minutes (``warmup.warmup_seconds_for``: two queries) and
    their syllabus (``syllabus.scripts_for``): a learner taught one script keeps one order,
    as the reviews of the other script they may have are not theirs to balance."""
    cells = selectors.kana_cells_for(learner=learner, now=now)
    balance = SCRIPT_BALANCE if len(scripts_for(learner)) > 1 else None
    return quiz_order(cells, now=now, seconds=warmup_seconds_for(learner=learner), balance=balance)


def quiz_order(
    cells: Iterable,
    now: datetime | None = None,
    seconds: float | None = None,
    factor: float | None = BACKLOG_FACTOR,
    balance: float | None = SCRIPT_BALANCE,
) -> list:
    """Pure: the cells the quiz may ask, in its order (anything with ``kana_id``, ``script``,
    ``state``, ``due``, ``weak``, ``retrievability``, ``introduced_at``, ``last_correct`` and
    ``last_review``, like ``selectors.KanaCell``; bench/srs_sim.py passes its own). With
    ``now``, a kana answered right less than ``srs.RECENT_RIGHT`` ago is left out, even when
    fsrs' learning step makes it due: asked again within the session, at a recall near 1,
    it would teach next to nothing (issue 27).

    ``seconds``: the learner's warm-up a day (``warmup.warmup_seconds_for``; None when the
    daily goal is not in minutes). Under a backlog — the due kana's answers more than
    ``factor`` times those seconds (``backlogged``) — the due kana are asked highest
    retrievability first: those still likely remembered are saved before they are lost, as
    the most overdue may be lost already and will not all be reached today. Otherwise, or
    without ``seconds``, most overdue first (as Anki does).

    ``balance``: when one script's mean retrievability over its basic kana is below
    ``balance`` times the other's (``lagging_script``, over every cell given, recently right
    ones included), that script's due kana come before the other's, each script's own order
    kept. None: one order across both scripts."""
    cells = list(cells)
    lagging = lagging_script(script_recall(cells), balance) if balance is not None else None
    if now is not None:
        cells = [c for c in cells if not _recently_right(c, now)]
    due = sorted((c for c in cells if c.state == "due"), key=lambda c: c.due)
    if backlogged(len(due), seconds, factor):
        due.sort(key=lambda c: -c.retrievability)  # stable: equal recall, most overdue first
    if lagging is not None:
        due.sort(key=lambda c: c.script != lagging)  # stable: each script's order kept
    weak = sorted((c for c in cells if c.weak and c.state != "due"), key=lambda c: c.retrievability)
    taught = sorted(
        (c for c in cells if c.state == "new" and c.introduced_at is not None),
        key=lambda c: (c.introduced_at, kana_table.info(c.kana_id, c.script).order),
    )
    rest = sorted((c for c in cells if c.state != "new"), key=lambda c: c.retrievability)
    chosen: dict[tuple[str, str], object] = {}
    for cell in [*taught, *due, *weak, *rest]:
        chosen.setdefault((cell.kana_id, cell.script), cell)
    return list(chosen.values())


def backlogged(due: int, seconds: float | None, factor: float | None = BACKLOG_FACTOR) -> bool:
    """Pure: are ``due`` kana more than the warm-up's ``seconds`` can answer, ``factor`` times
    over (at ``warmup.ANSWER_SECONDS`` an answer)? False without seconds or factor."""
    if seconds is None or factor is None:
        return False
    return due * ANSWER_SECONDS > factor * seconds


def script_recall(cells: Iterable) -> dict[str, float]:
    """Pure: each script's mean retrievability (fsrs' own curve) over its basic kana
    (``syllabus.syllabus``), a kana never answered (state ``new``) or absent from ``cells``
    counting 0: the picker's signal (bench/srs_script_balance.py)."""
    return script_recall_of(((c.kana_id, c.script), c) for c in cells)


def script_recall_of(statuses: Iterable[tuple[tuple[str, str], Any]]) -> dict[str, float]:
    """``script_recall`` of ``((kana, script), status)`` pairs, each status with ``state`` and
    ``retrievability`` (an ``srs.KanaStatus``, a ``KanaCell``)."""
    basic = _basic_kana()
    total = dict.fromkeys(syllabus.SCRIPTS, 0.0)
    for pair, status in statuses:
        if status.state != "new" and pair in basic.get(pair[1], ()):
            total[pair[1]] += status.retrievability
    return {script: total[script] / len(basic[script]) for script in syllabus.SCRIPTS}


@functools.cache
def _basic_kana() -> dict[str, frozenset]:
    return {script: frozenset(syllabus.syllabus((script,))) for script in syllabus.SCRIPTS}


def lagging_script(recall: dict[str, float], ratio: float | None) -> str | None:
    """Pure: the script whose mean recall (``script_recall``) is below ``ratio`` times the
    other's, or None: no ratio, nothing remembered yet, or the scripts within the ratio."""
    if ratio is None or len(recall) < 2:
        return None
    low, high = min(recall, key=recall.__getitem__), max(recall, key=recall.__getitem__)
    if low == high or recall[high] <= 0 or recall[low] >= ratio * recall[high]:
        return None
    return low


def _recently_right(cell, now: datetime) -> bool:
    return srs.recently_right(
        last_correct=getattr(cell, "last_correct", None),
        last_review=getattr(cell, "last_review", None),
        now=now,
    )


def quiz_pending(cells: Iterable, now: datetime) -> int:
    """Pure: how many answered kana the quiz still has to ask now before anything new is
    taught — due ones and those whose last answer was wrong, not answered right recently
    (``quiz_order``'s rule). The lesson waits while any are pending (``lesson.lesson_plan``:
    no new kana while due kana fill the warm-up)."""
    return sum(
        1
        for c in cells
        if c.state != "new"
        and (c.state == "due" or getattr(c, "last_correct", None) is False)
        and not _recently_right(c, now)
    )


def quiz_start(*, learner, now: datetime | None = None) -> list[Prompt]:
    """Start a new run (any open quiz question of an earlier run is expired)."""
    now = now or timezone.now()
    pairs = readings_apart(quiz_kana_for(learner=learner, now=now))
    last = {
        (k, s): right
        for k, s, right in KanaMemory.objects.filter(learner=learner).values_list(
            "kana_id", "script", "last_correct"
        )
    }
    kinds = quiz_kinds([last.get(pair) for pair in pairs])
    kinds = writing_kinds(learner=learner, pairs=pairs, kinds=kinds)  # some recall written
    learned = confusions_for(learner=learner, pairs=pairs) if pairs else {}
    rng = random.Random(f"quiz:{learner.pk}:{now.isoformat()}")
    with transaction.atomic():
        Prompt.objects.filter(learner=learner, source="quiz", status=PromptStatus.OPEN).update(
            status=PromptStatus.EXPIRED
        )
        prompts = [
            Prompt(
                learner=learner,
                source="quiz",
                kind=kind,
                kana_id=kana_id,
                script=script,
                choices=prompt_choices(
                    kana_id=kana_id,
                    script=script,
                    learned=learned.get((kana_id, script), []),
                    rng=rng,
                ),
                shown_at=now,
                expires_at=now + QUIZ_TTL,
            )
            for (kana_id, script), kind in zip(pairs, kinds, strict=True)
        ]
        return Prompt.objects.bulk_create(prompts)


def quiz_kinds(last_correct: list[bool | None]) -> list[str]:
    """The kind of each question of a run: typed recall for a kana last answered right
    (``srs.recall_ready``), else four buttons, alternating reading and glyph."""
    kinds, picks = [], 0
    for last in last_correct:
        if srs.recall_ready(last_correct=last):
            kinds.append(PromptKind.TYPED)
        else:
            kinds.append(PromptKind.READING if picks % 2 == 0 else PromptKind.GLYPH)
            picks += 1
    return kinds


def readings_apart(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The same kana, reordered so that two questions in a row never share a reading: the
    feedback of one (し is shi, its strokes, its sound) would otherwise show the answer of the
    next (シ). A kana that cannot be kept apart from one of the same reading (a run of し and
    シ alone) is left for a later run: never two in a row, whatever the run holds."""

    def reading(pair: tuple[str, str]) -> str:
        return kana_table.info(*pair).romaji

    rest, ordered = list(pairs), []
    while rest:
        last = reading(ordered[-1]) if ordered else None
        # the next kana of another reading, the most frequent reading left first (so that
        # readings shared by several kana are spread before they are all that is left)
        left = [p for p in rest if reading(p) != last]
        if not left:
            break
        counts = {r: sum(1 for p in rest if reading(p) == r) for r in map(reading, left)}
        pick = max(left, key=lambda p: (counts[reading(p)], -rest.index(p)))
        rest.remove(pick)
        ordered.append(pick)
    return ordered


def quiz_current(*, learner, now: datetime | None = None) -> Prompt | None:
    """The next open question of the learner's run, or None."""
    now = now or timezone.now()
    return (
        Prompt.objects.filter(
            learner=learner, source="quiz", status=PromptStatus.OPEN, expires_at__gt=now
        )
        .order_by("shown_at", "id")
        .first()
    )


@dataclass(frozen=True)
class QuizProgress:
    answered: int
    correct: int
    total: int


def quiz_progress(*, learner, run_started: datetime) -> QuizProgress:
    """How far the run that started at ``run_started`` has gone."""
    rows = list(
        Prompt.objects.filter(learner=learner, source="quiz", shown_at=run_started).values_list(
            "status", "correct"
        )
    )
    answered = [c for status, c in rows if status == PromptStatus.ANSWERED]
    return QuizProgress(
        answered=len(answered), correct=sum(1 for c in answered if c), total=len(rows)
    )


def quiz_answered(*, learner, prompt_id: int) -> Prompt | None:
    """One of the learner's answered quiz questions (for the feedback after a redirect)."""
    return Prompt.objects.filter(
        pk=prompt_id, learner=learner, source="quiz", status=PromptStatus.ANSWERED
    ).first()


_apart = readings_apart  # the earlier name (tests/learning/test_no_answer_on_screen.py)
