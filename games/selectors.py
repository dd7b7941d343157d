"""Read-side queries of the games app (lobby lists, access rules, a class's tables).

What a class is, who is in it and who teaches it, these selectors read from the low app
``kanagame.classes`` (below games: a table's class is a real foreign key). Assignments are the
classroom's, above games: nothing here knows them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q, QuerySet

from games.engines import get_engine
from games.models import Move, Rating, RatingChange, Seat, Table, TableStatus
from kanagame.accounts.models import Profile
from kanagame.accounts.rows import Columns, column, fetch_raw, split, sql_once, table_name
from kanagame.accounts.rows import fetch as rows_fetch
from kanagame.classes.models import Classroom
from kanagame.classes.selectors import classes_of, in_class, students_of, teaches


@dataclass(frozen=True)
class Access:
    """What ``user`` may do at ``table``: play a seat, join one, or watch as a spectator."""

    seat: Seat | None
    can_join: bool
    can_watch: bool

    @property
    def allowed(self) -> bool:
        return self.seat is not None or self.can_join or self.can_watch


def _is_teacher(user) -> bool:
    profile = getattr(user, "profile", None)
    return bool(profile and profile.is_teacher)


def classrooms_of(*, user) -> list[Classroom]:
    """The classes a user belongs to (student) or teaches (teacher)."""
    return list(classes_of(user=user))


def table_access(*, table: Table, user, seats: Iterable[Seat] | None = None) -> Access:
    """Seat, join and watch rights.

    - a human seat belongs to its account;
    - a waiting table of a class may be joined by that class's students (and its teacher);
      a waiting table without a class by anyone who has its link or code;
    - a teacher watches, with the spectator view (no hands), the tables of the classes she
      teaches, and a table without a class when every human at it is one of her students
      (``_teaches_table``); never a table of another class, even one her student sits at
      (docs/security.md §14: a pupil who typed a teacher's code does not open their other
      classes to her).

    ``seats``: the table's seats when the caller has read them (no query for them then).
    """
    if not user.is_authenticated:
        return Access(seat=None, can_join=False, can_watch=False)
    if seats is None:
        seat = table.seats.filter(user=user).first()
    else:
        seats = list(seats)
        seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is not None:  # a player: nothing else to check
        return Access(seat=seat, can_join=False, can_watch=False)
    classmate = table.classroom_id is None or in_class(user=user, classroom_id=table.classroom_id)
    can_join = (
        seat is None
        and table.status == TableStatus.OPEN
        and classmate
        and (
            table.seats.filter(user__isnull=True, bot_level="").exists()
            if seats is None
            else any(s.is_open for s in seats)
        )
    )
    can_watch = seat is None and _teaches_table(table=table, user=user)
    return Access(seat=seat, can_join=can_join, can_watch=can_watch)


def _teaches_table(*, table: Table, user) -> bool:
    """Whether teacher ``user`` may watch ``table`` (see ``table_access``)."""
    if not _is_teacher(user):
        return False
    if table.classroom_id is not None:
        return teaches(user=user, classroom_id=table.classroom_id)
    humans = table.seats.filter(user__isnull=False)
    return humans.exists() and not humans.exclude(user_id__in=students_of(teacher=user)).exists()


def _watchable_q(user) -> Q:
    """The tables teacher ``user`` may watch, as a filter (the rule of ``_teaches_table``)."""
    classes = [classroom.pk for classroom in classrooms_of(user=user)]
    students = students_of(teacher=user)
    stranger = Seat.objects.filter(table=OuterRef("pk"), user__isnull=False).exclude(
        user_id__in=students
    )
    return Q(classroom_id__in=classes) | Q(
        Q(classroom_id__isnull=True), Q(seats__user__in=students), ~Exists(stranger)
    )


def tables_watchable_query(*, user) -> QuerySet[Table]:
    """Every table (any status) teacher ``user`` may watch; none for anyone else."""
    if not _is_teacher(user):
        return Table.objects.none()
    return Table.objects.filter(_watchable_q(user)).distinct()


def tables_open_for(*, user) -> QuerySet[Table]:
    """Waiting tables the user may join: their classes' tables; for self-learners, the
    tables without a class."""
    waiting = Table.objects.filter(
        status=TableStatus.OPEN, seats__user__isnull=True, seats__bot_level=""
    )
    waiting = waiting.exclude(seats__user=user)
    classes = [classroom.pk for classroom in classrooms_of(user=user)]
    profile = getattr(user, "profile", None)
    if profile is not None and profile.role == "self":
        scope = Q(classroom_id__isnull=True) | Q(classroom_id__in=classes)
    else:
        scope = Q(classroom_id__in=classes)
    return waiting.filter(scope).distinct().select_related("created_by__profile")[:50]


def tables_of(*, user, limit: int = 20) -> QuerySet[Table]:
    """The user's own tables, unfinished first, then the latest finished ones."""
    return Table.objects.filter(seats__user=user).order_by("finished_at", "-created_at")[:limit]


