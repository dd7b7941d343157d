"""Playing moves: the one place where a table's state changes (ARCHITECTURE §3).

``table_play`` is what a human's POST calls. It never builds an action from request fields:
it looks the submitted key up among the seat's legal actions. The write is guarded twice:

1. ``UPDATE games_table SET ... WHERE id = t AND version = v AND status = 'playing'``: the row
   count says whether this writer won (0 rows: someone else moved first, the version is stale);
2. the unique ``(table, version)`` and ``(table, token)`` constraints on ``Move``.

Both hold on SQLite (writers serialised, ``BEGIN IMMEDIATE``) and on PostgreSQL (the second
UPDATE waits for the first transaction, then re-checks ``version = v`` and matches no row).

Follow-ups run after commit: the learning hook, CPU turns (``games.tasks.bots_play``, keyed by
``(table, version)``), and the turn timer. In eager mode (embedded default, tests) the CPU
players have replied when ``table_play`` returns; with a worker they reply in the background.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import tasks
from games.engines import IllegalAction, action_key, get_engine
from games.engines.base import Engine
from games.models import Move, Seat, Table, TableStatus
from games.selectors import table_with_seats
from games.services.observe import human_views, moves_observed
from games.services.ratings import ratings_forfeit, ratings_record
from games.signals import game_finished
from games.tokens import action_token
from kanagame.accounts.rows import update_then_insert as rows_update_then_insert

MAX_BOT_MOVES_PER_TASK = 2000  # a safety net against an engine that would never end
AUTOPLAY_LEVEL = "normal"  # the stand-in for a human whose timer ran out


class PlayError(Exception):
    """A refused move: ``message`` is shown to the player, ``status`` is the HTTP status."""

    status = 400

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class StaleVersion(PlayError):
    status = 409


@dataclass
class PlayResult:
    """``state``: the engine state at ``table.version`` when the service holds it (after a
    move it played), so the board is drawn without parsing the state again; ``views``: the
    human seats' views of it that the learning hook built (read them, never change them)."""

    table: Table
    move: Move | None
    duplicate: bool = False
    state: Any = None
    views: dict[int, Any] = field(default_factory=dict)  # seat -> its view of ``state``
    # what the learning hook read that the board drawn next may reuse (``games.signals``)
    handover: dict = field(default_factory=dict)


@dataclass
class Commit:
    """One step to save: ``before`` -> ``after`` at ``table``, and what follows its commit.

    Passed whole to ``moves_save`` and ``after_commit`` instead of a dozen keyword arguments.
    ``seats``: the table's seats by index (with profiles). ``by_bot``: CPU moves.
    ``bots_follow``: queue the CPU players if one is to act after ``after`` (a CPU burst
    itself stops at a human, so it queues none). ``views_before``: the human seats' views of
    ``before`` when the caller has them (the learning hook reuses them); the hook fills
    ``views_after`` with their views of the last state saved, for the next step (or the board)
    to reuse. ``replies``: the CPU replies chosen in memory after a human move (eager mode),
    saved by the same write. ``handover``: given to the hook's receivers (``games.signals``),
    what they leave in it goes to the board drawn after this step.
    """

    table: Table
    eng: Engine
    before: Any | None
    after: Any
    seats: dict[int, Seat]
    token: str = ""
    by_bot: bool = False
    bots_follow: bool = True
    views_before: dict[int, Any] | None = None
    views_after: dict[int, Any] = field(default_factory=dict)
    replies: Replies | None = None
    handover: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Replies:
    """The CPU turns that answer a human move, chosen in memory right after it (eager mode).

    ``plays`` go from the human move's state (``Commit.after``) to ``state``; ``moves_save``
    saves them with the human move in the same guarded write (one Move each, versions
    following the human's), and the learning hook sees the two steps as before.
    """

    state: Any
    plays: list[tuple[int, dict]]


@dataclass(frozen=True)
class BotsStart:
    """The state at ``version`` as the request that committed it holds it in memory.

    In eager mode the CPU burst runs inline right after that commit and starts from it (no
    second ``from_json``, and the human seats' views are reused by the learning hook). It is
    passed as an argument, never through module state: a worker without it reads the table.
    """

    version: int
    state: Any
    views: dict[int, Any]


# --- helpers --------------------------------------------------------------------------------


def table_engine_state(*, table: Table) -> tuple[Engine, Any]:
    eng = get_engine(table.engine)
    return eng, eng.from_json(table.state)


