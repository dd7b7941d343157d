"""Accounts and the classroom became apps of their own, then classes moved down to a low app:
a database migrated on an old layout migrates forward with every row kept and every link
intact, and back.

1. Every model in `learning` (before accounts and classroom): `BEFORE`.
2. Classes in the classroom, `games.Table` with plain ids for its class and assignment
   (before `kanagame.classes`): `BEFORE_CLASSES`.
"""

from datetime import timedelta

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.models import Table
from kanagame.accounts.models import LoginFailure, Profile, RateCounter
from kanagame.classes.models import Classroom, Membership
from learning.classroom.models import (
    Assignment,
    AssignmentTable,
    ConfusionSummary,
    LearnerActivity,
)

# The last migrations before the move, and the apps that did not exist then.
BEFORE = [
    ("learning", "0010_rate_counter_security"),
    ("games", "0002_created_by_set_null"),
    ("accounts", None),
    ("classroom", None),
    ("classes", None),
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
def test_a_database_of_the_old_layout_migrates_forward_with_every_row_and_back():
    """Forward, then back to the old layout on the same rows (one round trip: a migration to
    the old layout and back costs seconds)."""
    executor = _migrate(BEFORE)
    ids = _old_rows(_applied_state_apps(executor))
    before = _row_counts()
    counts_before = dict(before)
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
    assert table.classroom == classroom
    assert AssignmentTable.objects.get(table=table).assignment_id == ids["assignment"]
    assert ContentType.objects.filter(app_label="classes", model="classroom").exists()
    assert ContentType.objects.filter(app_label="classroom", model="assignment").exists()
    assert not ContentType.objects.filter(app_label="learning", model="classroom").exists()

    # and back: every row of the old layout as it was, the table's class id on it again
    executor = _migrate(BEFORE)
    assert _row_counts() == counts_before
    old_apps = _applied_state_apps(executor)
    assert (
        old_apps.get_model("games", "Table").objects.get(pk=ids["table"]).classroom_id
        == (ids["classroom"])
    )
    _migrate(executor.loader.graph.leaf_nodes())


# --- 2. classes move down to kanagame.classes; the assignment link to the classroom ------------

BEFORE_CLASSES = [
    ("games", "0006_table_forfeit_seat"),
    ("classroom", "0002_class_syllabus"),
    ("classes", None),
]
OUR_MIGRATIONS = {
    ("classes", "0001_classes_from_classroom"),
    ("games", "0007_table_class_orphans_unlinked"),
    ("games", "0008_table_classroom_foreign_key"),
    ("games", "0009_table_assignment_to_classroom"),
    ("classroom", "0003_classes_moved_down_assignment_tables"),
}
GONE_CLASS = 987_654  # the id of a class deleted long ago, still on a table
GONE_ASSIGNMENT = 876_543


def _school_before_classes(apps) -> dict:
    """A teacher, her students in two classes, assignments, tables linked to a class and an
    assignment, one whose class is gone, one whose assignment is gone; summaries."""
    now = timezone.now()
    User = apps.get_model("auth", "User")
    Profile = apps.get_model("accounts", "Profile")
    alice = User.objects.create(username="alice", password="!")
    Profile.objects.create(user=alice, role="teacher")
    students = []
    for name in ("bob", "erin", "sam"):
        student = User.objects.create(username=name, password="!")
        Profile.objects.create(user=student, role="student", created_by=alice)
        students.append(student)
    bob, erin, sam = students
    Classroom = apps.get_model("classroom", "Classroom")
    Membership = apps.get_model("classroom", "Membership")
    first = Classroom.objects.create(teacher=alice, name="5B Kana", join_code="KMN7RT")
    second = Classroom.objects.create(
        teacher=alice, name="6A Kana", join_code="TRW4XY", syllabus="katakana"
    )
    for classroom, student in ((first, bob), (first, erin), (second, sam), (second, bob)):
        Membership.objects.create(classroom=classroom, student=student)
    Assignment = apps.get_model("classroom", "Assignment")
    rows = Assignment.objects.create(classroom=first, due_at=now + timedelta(days=3))
    words = Assignment.objects.create(
        classroom=second, engine="kazoku-words", due_at=now + timedelta(days=5)
    )
    apps.get_model("classroom", "ConfusionSummary").objects.create(
        learner=bob, kana_id="shi", script="katakana", confused_with="tsu", count=2
    )
    apps.get_model("classroom", "LearnerActivity").objects.create(learner=erin, computed_at=now)
    Table, Seat = apps.get_model("games", "Table"), apps.get_model("games", "Seat")
    links = {
        "rows": (first.pk, rows.pk),
        "class only": (first.pk, None),
        "words": (second.pk, words.pk),
        "no class": (None, None),
        "class gone": (GONE_CLASS, None),
        "assignment gone": (first.pk, GONE_ASSIGNMENT),
    }
    tables = {}
    for index, (name, (classroom_id, assignment_id)) in enumerate(links.items()):
        table = Table.objects.create(
            engine="kazoku-families",
            players=2,
            created_by=bob,
            classroom_id=classroom_id,
            assignment_id=assignment_id,
            code=f"OLD{index:03}",
        )
        Seat.objects.create(table=table, index=0, user=bob)
        tables[name] = table.pk
    return {"classes": (first.pk, second.pk), "assignments": (rows.pk, words.pk),
            "tables": tables, "links": links}  # fmt: skip


def _table_links(apps) -> dict[int, tuple]:
    Table = apps.get_model("games", "Table")
    rows = Table.objects.values_list("pk", "classroom_id", "assignment_id")
    return {pk: (classroom_id, assignment_id) for pk, classroom_id, assignment_id in rows}


@pytest.mark.django_db(transaction=True)
def test_classes_move_down_with_every_row_and_tables_get_real_keys_and_back_up():
    """Forward, back to the old layout and forward again on the same rows (one test: each
    migration between the layouts costs seconds)."""
    executor = _migrate(BEFORE_CLASSES)
    school = _school_before_classes(_applied_state_apps(executor))
    before, links_before = _row_counts(), _table_links(_applied_state_apps(executor))
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    pending = {(migration.app_label, migration.name) for migration, _backwards in plan}
    assert OUR_MIGRATIONS <= pending
    executor = _migrate(executor.loader.graph.leaf_nodes())

    after, counts_before = _row_counts(), dict(before)
    assert after.pop("django_migrations") == before.pop("django_migrations") + len(pending)
    assert after.pop("classroom_assignmenttable") == 2  # the new link rows
    assert after == before  # no row lost or added anywhere else
    first, second = (Classroom.objects.get(pk=pk) for pk in school["classes"])
    assert (first.name, second.syllabus, first.teacher.username) == ("5B Kana", "katakana", "alice")
    assert sorted(Membership.objects.values_list("classroom__name", "student__username")) == [
        ("5B Kana", "bob"), ("5B Kana", "erin"), ("6A Kana", "bob"), ("6A Kana", "sam"),
    ]  # fmt: skip
    rows, words = (Assignment.objects.get(pk=pk) for pk in school["assignments"])
    assert (rows.classroom, words.classroom) == (first, second)
    tables = {name: Table.objects.get(pk=pk) for name, pk in school["tables"].items()}
    assert tables["rows"].classroom == first and tables["words"].classroom == second
    assert tables["class only"].classroom == first and tables["no class"].classroom is None
    assert tables["class gone"].classroom_id is None  # nulled before the constraint
    assert tables["assignment gone"].classroom == first
    assert {(link.table_id, link.assignment_id) for link in AssignmentTable.objects.all()} == {
        (tables["rows"].pk, rows.pk), (tables["words"].pk, words.pk),
    }  # fmt: skip
    assert tables["rows"].assignment_link.assignment == rows
    in_first = {tables["rows"], tables["class only"], tables["assignment gone"]}
    assert set(first.tables.all()) == in_first
    assert ContentType.objects.filter(app_label="classes", model="classroom").exists()
    assert ContentType.objects.filter(app_label="classes", model="membership").exists()
    assert not ContentType.objects.filter(app_label="classroom", model="classroom").exists()

    # back up: every row as it was, every class and assignment id back on its table
    executor = _migrate(BEFORE_CLASSES)
    assert _row_counts() == counts_before  # the link table is gone, every other row is back
    links = _table_links(_applied_state_apps(executor))
    ids = school["tables"]
    # except the two that named nothing (a class and an assignment deleted long ago): those
    # stay null
    expected = dict(links_before)
    expected[ids["class gone"]] = (None, None)
    expected[ids["assignment gone"]] = (school["classes"][0], None)
    assert links == expected
    assert links[ids["rows"]] == school["links"]["rows"]
    assert links[ids["words"]] == school["links"]["words"]
    old_content_types = _applied_state_apps(executor).get_model("contenttypes", "ContentType")
    assert old_content_types.objects.filter(app_label="classroom", model="classroom").exists()
    assert not old_content_types.objects.filter(app_label="classes", model="classroom").exists()

    # and down again: the foreign key is a real constraint, deleting a class keeps its tables
    _migrate(executor.loader.graph.leaf_nodes())
    assert AssignmentTable.objects.count() == 2
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.filter(pk=ids["no class"]).update(classroom_id=GONE_CLASS)
    Classroom.objects.get(pk=school["classes"][1]).delete()
    words_table = Table.objects.get(pk=ids["words"])
    assert words_table.classroom_id is None
    assert not AssignmentTable.objects.filter(table=words_table).exists()
