"""Classroom reads: open assignments, rosters, completion (HackSoft-style selectors).

Services that write live in learning/classroom/services/classroom.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Case, CharField, Count, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Table, TableStatus
from games.selectors import tables_watchable_query
from kanagame.classes.selectors import roster_for
from learning import kana_table
from learning.classroom.labels import assignment_game, assignment_name
from learning.classroom.models import (
    Assignment,
    AssignmentTable,
    Classroom,
    ConfusionSummary,
    GoalKind,
    LearnerActivity,
)
from learning.classroom.services.summaries import play_seconds, seats_played
from learning.dashboard import dashboard_for
from learning.models import Kana
from learning.models.memory import KanaMemory, LearningEvent
from learning.selectors import exposures_in_play, exposures_settled
from learning.srs import MASTERED_STABILITY_DAYS, state_of


def assignments_open_for(
    *, student: AbstractBaseUser, now: datetime | None = None, include_completed: bool = False
) -> list[Assignment]:
    """The assignments of the student's classes not yet due and not yet done, earliest due first.

    Contract used by the variant picker (learning.picker.recommend): an assignment the student
    has completed drops out, so the picker moves on. The home page passes
    ``include_completed=True`` to show them ticked until their due date.
    """
    now = now or timezone.now()
    assignments = list(
        Assignment.objects.filter(classroom__memberships__student=student, due_at__gt=now)
        .select_related("classroom")
        .order_by("due_at", "id")
    )
    if include_completed:
        return assignments
    return [
        a
        for a in assignments
        if assignment_progress(assignment=a, student_ids=[student.pk], now=now)[student.pk]
        < a.goal_value
    ]


# --- assignment completion ----------------------------------------------------------------


def _table_counts_for(assignment: Assignment, seat: dict) -> bool:
    """Whether a game counts towards an assignment.

    Games at tables created for the assignment always count. Other games count when they
    were played after the assignment was set and before it was due, with its game and
    variant (any game when "recommended by the picker") in its script (or mixed).
    """
    if seat["assignment_id"] == assignment.id:
        return True
    if seat["started_at"] < assignment.created_at or seat["started_at"] >= assignment.due_at:
        return False
    if not assignment.is_recommended:
        if seat["engine"] != assignment.engine:
            return False
        variant = (assignment.options or {}).get("variant")
        if variant and seat["options"].get("variant") != variant:
            return False
    script = seat["options"].get("script")
    return assignment.script == "mixed" or script in (None, "", "mixed", assignment.script)


def assignment_progress(
    *,
    assignment: Assignment,
    student_ids: Iterable[int],
    now: datetime | None = None,
    seats: list[dict] | None = None,
) -> dict[int, int]:
    """Progress of each student towards the goal (games, minutes or reviews): one query.

    ``seats`` (from ``seats_played`` since the assignment was set, or earlier) saves the
    query when several assignments of one class are computed together.
    """
    now = now or timezone.now()
    ids = list(student_ids)
    progress = dict.fromkeys(ids, 0)
    end = min(now, assignment.due_at)
    if assignment.goal_kind == GoalKind.REVIEWS:
        answers = LearningEvent.objects.settled().filter(
            learner_id__in=ids,
            kind="answer",
            created_at__gte=assignment.created_at,
            created_at__lt=end,
        )
        if assignment.script != "mixed":
            answers = answers.filter(script=assignment.script)
        rows = answers.values("learner_id").annotate(n=Count("id")).order_by()
        progress.update({row["learner_id"]: row["n"] for row in rows})
        return progress
    seconds: dict[int, int] = dict.fromkeys(ids, 0)
    if seats is None:
        seats = seats_played(learner_ids=ids, since=assignment.created_at, now=end)
    for seat in seats:
        if seat["user_id"] not in progress:
            continue
        if not _table_counts_for(assignment, seat):
            continue
        if assignment.goal_kind == GoalKind.GAMES:
            finished_at = seat["finished_at"]
            if seat["finished"] and finished_at and finished_at <= assignment.due_at:
                progress[seat["user_id"]] += 1
        else:  # the time played inside the assignment's window
            start = max(seat["started_at"], assignment.created_at)
            stop = min(seat["end_at"], end) if seat["end_at"] else None
            seconds[seat["user_id"]] += play_seconds(start=start, end=stop)
    if assignment.goal_kind == GoalKind.MINUTES:
        progress = {uid: total // 60 for uid, total in seconds.items()}
    return progress


@dataclass(frozen=True)
class Progress:
    assignment: Assignment
    value: int

    @property
    def goal(self) -> int:
        return self.assignment.goal_value

    @property
    def percent(self) -> int:
        return min(100, round(100 * self.value / self.goal)) if self.goal else 100

    @property
    def complete(self) -> bool:
        return self.value >= self.goal


def table_counted_for(
    *, student: AbstractBaseUser, table: Table, now: datetime | None = None
) -> tuple[list[Progress], list[Progress]]:
    """A finished game of ``student``: (the assignments it counted for, the open assignments
    counted in games or minutes that it did not count for), each with the student's progress.
    Review goals count answers wherever they are given: neither list holds them."""
    now = now or timezone.now()
    link = AssignmentTable.objects.filter(table_id=table.pk).values_list("assignment_id")
    seat = {"assignment_id": next(iter(link), (None,))[0], "started_at": table.started_at,
            "engine": table.engine, "options": table.options or {}}  # fmt: skip
    counted, missed = [], []
    for item in assignments_with_progress_for(student=student, now=now):
        if item.assignment.goal_kind == GoalKind.REVIEWS or table.started_at is None:
            continue
        if _table_counts_for(item.assignment, seat):
            counted.append(item)
        elif not item.complete:
            missed.append(item)
    return counted, missed


def assignments_with_progress_for(
    *, student: AbstractBaseUser, now: datetime | None = None
) -> list[Progress]:
    """The student's open assignments with their own progress (student home page)."""
    now = now or timezone.now()
    return [
        Progress(
            a, assignment_progress(assignment=a, student_ids=[student.pk], now=now)[student.pk]
        )
        for a in assignments_open_for(student=student, now=now, include_completed=True)
    ]


