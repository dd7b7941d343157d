"""The learner dashboard: empty, a year of history, and 50,000 events in few queries."""

import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from games.display import game_title
from learning.demo_learning import history_build
from learning.models import LearningEvent

pytestmark = pytest.mark.django_db
DASHBOARD = "/learn/"


def test_a_learner_with_no_history_sees_every_kana_as_new(client, dana):
    client.force_login(dana)
    response = client.get(DASHBOARD)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count('class="kana-cell state-new"') == 142
    assert "0 mastered, 0 learning, 0 due, 71 new (0 weak)" in html
    assert "No confusions in the last 30 days." in html
    assert "until you have 512 reviews" in html
    # recommendations for a beginner, each named by its game's own title
    recommended = response.context["dash"].recommendations
    assert recommended and all(
        f"<strong>{game_title(r.engine)}</strong>" in html for r in recommended
    )


def test_a_year_of_history_shows_states_confusions_and_the_chart(client, dana):
    count = history_build(learner=dana, days=365, answers_per_day=30, exposures_per_day=40)
    assert count > 10_000
    client.force_login(dana)
    html = client.get(DASHBOARD).content.decode()
    states = re.findall(r'class="kana-cell state-(\w+)', html)
    assert len(states) == 142
    assert {"mastered", "new"} <= set(states)  # katakana voiced kana were never studied
    # every coloured cell also says its state in words
    assert html.count('class="cell-state"') == 142
    assert "read as" in html  # recent confusions listed
    assert html.count('<rect class="bar-all"') == 30
    assert "<svg" in html and 'role="img"' in html
    assert "you have enough to fit your own" in html  # > 512 answers, no fit yet


def test_dashboard_with_50000_events_renders_in_a_fixed_number_of_queries(
    client, dana, django_assert_max_num_queries
):
    history_build(learner=dana, days=365, answers_per_day=60, exposures_per_day=140)
    assert LearningEvent.objects.filter(learner=dana).count() >= 50_000
    client.force_login(dana)
    with django_assert_max_num_queries(12):
        response = client.get(DASHBOARD)
    assert response.status_code == 200


def test_recommendations_and_model_note_follow_the_learner(client, dana, settings):
    from learning.services.memory import parameters_fit

    parameters_fit(learner=dana, now=datetime(2026, 3, 1, tzinfo=UTC))
    client.force_login(dana)
    html = client.get(DASHBOARD).content.decode()
    assert "What to play next" in html and "Practises:" in html
    assert reverse("learn:parameters_refit") in html


def test_the_grid_rows_are_named_as_a_reader_of_the_page_names_them(client, dana):
    """Issue 26 item 9: a Japanese page heads the rows あ行, た行, が行 and ん, not A, TA, GA."""
    client.force_login(dana)
    ja = client.get(DASHBOARD, headers={"accept-language": "ja"}).content.decode()
    heads = re.findall(r'<th scope="row">([^<]*)</th>', ja)
    assert {"あ行", "た行", "が行", "ア行", "タ行", "ん", "ン"} <= set(heads)
    assert not {"A", "TA", "GA", "N"} & set(heads)
    en = client.get(DASHBOARD, headers={"accept-language": "en"}).content.decode()
    assert {"A", "TA", "GA", "N"} <= set(re.findall(r'<th scope="row">([^<]*)</th>', en))


def test_dates_are_written_as_each_language_writes_a_month_and_day(client, dana):
    """Issue 26 item 12: "30 11月" / "30 Nov" were the format "j M" in every language; each
    language's MONTH_DAY_FORMAT now (11月30日, 30 novembre, November 30)."""
    history_build(learner=dana, days=10, answers_per_day=5, exposures_per_day=5)
    client.force_login(dana)
    for language, pattern in (
        ("ja", r"^\d{1,2}月\d{1,2}日$"),
        ("fr", r"^\d{1,2} [a-zéû]+$"),
        ("en", r"^[A-Z][a-z]+ \d{1,2}$"),
    ):
        html = client.get(DASHBOARD, headers={"accept-language": language}).content.decode()
        days = re.findall(r"<tr><td>([^<]*)</td><td>\d+</td>", html)
        ticks = re.findall(r'class="tick">([^<]*)<', html)
        assert days and ticks, language
        for day in days + ticks:
            assert re.match(pattern, day), (language, day)
