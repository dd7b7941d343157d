"""Creating, joining, starting and leaving tables (the games API other teams call).

    table_create(user=..., engine=name, options={...}, seats=[...]) -> Table

``options`` mixes the engine's declared options with the table options below; ``seats`` lists
``{"kind": "human", "user": u}``, ``{"kind": "open"}`` or ``{"kind": "bot", "level": ...}``
(seat 0 is normally the creator). A table without open seats is dealt at once; otherwise it
waits in the lobby until the open seats are taken or its creator starts it (open seats then
become CPU players).

Every error is a ``ValueError`` (bad options, seats) or a ``TableError`` with a sentence fit to
show and an HTTP status.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines import get_engine
from games.engines.base import Engine
from games.models import BotLevel, Seat, Table, TableStatus, new_table_code
from games.services.play import (
    AUTOPLAY_LEVEL,
    Commit,
    after_commit,
    due_at_for,
    seats_of,
    table_resume,
    turn_due_restart,
)
from games.services.ratings import ratings_forfeit
from games.signals import table_replayed
from kanagame.classes.models import Classroom
from kanagame.classes.selectors import in_class

ROMAJI_CHOICES = ("always", "hover", "never")
PROMPT_CHOICES = ("off", "new", "seen", "every")  # learning.services.play.PROMPT_MODES
TIMER_CHOICES = (0, 30, 60)
SCRIPT_CHOICES = ("hiragana", "katakana", "mixed")
TABLE_OPTION_DEFAULTS: dict[str, Any] = {
    "script": "hiragana",
    "romaji": "always",
    "prompts": "new",
    "timer": 0,
    # questions about the cards themselves, for games whose engine has them
    # (``Engine.card_question``): off unless the creator asks (docs/learning.md)
    "card_prompts": False,
}


def ranked_timer_message() -> str:
    """Why a ranked table without a turn timer is refused (the service and the form)."""
    return _(
        "A ranked table needs a turn timer (30 or 60 seconds): without one, a player who "
        "stops playing would keep the game, and its result, waiting forever."
    )


class TableError(Exception):
    """A refused table operation: ``message`` is shown to the user, ``status`` is the HTTP one."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def table_url(table: Table) -> str:
    """The board page of ``table``."""
    return table.get_absolute_url()


# --- options --------------------------------------------------------------------------------


def engine_option_names(eng: Engine) -> set[str]:
    return {option.name for option in eng.OPTIONS}


def options_split(*, eng: Engine, options: Mapping[str, Any]) -> tuple[dict, dict]:
    """``(engine options, table options)`` of a table's flat options dict.

    ``script`` goes to both when the engine declares it (an engine that draws glyphs by
    script); ``setup`` (stacked deals) goes to the engine only.
    """
    names = engine_option_names(eng) | {"setup"}
    engine_options = {key: value for key, value in options.items() if key in names}
    table_options = {key: options[key] for key in TABLE_OPTION_DEFAULTS if key in options}
    return engine_options, table_options


