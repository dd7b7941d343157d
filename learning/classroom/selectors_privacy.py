"""Everything the product holds about one person, for their download (docs/privacy.md).

Built from the user model's relations, so a new model with a foreign key to the user is
included without touching this module. Left out, because they are someone else's data or
would reveal hidden cards: the accounts a teacher created (those students' own data), the
state and seed of game tables (other players' hands, the deck order), and password hashes.
Everything about a table still being played waits until it ends (its table, seat, moves,
events and prompts; the kana and card counters while any game of the person is in play), and
open prompts wait until answered (their kana is the answer): docs/security.md §10.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core import serializers
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Move, Seat, Table, TableStatus
from kanagame.accounts.models import LoginFailure
from kanagame.accounts.services import username_canonical
from learning.models.memory import PromptStatus

# (model label, field pointing at the user) whose rows are other people's data.
NOT_THEIRS = {("accounts.Profile", "created_by")}
# Fields never exported: hidden game information.
HIDDEN_FIELDS = {"games.Table": {"state", "seed"}}
# Counters a game in play moves (the kana and cards of a hand): held back whole while one of
# the person's tables is being played, so that no diff of two downloads shows the hand.
HELD_WHILE_PLAYING = {"learning.KanaMemory", "learning.CardSighting"}


def _held_back_message() -> str:
    return _("Held back while one of this person's games is being played: included once it ends.")


def _settled(queryset, label: str, in_play):
    """Leave out what belongs to a table still being played (its rows, events, prompts) and
    open prompts (their kana is the answer): they are exported once settled."""
    if label == "games.Table":
        queryset = queryset.exclude(pk__in=in_play)
    elif any(f.attname == "table_id" for f in queryset.model._meta.concrete_fields):
        queryset = queryset.exclude(table_id__in=in_play)
    if label == "learning.Prompt":
        queryset = queryset.exclude(status=PromptStatus.OPEN)
    return queryset


def _rows(queryset, label: str) -> list[dict]:
    hidden = HIDDEN_FIELDS.get(label, set())
    fields = [
        f.name
        for f in queryset.model._meta.concrete_fields
        if not f.primary_key and f.name not in hidden
    ]
    rows = serializers.serialize("python", queryset.order_by("pk"), fields=fields)
    return [{"id": row["pk"], **row["fields"]} for row in rows]


def personal_data_for(*, user: AbstractBaseUser) -> dict:
    """A JSON-able dict of every row about `user`: account, profile, learning, games."""
    records: dict[str, list[dict] | str] = {}
    in_play = Table.objects.exclude(status=TableStatus.FINISHED).values("id")
    playing = Seat.objects.filter(user=user, table__in=in_play).exists()
    for relation in get_user_model()._meta.related_objects:
        model = relation.related_model
        label = model._meta.label
        if (label, relation.field.name) in NOT_THEIRS:
            continue
        key = (
            label
            if relation.field.name in ("user", "learner", "student")
            else (f"{label} ({relation.field.name})")
        )
        if playing and label in HELD_WHILE_PLAYING:
            records[key] = _held_back_message()
            continue
        rows = model._default_manager.filter(**{relation.field.name: user})
        records[key] = _rows(_settled(rows, label, in_play), label)
    seats = list(
        Seat.objects.filter(user=user).exclude(table__in=in_play).values_list("table_id", "index")
    )
    played = Q(pk__in=[table_id for table_id, _index in seats])
    records["games.Table (played at)"] = _rows(Table.objects.filter(played), "games.Table")
    mine = Q(pk__in=[])
    for table_id, index in seats:
        mine |= Q(table_id=table_id, seat=index, by_bot=False)
    records["games.Move (own moves)"] = _rows(Move.objects.filter(mine), "games.Move")
    records["accounts.LoginFailure (failed logins to this username)"] = _rows(
        LoginFailure.objects.filter(username=username_canonical(user.get_username())),
        "accounts.LoginFailure",
    )
    last_login = user.last_login.isoformat(timespec="seconds") if user.last_login else None
    return {
        "generated_at": timezone.now().isoformat(timespec="seconds"),
        "account": {
            "id": user.pk,
            "username": user.get_username(),
            "email": user.email,
            "date_joined": user.date_joined.isoformat(timespec="seconds"),
            "last_login": last_login,
            "is_active": user.is_active,
        },
        "records": records,
    }
