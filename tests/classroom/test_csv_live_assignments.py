"""CSV exports parsed with csv, the live tables' polling, assignments and their completion."""

import csv
import io
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from factories import answer, game, memory

from games.engines import ENGINES, get_engine
from learning.classroom.models import Assignment, LearnerActivity
from learning.classroom.selectors import (
    ASSIGNMENT_CSV_COLUMNS,
    PROGRESS_CSV_COLUMNS,
    assignment_progress,
)
from learning.models import Kana


def _csv(response):
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response.streaming
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))


def test_the_progress_csv_has_a_row_per_student_and_kana(as_alice, alice_class, bob):
    memory(bob, "so", script="katakana", state="due", reps=4, errors=2)
    response = as_alice.get(reverse("teach_export_progress", args=[alice_class.pk]))
    rows = _csv(response)
    assert tuple(rows[0].keys()) == PROGRESS_CSV_COLUMNS
    assert len(rows) == Kana.objects.count()
    so = next(r for r in rows if r["kana_id"] == "so" and r["script"] == "katakana")
    assert (so["username"], so["glyph"], so["state"], so["reviews"], so["errors"]) == (
        "bob", "ソ", "due", "4", "2",
    )  # fmt: skip
    assert next(r for r in rows if r["kana_id"] == "a")["state"] == "new"


def test_the_assignment_csv_reports_completion(as_alice, alice_class, bob):
    now = timezone.now()
    a = Assignment.objects.create(classroom=alice_class, title="Week 1", script="katakana",
                                  due_at=now + timedelta(days=2), goal_kind="reviews",
                                  goal_value=2)  # fmt: skip
    Assignment.objects.filter(pk=a.pk).update(created_at=now - timedelta(days=1))
    answer(bob, "so")
    answer(bob, "n")
    rows = _csv(as_alice.get(reverse("teach_export_assignments", args=[alice_class.pk])))
    assert tuple(rows[0].keys()) == ASSIGNMENT_CSV_COLUMNS
    assert [(r["assignment"], r["username"], r["progress"], r["complete"]) for r in rows] == [
        ("Week 1", "bob", "2", "yes")
    ]


def _assignment(classroom, **fields):
    now = timezone.now()
    a = Assignment.objects.create(classroom=classroom, due_at=now + timedelta(days=3), **fields)
    Assignment.objects.filter(pk=a.pk).update(created_at=now - timedelta(days=2))
    a.refresh_from_db()
    return a


def test_games_count_when_linked_or_matching_the_variant(alice_class, bob):
    now = timezone.now()
    a = _assignment(alice_class, engine="kazoku-families", options={"variant": "gojuon"},
                    script="hiragana", goal_kind="games", goal_value=2)  # fmt: skip
    game([bob], started=now - timedelta(hours=3), options={"variant": "gojuon"})
    game([bob], started=now - timedelta(hours=2), options={"variant": "kana"})  # other variant
    game([bob], started=now - timedelta(hours=1), options={"variant": "kana"}, assignment=a)
    game([bob], started=now - timedelta(days=5), options={"variant": "gojuon"})  # before it
    game([bob], started=now - timedelta(minutes=5), finished=False, options={"variant": "gojuon"})
    assert assignment_progress(assignment=a, student_ids=[bob.pk]) == {bob.pk: 2}


def test_minutes_and_reviews_goals(alice_class, bob):
    now = timezone.now()
    minutes = _assignment(alice_class, goal_kind="minutes", goal_value=20)
    game([bob], started=now - timedelta(hours=3), minutes=15)
    game([bob], started=now - timedelta(hours=1), minutes=7)
    assert assignment_progress(assignment=minutes, student_ids=[bob.pk]) == {bob.pk: 22}
    reviews = _assignment(alice_class, goal_kind="reviews", goal_value=5, script="katakana")
    answer(bob, "so")
    answer(bob, "a", script="hiragana")  # other script
    answer(bob, "so", at=now - timedelta(days=4))  # before the assignment
    assert assignment_progress(assignment=reviews, student_ids=[bob.pk]) == {bob.pk: 1}


