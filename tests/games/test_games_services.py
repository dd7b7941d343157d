"""Table services: creation, joining, moves, versions, tokens, CPU tasks, timers."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import tasks
from games.engines import action_key
from games.models import Move, Seat, Table
from games.services.play import PlayError, StaleVersion, table_play, table_timeouts_run
from games.services.tables import (
    seat_return,
    table_create,
    table_join,
    table_leave,
    table_start,
)

ADD1 = action_key({"type": "add", "n": 1})
ADD2 = action_key({"type": "add", "n": 2})


def solo(user, engine, *, players=3, **options):
    seats = [{"kind": "human", "user": user}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
    return table_create(user=user, engine=engine, options=options, seats=seats)


def duo(a, b, engine, **options):
    seats = [{"kind": "human", "user": a}, {"kind": "human", "user": b}]
    return table_create(user=a, engine=engine, options=options, seats=seats)


@pytest.mark.django_db(transaction=True)
class TestTableCreate:
    def test_solo_table_starts_at_once(self, dana, count_engine):
        table = solo(dana, count_engine)
        assert table.status == "playing" and table.version == 0
        assert table.state["total"] == 0
        assert [s.bot_level for s in table.seats.all()] == ["", "easy", "easy"]
        assert len(table.code) == 6 and table.get_absolute_url().endswith(f"/{table.code}/")

    def test_table_options_get_defaults_and_are_checked(self, dana, count_engine):
        table = solo(dana, count_engine, target=12)
        assert table.options == {
            "target": 12,
            "script": "hiragana",
            "romaji": "always",
            "prompts": "new",
            "timer": 0,
        }
        with pytest.raises(ValueError, match="timer"):
            solo(dana, count_engine, timer=45)
        with pytest.raises(ValueError, match="unknown option"):
            solo(dana, count_engine, colour="red")
        with pytest.raises(ValueError, match="target"):
            solo(dana, count_engine, target=1)
        assert Table.objects.count() == 1  # only the valid one

    def test_seats_are_checked(self, dana, count_engine):
        with pytest.raises(ValueError, match="players"):
            solo(dana, count_engine, players=5)
        with pytest.raises(ValueError, match="only one seat"):
            duo(dana, dana, count_engine)
        with pytest.raises(ValueError, match="unknown game"):
            table_create(user=dana, engine="chess", options={}, seats=[])

    def test_table_with_open_seat_waits_then_deals_when_full(self, bob, erin, count_engine):
        table = table_create(
            user=bob,
            engine=count_engine,
            options={},
            seats=[{"kind": "human", "user": bob}, {"kind": "open"}],
        )
        assert table.status == "open" and table.state is None
        seat = table_join(table=table, user=erin)
        assert seat.index == 1
        table.refresh_from_db()
        assert table.status == "playing" and table.state["total"] == 0

    def test_join_twice_finds_the_same_seat_and_full_table_refuses(
        self, bob, erin, charlie, count_engine
    ):
        table = table_create(
            user=bob,
            engine=count_engine,
            options={},
            seats=[{"kind": "human", "user": bob}, {"kind": "open"}],
        )
        assert table_join(table=table, user=bob).index == 0
        table_join(table=table, user=erin)
        with pytest.raises(Exception, match="already started"):
            table_join(table=table, user=charlie)

    def test_creator_starts_with_cpu_in_open_seats(self, bob, erin, count_engine):
        table = table_create(
            user=bob,
            engine=count_engine,
            options={},
            seats=[{"kind": "human", "user": bob}, {"kind": "open"}],
        )
        with pytest.raises(Exception, match="Only the player"):
            table_start(table=table, user=erin)
        table_start(table=table, user=bob)
        table.refresh_from_db()
        assert table.status == "playing"
        assert table.seats.get(index=1).bot_level == "normal"

    def test_leaving_a_waiting_table_frees_the_seat(self, bob, erin, count_engine):
        table = table_create(
            user=bob,
            engine=count_engine,
            options={},
            seats=[{"kind": "human", "user": bob}, {"kind": "open"}, {"kind": "open"}],
        )
        table_join(table=table, user=erin)
        table_leave(table=table, user=erin)
        assert table.seats.get(index=1).user is None
        table_leave(table=table, user=bob)
        assert not Table.objects.filter(pk=table.pk).exists()


@pytest.mark.django_db(transaction=True)
class TestPlay:
    def test_move_bumps_version_and_bots_reply_inline(self, dana, count_engine):
        table = solo(dana, count_engine, target=50)
        result = table_play(table=table, user=dana, version=0, token="t1", key=ADD1)
        # Two CPU seats replied (each adds 2) before table_play returned (eager mode).
        assert result.table.version == 3
        assert result.table.state["total"] == 5
        assert list(Move.objects.values_list("version", "seat", "by_bot")) == [
            (1, 0, False),
            (2, 1, True),
            (3, 2, True),
        ]

    def test_same_version_twice_one_wins_one_conflicts(self, bob, erin, count_engine):
        table = duo(bob, erin, count_engine)
        table_play(table=table, user=bob, version=0, token="a", key=ADD1)
        stale = Table.objects.get(pk=table.pk)
        table_play(table=stale, user=erin, version=1, token="b", key=ADD2)
        with pytest.raises(StaleVersion):
            table_play(table=stale, user=bob, version=1, token="c", key=ADD1)
        table.refresh_from_db()
        assert table.version == 2 and table.state["total"] == 3
        assert Move.objects.filter(table=table).count() == 2

    def test_guard_holds_when_the_in_memory_row_is_stale(self, bob, erin, count_engine):
        """Two writers that both read version 1 and both pass the checks: one wins."""
        table = duo(bob, erin, count_engine)
        table_play(table=table, user=bob, version=0, token="a", key=ADD1)
        first, second = Table.objects.get(pk=table.pk), Table.objects.get(pk=table.pk)
        table_play(table=first, user=erin, version=1, token="b", key=ADD2)
        with pytest.raises(StaleVersion):
            # `second` still says version 1, as if read before the first commit.
            table_play(table=second, user=erin, version=1, token="c", key=ADD1)
        assert Move.objects.filter(table=table).count() == 2

    def test_repeated_token_is_ignored(self, bob, erin, count_engine):
        table = duo(bob, erin, count_engine)
        table_play(table=table, user=bob, version=0, token="same", key=ADD1)
        again = table_play(table=table, user=bob, version=0, token="same", key=ADD1)
        assert again.duplicate and again.move is None
        table.refresh_from_db()
        assert table.version == 1 and Move.objects.count() == 1

    @pytest.mark.parametrize(
        ("user_name", "version", "key", "status"),
        [
            ("erin", 0, ADD1, 409),  # not her turn
            ("charlie", 0, ADD1, 403),  # no seat
            ("bob", "x", ADD1, 400),  # malformed version
            ("bob", 0, '{"type":"add","n":3}', 400),  # not a legal action
            ("bob", 0, None, 400),
        ],
    )
    def test_bad_moves_are_refused_and_change_nothing(
        self, bob, erin, charlie, count_engine, user_name, version, key, status
    ):
        table = duo(bob, erin, count_engine)
        user = {"bob": bob, "erin": erin, "charlie": charlie}[user_name]
        with pytest.raises(PlayError) as info:
            table_play(table=table, user=user, version=version, token="t", key=key)
        assert info.value.status == status
        table.refresh_from_db()
        assert table.version == 0 and not Move.objects.exists()

    def test_finished_table_refuses_moves(self, dana, count_engine):
        table = solo(dana, count_engine, players=2, target=3)
        table_play(table=table, user=dana, version=0, token="a", key=ADD2)  # 2, bot: 4
        table.refresh_from_db()
        assert table.status == "finished" and table.finished_at
        with pytest.raises(PlayError) as info:
            table_play(table=table, user=dana, version=table.version, token="b", key=ADD1)
        assert info.value.status == 409


@pytest.mark.django_db(transaction=True)
class TestBotTasks:
    def test_bot_task_delivered_twice_plays_once(self, dana, count_engine, monkeypatch):
        queued = []
        monkeypatch.setattr(tasks, "runs_eagerly", lambda: False)  # eager mode plays inline
        monkeypatch.setattr(tasks.bots_play, "delay", lambda *args: queued.append(args))
        table = solo(dana, count_engine, players=2, target=50)
        table_play(table=table, user=dana, version=0, token="a", key=ADD1)
        assert queued == [(table.pk, 1)]
        assert tasks.bots_play(table.pk, 1) == 1
        assert tasks.bots_play(table.pk, 1) == 0  # the duplicate: table is at version 2 now
        table.refresh_from_db()
        assert table.version == 2 and Move.objects.filter(table=table).count() == 2

    def test_a_bot_task_reads_its_table_and_seats_in_one_query(
        self, dana, count_engine, monkeypatch
    ):
        monkeypatch.setattr(tasks, "runs_eagerly", lambda: False)
        monkeypatch.setattr(tasks.bots_play, "delay_on_commit", lambda *args: None)
        table = solo(dana, count_engine, players=2, target=50)
        table_play(table=table, user=dana, version=0, token="a", key=ADD1)
        with CaptureQueriesContext(connection) as queries:
            assert tasks.bots_play(table.pk, 1) == 1
        reads = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT")]
        table_reads = [sql for sql in reads if 'FROM "games_table"' in sql]
        assert len(table_reads) == 1, table_reads  # the table, with its seats joined
        assert "games_seat" in table_reads[0]
        assert not any('FROM "games_seat"' in sql for sql in reads)
        assert tasks.bots_play(table.pk + 1000, 1) == 0  # no such table: nothing, no error

    def test_bot_task_for_an_old_version_is_a_no_op(self, dana, count_engine):
        table = solo(dana, count_engine, target=50)
        table_play(table=table, user=dana, version=0, token="a", key=ADD1)
        table.refresh_from_db()
        assert tasks.bots_play(table.pk, 1) == 0
        assert tasks.bots_play(table.pk, 0) == 0
        table.refresh_from_db()
        assert table.version == 3

    def test_moves_queue_the_bot_task_on_commit(
        self, dana, count_engine, django_capture_on_commit_callbacks, monkeypatch
    ):
        calls = []
        monkeypatch.setattr(tasks, "runs_eagerly", lambda: False)  # eager mode plays inline
        monkeypatch.setattr(tasks.bots_play, "delay", lambda *args: calls.append(args))
        table = solo(dana, count_engine, target=50)
        with django_capture_on_commit_callbacks(execute=True):
            table_play(table=table, user=dana, version=0, token="a", key=ADD1)
        assert calls == [(table.pk, 1)]


@pytest.mark.django_db(transaction=True)
class TestTimers:
    def test_overdue_human_is_played_by_a_bot_until_back(self, bob, erin, count_engine):
        table = duo(bob, erin, count_engine, timer=30, target=50)
        table.refresh_from_db()
        assert table.turn_due_at > timezone.now()  # bob's first turn is timed from the deal
        table_play(table=table, user=bob, version=0, token="a", key=ADD1)
        table.refresh_from_db()
        assert table.turn_due_at > timezone.now()
        assert table_timeouts_run(table=table) == 0  # not yet overdue
        Table.objects.filter(pk=table.pk).update(turn_due_at=timezone.now() - timedelta(seconds=1))
        table.refresh_from_db()
        assert table_timeouts_run(table=table) == 1  # erin's stand-in played
        assert Seat.objects.get(table=table, index=1).autoplay
        table.refresh_from_db()
        assert table.version == 2 and table.turn_due_at > timezone.now()  # bob's timer now
        table_play(table=table, user=bob, version=2, token="b", key=ADD1)
        table.refresh_from_db()
        # Erin is still away: her stand-in replied at once.
        assert table.version == 4
        seat_return(seat=Seat.objects.get(table=table, index=1))  # erin opens the board again
        table_play(table=table, user=bob, version=4, token="c", key=ADD1)
        table.refresh_from_db()
        assert table.version == 5  # erin plays herself now
        assert not Seat.objects.get(table=table, index=1).autoplay
        table_play(table=table, user=erin, version=5, token="d", key=ADD1)


@pytest.mark.django_db(transaction=True)
def test_beat_sweep_plays_overdue_turns_only(bob, erin, count_engine):
    table = duo(bob, erin, count_engine, timer=60, target=50)
    other = duo(erin, bob, count_engine, timer=60, target=50)
    table_play(table=table, user=bob, version=0, token="a", key=ADD1)
    table_play(table=other, user=erin, version=0, token="b", key=ADD1)
    Table.objects.filter(pk=table.pk).update(turn_due_at=timezone.now() - timedelta(seconds=5))
    assert tasks.timeouts_sweep() == 1
    table.refresh_from_db()
    other.refresh_from_db()
    assert table.version == 2 and other.version == 1
    assert tasks.timeouts_sweep() == 0


@pytest.mark.django_db(transaction=True)
def test_worker_mode_queues_bots_and_a_timer_without_playing_inline(
    bob, dana, count_engine, monkeypatch
):
    """With a worker (not eager) the move returns at once; CPU turns and the turn timer are
    queued after commit, the timer with a countdown (its due time is in the database)."""
    queued = []
    monkeypatch.setattr(tasks, "runs_eagerly", lambda: False)
    monkeypatch.setattr(tasks.bots_play, "delay_on_commit", lambda *a: queued.append(("bots", a)))
    monkeypatch.setattr(
        tasks.turn_timeout,
        "apply_async_on_commit",
        lambda args, countdown: queued.append(("timer", args, countdown)),
    )
    table = table_create(
        user=bob,
        engine=count_engine,
        options={"timer": 30, "target": 50},
        seats=[
            {"kind": "human", "user": bob},
            {"kind": "bot", "level": "easy"},
            {"kind": "human", "user": dana},
        ],
    )
    table_play(table=table, user=bob, version=0, token="a", key=ADD1)
    table.refresh_from_db()
    assert table.version == 1  # the CPU has not played inline
    # The deal timed bob's first turn; his move queued the CPU turn (no timer: a CPU is to act).
    assert queued == [("timer", (table.pk, 0), 31), ("bots", (table.pk, 1))]
    tasks.bots_play(table.pk, 1)  # what the worker does
    table.refresh_from_db()
    assert table.version == 2 and table.turn_due_at is not None  # dana's turn, timed
    assert queued[-1] == ("timer", (table.pk, 2), 31)


@pytest.mark.django_db(transaction=True)
def test_classroom_selectors(bob, erin, alice_class, count_engine):
    from games.selectors import games_finished_by, tables_for_classroom

    finished = table_create(
        user=bob,
        engine=count_engine,
        options={"target": 3},
        seats=[{"kind": "human", "user": bob}, {"kind": "bot"}],
        classroom=alice_class,
    )
    table_play(table=finished, user=bob, version=0, token="a", key=ADD2)  # 2, CPU: 4 -> over
    playing = duo(bob, erin, count_engine)
    playing.classroom_id = alice_class.pk
    playing.save()
    assert set(tables_for_classroom(classroom=alice_class)) == {finished, playing}
    assert list(tables_for_classroom(classroom=alice_class, status="finished")) == [finished]
    games = games_finished_by(user=bob)
    assert [g.table_id for g in games] == [finished.pk]
    assert games[0].duration.total_seconds() >= 0 and games[0].seat == 0
    assert games_finished_by(user=erin) == []
    later = timezone.now() + timedelta(minutes=1)
    assert games_finished_by(user=bob, since=later) == []
