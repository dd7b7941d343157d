"""The class dashboard: heatmap, weakest kana, confusions, needs help, bounded queries."""

import re
from datetime import timedelta

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from factories import answer, game, memory

from kanagame.accounts.models import Role
from kanagame.accounts.services import user_create
from learning import kana_table
from learning.classroom.models import ConfusionSummary, LearnerActivity, Membership
from learning.classroom.services.summaries import summaries_refresh_classes
from learning.classroom.tasks import refresh_all_class_summaries, refresh_summaries_after_game


def _student(classroom, name):
    user = user_create(username=name.lower(), password="x-pass-2026", role=Role.STUDENT,
                       display_name=name)  # fmt: skip
    Membership.objects.create(classroom=classroom, student=user)
    return user


def test_confusions_count_students_who_made_them(as_alice, alice_class, bob, charlie):
    alice_class.default_script = "katakana"
    alice_class.save()
    erin = _student(alice_class, "Erin")
    for learner in (bob, erin):
        answer(learner, "so", correct=False, confused_with="n")
    answer(bob, "so", correct=False, confused_with="n")
    answer(charlie, "so", correct=False, confused_with="n")  # dave's class: not counted
    summaries_refresh_classes()
    response = as_alice.get(reverse("teach_class", args=[alice_class.pk]))
    assert response.status_code == 200
    first = response.context["dash"].confusions[0]
    assert (first["shown"].glyph, first["read_as"].glyph) == ("ソ", "ン")
    assert (first["students"], first["times"]) == (2, 3)
    text = response.content.decode()
    assert "2 students read" in text and "ソ" in text and "ン" in text


def test_the_heatmap_shows_states_as_text_and_symbols(as_alice, alice_class, bob):
    memory(bob, "a", script="hiragana", state="mastered")
    memory(bob, "i", script="hiragana", state="due")
    response = as_alice.get(reverse("teach_class", args=[alice_class.pk]))
    row = response.context["dash"].rows[0]
    assert row.cells[:3] == ["mastered", "due", "new"]
    html = response.content.decode()
    assert '<td class="st st-mastered">●<span class="visually-hidden"> mastered</span></td>' in html
    assert '<td class="st st-due">!<span class="visually-hidden"> due</span></td>' in html


def test_weakest_kana_come_from_the_class_errors(as_alice, alice_class, bob):
    memory(bob, "nu", script="hiragana", reps=10, errors=6)
    memory(bob, "a", script="hiragana", reps=10, errors=1)
    dash = as_alice.get(reverse("teach_class", args=[alice_class.pk])).context["dash"]
    assert [w["kana"].kana_id for w in dash.weakest] == ["nu", "a"]
    assert dash.weakest[0]["error_rate"] == 60


def test_needs_help_gives_reasons(as_alice, alice_class, bob):
    erin = _student(alice_class, "Erin")  # never played
    frank = _student(alice_class, "Frank")
    for i in range(20):
        answer(bob, "a", script="hiragana", correct=i % 2 == 0, confused_with="o")
        answer(frank, "a", script="hiragana", correct=i != 0, confused_with="o")
    summaries_refresh_classes()
    dash = as_alice.get(reverse("teach_class", args=[alice_class.pk])).context["dash"]
    reasons = {row.name: row.reasons for row in dash.needs_help}
    assert set(reasons) == {"Bob", "Erin"}
    assert "Wrong on 50% of 20 answers this week" in reasons["Bob"][0]
    assert reasons["Erin"] == ["Has not played or answered yet."]
    assert erin.pk not in [row.student.pk for row in dash.needs_help if row.name == "Frank"]


def test_before_the_first_refresh_no_student_is_said_to_have_never_played(
    as_alice, alice_class, bob
):
    """The teacher's journey: the page says activity is not computed yet, and the grid shows
    Bob's answers; "has not played or answered yet" would contradict both. After the
    refresh, a student who never played is named as such."""
    answer(bob, "a", script="hiragana", correct=False, confused_with="o")
    erin = _student(alice_class, "Erin")  # never played
    url = reverse("teach_class", args=[alice_class.pk])
    html = as_alice.get(url).content.decode()
    assert "Activity and confusions not computed yet." in html
    assert "Has not played or answered yet." not in html
    summaries_refresh_classes()
    dash = as_alice.get(url).context["dash"]
    reasons = {row.student.pk: row.reasons for row in dash.needs_help}
    assert reasons[erin.pk] == ["Has not played or answered yet."]
    assert "Has not played or answered yet." not in reasons.get(bob.pk, [])


def test_inactivity_stands_out(as_alice, alice_class, bob):
    answer(bob, "a", script="hiragana", at=timezone.now() - timedelta(days=12))
    summaries_refresh_classes()
    dash = as_alice.get(reverse("teach_class", args=[alice_class.pk])).context["dash"]
    assert dash.needs_help[0].reasons == ["No activity for 12 days."]


