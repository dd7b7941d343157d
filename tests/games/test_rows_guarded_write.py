"""``kanagame.accounts.rows.update_then_insert``: the guarded write of a move (one statement on
PostgreSQL, two on SQLite) saves the Moves only when the guard matched one row."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from factories import solo_kazoku_table

from games.models import Move, Table
from kanagame.accounts.rows import update_then_insert

pytestmark = pytest.mark.django_db(transaction=True)


class Refused(Exception):
    pass


def test_the_guard_decides_and_a_refusal_leaves_nothing(bob):
    table = solo_kazoku_table(bob)
    start = table.version
    guard = {"id": table.pk, "version": start, "status": "playing"}

    def moves(first: int) -> list[Move]:
        return [
            Move(table=table, version=first + i, seat=i % 2, action={"n": i}, token=f"t{first + i}")
            for i in range(3)
        ]

    # the guard matches: the table moves on and the Moves are saved, with their keys
    written = moves(start + 1)
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        assert update_then_insert(Table, {"version": start + 3}, guard, written)
    assert len([q for q in queries if "games_move" in q["sql"]]) == 1
    writes = [q for q in queries if q["sql"].lstrip().upper().startswith(("UPDATE", "WITH"))]
    assert len(writes) == 1 and ("WITH" in writes[0]["sql"]) == (connection.vendor == "postgresql")
    assert all(m.pk and not m._state.adding for m in written)
    assert Table.objects.get(pk=table.pk).version == start + 3
    saved = Move.objects.filter(table=table).order_by("version")
    assert [(m.pk, m.version, m.action, m.token) for m in saved] == [
        (m.pk, m.version, m.action, m.token) for m in written
    ]

    # a stale guard: False, and the transaction rolled back keeps nothing of the attempt
    late = moves(start + 4)
    with pytest.raises(Refused), transaction.atomic():
        if not update_then_insert(Table, {"version": start + 6}, guard, late):
            raise Refused
    assert Table.objects.get(pk=table.pk).version == start + 3
    assert Move.objects.filter(table=table).count() == 3

    # a version already taken by a Move: the ORM's IntegrityError, nothing kept
    fresh_guard = {**guard, "version": start + 3}
    with pytest.raises(IntegrityError), transaction.atomic():
        update_then_insert(Table, {"version": start + 4}, fresh_guard, moves(start + 3)[:1])
    assert Table.objects.get(pk=table.pk).version == start + 3
    assert Move.objects.filter(table=table).count() == 3


@pytest.mark.postgresql
def test_two_writers_racing_for_one_version_save_one_move_set(bob):
    """Two connections write the same version at once (PostgreSQL): exactly one wins, the
    other saves nothing, whichever of its UPDATE and INSERT ran first."""
    import threading

    from django.db import connections

    if connection.vendor != "postgresql":  # SQLite's in-memory test database: one writer
        pytest.skip(
            "a race of two connections, as PostgreSQL runs them: CI pass 2 runs it, and pass "
            "2b fails if it was skipped there"
        )

    table = solo_kazoku_table(bob)
    start = table.version
    guard = {"id": table.pk, "version": start, "status": "playing"}
    barrier, results = threading.Barrier(2), []

    def writer(name: str) -> None:
        try:
            moves = [
                Move(table=table, version=start + 1 + i, seat=i % 2, action={"w": name},
                     token=f"{name}{i}")
                for i in range(2)
            ]  # fmt: skip
            barrier.wait()
            try:
                with transaction.atomic():
                    if not update_then_insert(Table, {"version": start + 2}, guard, moves):
                        raise Refused
                results.append(("won", name))
            except (Refused, IntegrityError):
                results.append(("lost", name))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcome for outcome, _name in results) == ["lost", "won"]
    winner = next(name for outcome, name in results if outcome == "won")
    saved = Move.objects.filter(table=table)
    assert saved.count() == 2 and {m.action["w"] for m in saved} == {winner}
    assert Table.objects.get(pk=table.pk).version == start + 2
