"""Accounts and the classroom became apps of their own: a database migrated on the old layout
(every model in `learning`) migrates forward with every row kept and every link intact."""

from datetime import timedelta

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.models import Table
from kanagame.accounts.models import LoginFailure, Profile, RateCounter
from learning.classroom.models import (
    Assignment,
    Classroom,
    ConfusionSummary,
    LearnerActivity,
    Membership,
)

# The last migrations before the move, and the apps that did not exist then.
BEFORE = [
    ("learning", "0010_rate_counter_security"),
    ("games", "0002_created_by_set_null"),
    ("accounts", None),
    ("classroom", None),
]


def _applied_state_apps(executor: MigrationExecutor):
    """The models as the database has them now (every applied migration, every app)."""
    return executor.loader.project_state(list(executor.loader.applied_migrations)).apps


def _migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)  # a fresh loader sees what is applied now


def _row_counts() -> dict[str, int]:
    with connection.cursor() as cursor:
        counts = {}
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f'SELECT COUNT(*) FROM "{table}"')
            counts[table] = cursor.fetchone()[0]
    return counts


def _old_rows(apps) -> dict[str, int]:
    """A small school on the old schema: returns the ids to look for afterwards."""
    now = timezone.now()
    User = apps.get_model("auth", "User")
    alice = User.objects.create(username="alice", password="!")
    bob = User.objects.create(username="bob", password="!")
    apps.get_model("learning", "Profile").objects.create(user=alice, role="teacher")
    apps.get_model("learning", "Profile").objects.create(user=bob, role="student")
    apps.get_model("learning", "LoginFailure").objects.create(
        username="bob", ip_address="203.0.113.7", created_at=now
    )
    apps.get_model("learning", "RateCounter").objects.create(
        key="join-code:203.0.113.7", count=3, expires_at=now
    )
    classroom = apps.get_model("learning", "Classroom").objects.create(
        teacher=alice, name="5B Kana", join_code="KMN7RT"
    )
    apps.get_model("learning", "Membership").objects.create(classroom=classroom, student=bob)
    assignment = apps.get_model("learning", "Assignment").objects.create(
        classroom=classroom, due_at=now + timedelta(days=3)
    )
    apps.get_model("learning", "ConfusionSummary").objects.create(
        learner=bob, kana_id="shi", script="katakana", confused_with="tsu", count=2
    )
    apps.get_model("learning", "LearnerActivity").objects.create(learner=bob, computed_at=now)
    table = apps.get_model("games", "Table").objects.create(
        engine="kazoku-families",
        players=2,
        created_by=bob,
        classroom=classroom,
        assignment=assignment,
        code="OLD123",
    )
    apps.get_model("games", "Seat").objects.create(table=table, index=0, user=bob)
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.get_or_create(app_label="learning", model="classroom")
    return {"classroom": classroom.pk, "assignment": assignment.pk, "table": table.pk}


@pytest.mark.django_db(transaction=True)
def test_a_database_of_the_old_layout_migrates_forward_with_every_row():
    executor = _migrate(BEFORE)
    ids = _old_rows(_applied_state_apps(executor))
    before = _row_counts()
    assert before["learning_classroom"] == 1 and before["learning_profile"] == 2

    pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    assert any(m.name == "0011_accounts_and_classroom_moved_out" for m, _ in pending)
    executor = _migrate(executor.loader.graph.leaf_nodes())

    after = _row_counts()
    # one record per migration applied (the move and any later ones), no other row changed
    assert after.pop("django_migrations") == before.pop("django_migrations") + len(pending)
    assert {table: after.get(table) for table in before} == before  # no row lost or added
    # The moved models read the same rows, and the links between apps still resolve.
    assert Profile.objects.get(user__username="alice").role == "teacher"
    assert LoginFailure.objects.get().username == "bob"
    assert RateCounter.objects.get().count == 3
    classroom = Classroom.objects.get(pk=ids["classroom"])
    assert classroom.name == "5B Kana" and classroom.teacher.username == "alice"
    assert Membership.objects.get().student.username == "bob"
    assert Assignment.objects.get(pk=ids["assignment"]).classroom == classroom
    assert ConfusionSummary.objects.get().count == 2 and LearnerActivity.objects.count() == 1
    table = Table.objects.get(pk=ids["table"])
    assert (table.classroom_id, table.assignment_id) == (classroom.pk, ids["assignment"])
    assert ContentType.objects.filter(app_label="classroom", model="classroom").exists()
    assert not ContentType.objects.filter(app_label="learning", model="classroom").exists()


@pytest.mark.django_db(transaction=True)
def test_the_move_migrates_back_to_the_old_layout_too():
    executor = _migrate(BEFORE)
    ids = _old_rows(_applied_state_apps(executor))
    before = _row_counts()
    executor = _migrate(executor.loader.graph.leaf_nodes())
    executor = _migrate(BEFORE)
    assert _row_counts() == before
    old_apps = _applied_state_apps(executor)
    assert (
        old_apps.get_model("games", "Table").objects.get(pk=ids["table"]).classroom_id
        == (ids["classroom"])
    )
    _migrate(executor.loader.graph.leaf_nodes())
