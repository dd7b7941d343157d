"""A student plays an assignment in one tap, with the teacher's settings; "Play again" plays it
again and counts; a game that does not count for an open assignment says so."""

import re

import pytest
from django.urls import reverse
from factories import AssignmentFactory

from games.demo import _play_human_moves
from games.engines import ENGINES
from games.models import Table
from games.services.tables import table_create
from kanagame.classes.services import membership_remove
from learning.classroom.models import AssignmentTable
from learning.classroom.selectors import assignment_progress

TEACHER_OPTIONS = {"variant": "kana", "script": "katakana", "romaji": "never", "prompts": "every",
                   "timer": 30}  # fmt: skip

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def homework(alice_class):
    return AssignmentFactory(
        classroom=alice_class, title="Rows", engine="kazoku-families",
        options=dict(TEACHER_OPTIONS), script="katakana", goal_value=2,
    )  # fmt: skip


def test_the_home_page_lists_the_assignment_by_name_with_a_play_button(as_bob, homework):
    page = as_bob.get(reverse("home")).content.decode()
    assert "kazoku-families" not in page and "(kana)" not in page
    assert homework.title in page
    form = re.search(r'<form method="post" action="([^"]+)"[^>]*>.*?</form>', page, re.S)
    assert form and form.group(1) == reverse("assignment_play", args=[homework.pk])
    assert "<button" in form.group(0)


def test_one_tap_starts_a_table_with_the_teachers_settings(as_bob, bob, homework):
    response = as_bob.post(reverse("assignment_play", args=[homework.pk]))
    table = Table.objects.get(seats__user=bob)
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert (
        table.assignment_link.assignment_id == homework.pk
        and table.classroom_id == homework.classroom_id
    )
    assert {key: table.options[key] for key in TEACHER_OPTIONS} == TEACHER_OPTIONS
    assert table.status == "playing"  # CPU players fill the other seats: no form, no wait
    assert table.seats.filter(bot_level="normal").count() == table.players - 1


def test_the_student_cannot_change_the_teachers_settings(as_bob, bob, homework):
    as_bob.post(reverse("assignment_play", args=[homework.pk]), {"romaji": "always", "timer": 0})
    table = Table.objects.get(seats__user=bob)
    assert table.options["romaji"] == "never" and table.options["timer"] == 30


def test_another_class_cannot_play_the_assignment(as_charlie, charlie, homework):
    response = as_charlie.post(reverse("assignment_play", args=[homework.pk]))
    assert response.status_code == 404
    assert not Table.objects.filter(seats__user=charlie).exists()


def test_a_get_changes_nothing(as_bob, bob, homework):
    assert as_bob.get(reverse("assignment_play", args=[homework.pk])).status_code == 405
    assert not Table.objects.exists()


def test_play_again_after_an_assignment_game_plays_the_assignment_again(as_bob, bob, homework):
    as_bob.post(reverse("assignment_play", args=[homework.pk]))
    first = Table.objects.get(seats__user=bob)
    _play_human_moves(first, bob, None)
    first.refresh_from_db()
    assert first.status == "finished"
    page = as_bob.get(first.get_absolute_url()).content.decode()
    again = reverse("games:again", args=[first.code])
    assert f'action="{again}"' in page
    response = as_bob.post(again)
    second = Table.objects.exclude(pk=first.pk).get(seats__user=bob)
    assert response["Location"] == second.get_absolute_url()
    assert second.assignment_link.assignment_id == homework.pk and second.options == first.options
    _play_human_moves(second, bob, None)
    assert assignment_progress(assignment=homework, student_ids=[bob.pk])[bob.pk] == 2


def test_play_again_out_of_the_class_makes_a_table_of_no_class_and_no_assignment(
    as_bob, bob, alice_class, homework
):
    as_bob.post(reverse("assignment_play", args=[homework.pk]))
    first = Table.objects.get(seats__user=bob)
    _play_human_moves(first, bob, None)
    membership_remove(classroom=alice_class, student=bob)
    as_bob.post(reverse("games:again", args=[first.code]))
    second = Table.objects.exclude(pk=first.pk).get(seats__user=bob)
    assert second.classroom_id is None
    assert not AssignmentTable.objects.filter(table=second).exists()
    assert AssignmentTable.objects.get(table=first).assignment == homework  # the first one kept


def test_a_game_that_does_not_count_says_so(as_bob, bob, homework):
    table = table_create(
        user=bob, engine="kazoku-families", options={"variant": "kana", "script": "hiragana"},
        seats=[{"kind": "human", "user": bob}, {"kind": "bot", "level": "easy"}],
    )  # fmt: skip
    _play_human_moves(table, bob, None)
    page = as_bob.get(table.get_absolute_url()).content.decode()
    assert "This game did not count for your assignment" in page
    assert reverse("assignment_play", args=[homework.pk]) in page  # and offers the one that does


def test_an_assignment_game_says_it_counted(as_bob, bob, homework):
    as_bob.post(reverse("assignment_play", args=[homework.pk]))
    table = Table.objects.get(seats__user=bob)
    _play_human_moves(table, bob, None)
    page = as_bob.get(table.get_absolute_url()).content.decode()
    assert "This game counted for your assignment" in page and "1 / 2" in page


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_every_game_can_be_assigned_and_played_in_one_tap(as_bob, bob, alice_class, engine):
    assignment = AssignmentFactory(classroom=alice_class, engine=engine, options={})
    response = as_bob.post(reverse("assignment_play", args=[assignment.pk]))
    assert response.status_code == 302
    assert Table.objects.get(seats__user=bob).engine == engine


def test_a_student_opens_the_assignment_with_a_seat_for_a_classmate(as_bob, bob, homework):
    """Issue 29: classmates play an assignment together. "With a classmate" keeps the teacher's
    settings, leaves seat 2 open (the other seats CPU) and waits for the classmate."""
    page = as_bob.get(reverse("home")).content.decode()
    assert 'name="with" value="classmate"' in page
    response = as_bob.post(reverse("assignment_play", args=[homework.pk]), {"with": "classmate"})
    table = Table.objects.get(seats__user=bob)
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert table.status == "open" and table.assignment_link.assignment_id == homework.pk
    assert {key: table.options[key] for key in TEACHER_OPTIONS} == TEACHER_OPTIONS
    seats = list(table.seats.order_by("index"))
    assert seats[0].user_id == bob.pk and seats[1].is_open
    assert all(seat.bot_level == "normal" for seat in seats[2:])
