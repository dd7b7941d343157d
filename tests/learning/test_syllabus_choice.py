"""The learner's syllabus: both scripts unless the learner or their teacher chose one (issue 27).

The choice decides which new kana the lesson introduces, which games the picker recommends and
the coverage the learner's page shows; a teacher's choice for a class wins over the student's.
"""

import pytest
from django.utils import translation
from factories import ClassroomFactory, TeacherFactory

from learning.classroom.models import Membership
from learning.dashboard import dashboard_for
from learning.picker import recommend
from learning.services.lesson import lesson_kana_for
from learning.services.syllabus import (
    SyllabusChosenByTeacher,
    scripts_for,
    syllabus_set,
)

pytestmark = pytest.mark.django_db


def _scripts_shown(recs) -> set[str]:
    return {rec.options.get("script", "hiragana") for rec in recs if not rec.assignment_id}


def test_a_learner_learns_both_scripts_until_they_choose_one(dana):
    assert scripts_for(dana) == ("hiragana", "katakana")
    syllabus_set(learner=dana, choice="katakana")
    assert scripts_for(dana) == ("katakana",)
    syllabus_set(learner=dana, choice="both")
    assert scripts_for(dana) == ("hiragana", "katakana")


def test_an_unknown_choice_is_refused_and_changes_nothing(dana):
    syllabus_set(learner=dana, choice="hiragana")
    with pytest.raises(ValueError):
        syllabus_set(learner=dana, choice="kanji")
    assert scripts_for(dana) == ("hiragana",)


def test_the_lesson_introduces_kana_of_the_chosen_script_only(dana):
    assert {script for _k, script in lesson_kana_for(learner=dana)} == {"hiragana", "katakana"}
    syllabus_set(learner=dana, choice="katakana")
    lesson = lesson_kana_for(learner=dana)
    assert lesson and {script for _k, script in lesson} == {"katakana"}


def test_the_picker_recommends_games_of_the_chosen_script_only(dana):
    assert _scripts_shown(recommend(dana)) >= {"hiragana", "katakana"}
    syllabus_set(learner=dana, choice="hiragana")
    recs = recommend(dana)
    assert recs and _scripts_shown(recs) == {"hiragana"}


def test_the_coverage_shows_the_chosen_scripts(dana):
    assert [c.script for c in dashboard_for(learner=dana).coverage] == ["hiragana", "katakana"]
    syllabus_set(learner=dana, choice="katakana")
    dash = dashboard_for(learner=dana)
    assert [c.script for c in dash.coverage] == ["katakana"]
    assert (dash.syllabus, dash.syllabus_by_teacher) == ("katakana", False)


def test_the_teachers_choice_for_the_class_wins_and_the_student_cannot_change_it(bob):
    classroom = bob.memberships.get().classroom
    classroom.syllabus = "katakana"
    classroom.save()
    assert scripts_for(bob) == ("katakana",)
    with pytest.raises(SyllabusChosenByTeacher):
        syllabus_set(learner=bob, choice="hiragana")
    assert scripts_for(bob) == ("katakana",)
    assert {s for _k, s in lesson_kana_for(learner=bob)} == {"katakana"}


def test_two_classes_that_chose_different_scripts_teach_both(bob):
    first = bob.memberships.get().classroom
    first.syllabus = "katakana"
    first.save()
    other = ClassroomFactory(teacher=TeacherFactory(), syllabus="hiragana")
    Membership.objects.create(classroom=other, student=bob)
    assert scripts_for(bob) == ("hiragana", "katakana")


def test_the_dashboard_form_saves_the_choice(client, dana):
    client.force_login(dana)
    page = client.get("/learn/").content.decode()
    assert 'name="syllabus" value="katakana"' in page
    response = client.post("/learn/syllabus/", {"syllabus": "katakana"})
    assert response.status_code == 302 and response["Location"] == "/learn/"
    assert scripts_for(dana) == ("katakana",)
    page = client.get("/learn/").content.decode()
    assert 'value="katakana" checked' in page


@pytest.mark.parametrize("value", ["", "kanji", "both ", "²", "x" * 500])
def test_a_forged_choice_gets_400_and_changes_nothing(client, dana, value):
    client.force_login(dana)
    syllabus_set(learner=dana, choice="hiragana")
    response = client.post("/learn/syllabus/", {"syllabus": value})
    assert response.status_code == 400
    assert "Choose one of the options." in response.content.decode()
    assert scripts_for(dana) == ("hiragana",)


def test_a_student_whose_teacher_chose_gets_409_and_no_form(client, bob):
    classroom = bob.memberships.get().classroom
    classroom.syllabus = "hiragana"
    classroom.save()
    client.force_login(bob)
    page = client.get("/learn/").content.decode()
    assert 'action="/learn/syllabus/"' not in page
    assert "Your teacher chose the scripts your class learns." in page
    response = client.post("/learn/syllabus/", {"syllabus": "katakana"})
    assert response.status_code == 409
    assert scripts_for(bob) == ("hiragana",)


def test_a_teacher_sets_the_class_syllabus_in_the_class_settings(client, alice, bob):
    classroom = bob.memberships.get().classroom
    client.force_login(alice)
    url = f"/teach/{classroom.pk}/settings/"
    response = client.post(
        url,
        {"name": classroom.name, "level": "", "default_script": "katakana",
         "syllabus": "katakana", "is_open": "on"},
    )  # fmt: skip
    assert response.status_code == 302
    assert scripts_for(bob) == ("katakana",)


def test_the_choice_reads_in_french_and_japanese(client, dana):
    client.force_login(dana)
    for lang, word in (("fr", "Katakana seulement"), ("ja", "カタカナのみ")):
        with translation.override(lang):
            page = client.get("/learn/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert word in page, lang