def table_options_validate(*, eng: Engine, options: Mapping[str, Any]) -> dict[str, Any]:
    """Complete and check a flat options dict; ``ValueError`` with a clear message otherwise."""
    if not isinstance(options, Mapping):
        raise ValueError("options must be a mapping of option name to value")
    known = engine_option_names(eng) | set(TABLE_OPTION_DEFAULTS) | {"setup"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ValueError(f"unknown option(s): {', '.join(unknown)}")
    engine_options, table_options = options_split(eng=eng, options=options)
    checked = dict(eng.validate_options(engine_options))
    merged = {**TABLE_OPTION_DEFAULTS, **table_options}
    if "script" in checked:
        merged["script"] = checked["script"]
    _check_choice("script", merged["script"], SCRIPT_CHOICES)
    _check_choice("romaji", merged["romaji"], ROMAJI_CHOICES)
    _check_choice("prompts", merged["prompts"], PROMPT_CHOICES)
    _check_choice("timer", merged["timer"], TIMER_CHOICES)
    _check_card_prompts(eng, merged)
    return {**checked, **merged}


def _check_card_prompts(eng: Engine, merged: dict[str, Any]) -> None:
    """``card_prompts`` is a bool; kept only for games that ask about their cards (the
    options of the others stay as they were), and refused on for the others."""
    value = merged["card_prompts"]
    if not isinstance(value, bool):
        raise ValueError(f"option 'card_prompts' must be true or false; got {value!r}")
    if not eng.asks_about_cards:
        if value:
            raise ValueError(f"option 'card_prompts': {eng.name} asks nothing about its cards")
        del merged["card_prompts"]


def _check_choice(name: str, value: Any, choices: Sequence[Any]) -> None:
    if isinstance(value, bool) or value not in choices:
        allowed = ", ".join(str(choice) for choice in choices)
        raise ValueError(f"option {name!r} must be one of {allowed}; got {value!r}")


def _seats_validate(*, eng: Engine, seats: Sequence[Mapping[str, Any]]) -> list[dict]:
    if not isinstance(seats, Sequence) or isinstance(seats, str):
        raise ValueError("seats must be a list")
    eng.check_players(len(seats))
    checked, users = [], set()
    for index, seat in enumerate(seats):
        kind = seat.get("kind") if isinstance(seat, Mapping) else None
        if kind == "human":
            user = seat.get("user")
            if user is None or not getattr(user, "pk", None):
                raise ValueError(f"seat {index}: a human seat needs a saved user")
            if user.pk in users:
                raise ValueError(f"seat {index}: a player can hold only one seat")
            users.add(user.pk)
            checked.append({"kind": "human", "user": user})
        elif kind == "bot":
            level = seat.get("level", BotLevel.NORMAL)
            if level not in BotLevel.values:
                raise ValueError(f"seat {index}: CPU level must be one of {BotLevel.values}")
            checked.append({"kind": "bot", "level": level})
        elif kind == "open":
            checked.append({"kind": "open"})
        else:
            raise ValueError(f"seat {index}: kind must be human, bot or open")
    if not any(seat["kind"] != "bot" for seat in checked):
        raise ValueError("a table needs at least one human or open seat")
    return checked


# --- services -------------------------------------------------------------------------------


def table_create(
    *,
    user,
    engine: str,
    options: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]],
    classroom: Classroom | None = None,
    ranked: bool = False,
) -> Table:
    """Create a table; deal at once when no seat is open (solo play against CPU players).

    ``classroom``: the class the table belongs to (its students may join it, its teacher
    watches it). A table for an assignment is the classroom's to make: it calls this, then
    writes its link row (learning/classroom/services/play.py).
    ``ranked``: the final ranks update the players' Elo ratings; humans only (no CPU seat),
    for the games whose engine is ``ranked``.
    """
    try:
        eng = get_engine(engine)
    except KeyError:
        raise ValueError(f"unknown game {engine!r}") from None
    checked_options = table_options_validate(eng=eng, options=options)
    checked_seats = _seats_validate(eng=eng, seats=seats)
    if ranked and not eng.ranked:
        raise ValueError(_("This game has no ranked tables."))
    if ranked and any(seat["kind"] == "bot" for seat in checked_seats):
        raise ValueError(_("Ranked tables are for human players only: no CPU seat."))
    if ranked and not checked_options["timer"]:
        raise ValueError(ranked_timer_message())
    # Check the deal itself (e.g. a stacked "setup") before anything is saved.
    engine_options, _table_options = options_split(eng=eng, options=checked_options)
    seed = secrets.randbits(62)
    eng.new_game(players=len(checked_seats), seed=seed, options=engine_options)

    now = timezone.now()
    for _attempt in range(5):
        try:
            with transaction.atomic():
                table = Table.objects.create(
                    engine=engine,
                    options=checked_options,
                    seed=seed,
                    players=len(checked_seats),
                    created_by=user,
                    classroom=classroom,
                    code=new_table_code(),
                    ranked=ranked,
                )
                Seat.objects.bulk_create(
                    [
                        Seat(
                            table=table,
                            index=index,
                            user=seat.get("user"),
                            bot_level=seat.get("level", "") if seat["kind"] == "bot" else "",
                            joined_at=now if seat["kind"] != "open" else None,
                            last_seen_at=now if seat["kind"] == "human" else None,
                        )
                        for index, seat in enumerate(checked_seats)
                    ]
                )
                if not any(seat["kind"] == "open" for seat in checked_seats):
                    table_deal(table=table)
            return table
        except IntegrityError:  # a join-code collision: draw another code
            continue
    raise TableError(_("Could not create the table, please try again."), status=503)