# --- teacher dashboard --------------------------------------------------------------------

STATE_SYMBOLS = {"new": "·", "learning": "◐", "due": "!", "mastered": "●"}
NEEDS_HELP_MIN_ANSWERS = 10
NEEDS_HELP_ERROR_RATE = 0.35
NEEDS_HELP_MARGIN = 0.15
INACTIVE_DAYS = 7
DUE_BACKLOG = 15
RECENT_ASSIGNMENTS = 5


@dataclass
class StudentRow:
    student: AbstractBaseUser
    name: str
    cells: list[str]
    activity: LearnerActivity | None
    due_count: int = 0
    mastered_count: int = 0
    reasons: list[str] = field(default_factory=list)


@dataclass
class Dashboard:
    classroom: Classroom
    script: str
    kana: list[Kana]
    rows: list[StudentRow]
    weakest: list[dict]
    confusions: list[dict]
    confusion_matrix: dict
    needs_help: list[StudentRow]
    assignments: list[dict]
    computed_at: datetime | None


def kana_for_script(*, script: str) -> list[Kana]:
    return list(Kana.objects.filter(script=script).order_by("order"))


def mastery_state_expression(now: datetime) -> Case:
    """learning.srs.state_of as SQL, so thousands of rows need no datetime parsing in Python."""
    return Case(
        When(Q(reps=0) | Q(due__isnull=True), then=Value("new")),
        When(due__lte=now, then=Value("due")),
        When(stability__gte=MASTERED_STABILITY_DAYS, then=Value("mastered")),
        default=Value("learning"),
        output_field=CharField(),
    )


def _memory_rows(student_ids: list[int], script: str, now: datetime):
    return (
        KanaMemory.objects.filter(learner_id__in=student_ids, script=script)
        .annotate(state=mastery_state_expression(now))
        .values_list("learner_id", "kana_id", "reps", "state", "errors")
    )


def _weakest(per_kana: dict[str, list[int]], glyphs: dict[str, Kana], limit: int = 8) -> list:
    weakest = []
    for kana_id, (reviews, errors, struggling) in per_kana.items():
        if reviews >= 5 and errors:
            weakest.append(
                {
                    "kana": glyphs[kana_id],
                    "reviews": reviews,
                    "errors": errors,
                    "error_rate": round(100 * errors / reviews),
                    "struggling": struggling,
                }
            )
    weakest.sort(key=lambda w: (-w["errors"] / w["reviews"], -w["reviews"]))
    return weakest[:limit]