def tables_watchable_by(*, user, limit: int = 30) -> QuerySet[Table]:
    """Tables under way a teacher may watch: their classes' tables, and tables without a
    class where only their students play (``_teaches_table``)."""
    return (
        tables_watchable_query(user=user)
        .exclude(status=TableStatus.FINISHED)
        .order_by("-created_at")[:limit]
    )


def tables_for_classroom(*, classroom: Classroom, status: str | None = None) -> QuerySet[Table]:
    """The tables of a class (created in it, or for one of its assignments)."""
    tables = Table.objects.filter(classroom=classroom)
    if status is not None:
        tables = tables.filter(status=status)
    return tables.prefetch_related("seats__user__profile").order_by("-created_at")


@dataclass(frozen=True)
class FinishedGame:
    table_id: int
    code: str
    engine: str
    started_at: datetime | None
    finished_at: datetime
    duration: timedelta
    seat: int


def games_finished_by(*, user, since: datetime | None = None) -> list[FinishedGame]:
    """The finished games where ``user`` held a seat, with their durations, newest first."""
    seats = Seat.objects.filter(user=user, table__status=TableStatus.FINISHED).select_related(
        "table"
    )
    if since is not None:
        seats = seats.filter(table__finished_at__gte=since)
    games = []
    for seat in seats.order_by("-table__finished_at"):
        table = seat.table
        started = table.started_at or table.created_at
        games.append(
            FinishedGame(
                table_id=table.pk,
                code=table.code,
                engine=table.engine,
                started_at=table.started_at,
                finished_at=table.finished_at,
                duration=table.finished_at - started,
                seat=seat.index,
            )
        )
    return games


_POLL = Columns(Table, "t", only=("version", "status", "turn_due_at"))
_poll_sql = sql_once(
    lambda: f"SELECT {_POLL.sql()} FROM {table_name(Table)} t WHERE t.{column(Table, 'id')} = %s"
)
_TABLE, _SEAT = Columns(Table, "t"), Columns(Seat, "s")
_USER, _PROFILE = Columns(get_user_model(), "u"), Columns(Profile, "p")


def _with_seats_sql(key: str) -> str:
    """The table whose ``key`` column (``code`` or ``id``) is the parameter, with its seats,
    their users and the users' profiles (one row per seat, in seat order)."""
    user_model = get_user_model()
    return (
        f"SELECT {_TABLE.sql()}, {_SEAT.sql()}, {_USER.sql()}, {_PROFILE.sql()} "
        f"FROM {table_name(Table)} t "
        f"LEFT JOIN {table_name(Seat)} s ON s.{column(Seat, 'table')} = t.{column(Table, 'id')} "
        f"LEFT JOIN {table_name(user_model)} u "
        f"ON u.{column(user_model, 'id')} = s.{column(Seat, 'user')} "
        f"LEFT JOIN {table_name(Profile)} p "
        f"ON p.{column(Profile, 'user')} = u.{column(user_model, 'id')} "
        f"WHERE t.{column(Table, key)} = %s ORDER BY s.{column(Seat, 'index')}"
    )


_table_with_seats_sql = sql_once(lambda: _with_seats_sql("code"))
_table_by_id_with_seats_sql = sql_once(lambda: _with_seats_sql("id"))


