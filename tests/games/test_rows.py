"""The hot reads written in SQL (kanagame.accounts.rows) return what the ORM returns."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from factories import solo_kazoku_table

from games.models import Seat, Table
from games.selectors import table_unchanged_since, table_with_seats
from games.services.tables import table_create

pytestmark = pytest.mark.django_db(transaction=True)


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_a_table_with_its_seats_users_and_profiles_in_one_query(bob, dana):
    table = table_create(
        user=bob,
        engine="kazoku-families",
        options={"timer": 30},
        seats=[
            {"kind": "human", "user": bob},
            {"kind": "bot", "level": "easy"},
            {"kind": "human", "user": dana},
        ],
    )
    Table.objects.filter(pk=table.pk).update(ranked=True, turn_due_at=timezone.now())

    with CaptureQueriesContext(connection) as queries:
        found, seats = table_with_seats(code=table.code)
        names = {i: (s.user.profile.name if s.user else None) for i, s in seats.items()}
    assert len(queries) == 1

    assert fields(found) == fields(Table.objects.get(pk=table.pk))
    assert isinstance(found.state, dict) and found.ranked is True
    assert found.turn_due_at.tzinfo is not None
    expected = Seat.objects.filter(table=table).select_related("user__profile").order_by("index")
    assert list(seats) == [0, 1, 2]
    for seat in expected:
        assert fields(seats[seat.index]) == fields(seat)
        assert seats[seat.index].table is found
        if seat.user is not None:
            assert fields(seats[seat.index].user) == fields(seat.user)
            assert fields(seats[seat.index].user.profile) == fields(seat.user.profile)
    assert names == {0: bob.profile.name, 1: None, 2: dana.profile.name}
    assert table_with_seats(code="NOSUCH") is None
    by_id, seats_by_id = table_with_seats(table_id=table.pk)  # a CPU players' task's read
    assert fields(by_id) == fields(found)
    assert {i: fields(s) for i, s in seats_by_id.items()} == {
        i: fields(s) for i, s in seats.items()
    }
    assert table_with_seats(table_id=table.pk + 1000) is None
    with pytest.raises(TypeError):
        table_with_seats(code=table.code, table_id=table.pk)
    with pytest.raises(TypeError):
        table_with_seats()


def test_the_cheap_poll_reads_version_status_and_due_time(bob):
    table = solo_kazoku_table(bob)
    now = timezone.now()
    assert table_unchanged_since(table_id=table.pk, tag=str(table.version), now=now)
    assert not table_unchanged_since(table_id=table.pk, tag=str(table.version + 1), now=now)
    Table.objects.filter(pk=table.pk).update(turn_due_at=now - timedelta(seconds=1))
    assert not table_unchanged_since(table_id=table.pk, tag=str(table.version), now=now)
    Table.objects.filter(pk=table.pk).update(turn_due_at=now + timedelta(seconds=30))
    assert table_unchanged_since(table_id=table.pk, tag=str(table.version), now=now)
    assert not table_unchanged_since(table_id=table.pk + 999, tag="0", now=now)


def test_insert_and_update_write_as_the_orm_does(bob):
    from django.db import IntegrityError, transaction

    from games.models import Move
    from kanagame.accounts.rows import insert, update

    table = solo_kazoku_table(bob)
    moves = [
        Move(table=table, version=90 + i, seat=i, action={"type": "x", "n": i}, token=f"k{i}")
        for i in range(2)
    ]
    insert(moves)
    assert all(m.pk for m in moves) and not moves[0]._state.adding
    saved = Move.objects.get(pk=moves[1].pk)
    assert (saved.version, saved.action, saved.token, saved.by_bot) == (
        91,
        moves[1].action,
        "k1",
        False,
    )
    assert saved.created_at is not None and saved.created_at == moves[1].created_at
    with pytest.raises(IntegrityError), transaction.atomic():
        insert([Move(table=table, version=91, seat=0, action={})])  # (table, version) is taken

    table.refresh_from_db()
    guard = {"id": table.pk, "version": table.version, "status": "playing"}
    assert update(Table, {"version": table.version + 2, "turn_due_at": None}, where=guard) == 1
    assert update(Table, {"version": 0}, where=guard) == 0  # the version moved on
    assert Table.objects.get(pk=table.pk).version == table.version + 2


def test_insert_many_writes_the_rows_bulk_create_writes(bob):
    from datetime import UTC, datetime

    from games.models import Move
    from kanagame.accounts.rows import insert_many
    from learning.models import LearningEvent

    at = datetime(2026, 3, 1, 18, 0, 5, 123456, tzinfo=UTC)

    def events(source):
        return [
            LearningEvent(learner=bob, kana_id="shi", script="katakana", kind="answer",
                          correct=False, confused_with="tsu", response_ms=2400,
                          answer_kind="typed", predicted=0.625, source=source, created_at=at),
            LearningEvent(learner=bob, kana_id="a", script="hiragana", kind="exposure",
                          source=source, created_at=at + timedelta(days=400)),
        ]  # fmt: skip

    LearningEvent.objects.bulk_create(events("play"))
    insert_many(events("quiz"))
    insert_many([])  # nothing to write: no statement

    def rows(source):
        return list(
            LearningEvent.objects.filter(source=source).order_by("pk").values(
                *(f.attname for f in LearningEvent._meta.concrete_fields if f.attname not in
                  ("id", "source"))
            )
        )  # fmt: skip

    assert rows("quiz") == rows("play") and len(rows("quiz")) == 2
    assert rows("quiz")[0]["created_at"] == at and rows("quiz")[1]["correct"] is None
    # a field filled at save time (``auto_now_add``) is filled as bulk_create fills it
    table = solo_kazoku_table(bob)
    insert_many([Move(table=table, version=70 + i, seat=0, action={"n": i}) for i in range(3)])
    saved = list(Move.objects.filter(table=table, version__gte=70).order_by("version"))
    assert [(m.version, m.action) for m in saved] == [(70 + i, {"n": i}) for i in range(3)]
    assert all(m.created_at is not None for m in saved)


def test_instances_are_built_as_from_db_builds_them_and_receivers_are_told(bob):
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.models import Session
    from django.db.models.signals import post_init

    from kanagame.accounts.models import Profile
    from kanagame.accounts.rows import Columns, fetch
    from learning.models import Prompt

    table = table_create(
        user=bob,
        engine="kazoku-families",
        options={},
        seats=[{"kind": "human", "user": bob}, {"kind": "bot", "level": "easy"}],
    )
    for model, pk in (
        (Table, table.pk),
        (Seat, table.seats.get(index=0).pk),
        (get_user_model(), bob.pk),
        (Profile, bob.profile.pk),
    ):
        columns = Columns(model, "x")
        assert columns.plain, model
        sql = (
            f"SELECT {columns.sql()} FROM {connection.ops.quote_name(model._meta.db_table)} x "
            f"WHERE x.{connection.ops.quote_name(model._meta.pk.column)} = %s"
        )
        [[built]] = fetch(sql, [pk], [columns])
        orm = model.objects.get(pk=pk)
        assert type(built) is model
        assert {k: v for k, v in vars(built).items() if k != "_state"} == {
            k: v for k, v in vars(orm).items() if k != "_state"
        }
        assert (built._state.adding, built._state.db) == (False, orm._state.db)
        built.save()  # an UPDATE of the row, not an INSERT
        assert model.objects.filter(pk=pk).count() == 1
        built.refresh_from_db()
    assert Columns(Prompt, "p").plain and Columns(Session, "s").plain

    told = []

    def receiver(sender, instance, **kwargs):
        told.append(instance)

    post_init.connect(receiver, sender=Table)
    try:
        columns = Columns(Table, "x")
        sql = f"SELECT {columns.sql()} FROM games_table x WHERE x.id = %s"
        [[built]] = fetch(sql, [table.pk], [columns])
    finally:
        post_init.disconnect(receiver, sender=Table)
    assert told == [built]  # a receiver connected: built by ``from_db``, which tells it


def test_prepared_values_kept_across_statements_equal_each_fields_own():
    from django.test import override_settings

    from kanagame.accounts import rows
    from learning.models import LearningEvent

    rows._PREPARED.clear()
    fields = {f.attname: f for f in LearningEvent._meta.concrete_fields}
    plain = [f for f in fields.values() if rows._timeless(f)]
    values = [1, True, 1.0, "1", None, 0, False, ""]
    for _statement in range(2):  # the second statement finds them kept
        prepare = rows._Preparer()
        for field in plain:
            for value in values:
                try:
                    want = field.get_db_prep_save(value, connection)
                except (TypeError, ValueError) as exc:  # refused by the field: by both
                    with pytest.raises(type(exc)):
                        prepare(field, value)
                    continue
                got = prepare(field, value)
                assert got == want and type(got) is type(want), (field.name, value)
    assert rows._PREPARED  # kept (a CharField makes "1", "True" and "1.0" of 1, True, 1.0)
    # a time is never kept: its form follows the time zone settings
    timed = next(f for f in fields.values() if not rows._timeless(f))
    moment = timezone.now().replace(tzinfo=None)
    with override_settings(USE_TZ=False):
        assert rows._Preparer()(timed, moment) == timed.get_db_prep_save(moment, connection)
    assert not any(key[0] is timed for key in rows._PREPARED)


def test_the_prepared_values_kept_are_bounded(monkeypatch):
    from kanagame.accounts import rows
    from learning.models import LearningEvent

    monkeypatch.setattr(rows, "PREPARED_KEPT", 10)
    rows._PREPARED.clear()
    field = LearningEvent._meta.get_field("learner")
    for n in range(25):
        assert rows._Preparer()(field, n) == field.get_db_prep_save(n, connection)
        assert len(rows._PREPARED) <= 10