def _confusions(student_ids: list[int], script: str, glyphs: dict[str, Kana], limit: int = 12):
    pairs: dict[tuple[str, str], dict] = {}
    rows = ConfusionSummary.objects.filter(learner_id__in=student_ids, script=script).values_list(
        "learner_id", "kana_id", "confused_with", "count"
    )
    for learner_id, kana_id, confused_with, count in rows:
        if kana_id not in glyphs or confused_with not in glyphs:
            continue
        entry = pairs.setdefault((kana_id, confused_with), {"students": set(), "times": 0})
        entry["students"].add(learner_id)
        entry["times"] += count
    ranked = sorted(pairs.items(), key=lambda item: (-len(item[1]["students"]), -item[1]["times"]))
    top = [
        {
            "shown": glyphs[shown],
            "read_as": glyphs[read_as],
            "students": len(entry["students"]),
            "times": entry["times"],
        }
        for (shown, read_as), entry in ranked[:limit]
    ]
    # A small matrix over the kana involved in the top pairs: rows shown, columns read as.
    involved = []
    for item in top[:8]:
        for kana in (item["shown"], item["read_as"]):
            if kana not in involved:
                involved.append(kana)
    involved.sort(key=lambda k: k.order)
    matrix = {
        "kana": involved,
        "rows": [
            (
                shown,
                [
                    len(pairs.get((shown.kana_id, read_as.kana_id), {}).get("students", ()))
                    for read_as in involved
                ],
            )
            for shown in involved
        ],
    }
    return top, matrix


def _needs_help_reasons(row: StudentRow, class_rate: float | None, now: datetime) -> list[str]:
    reasons = []
    activity = row.activity
    rate = activity.error_rate_week if activity else None
    if rate is not None and activity.answers_week >= NEEDS_HELP_MIN_ANSWERS:
        threshold = NEEDS_HELP_ERROR_RATE
        if class_rate is not None:
            threshold = max(threshold, class_rate + NEEDS_HELP_MARGIN)
        if rate >= threshold:
            reasons.append(
                _("Wrong on %(rate)d%% of %(n)d answers this week (class: %(class)d%%).")
                % {"rate": round(100 * rate), "n": activity.answers_week,
                   "class": round(100 * (class_rate or 0))}
            )  # fmt: skip
    # no summary row yet (the page says the activity is not computed): nothing claimed
    last = activity.last_active_at if activity else None
    if activity is not None and last is None:
        reasons.append(_("Has not played or answered yet."))
    elif last is not None and now - last >= timedelta(days=INACTIVE_DAYS):
        reasons.append(_("No activity for %(days)d days.") % {"days": (now - last).days})
    if row.due_count >= DUE_BACKLOG:
        reasons.append(_("%(n)d kana waiting for review.") % {"n": row.due_count})
    return reasons


def _distinct_name(student: AbstractBaseUser, counts: Counter) -> str:
    """The display name, with the username when two students of the class share it."""
    name = student.profile.name
    return f"{name} ({student.username})" if counts[name] > 1 else name


def class_dashboard(
    *, classroom: Classroom, script: str | None = None, now: datetime | None = None
) -> Dashboard:
    """Everything /teach/<class>/ shows, in a fixed number of queries (about ten).

    Mastery states come from KanaMemory (one row per learner and kana, kept by LEARNING);
    confusions and weekly activity from the summary tables refreshed by Celery.
    """
    now = now or timezone.now()
    script = script or classroom.default_script
    memberships = list(roster_for(classroom=classroom))
    students = [m.student for m in memberships]
    ids = [s.pk for s in students]
    kana = kana_for_script(script=script)
    glyphs = {k.kana_id: k for k in kana}
    position = {k.kana_id: i for i, k in enumerate(kana)}
    activities = {a.learner_id: a for a in LearnerActivity.objects.filter(learner_id__in=ids)}
    names = Counter(s.profile.name for s in students)
    rows = {
        s.pk: StudentRow(
            student=s,
            name=_distinct_name(s, names),
            cells=["new"] * len(kana),
            activity=activities.get(s.pk),
        )
        for s in students
    }
    per_kana: dict[str, list[int]] = {k: [0, 0, 0] for k in glyphs}
    for learner_id, kana_id, reps, state, errors in _memory_rows(ids, script, now):
        if kana_id not in position:
            continue
        row = rows[learner_id]
        row.cells[position[kana_id]] = state
        row.due_count += state == "due"
        row.mastered_count += state == "mastered"
        per_kana[kana_id][0] += reps
        per_kana[kana_id][1] += errors
        per_kana[kana_id][2] += state in ("due", "learning") and errors > 0
    weekly = [a for a in activities.values() if a.answers_week >= NEEDS_HELP_MIN_ANSWERS]
    class_rate = (
        sum(a.answers_week - a.correct_week for a in weekly) / sum(a.answers_week for a in weekly)
        if weekly
        else None
    )
    for row in rows.values():
        row.reasons = _needs_help_reasons(row, class_rate, now)
    confusions, matrix = _confusions(ids, script, glyphs)
    ordered = [rows[s.pk] for s in students]
    return Dashboard(
        classroom=classroom,
        script=script,
        kana=kana,
        rows=ordered,
        weakest=_weakest(per_kana, glyphs),
        confusions=confusions,
        confusion_matrix=matrix,
        needs_help=[row for row in ordered if row.reasons],
        assignments=class_assignments_progress(classroom=classroom, student_ids=ids, now=now),
        computed_at=min((a.computed_at for a in activities.values()), default=None),
    )