def test_time_played_this_week_counts_games(as_alice, alice_class, bob):
    now = timezone.now()
    game([bob], started=now - timedelta(days=1), minutes=12)
    game([bob], started=now - timedelta(days=20), minutes=30)  # last month: not this week
    summaries_refresh_classes(now=now)
    activity = LearnerActivity.objects.get(learner=bob)
    assert (activity.minutes_week, activity.games_week) == (12, 1)
    html = as_alice.get(reverse("teach_class", args=[alice_class.pk])).content.decode()
    assert "12 min, 1 games" in html


def test_the_tasks_refresh_summaries_idempotently(alice_class, bob):
    answer(bob, "so", correct=False, confused_with="n")
    assert refresh_all_class_summaries.delay().get() == 1
    assert refresh_all_class_summaries.delay().get() == 1
    assert ConfusionSummary.objects.get(learner=bob).count == 1
    table = game([bob], started=timezone.now() - timedelta(hours=1))
    assert refresh_summaries_after_game.delay(table.pk).get() == 1
    assert LearnerActivity.objects.get(learner=bob).games_week == 1


def test_a_35_student_class_renders_in_a_bounded_number_of_queries(
    as_alice, alice_class, django_assert_max_num_queries
):
    now = timezone.now()
    students = [_student(alice_class, f"Student{i:02d}") for i in range(35)]
    for i, student in enumerate(students):
        for kana_id in ("a", "i", "u", "e", "o", "ka", "ki"):
            memory(
                student, kana_id, script="hiragana", state=("due", "learning", "mastered")[i % 3]
            )
        answer(student, "a", script="hiragana", correct=False, confused_with="o")
        game([student], started=now - timedelta(days=2))
    summaries_refresh_classes()
    url = reverse("teach_class", args=[alice_class.pk])
    with django_assert_max_num_queries(14):
        response = as_alice.get(url)
    assert response.status_code == 200
    assert len(response.context["dash"].rows) == 35


def test_the_drill_down_shows_the_students_kana_games_and_confusions(as_alice, alice_class, bob):
    memory(bob, "so", script="katakana", state="due")
    answer(bob, "so", correct=False, confused_with="n")
    game([bob], started=timezone.now() - timedelta(hours=2))
    summaries_refresh_classes()
    response = as_alice.get(reverse("teach_student", args=[alice_class.pk, bob.pk]))
    assert response.status_code == 200
    detail = response.context["detail"]
    katakana = next(g for g in detail.learner_dashboard.grids if g.script == "katakana")
    assert katakana.counts["due"] == 1
    assert detail.confusions[0]["times"] == 1
    assert len(detail.games) == 1
    page = response.content.decode()
    assert "Kazoku: happy families" in page and ">kazoku-families<" not in page


def test_students_sharing_a_name_are_told_apart(as_alice, alice_class, bob):
    other = user_create(username="bob-2", password="x-pass-2026", role=Role.STUDENT,
                        display_name="Bob")  # fmt: skip
    Membership.objects.create(classroom=alice_class, student=other)
    dash = as_alice.get(reverse("teach_class", args=[alice_class.pk])).context["dash"]
    assert sorted(row.name for row in dash.rows) == ["Bob (bob)", "Bob (bob-2)"]


def test_the_heatmap_says_a_kana_is_due_for_review_not_a_deadline(as_alice, alice_class, bob):
    """Issue 26: the kana state "due" (pgettext "kana state": 復習待ち / à réviser), not the
    assignment's deadline (期限 / échéance)."""
    memory(bob, "i", script="hiragana", state="due")
    url = reverse("teach_class", args=[alice_class.pk])
    for language, word, deadline in (("ja", "復習待ち", "期限"), ("fr", "à réviser", "échéance")):
        html = as_alice.get(url, headers={"accept-language": language}).content.decode()
        cell = f'<td class="st st-due">!<span class="visually-hidden"> {word}</span></td>'
        assert cell in html
        assert f"> {deadline}</span></td>" not in html


def test_the_assignment_form_names_its_date_a_deadline(as_alice, alice_class):
    url = reverse("teach_assignments", args=[alice_class.pk])
    for language, label in (("fr", "Échéance"), ("ja", "期限"), ("en", "Due")):
        html = as_alice.get(url, headers={"accept-language": language}).content.decode()
        assert f'for="id_due_at">{label}' in html, language
        assert "À réviser" not in html


def test_the_heatmap_kana_headers_say_their_reading_in_the_page_language(
    client, alice, alice_class, bob
):
    """A bare romaji tooltip ("no" for の, "he" for へ) reads as an English word on a French
    page: the header's tooltip says it is a reading, in the page's language."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    client.force_login(alice)
    html = client.get(reverse("teach_class", args=[alice_class.pk])).content.decode()
    headers = re.findall(r'<th scope="col" title="([^"]*)"><a lang="ja"', html)
    assert len(headers) >= 46  # at least the basic kana of the class's script
    assert "se lit «\u00a0no\u00a0»" in headers  # the tooltip is French
    bare = {k.romaji for k in kana_table.catalog().values()} & set(headers)
    assert not bare, f"bare romaji as tooltips: {sorted(bare)}"