def test_students_see_their_assignments_first_on_home(as_bob, alice_class, bob):
    _assignment(alice_class, title="Katakana week", goal_kind="games", goal_value=3)
    html = as_bob.get(reverse("home")).content.decode()
    assert "Katakana week" in html
    assert html.index("Your assignments") < html.index("Play a game")
    assert "0 / 3" in html
    assert reverse("teach_live", args=[alice_class.pk]) in html  # their class's live tables


def test_a_teacher_sets_an_assignment_with_the_lobbys_options(as_alice, alice_class):
    url = reverse("teach_assignments", args=[alice_class.pk])
    page = as_alice.get(url + "?engine=kazoku-families")
    assert 'name="game-variant"' in page.content.decode()
    assert 'name="game-seat_1"' not in page.content.decode()
    due = (timezone.localtime() + timedelta(days=5)).strftime("%Y-%m-%dT%H:%M")
    form = {"title": "Gojuon", "engine": "kazoku-families", "due_at": due,
            "goal_kind": "games", "goal_value": 2}  # fmt: skip
    game_form = page.context["game_form"]
    form.update({f"game-{name}": field.initial for name, field in game_form.fields.items()
                 if field.initial is not None})  # fmt: skip
    form.update({"game-variant": "gojuon", "game-script": "katakana", "game-timer": "30"})
    response = as_alice.post(url, form)
    assert response.status_code == 302, response.context["game_form"].errors
    a = Assignment.objects.get(classroom=alice_class)
    assert (a.engine, a.options["variant"], a.options["timer"], a.script) == (
        "kazoku-families", "gojuon", 30, "katakana",
    )  # fmt: skip