def class_assignments_progress(
    *, classroom: Classroom, student_ids: list[int], now: datetime, limit: int = RECENT_ASSIGNMENTS
) -> list[dict]:
    """The class's latest assignments with each student's progress (one query each)."""
    assignments = list(
        Assignment.objects.filter(classroom=classroom).order_by("-due_at", "-id")[:limit]
    )
    played = [a for a in assignments if a.goal_kind != GoalKind.REVIEWS]
    seats = (
        seats_played(learner_ids=student_ids, since=min(a.created_at for a in played), now=now)
        if played
        else []
    )
    result = []
    for assignment in assignments:
        values = assignment_progress(
            assignment=assignment, student_ids=student_ids, now=now, seats=seats
        )
        done = sum(1 for v in values.values() if v >= assignment.goal_value)
        result.append(
            {
                "assignment": assignment,
                "values": values,
                "done": done,
                "total": len(student_ids),
                "is_open": assignment.due_at > now,
            }
        )
    return result


# --- per-student drill-down ---------------------------------------------------------------


@dataclass
class StudentDetail:
    student: AbstractBaseUser
    learner_dashboard: object  # learning.selectors.Dashboard: what the student sees on /learn/
    activity: LearnerActivity | None
    confusions: list[dict]
    games: list
    assignments: list[Progress]


def student_confusions(*, student: AbstractBaseUser, limit: int = 15) -> list[dict]:
    glyphs = {(k.kana_id, k.script): k for k in Kana.objects.all()}
    rows = ConfusionSummary.objects.filter(learner=student).order_by("-count", "kana_id")[:limit]
    return [
        {
            "shown": glyphs[(r.kana_id, r.script)],
            "read_as": glyphs[(r.confused_with, r.script)],
            "times": r.count,
        }
        for r in rows
        if (r.kana_id, r.script) in glyphs and (r.confused_with, r.script) in glyphs
    ]


def student_games(*, student: AbstractBaseUser, teacher: AbstractBaseUser, limit: int = 15) -> list:
    """The student's latest tables (any status) that ``teacher`` may watch, newest first: the
    tables of her classes, and those without a class where only her students play; never a
    table of another class (docs/security.md §14)."""
    tables = tables_watchable_query(user=teacher).filter(seats__user=student)
    return list(tables.order_by("-created_at", "-id")[:limit])


def student_detail(
    *, classroom: Classroom, student: AbstractBaseUser, now: datetime | None = None
) -> StudentDetail:
    now = now or timezone.now()
    assignments = list(Assignment.objects.filter(classroom=classroom).order_by("-due_at")[:10])
    return StudentDetail(
        student=student,
        learner_dashboard=dashboard_for(learner=student, now=now),
        activity=LearnerActivity.objects.filter(learner=student).first(),
        confusions=student_confusions(student=student),
        games=student_games(student=student, teacher=classroom.teacher),
        assignments=[
            Progress(
                a, assignment_progress(assignment=a, student_ids=[student.pk], now=now)[student.pk]
            )
            for a in assignments
        ],
    )


# --- live tables --------------------------------------------------------------------------


def class_live_tables(*, classroom: Classroom) -> list:
    """Tables of the class (opened for it or for one of its assignments) being played or
    waiting for players. Only the class's own: a pupil's table in another class, or without a
    class, is not this class's business, and would show other people's names to its teacher
    and pupils (docs/security.md §14)."""
    return list(
        Table.objects.filter(status__in=[TableStatus.OPEN, TableStatus.PLAYING])
        .filter(classroom=classroom)
        .prefetch_related("seats__user__profile")
        .order_by("-created_at", "-id")[:60]
    )


# --- CSV exports --------------------------------------------------------------------------

PROGRESS_CSV_COLUMNS = (
    "username", "display_name", "script", "kana_id", "glyph", "romaji", "state",
    "reviews", "lapses", "errors", "exposures", "last_review", "due",
)  # fmt: skip
ASSIGNMENT_CSV_COLUMNS = (
    "assignment_id", "assignment", "game", "script", "due_at", "goal_kind", "goal_value",
    "username", "display_name", "progress", "percent", "complete",
)  # fmt: skip


