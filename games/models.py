"""Tables, seats and moves (ARCHITECTURE §3).

A ``Table`` holds one game: the engine name, its options (engine options plus the table
options ``script``, ``romaji``, ``prompts``, ``timer``), the engine state as JSON and a
``version`` that grows by one with every committed move. ``Move.version`` is the table version
*after* that move, so the state at version ``v`` is the deal replayed through the moves
``1..v``. The unique ``(table, version)`` constraint is the last line of the concurrency guard
(see ``games/services/play.py`` and docs/web.md).

Hidden information lives in ``state`` and ``seed``: templates never receive them, only the
engine's ``view(state, seat)`` for the viewer's seat.
"""

from __future__ import annotations

import secrets
from functools import lru_cache

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.translation import gettext_lazy as _

from kanagame.classes.models import Classroom
from kanagame.db.fields import JSONField

# Short join codes: no 0/O, 1/I/L, so a code read aloud in class is typed right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def new_table_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class TableStatus(models.TextChoices):
    OPEN = "open", _("waiting for players")
    PLAYING = "playing", _("playing")
    FINISHED = "finished", _("finished")


class BotLevel(models.TextChoices):
    EASY = "easy", _("easy")
    NORMAL = "normal", _("normal")
    HARD = "hard", _("hard")


class Table(models.Model):
    engine = models.CharField(_("game"), max_length=40)
    options = JSONField(_("options"), default=dict)
    state = JSONField(null=True, blank=True)  # engine.to_json(state); null until the deal
    seed = models.BigIntegerField(default=0)  # the deal's seed, for replays; never rendered
    players = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(
        max_length=10, choices=TableStatus.choices, default=TableStatus.OPEN, db_index=True
    )
    code = models.CharField(max_length=12, unique=True, default=new_table_code)
    # SET_NULL: deleting a student's data must not delete the games their classmates played.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tables_created",
    )
    # The class the table was opened in (classes sit below games: a real foreign key). A
    # deleted class leaves its tables, and their games, without a class. The assignment a
    # table was opened for is the classroom's to know (its AssignmentTable row), not games'
    # (docs/architecture.md, "The table's class link").
    classroom = models.ForeignKey(
        Classroom, on_delete=models.SET_NULL, null=True, blank=True, related_name="tables"
    )
    # When the seat to act must have played, if the table has a turn timer (null otherwise).
    turn_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # chosen at creation, humans only: the final ranks update each player's Elo rating
    ranked = models.BooleanField(_("ranked"), default=False)
    # the seat whose player forfeited this ranked game (left it, let the turn timer run out,
    # deleted the account): its ratings were settled then (games/services/ratings.py)
    forfeit_seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["classroom", "status"], name="table_class_status")]

    def __str__(self) -> str:
        return f"{self.engine} table {self.code}"

    def get_absolute_url(self) -> str:
        return _table_url(get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF, self.code)

    @property
    def is_open(self) -> bool:
        return self.status == TableStatus.OPEN

    @property
    def is_playing(self) -> bool:
        return self.status == TableStatus.PLAYING

    @property
    def is_finished(self) -> bool:
        return self.status == TableStatus.FINISHED

    @property
    def timer(self) -> int:
        return int(self.options.get("timer", 0) or 0)


class Seat(models.Model):
    """A place at a table: a human (``user``), a CPU player (``bot_level``) or still open.

    A human seat belongs to the account for the whole game: leaving keeps it, and coming back
    (from any device) finds it. ``autoplay`` is set when the human's turn timer ran out: a CPU
    player of ``normal`` level plays for them until they come back.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    bot_level = models.CharField(max_length=8, choices=BotLevel.choices, blank=True)
    autoplay = models.BooleanField(default=False)
    joined_at = models.DateTimeField(null=True, blank=True)
    left_at = models.DateTimeField(null=True, blank=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=Q(user__isnull=False), name="seat_unique_user"
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.index} of table {self.table_id}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def is_human(self) -> bool:
        return self.user_id is not None

    @property
    def is_open(self) -> bool:
        return not self.bot_level and self.user_id is None

    @property
    def played_by_bot(self) -> bool:
        """Whether a CPU player chooses this seat's actions now (a bot, or a human away)."""
        return self.is_bot or (self.is_human and self.autoplay)


class Move(models.Model):
    """One committed action. ``version`` is the table's version after it (1, 2, ...)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="moves")
    version = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = JSONField()
    token = models.CharField(max_length=64, blank=True)
    by_bot = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "version"]
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="move_unique_version"),
            models.UniqueConstraint(
                fields=["table", "token"], condition=~Q(token=""), name="move_unique_token"
            ),
        ]

    def __str__(self) -> str:
        return f"move {self.version} of table {self.table_id}"


class Rating(models.Model):
    """A player's Elo rating in one game (engine), from its ranked tables."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    engine = models.CharField(_("game"), max_length=40)
    rating = models.FloatField(default=1500.0)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "engine"], name="rating_user_engine")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.engine} {self.rating:.0f}"


class RatingChange(models.Model):
    """One finished ranked game's effect on one player's rating (the rating's history)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    engine = models.CharField(max_length=40)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rating_changes")
    rank = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    before = models.FloatField()
    after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="rating_change_once_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.engine} {self.before:.0f} -> {self.after:.0f}"

    @property
    def delta(self) -> float:
        return self.after - self.before


@lru_cache(maxsize=4096)
def _table_url(prefix: str, urlconf: str, code: str) -> str:  # noqa: ARG001 - memo keys
    """``reverse("games:table", code)`` kept per worker: every board and move names its table's
    page (and a reversal costs more than the rest of ``TableInfo``); a pure function of the
    script prefix, the URLconf and the code, which is what it is keyed by."""
    return reverse("games:table", kwargs={"code": code}, urlconf=urlconf)