def table_deal(*, table: Table) -> Table:
    """Deal the cards and start play (inside the caller's transaction).

    Bots to act first and the learning hook run after commit (``games.services.play``).
    """
    eng = get_engine(table.engine)
    engine_options, _table_options = options_split(eng=eng, options=table.options)
    state = eng.new_game(players=table.players, seed=table.seed, options=engine_options)
    table.state = eng.to_json(state)
    table.status = TableStatus.PLAYING
    table.started_at = timezone.now()
    table.version = 0
    seats = seats_of(table)
    table.turn_due_at = due_at_for(table=table, eng=eng, state=state, seats=seats)
    table.save(update_fields=["state", "status", "started_at", "version", "turn_due_at"])
    after_commit(Commit(table=table, eng=eng, before=None, after=state, seats=seats))
    return table


def table_join(*, table: Table, user) -> Seat:
    """Take the first open seat (or find the seat this user already holds)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        own = table.seats.filter(user=user).first()
        if own is not None:
            return seat_return(seat=own)
        if table.status != TableStatus.OPEN:
            raise TableError(_("This game has already started: there is no free seat."), 409)
        seat = table.seats.filter(user__isnull=True, bot_level="").order_by("index").first()
        if seat is None:
            raise TableError(_("This table is full."), 409)
        now = timezone.now()
        # Conditional update: two people clicking "join" at once cannot share a seat.
        taken = Seat.objects.filter(pk=seat.pk, user__isnull=True).update(
            user=user, joined_at=now, last_seen_at=now
        )
        if not taken:
            raise TableError(_("Someone took that seat just now. Please try again."), 409)
        seat.refresh_from_db()
        if not table.seats.filter(user__isnull=True, bot_level="").exists():
            table_deal(table=table)
        return seat


def may_start(*, table: Table, user) -> bool:
    """Who may start a waiting table: its creator, seated at it; once the creator has left
    the table, any human seated at it (so a table is never stuck waiting for someone gone)."""
    seated = set(table.seats.filter(user__isnull=False).values_list("user_id", flat=True))
    creator = table.created_by_id
    return user.pk in seated and (creator == user.pk or creator not in seated)


def table_start(*, table: Table, user, bot_level: str = BotLevel.NORMAL) -> Table:
    """Start a waiting table now (see ``may_start``): open seats become CPU players."""
    if bot_level not in BotLevel.values:
        raise TableError(_("Unknown CPU level."), 400)
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        if table.status == TableStatus.FINISHED:
            raise TableError(_("This game is over."), 409)
        if table.status != TableStatus.OPEN:
            raise TableError(_("This game has already started."), 409)
        if not may_start(table=table, user=user):
            raise TableError(
                _(
                    "Only the player who created the table can start it, or, once they have "
                    "left it, a player seated at it."
                ),
                403,
            )
        if table.ranked and table.seats.filter(user__isnull=True).exists():
            raise TableError(
                _("A ranked table starts when every seat is taken: CPU players are not ranked."),
                409,
            )
        table.seats.filter(user__isnull=True, bot_level="").update(
            bot_level=bot_level, joined_at=timezone.now()
        )
        table_deal(table=table)
    return table


def table_leave(*, table: Table, user) -> None:
    """Leave a table. Before the deal the seat is freed; during play the seat stays yours.

    A waiting table left by its last human is deleted. Leaving a ranked table being played
    is a forfeit (``ratings_forfeit``: the loss is recorded at once) and a CPU player plays
    the seat at once (the game goes on, unranked, without waiting for a timer).
    """
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        seat = table.seats.filter(user=user).first()
        if seat is None:
            raise TableError(_("You have no seat at this table."), 403)
        if table.status == TableStatus.OPEN:
            _seat_free(table=table, seat=seat)
            return
        seat.left_at = timezone.now()
        if table.ranked and table.status == TableStatus.PLAYING:
            ratings_forfeit(table=table, index=seat.index, seats=seats_of(table))
            seat.autoplay = True
            seat.save(update_fields=["left_at", "autoplay"])
            table_resume(table=table)
            return
        seat.save(update_fields=["left_at"])


def table_again(*, table: Table, user) -> Table:
    """ "Play again": a new table like this finished one, for one of its players.

    Same game and options (an assignment's table keeps the teacher's settings), the same CPU
    players, the other humans' seats open, and the same class while the player is still in
    it. ``table_replayed`` is sent in the creating transaction: the classroom links the new
    table to the first one's assignment, so the new game counts where the first one did.
    """
    if table.status != TableStatus.FINISHED:
        raise TableError(_("This game is not over yet."), 409)
    seats = list(table.seats.order_by("index"))
    if not any(seat.user_id == user.pk for seat in seats):
        raise TableError(_("You are not playing at this table."), 403)
    new_seats: list[dict] = [{"kind": "human", "user": user}]
    for seat in seats:
        if seat.user_id == user.pk:
            continue
        bot = seat.bot_level and seat.user_id is None
        new_seats.append({"kind": "bot", "level": seat.bot_level} if bot else {"kind": "open"})
    classroom_id = table.classroom_id
    still_in = classroom_id is not None and in_class(user=user, classroom_id=classroom_id)
    with transaction.atomic():
        again = table_create(
            user=user,
            engine=table.engine,
            options={key: value for key, value in table.options.items() if key != "setup"},
            seats=new_seats,
            classroom=table.classroom if still_in else None,
            ranked=table.ranked,
        )
        table_replayed.send(sender=Table, source=table, table=again, user=user)
    return again


def _seat_free(*, table: Table, seat: Seat) -> None:
    """A seat at a waiting table given up: open for a newcomer; a table left without any human
    is deleted."""
    seat.user = None
    seat.joined_at = seat.last_seen_at = None
    seat.save(update_fields=["user", "joined_at", "last_seen_at"])
    if not table.seats.filter(user__isnull=False).exists():
        table.delete()


def seats_hand_over(*, user) -> None:
    """Before ``user``'s account is deleted: no game ever waits on a seat nobody holds.

    At a table being played the seat goes to a CPU player for good (the stand-in a leaver
    gets, ``AUTOPLAY_LEVEL``), which plays at once if it is to act, and the turn timer is
    recomputed for whoever acts now. At a waiting table the seat is freed for a newcomer (as
    when leaving it), and a table left without any human is deleted. A finished table keeps
    its seat, which the deletion leaves empty: its moves stay for replays. At a ranked table
    being played the deletion is a forfeit (``ratings_forfeit``), recorded first.
    """
    now = timezone.now()
    for seat in Seat.objects.filter(user=user).exclude(table__status=TableStatus.FINISHED):
        with transaction.atomic():
            table = Table.objects.select_for_update().get(pk=seat.table_id)
            if table.status == TableStatus.OPEN:
                _seat_free(table=table, seat=seat)
                continue
            # ranked play: leaving for good is a forfeit, recorded before the CPU takes over
            ratings_forfeit(table=table, index=seat.index, seats=seats_of(table))
            seat.user, seat.bot_level, seat.autoplay, seat.left_at = (
                None,
                AUTOPLAY_LEVEL,
                False,
                now,
            )
            seat.save(update_fields=["user", "bot_level", "autoplay", "left_at"])
            table_resume(table=table)


def seat_return(*, seat: Seat) -> Seat:
    """The human of ``seat`` is back: their CPU stand-in stops, their timer restarts."""
    now = timezone.now()
    was_away = seat.autoplay
    seat.autoplay = False
    seat.left_at = None
    seat.last_seen_at = now
    seat.save(update_fields=["autoplay", "left_at", "last_seen_at"])
    if was_away:
        turn_due_restart(table=seat.table)
    return seat
