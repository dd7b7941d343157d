"""The daily page's GET writes nothing: the day's session is saved by its first POST
(issue #23, docs/web.md "GETs never write")."""

from __future__ import annotations

import pytest

from learning.models import DailySession

pytestmark = pytest.mark.django_db


def test_opening_the_daily_page_saves_no_session_and_the_first_action_does(client, dana):
    client.force_login(dana)
    page = client.get("/daily/")
    assert page.status_code == 200 and "<h2>Warm-up</h2>" in page.content.decode()
    assert not DailySession.objects.filter(learner=dana).exists()
    assert client.post("/daily/", {"action": "skip_warmup"}).status_code == 302
    session = DailySession.objects.get(learner=dana)
    assert session.warmup_done_at is not None
    assert "Play the recommended game" in client.get("/daily/").content.decode()
    assert DailySession.objects.filter(learner=dana).count() == 1