def due_at_for(*, table: Table, eng: Engine, state: Any, seats: dict[int, Seat]) -> Any:
    """When the human to act must have played, if the table has a timer (else ``None``)."""
    if not table.timer or eng.is_over(state):
        return None
    waiting_on_human = any(
        seats[index].is_human and not seats[index].autoplay for index in eng.to_act(state)
    )
    return timezone.now() + timedelta(seconds=table.timer) if waiting_on_human else None


def seats_of(table: Table) -> dict[int, Seat]:
    """The table's seats by index, with their users' profiles (one query).

    Ordered by index here: ``Seat``'s default ordering starts with its table, which would
    join the table to order by the table's own ordering."""
    seats = Seat.objects.filter(table_id=table.pk).select_related("user__profile")
    return {seat.index: seat for seat in seats.order_by("index")}


# --- the write ------------------------------------------------------------------------------


def move_commit(
    *,
    table: Table,
    eng: Engine,
    state: Any,
    seat: int,
    action: dict,
    token: str = "",
    seats: dict[int, Seat] | None = None,
) -> tuple[Move, Any, Commit | None]:
    """Apply ``action`` (already one of the legal ones) and save it, guarded by the version.

    Returns the saved move, the state at ``table.version`` as saved and the committed step,
    whose ``views_after`` holds the human seats' views of that state built by the learning
    hook after the commit (empty when it built none) and ``handover`` what the hook's
    receivers left for the board (``None`` instead of the step when CPU turns followed the
    commit: neither describes the table any more). In eager
    mode the CPU replies are chosen right away and saved in the same write (``Replies``): the
    state returned is then the one after them (``None`` in the rare case where CPU stand-ins
    of absent humans still play inline after the commit: read the table again). Raises
    ``StaleVersion`` when another writer moved first (nothing is saved then).
    """
    seats = seats_of(table) if seats is None else seats
    views_before = human_views(eng=eng, state=state, seats=seats)  # before apply: see there
    try:
        new_state, _events = eng.apply(state, seat, action)
    except IllegalAction as exc:
        raise PlayError(exc.message, status=409) from exc
    step = Commit(
        table=table,
        eng=eng,
        before=state,
        after=new_state,
        seats=seats,
        token=token,
        views_before=views_before,
    )
    eager = tasks.runs_eagerly()
    if eager:
        step.replies = replies_plan(table=table, eng=eng, state=new_state, seats=seats)
    move = moves_save(step, plays=[(seat, action)])[0]
    final = step.replies.state if step.replies is not None else new_state
    if eager and not eng.is_over(final) and any_bot_to_act(eng=eng, state=final, seats=seats):
        return move, None, None  # CPU stand-ins play inline after the commit (table_bots_play)
    return move, final, step


def moves_save(step: Commit, *, plays: list[tuple[int, dict]]) -> list[Move]:
    """Save ``plays`` (already applied: ``step.before`` -> ``step.after``), then the CPU
    ``step.replies`` if any, in one guarded transaction; returns ``plays``' Moves.

    ``UPDATE games_table SET state, version = v + n ... WHERE id = t AND version = v`` must
    touch one row, then the n Moves (versions v+1..v+n) are inserted in one statement; the
    unique ``(table, version)`` and ``(table, token)`` constraints back the guard. A stale
    version or a constraint violation raises ``StaleVersion`` and nothing is saved.
    """
    table, eng = step.table, step.eng
    replies = step.replies.plays if step.replies is not None else []
    final = step.replies.state if step.replies is not None else step.after
    version = table.version
    fields: dict[str, Any] = {
        "state": eng.to_json(final),
        "version": version + len(plays) + len(replies),
        "turn_due_at": due_at_for(table=table, eng=eng, state=final, seats=step.seats),
    }
    over = eng.is_over(final)
    if over:
        fields.update(status=TableStatus.FINISHED, finished_at=timezone.now(), turn_due_at=None)
    rows = [
        Move(
            table=table,
            version=version + offset,
            seat=seat,
            action=action,
            token=step.token if offset == len(plays) else "",
            by_bot=step.by_bot,
        )
        for offset, (seat, action) in enumerate(plays, start=1)
    ]
    rows += [
        Move(table=table, version=version + offset, seat=seat, action=action, by_bot=True)
        for offset, (seat, action) in enumerate(replies, start=len(plays) + 1)
    ]
    # The two statements in SQL built from the models (accounts.rows: every move writes them, and
    # the ORM's compiler costs more than SQLite or PostgreSQL take to run them).
    guard = {"id": table.pk, "version": version, "status": TableStatus.PLAYING}
    # (one statement on PostgreSQL: ``update_then_insert``)
    with transaction.atomic():
        try:  # an error leaves this transaction: it is rolled back whole
            guarded = rows_update_then_insert(Table, fields, where=guard, objs=rows)
        except IntegrityError as exc:  # another writer's Move took this version or token
            raise StaleVersion(_("The table changed before your move arrived.")) from exc
        if not guarded:  # another writer moved first (the rollback undoes any INSERT)
            raise StaleVersion(_("The table changed before your move arrived."))
        if over and table.ranked:  # the guarded update above finished the table: once
            ratings_record(table=table, outcome=eng.outcome(final), seats=step.seats)
        for name, value in fields.items():
            setattr(table, name, value)
        after_commit(step, move=rows[len(plays) - 1], reply=rows[-1] if replies else None)
    return rows[: len(plays)]