def table_with_seats(
    *, code: str | None = None, table_id: int | None = None
) -> tuple[Table, dict[int, Seat]] | None:
    """The table of ``code`` (or of the key ``table_id``) and its seats by index, each human's
    user read with its profile: what ``Table.objects.get(code=code)`` and
    ``games.services.play.seats_of`` return, in one query without the ORM's compiler
    (``accounts.rows``; every board, poll with a change and move reads it, and every CPU
    players' task). None when there is no such table."""
    if (code is None) == (table_id is None):
        raise TypeError("table_with_seats: give code or table_id")
    if code is not None:
        sql, key = _table_with_seats_sql(), code
    else:
        sql, key = _table_by_id_with_seats_sql(), table_id
    columns = (_TABLE, _SEAT, _USER, _PROFILE)
    rows = [split(row, columns) for row in fetch_raw(sql, [key])]
    if not rows:
        return None
    table, seats = _TABLE.build(rows[0][0]), {}  # the table's columns repeat on each row
    for _table, *parts in rows:
        seat, user, profile = (g.build(part) for g, part in zip(columns[1:], parts, strict=True))
        if seat is None:  # a table without seats
            continue
        seat.table = table
        if user is not None:
            if profile is not None:
                user.profile = profile
            seat.user = user
        seats[seat.index] = seat
    return table, seats


def table_unchanged_since(*, table_id: int, tag: str, now) -> bool:
    """Whether a game under way still shows ``tag`` (its version) and has no overdue turn.

    The poll's cheap question, in one indexed read of three columns (``accounts.rows``: the most
    frequent request of all does not pay for the ORM's query compiler). A waiting table (its
    tag counts seats), a finished one or an overdue turn answer False: the caller takes the
    full path, which knows what to render or to run.
    """
    rows = rows_fetch(_poll_sql(), [table_id], [_POLL])
    if not rows:
        return False
    version, status, due_at = rows[0][0]
    if status != TableStatus.PLAYING or (due_at is not None and due_at <= now):
        return False
    return tag == str(version)


def player_page_allowed(*, viewer, player) -> bool:
    """A player's page (ratings and their history) is for the player and for the people who
    sat at a table with them."""
    if viewer.pk == player.pk:
        return True
    shared = Seat.objects.filter(user=viewer).values("table_id")
    return Seat.objects.filter(user=player, table_id__in=shared).exists()


def ratings_of(*, user) -> list[dict[str, Any]]:
    """Each game's rating of ``user`` with its history, newest first."""
    history: dict[str, list] = {}
    for change in RatingChange.objects.filter(user=user).select_related("table")[:200]:
        history.setdefault(change.engine, []).append(change)
    return [
        {
            "engine": row.engine,
            "rating": row.rating,
            "games": row.games,
            "history": history.get(row.engine, []),
        }
        for row in Rating.objects.filter(user=user).order_by("engine")
    ]


@dataclass(frozen=True)
class BotTurnsAudit:
    """What the CPU players did at a set of tables, read from the Move log (worker mode's
    accounting: ``manage.py bots_audit``, ``bench/load.py --celery``).

    ``runs``: the ``(table id, version)`` key of each run of consecutive CPU moves, i.e. of
    each bot task that saved moves (a task keyed ``(t, v)`` saves versions v+1.. of table t);
    ``bot_moves``: the CPU Move rows; ``waiting``: the ids of tables under way where a CPU
    player is to act now (its task not run, or not yet).
    """

    table_ids: list[int]
    runs: list[tuple[int, int]]
    bot_moves: int
    waiting: list[int]


def bot_turns_audit(*, since: datetime | None = None) -> BotTurnsAudit:
    """Audit the tables created since ``since`` (all tables when None)."""
    tables = Table.objects.order_by()
    if since is not None:
        tables = tables.filter(created_at__gte=since)
    ids = list(tables.values_list("pk", flat=True))
    moves = Move.objects.filter(table_id__in=ids).order_by("table_id", "version")
    runs, bot_moves, previous = [], 0, None
    for table_id, version, by_bot in moves.values_list("table_id", "version", "by_bot"):
        if by_bot:
            bot_moves += 1
            if previous != (table_id, version - 1, True):
                runs.append((table_id, version - 1))
        previous = (table_id, version, by_bot)
    waiting = []
    seats: dict[int, dict[int, bool]] = {}
    for seat in Seat.objects.filter(table_id__in=ids).order_by():
        seats.setdefault(seat.table_id, {})[seat.index] = seat.played_by_bot
    for table in tables.filter(status=TableStatus.PLAYING).only("pk", "engine", "state"):
        eng = get_engine(table.engine)
        to_act = eng.to_act(eng.from_json(table.state))
        if any(seats.get(table.pk, {}).get(index) for index in to_act):
            waiting.append(table.pk)
    return BotTurnsAudit(table_ids=ids, runs=runs, bot_moves=bot_moves, waiting=waiting)
