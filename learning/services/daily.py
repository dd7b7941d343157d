"""The daily session of a self-learner: warm-up, one recommended game, a summary.

One ``DailySession`` per learner and UTC day. Its phase follows from what happened:

- ``lesson``: before any quiz run today, a lesson has new kana to introduce
  (``learning.services.lesson``): a newcomer's session starts here, never with a quiz on
  kana not taught yet; a lesson waits while due kana fill the warm-up;
- ``warmup``: no quiz run finished since the session started (or a run the learner started
  is still open, or kana taught since wait for their first recall): it recalls the kana
  just taught, then the due and weak ones;
- ``game``: warm-up done (or nothing due), no game started yet; after a finished run,
  another lesson is offered beside the game when nothing is pending
  (``daily_lesson_offered``): taken, its kana are recalled before the game;
- ``playing``: the game against CPU players is under way;
- ``summary``: the game is over, or the learner ended the session.

From the second day on, the game comes first (``DailySession.play_first``, decided when the
day's session is created: ``daily_play_first``) unless the day's due kana are a backlog:
``game`` and ``playing``, then the warm-up (``lesson``, ``warmup``), then ``summary``. The
table's questions then meet the day's due kana before the quiz has answered them, and the
warm-up reviews the rest (issue 27, session 24; docs/learning.md "Play first").

The daily goal is either a number of kana reviews (answers) or minutes of practice, counted
as the distinct minutes of the day with any learning event (exposure or answer).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models.functions import TruncMinute
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Table
from games.services.tables import table_create
from learning import kana_table, selectors, srs
from learning.models import DailySession, KanaMemory, LearnerSettings, LearningEvent, Prompt
from learning.models.memory import DailyGoalKind, PromptStatus
from learning.picker import recommend
from learning.services.lesson import lesson_kana_for
from learning.services.memory import scheduler_for
from learning.services.quiz import backlogged, quiz_kana_for, quiz_start
from learning.services.warmup import warmup_seconds_for

CPU_PLAYERS = 3
CPU_LEVEL = "normal"
# the daily table's prompt mode: about every card newly shown, not only those entering the
# hand, unless its kana was answered right in the last 12 hours (issue 27: play that teaches
# more per minute; bench/srs_sim.py uses it)
DAILY_PROMPTS = "seen"
GOAL_LIMITS = {DailyGoalKind.REVIEWS: (5, 500), DailyGoalKind.MINUTES: (5, 180)}
# the game first unless the due kana's answers are more than this many warm-ups
# (``quiz.backlogged``): chosen among 1.5 (the quiz's own factor), 3 and 6 on the development
# seeds, checked on the held-out ones (bench/srs_sim.py --play-first; docs/bench.md, session 24)
PLAY_FIRST_FACTOR = 3.0
# a goal in reviews has no minutes: its backlog is measured against the daily session the
# project measures (10 minutes, 4 of them play)
PLAY_FIRST_WARMUP_SECONDS = 6 * 60.0


def _day_start(now: datetime) -> datetime:
    return datetime.combine(now.date(), datetime.min.time(), tzinfo=now.tzinfo)


def play_first_rule(
    *, returning: bool, due: int, warmup_seconds: float | None, factor: float | None = None
) -> bool:
    """Pure: does today's game come before the warm-up? Not on a learner's first day (its
    lesson comes first: a newcomer meets kana before any question), nor when the ``due``
    kana's answers are more than ``factor`` (``PLAY_FIRST_FACTOR``) times the day's warm-up
    (``warmup_seconds``; None, a goal in reviews: ``PLAY_FIRST_WARMUP_SECONDS``): under such a
    backlog the quiz asks those still likely remembered first, before they are lost
    (``quiz.quiz_order``), which the game's questions, in the order its cards come, cannot.
    bench/srs_sim.py runs this rule (its ``factor`` swept there)."""
    seconds = PLAY_FIRST_WARMUP_SECONDS if warmup_seconds is None else warmup_seconds
    return returning and not backlogged(
        due, seconds, PLAY_FIRST_FACTOR if factor is None else factor
    )


def daily_play_first(*, learner, now: datetime) -> bool:
    """``play_first_rule`` for ``learner`` now: returning when a kana was answered before
    today; due kana as the page counts them (``daily_due_count``)."""
    returning = KanaMemory.objects.filter(
        learner=learner, reps__gt=0, last_review__lt=_day_start(now)
    ).exists()
    if not returning:
        return False
    return play_first_rule(
        returning=True,
        due=selectors.kana_due_count_for(learner=learner, now=now),
        warmup_seconds=warmup_seconds_for(learner=learner),
    )


def daily_session_get(*, learner, now: datetime | None = None) -> DailySession:
    """Today's session, created by the first action of the day (a POST of the daily page),
    with its order (``daily_play_first``) decided then."""
    now = now or timezone.now()
    found = DailySession.objects.filter(learner=learner, day=now.date()).first()
    if found is not None:
        return found
    session, _created = DailySession.objects.get_or_create(
        learner=learner,
        day=now.date(),
        defaults={"started_at": now, "play_first": daily_play_first(learner=learner, now=now)},
    )
    return session


def daily_session_current(*, learner, now: datetime | None = None) -> DailySession:
    """Today's session as the daily page shows it, without writing: the saved one, or an
    unsaved one starting now, in the order its first POST will save (the page's GET writes
    nothing)."""
    now = now or timezone.now()
    found = DailySession.objects.filter(learner=learner, day=now.date()).first()
    return found or DailySession(
        learner=learner,
        day=now.date(),
        started_at=now,
        play_first=daily_play_first(learner=learner, now=now),
    )


def _game_status(table_id: int | None) -> str | None:
    if table_id is None:
        return None
    return Table.objects.filter(pk=table_id).values_list("status", flat=True).first()


def _runs(session: DailySession):
    """The warm-up's quiz questions shown since the session started."""
    return Prompt.objects.filter(
        learner=session.learner, source="quiz", shown_at__gte=session.started_at
    )