def after_commit(step: Commit, *, move: Move | None = None, reply: Move | None = None) -> None:
    """Queue what follows a committed deal or move: learning hook, CPU turns, turn timer.

    ``reply``: the last of ``step.replies``' Moves, saved with ``move``.
    """
    table, eng, seats = step.table, step.eng, step.seats
    steps = [(step.before, step.after, move)]
    if step.replies is not None:
        steps.append((step.after, step.replies.state, reply))
    after = steps[-1][1]
    table_id, version = table.pk, table.version
    transaction.on_commit(
        lambda: moves_observed(
            table=table,
            eng=eng,
            steps=steps,
            seats=seats,
            views_before=step.views_before,
            views_after=step.views_after,
            handover=step.handover,
        )
    )
    if eng.is_over(after):
        game_finished.send(sender=Table, table_id=table_id)  # e.g. class summaries refresh
        return
    if step.bots_follow and any_bot_to_act(eng=eng, state=after, seats=seats):
        if tasks.runs_eagerly():
            start = BotsStart(version=version, state=after, views=step.views_after)
            transaction.on_commit(
                lambda: table_bots_play(table_id=table_id, version=version, start=start)
            )
        else:
            tasks.bots_play.delay_on_commit(table_id, version)
    if table.turn_due_at is not None and not tasks.runs_eagerly():
        # Best effort only: the due time lives in the database, and the beat sweep and the
        # poll endpoint also act on overdue turns (eager mode ignores countdowns).
        tasks.turn_timeout.apply_async_on_commit((table_id, version), countdown=table.timer + 1)


# --- human moves ----------------------------------------------------------------------------


def table_play(
    *, table: Table, user, version: Any, token: str, key: str, seats: dict[int, Seat] | None = None
) -> PlayResult:
    """Play the legal action whose ``action_key`` is ``key`` for ``user``'s seat.

    ``seats``: the table's seats by index (``seats_of``) when the caller has read them.
    Errors: ``PlayError`` 403 (no seat), 409 (finished, not started, not your turn),
    400 (malformed version or unknown action); ``StaleVersion`` 409 (someone moved first).
    A ``token`` already used at this table returns the current table, ``duplicate=True``.
    On success ``table`` holds the saved row (its CPU replies included in eager mode).
    """
    if seats is None:
        seats = seats_of(table) if user.is_authenticated else {}
    seat = next((s for s in seats.values() if s.user_id == user.pk), None)
    if seat is None:
        raise PlayError(_("You have no seat at this table."), status=403)
    if not isinstance(token, str) or len(token) > 64:
        raise PlayError(_("The move is malformed (bad token)."), status=400)
    try:
        version = int(version)
    except (TypeError, ValueError):
        version = None
    # A repeated token means "already played": answer with the table as it is. Only checked
    # when the version does not match; at the current version a repeated token is caught by
    # the unique (table, token) constraint below.
    if version != table.version and token:
        if Move.objects.filter(table=table, token=token).exists():
            return PlayResult(table=table, move=None, duplicate=True)
    if version is None:
        raise PlayError(_("The move is malformed (missing table version)."), 400)
    if table.status == TableStatus.FINISHED:
        raise PlayError(_("This game is over."), status=409)
    if table.status != TableStatus.PLAYING:
        raise PlayError(_("This game has not started yet."), status=409)
    if version != table.version:
        raise StaleVersion(_("The table changed before your move arrived."))
    eng, state = table_engine_state(table=table)
    if seat.index not in eng.to_act(state):
        raise PlayError(_("It is not your turn."), status=409)
    action = None
    if isinstance(key, str):  # the first legal action with this key (equal keys: equal actions)
        legal = eng.legal_actions(state, seat.index)
        if key.startswith("a"):  # the page's token (games.tokens); a key is JSON text: "{..."
            action = next((a for a in legal if action_token(table.pk, action_key(a)) == key), None)
        else:
            action = next((a for a in legal if action_key(a) == key), None)
    if action is None:
        raise PlayError(_("That move is not one of your legal moves."), status=400)
    if seat.autoplay or seat.left_at:
        seat_back(seat=seat)  # playing a move is coming back: the CPU stand-in stops
    try:
        move, saved, step = move_commit(
            table=table,
            eng=eng,
            state=state,
            seat=seat.index,
            action=action,
            token=token,
            seats=seats,
        )
    except StaleVersion:
        if token and Move.objects.filter(table=table, token=token).exists():
            table.refresh_from_db()
            return PlayResult(table=table, move=None, duplicate=True)
        raise
    if saved is None or step is None:  # CPU stand-ins played after the commit
        table.refresh_from_db()
        return PlayResult(table=table, move=move)
    # Otherwise ``moves_save`` set the row's fields as saved: no need to read it again.
    return PlayResult(
        table=table, move=move, state=saved, views=step.views_after, handover=step.handover
    )


