"""The learner sees the model's prediction: per kana on the dashboard, in the picker's reason."""

from datetime import timedelta

import pytest
from django.utils import timezone

from learning import kana_table, srs
from learning.models import KanaMemory
from learning.picker import recommend
from learning.services.memory import memory_review, scheduler_for

pytestmark = pytest.mark.django_db


def _answered(learner, pairs, at):
    for kana_id, script in pairs:
        memory_review(
            learner=learner, kana_id=kana_id, script=script, correct=True, response_ms=4000,
            source="quiz", at=at, answer_kind="typed",
        )  # fmt: skip


def _recall_now(learner, kana_id, script, now) -> int:
    memory = KanaMemory.objects.get(learner=learner, kana_id=kana_id, script=script)
    card = srs.card_from_json(memory.card)
    return round(100 * srs.predicted_recall(scheduler=scheduler_for(learner=learner),
                                            card=card, now=now))  # fmt: skip


def test_the_dashboard_shows_each_answered_kanas_chance_of_recall_today(client, dana):
    now = timezone.now()
    _answered(dana, [("shi", "katakana")], now - timedelta(days=3))
    client.force_login(dana)
    html = client.get("/learn/").content.decode()
    percent = _recall_now(dana, "shi", "katakana", timezone.now())
    assert 0 < percent < 100
    # the glyph links to the kana's page
    glyph = 'href="/learn/kana/katakana/shi/" aria-label="シ (shi)">シ</a>'
    cell = html.split(glyph, 1)[1].split("</td>", 1)[0]
    assert f'<span class="cell-recall">{percent}%</span>' in cell
    assert "predicted chance of recalling it today" in html
    assert html.count('class="cell-recall"') == 1  # never-answered kana show no number


def test_the_picker_reason_names_the_kana_without_percentages(dana):
    """Issue 16 cited the predicted recall in the reason; issue 25 found it jargon: the reason
    names the kana and why in plain words, the percentages stay on the kana grid."""
    now = timezone.now()
    row = ["sa", "shi", "su", "se", "so", "ta", "chi", "tsu", "te", "to"]
    _answered(dana, [(k, "katakana") for k in row], now - timedelta(days=6))
    recs = recommend(dana, now=now)
    naming = [r for r in recs if r.reason_key in ("due", "weak", "learning", "new")]
    assert naming
    for rec in naming:
        assert kana_table.info(*rec.kana[0]).glyph in rec.reason
    for rec in recs:
        assert "%" not in rec.reason and "predicted" not in rec.reason


def test_demo_history_is_graded_and_predicted_as_the_kind_it_was_asked(dana):
    from learning.demo_learning import history_build
    from learning.models import LearningEvent

    history_build(learner=dana, days=30, answers_per_day=15, exposures_per_day=0)
    answers = LearningEvent.objects.filter(learner=dana, kind="answer")
    kinds = set(answers.values_list("answer_kind", flat=True))
    assert kinds == {"reading", "typed"}  # four readings to choose from, typed once stable
    assert not answers.filter(predicted__isnull=True).exists()
    first = answers.order_by("created_at", "id").first()
    assert first.answer_kind == "reading"
    assert first.predicted == pytest.approx(srs.UNSEEN_RECALL + (1 - srs.UNSEEN_RECALL) / 4)