def daily_warmup_ran(*, session: DailySession) -> bool:
    """A warm-up quiz run was started today (the page says "Done.", not "no warm-up")."""
    return _runs(session).exists()


def daily_phase(*, session: DailySession, now: datetime | None = None) -> str:
    now = now or timezone.now()
    if session.finished_at:
        return "summary"
    if session.play_first:
        if not session.table_id:
            return "game"
        if _game_status(session.table_id) != "finished":
            return "playing"
        if session.warmup_done_at:
            return "summary"
        # the warm-up after the game: its steps as before one, then the summary
        phase = _warmup_phase(session, now)
        return "summary" if phase == "game" else phase
    if session.table_id:
        return "summary" if _game_status(session.table_id) == "finished" else "playing"
    if session.warmup_done_at:
        return "game"
    return _warmup_phase(session, now)


def _warmup_phase(session: DailySession, now: datetime) -> str:
    """``lesson`` or ``warmup`` while the warm-up has a step left, else ``game``."""
    runs = _runs(session)
    if runs.exists():
        if runs.filter(status=PromptStatus.OPEN, expires_at__gt=now).exists():
            return "warmup"
        # another lesson taken after a run (``daily_lesson_offered``): its kana are
        # recalled before the game
        taught = KanaMemory.objects.filter(
            learner=session.learner, introduced_at__isnull=False, reps=0
        )
        # a finished run leads to the game, never back to step 1: another lesson is offered
        # beside it, the learner's choice (a newcomer would otherwise be led through six
        # lessons and runs before the game was offered)
        return "warmup" if taught.exists() else "game"
    if lesson_kana_for(learner=session.learner, now=now):
        return "lesson"
    # the quiz asks only kana taught or met before: none (nothing taught yet), no warm-up
    return "warmup" if quiz_kana_for(learner=session.learner, now=now, length=1) else "game"


def daily_lesson_offered(*, session: DailySession, phase: str, now: datetime | None = None) -> bool:
    """Offer another lesson beside the game? Yes when the warm-up ended with a finished run
    (not skipped: a lesson taken then is recalled before the game) and ``lesson_plan`` has
    new kana now (nothing pending, fewer than ``LESSON_DAY_MAX`` cards today). Not before a
    game that comes first: its lesson follows the game."""
    if phase != "game" or session.warmup_done_at is not None or session.play_first:
        return False
    return bool(lesson_kana_for(learner=session.learner, now=now or timezone.now()))


def daily_warmup_start(*, session: DailySession, now: datetime | None = None) -> int:
    """Start the warm-up quiz run; returns its number of questions."""
    return len(quiz_start(learner=session.learner, now=now))


def daily_warmup_skip(*, session: DailySession, now: datetime | None = None) -> None:
    session.warmup_done_at = now or timezone.now()
    session.save(update_fields=["warmup_done_at"])


