"""The classroom plugs into games through games/hooks.py and games.signals, not imports.

games reads who is in which class from the low app kanagame.classes (a table's class is a
real foreign key), shows the registered lobby panels, and sends `game_finished` and
`table_replayed`; the classroom registers its panels and receivers in its ready().
"""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone
from factories import AssignmentFactory, game

from games import hooks
from games.models import Table
from games.selectors import classrooms_of, table_access, tables_open_for
from games.services.tables import table_create
from games.signals import game_finished, table_replayed
from kanagame.celery import app
from kanagame.classes.services import membership_remove
from learning.classroom.hooks import assignments_panel, picker_assignments
from learning.classroom.models import AssignmentTable, LearnerActivity
from learning.classroom.services.play import assignment_table_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def class_table(alice_class, erin):
    """A waiting table of alice's class with one open seat, opened by erin."""
    return table_create(
        user=erin,
        engine="kazoku-families",
        options={"variant": "kana"},
        seats=[{"kind": "human", "user": erin}, {"kind": "open"}],
        classroom=alice_class,
    )


def test_the_classroom_registers_its_panel_and_replay_link_at_start_up():
    assert assignments_panel in hooks._registry["lobby_panels"]
    assert table_replayed.has_listeners(Table)  # replay_linked (tests/classroom: play again)
    assert not hasattr(hooks, "class_scope")  # classes are below games: no scope to ask


def test_games_reads_who_is_in_a_class_from_the_classes_app(bob, charlie, alice, class_table):
    assert [c.name for c in classrooms_of(user=bob)] == ["5B Kana"]
    assert [c.name for c in classrooms_of(user=alice)] == ["5B Kana"]
    assert table_access(table=class_table, user=bob).can_join
    assert not table_access(table=class_table, user=charlie).can_join  # dave's student
    assert table_access(table=class_table, user=alice).can_watch  # she teaches the class
    assert not table_access(table=class_table, user=charlie).can_watch
    assert class_table in tables_open_for(user=bob)
    assert class_table not in tables_open_for(user=charlie)


def test_a_student_out_of_the_class_no_longer_joins_its_tables(bob, alice_class, class_table):
    membership_remove(classroom=alice_class, student=bob)
    assert classrooms_of(user=bob) == []
    access = table_access(table=class_table, user=bob)
    assert not access.can_join and not access.allowed
    assert class_table not in tables_open_for(user=bob)


def test_the_assignments_panel_shows_only_with_an_open_assignment(as_bob, bob, alice_class):
    assert hooks.lobby_panels(bob) == []
    assert "Your assignments" not in as_bob.get("/play/").content.decode()
    AssignmentFactory(classroom=alice_class, title="Rows of kana", engine="kazoku-families")
    [(template, context)] = hooks.lobby_panels(bob)
    assert template == "classroom/lobby_assignments.html"
    assert [row["assignment"].title for row in context["assignments"]] == ["Rows of kana"]
    page = as_bob.get("/play/").content.decode()
    assert "Your assignments" in page and "Rows of kana" in page


def test_a_panel_registered_twice_shows_once(monkeypatch, bob, alice_class):
    monkeypatch.setitem(hooks._registry, "lobby_panels", [])
    hooks.register_lobby_panel(assignments_panel)
    hooks.register_lobby_panel(assignments_panel)
    AssignmentFactory(classroom=alice_class)
    assert len(hooks.lobby_panels(bob)) == 1


@pytest.mark.django_db(transaction=True)
def test_game_finished_refreshes_the_players_class_summaries(bob, dana):
    table = game([bob, dana], started=timezone.now() - timedelta(minutes=30))
    assert not LearnerActivity.objects.exists()
    with transaction.atomic():
        game_finished.send(sender=Table, table_id=table.pk)
        assert not LearnerActivity.objects.exists()  # only once the move is committed
    activity = LearnerActivity.objects.get()  # bob is in a class; dana learns on her own
    assert activity.learner == bob and activity.games_week == 1


def test_deleting_a_class_or_an_assignment_keeps_its_tables_unlinked(alice_class, erin):
    assignment = AssignmentFactory(classroom=alice_class)
    table = assignment_table_create(
        student=erin,
        assignment=assignment,
        engine="kazoku-families",
        options={"variant": "kana"},
        seats=[{"kind": "human", "user": erin}, {"kind": "open"}],
    )
    assert table.classroom == alice_class and table.assignment_link.assignment == assignment
    assignment.delete()  # its link rows go (CASCADE), the table stays in the class
    table = Table.objects.get(pk=table.pk)
    assert table.classroom_id == alice_class.pk and not AssignmentTable.objects.exists()
    alice_class.delete()  # the foreign key's SET_NULL
    table.refresh_from_db()
    assert table.classroom_id is None
    assert table.seats.filter(user=erin).exists()  # the game itself is kept


def test_deleting_a_table_deletes_its_assignment_link_not_the_assignment(alice_class, erin):
    assignment = AssignmentFactory(classroom=alice_class)
    table = assignment_table_create(
        student=erin,
        assignment=assignment,
        engine="kazoku-families",
        options={"variant": "kana"},
        seats=[{"kind": "human", "user": erin}, {"kind": "open"}],
    )
    table.delete()
    assert not AssignmentTable.objects.exists()
    assignment.refresh_from_db()  # still there


def test_the_pickers_assignment_rule_lists_the_open_assignments(bob, dana, alice_class):
    now = timezone.now()
    assignment = AssignmentFactory(
        classroom=alice_class,
        title="Rows of kana",
        engine="kazoku-families",
        options={"variant": "gojuon"},
        script="katakana",
        due_at=now + timedelta(days=2),
    )
    AssignmentFactory(classroom=alice_class, due_at=now - timedelta(days=1))  # past due
    [info] = picker_assignments(learner=bob, now=now)
    assert (info.id, info.engine, info.options, info.script, info.title) == (
        assignment.pk,
        "kazoku-families",
        {"variant": "gojuon"},
        "katakana",
        "Rows of kana",
    )
    assert picker_assignments(learner=dana, now=now) == []


def test_celery_finds_the_classroom_tasks_without_a_special_case():
    app.loader.import_default_modules()
    assert {
        "learning.refresh_all_class_summaries",
        "learning.refresh_class_summaries",
        "learning.refresh_summaries_after_game",
    } <= set(app.tasks)