def seat_back(*, seat: Seat) -> None:
    """A human acts again: stop the CPU stand-in (used by ``table_play``)."""
    seat.autoplay = False
    seat.left_at = None
    seat.last_seen_at = timezone.now()
    seat.save(update_fields=["autoplay", "left_at", "last_seen_at"])


def turn_due_restart(*, table: Table) -> None:
    """Restart the turn timer after a human came back (their turn gets a fresh delay)."""
    table.refresh_from_db()
    if table.status != TableStatus.PLAYING or not table.timer:
        return
    eng, state = table_engine_state(table=table)
    due = due_at_for(table=table, eng=eng, state=state, seats=seats_of(table))
    Table.objects.filter(pk=table.pk, version=table.version).update(turn_due_at=due)
    table.turn_due_at = due


# --- CPU players and timers -----------------------------------------------------------------


def table_resume(*, table: Table) -> None:
    """After seats changed hands outside a move (a CPU took a deleted account's seat): the
    turn timer is recomputed and the CPU players to act are queued, as after a move."""
    eng, state = table_engine_state(table=table)
    seats = seats_of(table)
    due = due_at_for(table=table, eng=eng, state=state, seats=seats)
    Table.objects.filter(pk=table.pk, version=table.version).update(turn_due_at=due)
    table.turn_due_at = due
    if eng.is_over(state) or not any_bot_to_act(eng=eng, state=state, seats=seats):
        return
    table_id, version = table.pk, table.version
    if tasks.runs_eagerly():
        transaction.on_commit(lambda: table_bots_play(table_id=table_id, version=version))
    else:
        tasks.bots_play.delay_on_commit(table_id, version)


def any_bot_to_act(*, eng: Engine, state: Any, seats: dict[int, Seat]) -> bool:
    """Whether a CPU player (a bot, or the stand-in of an absent human) is to act."""
    return any(seats[index].played_by_bot for index in eng.to_act(state))


def bots_choose(
    *, table: Table, eng: Engine, state: Any, seats: dict[int, Seat], version: int
) -> tuple[Any, list[tuple[int, dict]]]:
    """The CPU turns from ``state`` (the table at ``version``) until a human is to act or the
    game ends, chosen and applied in memory: ``(state after them, [(seat, action), ...])``.

    A seeded generator per (table, version, seat): replays and retries choose alike, and the
    same turns come out whether they are chosen inline or by a worker.
    """
    plays: list[tuple[int, dict]] = []
    while len(plays) < MAX_BOT_MOVES_PER_TASK and not eng.is_over(state):
        acting = [index for index in eng.to_act(state) if seats[index].played_by_bot]
        if not acting:
            break
        index = acting[0]
        seat = seats[index]
        legal = eng.legal_actions(state, index)
        rng = random.Random(f"{table.seed}:{version + len(plays)}:{index}")
        bot = eng.bot(seat.bot_level or AUTOPLAY_LEVEL)
        choice = bot.choose(eng.bot_view(state, index), legal, rng)
        # The engine's own dict is applied; a bot's answer only selects among them.
        action = next((a for a in legal if a == choice), legal[0])
        state, _events = eng.apply(state, index, action)
        plays.append((index, action))
    return state, plays