class DailyError(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def daily_game_start(*, session: DailySession, now: datetime | None = None):
    """Create the picker's first recommendation as a table against CPU players."""
    if session.table_id:
        raise DailyError(_("Today's game has already started."), 409)
    now = now or timezone.now()
    recs = recommend(session.learner, now=now)
    if not recs:
        raise DailyError(_("No game can be recommended right now."), 409)
    rec = recs[0]
    seats = [{"kind": "human", "user": session.learner}] + [
        {"kind": "bot", "level": CPU_LEVEL} for _ in range(CPU_PLAYERS)
    ]
    table = table_create(
        user=session.learner,
        engine=rec.engine,
        # romaji only on hover: a table that asks "how do you read this kana?" must not
        # print the answer on every card (and none at all while a question is open)
        options={**rec.options, "prompts": DAILY_PROMPTS, "romaji": "hover"},
        seats=seats,
    )
    session.table_id = table.pk
    if session.warmup_done_at is None and not session.play_first:  # else the warm-up follows
        session.warmup_done_at = now
    session.save(update_fields=["table_id", "warmup_done_at"])
    return table


def daily_finish(*, session: DailySession, now: datetime | None = None) -> None:
    if session.finished_at is None:
        session.finished_at = now or timezone.now()
        session.save(update_fields=["finished_at"])


def daily_goal_set(*, learner, kind: str, value: int) -> LearnerSettings:
    if kind not in GOAL_LIMITS:
        raise DailyError(_("Choose reviews or minutes."))
    low, high = GOAL_LIMITS[kind]
    if not low <= value <= high:
        raise DailyError(
            _("Choose a goal between %(low)s and %(high)s.") % {"low": low, "high": high}
        )
    row, _created = LearnerSettings.objects.get_or_create(learner=learner)
    row.goal_kind, row.goal_value = kind, value
    row.save(update_fields=["goal_kind", "goal_value"])
    return row


@dataclass(frozen=True)
class Goal:
    kind: str
    target: int
    done: int

    @property
    def reached(self) -> bool:
        return self.done >= self.target

    @property
    def percent(self) -> int:
        return min(100, round(100 * self.done / self.target)) if self.target else 100


def daily_goal_for(*, learner, now: datetime | None = None) -> Goal:
    now = now or timezone.now()
    row = LearnerSettings.objects.filter(learner=learner).first()
    kind = row.goal_kind if row else DailyGoalKind.REVIEWS
    target = row.goal_value if row else 20
    today = LearningEvent.objects.filter(learner=learner, created_at__gte=_day_start(now))
    if kind == DailyGoalKind.MINUTES:
        done = today.annotate(minute=TruncMinute("created_at")).values("minute").distinct().count()
    else:
        done = today.filter(kind="answer").count()
    return Goal(kind=kind, target=target, done=done)


@dataclass(frozen=True)
class KanaLine:
    kana_id: str
    script: str
    glyph: str
    romaji: str


@dataclass(frozen=True)
class Summary:
    practised: list[KanaLine]
    improved: list[KanaLine]
    still_weak: list[KanaLine]
    next_due: list[tuple[KanaLine, datetime]]
    answers: int
    correct: int
    exposures: int


def _line(kana_id: str, script: str) -> KanaLine:
    info = kana_table.info(kana_id, script)
    return KanaLine(kana_id=kana_id, script=script, glyph=info.glyph, romaji=info.romaji)


def daily_summary(*, learner, since: datetime, now: datetime | None = None) -> Summary:
    """What today's practice did: kana practised, improved, still weak, next due.

    Improved: kana whose last answer since ``since`` was right, after a wrong answer before
    it (earlier today or the last time before today). Still weak: kana answered since
    ``since`` whose last answer was wrong or whose memory is weak now.
    """
    now = now or timezone.now()
    events = list(
        LearningEvent.objects.filter(learner=learner, created_at__gte=since)
        # exposures of a game still in play count once it ends (docs/security.md §3)
        .exclude(kind="exposure", table_id__in=selectors.tables_in_play())
        .order_by("created_at", "id")
        .values_list("kana_id", "script", "kind", "correct")
    )
    answered: dict[tuple[str, str], list[bool]] = {}
    exposed: set[tuple[str, str]] = set()
    for kana_id, script, kind, correct in events:
        if kind == "answer":
            answered.setdefault((kana_id, script), []).append(bool(correct))
        else:
            exposed.add((kana_id, script))
    before = {}
    for kana_id, script, correct in (
        LearningEvent.objects.filter(learner=learner, kind="answer", created_at__lt=since)
        .order_by("kana_id", "script", "-created_at")
        .values_list("kana_id", "script", "correct")
    ):
        before.setdefault((kana_id, script), correct)
    scheduler = scheduler_for(learner=learner)
    memories = {
        (m.kana_id, m.script): m
        for m in KanaMemory.objects.filter(learner=learner).exclude(card={})
    }
    improved, still_weak = [], []
    for pair, results in answered.items():
        earlier = results[:-1] + ([before[pair]] if pair in before else [])
        memory = memories.get(pair)
        weak_now = memory is not None and srs.is_weak(
            scheduler=scheduler, card=srs.card_from_json(memory.card), now=now
        )
        if results[-1] and any(r is False for r in earlier):
            improved.append(_line(*pair))
        elif not results[-1] or weak_now:  # never both: the last answer was right
            still_weak.append(_line(*pair))
    upcoming = sorted((m for m in memories.values() if m.due and m.due > now), key=lambda m: m.due)
    practised = sorted(set(answered) | exposed, key=lambda p: kana_table.info(*p).order)
    return Summary(
        practised=[_line(*p) for p in practised],
        improved=improved,
        still_weak=still_weak,
        next_due=[(_line(m.kana_id, m.script), m.due) for m in upcoming[:6]],
        answers=sum(len(r) for r in answered.values()),
        correct=sum(sum(r) for r in answered.values()),
        exposures=sum(1 for e in events if e[2] == "exposure"),
    )


def daily_streak(*, learner, now: datetime | None = None) -> int:
    return selectors.streak_for(learner=learner, now=now)


def daily_due_count(*, learner, now: datetime | None = None) -> int:
    return selectors.kana_due_count_for(learner=learner, now=now)