def _iso(value: datetime | None) -> str:
    return value.isoformat(timespec="seconds") if value else ""


def class_progress_rows(*, classroom: Classroom, now: datetime | None = None) -> Iterator[tuple]:
    """One row per student and catalog kana (both scripts), students by name. Four queries.

    Exposures leave out games still in play (a teacher diffing the CSV mid-game would
    otherwise read the student's hand).
    """
    now = now or timezone.now()
    students = [m.student for m in roster_for(classroom=classroom)]
    catalog = list(Kana.objects.order_by("script", "order"))
    memory = {
        (m.learner_id, m.kana_id, m.script): m
        for m in KanaMemory.objects.filter(learner__memberships__classroom=classroom).only(
            "learner_id",
            "kana_id",
            "script",
            "reps",
            "lapses",
            "errors",
            "exposures",
            "last_review",
            "due",
            "stability",
        )  # fmt: skip
    }
    in_play = exposures_in_play(learner_ids=[s.pk for s in students])
    for student in students:
        for kana in catalog:
            m = memory.get((student.pk, kana.kana_id, kana.script))
            state = state_of(reps=m.reps, due=m.due, stability=m.stability, now=now) if m else "new"
            yield (
                student.username, student.profile.name, kana.script, kana.kana_id, kana.glyph,
                kana.romaji, state, m.reps if m else 0, m.lapses if m else 0,
                m.errors if m else 0, exposures_settled(m, in_play),
                _iso(m.last_review if m else None), _iso(m.due if m else None),
            )  # fmt: skip


def class_assignment_rows(*, classroom: Classroom, now: datetime | None = None) -> Iterator[tuple]:
    """One row per assignment and student, assignments by due date."""
    now = now or timezone.now()
    students = [m.student for m in roster_for(classroom=classroom)]
    ids = [s.pk for s in students]
    for a in Assignment.objects.filter(classroom=classroom).order_by("due_at", "id"):
        values = assignment_progress(assignment=a, student_ids=ids, now=now)
        for student in students:
            progress = Progress(a, values[student.pk])
            yield (
                a.pk, assignment_name(a), assignment_game(a), a.script, _iso(a.due_at),
                a.goal_kind, a.goal_value,
                student.username, student.profile.name, progress.value, progress.percent,
                "yes" if progress.complete else "no",
            )  # fmt: skip


@dataclass
class KanaStudentRow:
    student: AbstractBaseUser
    name: str
    state: str = "new"
    reps: int = 0
    errors: int = 0


@dataclass
class ClassKana:
    kana: kana_table.KanaInfo
    rows: list[KanaStudentRow]
    counts: dict[str, int]
    read_as: list[tuple[kana_table.KanaInfo, int]]  # what the class read it as, most often first


def class_kana_detail(
    *, classroom: Classroom, kana_id: str, script: str, now: datetime | None = None
) -> ClassKana:
    """One kana for the whole class (the teacher's per-kana page): each student's state, and
    what the class read it as. ``KeyError`` for a kana not in the catalog."""
    now = now or timezone.now()
    kana = kana_table.info(kana_id, script)
    students = [m.student for m in roster_for(classroom=classroom)]
    names = Counter(s.profile.name for s in students)
    rows = {s.pk: KanaStudentRow(student=s, name=_distinct_name(s, names)) for s in students}
    memories = (
        KanaMemory.objects.filter(learner_id__in=list(rows), script=script, kana_id=kana_id)
        .annotate(state=mastery_state_expression(now))
        .values_list("learner_id", "state", "reps", "errors")
    )
    for learner_id, state, reps, errors in memories:
        row = rows[learner_id]
        row.state, row.reps, row.errors = state, reps, errors
    counts = Counter(row.state for row in rows.values())
    wrong = (
        LearningEvent.objects.settled()
        .confusions()  # wrong answers naming a glyph (not card answers)
        .filter(learner_id__in=list(rows), kana_id=kana_id, script=script)
        .values("confused_with")
        .annotate(n=Count("id"))
        .order_by("-n", "confused_with")[:8]
    )  # fmt: skip
    catalog = kana_table.catalog()
    read_as = [
        (catalog[(w["confused_with"], script)], w["n"])
        for w in wrong
        if (w["confused_with"], script) in catalog
    ]
    return ClassKana(kana=kana, rows=list(rows.values()), counts=dict(counts), read_as=read_as)
