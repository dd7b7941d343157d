"""Issue 12, part 3: exposures of a game still in play are readable nowhere until it ends.

An exposure is a kana newly shown in a learner's own view: counts that rise mid-game would
let a teacher who diffs the progress CSV (or any page) read the student's hidden hand.
"""

import csv
import io
from datetime import timedelta

from django.urls import reverse
from django.utils import timezone
from factories import game

from games.models import TableStatus
from learning.classroom.models import LearnerActivity
from learning.classroom.services.summaries import summaries_refresh
from learning.services.daily import daily_summary
from learning.services.play import exposures_record


def _exposures(client, classroom, username="bob") -> dict[tuple[str, str], str]:
    response = client.get(reverse("teach_export_progress", args=[classroom.pk]))
    text = b"".join(response.streaming_content).decode()
    return {
        (row["kana_id"], row["script"]): row["exposures"]
        for row in csv.DictReader(io.StringIO(text))
        if row["username"] == username
    }


def test_the_csv_shows_a_games_exposures_only_once_it_ends(as_alice, alice_class, bob):
    now = timezone.now()
    finished = game([bob], started=now - timedelta(days=1))
    exposures_record(learner=bob, pairs=[("ka", "hiragana")], table_id=finished.pk,
                     move_id=None, at=now - timedelta(days=1))  # fmt: skip
    before = _exposures(as_alice, alice_class)
    assert before[("ka", "hiragana")] == "1"

    playing = game([bob], started=now - timedelta(minutes=5), finished=False)
    hand = [("ka", "hiragana"), ("shi", "hiragana"), ("tsu", "hiragana")]
    exposures_record(learner=bob, pairs=hand, table_id=playing.pk, move_id=None, at=now)
    assert _exposures(as_alice, alice_class) == before  # nothing moved mid-game

    playing.status = TableStatus.FINISHED
    playing.save(update_fields=["status"])
    after = _exposures(as_alice, alice_class)
    assert after[("ka", "hiragana")] == "2"
    assert after[("shi", "hiragana")] == after[("tsu", "hiragana")] == "1"


def test_summaries_and_the_daily_page_wait_for_the_end_too(alice_class, bob):
    now = timezone.now()
    playing = game([bob], started=now - timedelta(minutes=5), finished=False)
    exposures_record(learner=bob, pairs=[("so", "katakana")], table_id=playing.pk,
                     move_id=None, at=now)  # fmt: skip
    summaries_refresh(learner_ids=[bob.pk], now=now)
    assert LearnerActivity.objects.get(learner=bob).exposures_week == 0
    summary = daily_summary(learner=bob, since=now - timedelta(hours=1), now=now)
    assert summary.exposures == 0 and not summary.practised

    playing.status = TableStatus.FINISHED
    playing.save(update_fields=["status"])
    summaries_refresh(learner_ids=[bob.pk], now=now)
    assert LearnerActivity.objects.get(learner=bob).exposures_week == 1
    summary = daily_summary(learner=bob, since=now - timedelta(hours=1), now=now)
    assert summary.exposures == 1 and [line.kana_id for line in summary.practised] == ["so"]