def replies_plan(
    *, table: Table, eng: Engine, state: Any, seats: dict[int, Seat]
) -> Replies | None:
    """The CPU replies to the human move that led to ``state`` (eager mode), to be saved with
    it; ``None`` when no CPU player is to act, or when a stand-in of an absent human would
    play (that human may come back meanwhile: ``table_bots_play`` checks, after the commit).
    """
    if eng.is_over(state) or not any_bot_to_act(eng=eng, state=state, seats=seats):
        return None
    after, plays = bots_choose(
        table=table, eng=eng, state=state, seats=seats, version=table.version + 1
    )
    if not plays or any(seats[index].is_human for index, _action in plays):
        return None
    return Replies(state=after, plays=plays)


def table_bots_play(*, table_id: int, version: int, start: BotsStart | None = None) -> int:
    """Play every CPU turn due at ``version``; returns the number of moves played.

    A no-op when the table already moved past ``version`` (a duplicated or late task). The
    CPU players choose and the engine applies in memory until a human is to act or the game
    ends (``bots_choose``); the burst is then saved in one guarded transaction
    (``moves_save``: one Move per CPU action, version + n). If anything moved the table
    meanwhile, nothing is saved.
    ``start``: the state at ``version`` already in memory (eager mode, see ``BotsStart``).
    """
    handoff = start if start is not None and start.version == version else None
    if handoff is not None:  # the state at ``version``, already parsed by the request
        table = Table.objects.filter(pk=table_id).defer("state").first()
        seats = None
    else:  # a task: the table and its seats in one read (``table_with_seats``)
        found = table_with_seats(table_id=table_id)
        table, seats = found if found is not None else (None, None)
    if table is None or table.version != version or table.status != TableStatus.PLAYING:
        return 0
    if handoff is not None:
        eng, start_state = get_engine(table.engine), handoff.state
        seats = seats_of(table)
    else:
        eng, start_state = table_engine_state(table=table)
    state, plays = bots_choose(
        table=table, eng=eng, state=start_state, seats=seats, version=version
    )
    if not plays:
        return 0
    stood_in = {index for index, _action in plays if seats[index].is_human}
    if stood_in and Seat.objects.filter(table=table, index__in=stood_in, autoplay=False).exists():
        # A human came back while their stand-in was choosing: start again from the table as
        # it is (the CPU players before their turn still play).
        return table_bots_play(table_id=table_id, version=version)
    step = Commit(
        table=table,
        eng=eng,
        before=start_state,
        after=state,
        seats=seats,
        by_bot=True,
        bots_follow=False,
        views_before=handoff.views if handoff is not None else None,
    )
    try:
        moves_save(step, plays=plays)
    except StaleVersion:
        return 0
    return len(plays)


def table_timeouts_run(*, table: Table) -> int:
    """If the turn timer ran out, a CPU stand-in plays for the humans to act; moves played.

    At a ranked table the player whose timer ran out forfeits first (``ratings_forfeit``):
    the loss is recorded before the stand-in plays a move, so no CPU move is ever rated.
    """
    now = timezone.now()
    if table.status != TableStatus.PLAYING or not table.turn_due_at or table.turn_due_at > now:
        return 0
    version = table.version
    with transaction.atomic():
        # Claim this timeout once: only one poll, beat sweep or timer task gets the row.
        claimed = Table.objects.filter(pk=table.pk, version=version, turn_due_at__lte=now).update(
            turn_due_at=None
        )
        if not claimed:
            return 0
        eng, state = table_engine_state(table=table)
        to_act = eng.to_act(state)
        if table.ranked:  # ranked play: a turn timer running out is a forfeit (ratings.py)
            seats = seats_of(table)
            for index in to_act:
                if seats[index].is_human and not seats[index].autoplay:
                    ratings_forfeit(table=table, index=index, seats=seats)
        Seat.objects.filter(table=table, index__in=to_act, user__isnull=False).update(autoplay=True)
    played = table_bots_play(table_id=table.pk, version=version)
    table.refresh_from_db()
    return played


def timeouts_sweep(*, now=None) -> int:
    """Run every overdue turn (the beat task); returns the number of tables handled."""
    now = now or timezone.now()
    handled = 0
    overdue = Table.objects.filter(status=TableStatus.PLAYING, turn_due_at__lte=now)
    for table in overdue.order_by("turn_due_at")[:200]:
        if table_timeouts_run(table=table):
            handled += 1
    return handled