def test_bad_assignment_input_is_refused(as_alice, alice_class):
    url = reverse("teach_assignments", args=[alice_class.pk])
    past = (timezone.localtime() - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    response = as_alice.post(url, {"engine": "recommended", "script": "hiragana", "due_at": past,
                                    "goal_kind": "games", "goal_value": 0})  # fmt: skip
    assert response.status_code == 400
    later = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    response = as_alice.post(url, {"engine": "kazoku-families", "due_at": later,
                                   "goal_kind": "games", "goal_value": 1,
                                   "game-variant": "nonsense"})  # fmt: skip
    assert response.status_code == 400
    response = as_alice.post(url, {"engine": "chess", "due_at": later, "goal_kind": "games",
                                   "goal_value": 1})  # fmt: skip
    assert response.status_code == 400
    assert not Assignment.objects.exists()


def test_a_completed_assignment_leaves_the_pickers_list(alice_class, bob):
    from learning.classroom.selectors import assignments_open_for

    a = _assignment(alice_class, goal_kind="reviews", goal_value=1, script="mixed")
    assert assignments_open_for(student=bob, now=timezone.now()) == [a]
    answer(bob, "a", script="hiragana")
    assert assignments_open_for(student=bob, now=timezone.now()) == []
    assert assignments_open_for(student=bob, now=timezone.now(), include_completed=True) == [a]


def test_a_recommended_assignment_is_open_for_the_picker(as_alice, alice_class, bob):
    due = (timezone.localtime() + timedelta(days=5)).strftime("%Y-%m-%dT%H:%M")
    response = as_alice.post(
        reverse("teach_assignments", args=[alice_class.pk]),
        {"engine": "recommended", "script": "katakana", "due_at": due, "goal_kind": "reviews",
         "goal_value": 40},
    )  # fmt: skip
    assert response.status_code == 302
    from learning.classroom.selectors import assignments_open_for

    [a] = assignments_open_for(student=bob, now=timezone.now())
    assert a.is_recommended and a.options == {} and a.goal_value == 40


def test_the_live_view_lists_playing_tables_and_answers_204_when_unchanged(
    as_alice, alice_class, bob, charlie
):
    now = timezone.now()
    started = now - timedelta(minutes=3)
    playing = game([bob], started=started, finished=False, classroom=alice_class)
    game([charlie], started=started, finished=False)  # another class
    game([bob], started=started, finished=False)  # no class: not the class's table
    game([bob], started=now - timedelta(hours=3), classroom=alice_class)  # finished: not live
    url = reverse("teach_live", args=[alice_class.pk])
    response = as_alice.get(url)
    assert [t.pk for t in response.context["tables"]] == [playing.pk]
    assert playing.get_absolute_url() in response.content.decode()
    fingerprint = response.context["fingerprint"]
    again = as_alice.get(url, {"v": fingerprint}, headers={"HX-Request": "true"})
    assert again.status_code == 204
    playing.version += 1
    playing.save()
    changed = as_alice.get(url, {"v": fingerprint}, headers={"HX-Request": "true"})
    assert changed.status_code == 200
    assert "<html" not in changed.content.decode()


def test_csv_cells_never_start_a_spreadsheet_formula(as_alice, alice_class, bob):
    bob.profile.display_name = "=HYPERLINK(1)"
    bob.profile.save()
    rows = _csv(as_alice.get(reverse("teach_export_progress", args=[alice_class.pk])))
    assert rows[0]["display_name"] == "'=HYPERLINK(1)"


def test_refresh_now_recomputes_the_class_summaries(as_alice, alice_class, bob):
    answer(bob, "so", correct=False, confused_with="n")
    response = as_alice.post(reverse("teach_refresh", args=[alice_class.pk]))
    assert response.status_code == 302
    assert LearnerActivity.objects.get(learner=bob).answers_total == 1


def test_the_beat_schedule_names_a_registered_task():
    from django.conf import settings

    from kanagame.celery import app

    app.loader.import_default_modules()
    task = settings.CELERY_BEAT_SCHEDULE["classroom-summaries"]["task"]
    assert task in app.tasks


def _assignment_post(as_alice, alice_class, engine: str, **game_fields):
    url = reverse("teach_assignments", args=[alice_class.pk])
    page = as_alice.get(url + f"?engine={engine}")
    assert page.status_code == 200
    due = (timezone.localtime() + timedelta(days=5)).strftime("%Y-%m-%dT%H:%M")
    form = {"title": engine, "engine": engine, "due_at": due, "goal_kind": "games",
            "goal_value": 1}  # fmt: skip
    game_form = page.context["game_form"]
    for name, field in game_form.fields.items():
        if field.initial is not None and field.initial is not False:
            form[f"game-{name}"] = field.initial
    form.update({f"game-{name}": value for name, value in game_fields.items()})
    return page, as_alice.post(url, form)


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_every_game_can_be_assigned_with_its_own_table_options(as_alice, alice_class, engine):
    """Each game's form shows only the table options it uses, and saving it keeps them (Koi-Koi
    has no script field: the form must not read one)."""
    page, response = _assignment_post(as_alice, alice_class, engine)
    assert response.status_code == 302, response.context and response.context["game_form"].errors
    a = Assignment.objects.get(classroom=alice_class)
    fields = page.context["game_form"].table_fields
    assert a.engine == engine and {"romaji", "prompts", "timer"} <= set(a.options)
    assert ("card_prompts" in fields) == get_engine(engine).asks_about_cards


def test_a_bozu_assignment_can_turn_on_the_questions_about_known_cards(as_alice, alice_class):
    page, response = _assignment_post(as_alice, alice_class, "bozu", card_prompts="on")
    assert 'name="game-card_prompts"' in page.content.decode()
    assert response.status_code == 302
    assert Assignment.objects.get(classroom=alice_class).options["card_prompts"] is True
    Assignment.objects.all().delete()
    _page, response = _assignment_post(as_alice, alice_class, "bozu")
    assert Assignment.objects.get(classroom=alice_class).options["card_prompts"] is False
