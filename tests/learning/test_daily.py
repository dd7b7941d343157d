"""Daily session: phases, goal, streak and summary."""

from datetime import UTC, datetime, timedelta

import pytest

from learning import kana_table
from learning.models import DailySession, LearnerSettings, LearningEvent
from learning.services import daily as daily_service
from learning.services import lesson as lesson_service
from learning.services.memory import memory_review

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


def answer(user, kana, correct, at, script="hiragana"):
    memory_review(
        learner=user,
        kana_id=kana,
        script=script,
        correct=correct,
        response_ms=4000,
        source="quiz",
        at=at,
        confused_with="" if correct else "me",
    )


def test_learners_have_a_daily_session_and_teachers_none(client, bob, alice):
    client.force_login(bob)  # a student (issue 18: the session is theirs too)
    assert client.get("/daily/").status_code == 200
    client.force_login(alice)
    assert client.get("/daily/").status_code == 403


def test_a_newcomer_starts_with_the_lesson_then_recalls_those_kana_then_plays(client, dana):
    """Issue 27: the first step is a lesson on new kana (reading, sound, strokes), then the
    warm-up asks those kana back, then the game."""
    from learning.models import KanaMemory, Prompt

    client.force_login(dana)
    session = daily_service.daily_session_get(learner=dana)
    assert daily_service.daily_phase(session=session) == "lesson"
    assert "/learn/lesson/" in client.get("/daily/").content.decode()
    taught = []
    for _ in range(lesson_service.LESSON_SIZE):
        page = client.get("/learn/lesson/").content.decode()
        kana, script = lesson_service.lesson_kana_for(learner=dana)[0]
        glyph = kana_table.info(kana, script).glyph
        assert glyph in page and "stroke-order" in page and f'data-say="{glyph}"' in page
        assert client.post("/learn/lesson/", {"kana": kana, "script": script}).status_code == 302
        taught.append((kana, script))
    assert {s for _k, s in taught} == {"hiragana", "katakana"}  # both scripts from day one
    assert not KanaMemory.objects.filter(learner=dana, reps__gt=0).exists()  # a study, no review
    assert daily_service.daily_phase(session=session) == "warmup"
    assert client.post("/daily/", {"action": "warmup"})["Location"] == "/learn/quiz/"
    asked = list(Prompt.objects.filter(learner=dana, source="quiz").order_by("id"))
    assert sorted((p.kana_id, p.script) for p in asked) == sorted(taught)
    assert daily_service.daily_phase(session=session) == "warmup"  # questions still open
    for prompt in asked:
        client.post(
            "/learn/quiz/", {"action": "answer", "prompt": prompt.pk, "answer": prompt.kana_id}
        )
    # a finished run leads to the game (never back to step 1, which would lead a newcomer
    # through six lessons before the game); with nothing pending and fewer than
    # LESSON_DAY_MAX cards seen today, another lesson is offered beside it
    assert daily_service.daily_phase(session=session) == "game"
    page = client.get(f"/learn/quiz/?last={prompt.pk}").content.decode()
    assert "Back to the daily session" in page
    daily = client.get("/daily/").content.decode()
    assert 'value="play"' in daily and "Another lesson first" in daily
    assert "no warm-up today" not in daily  # the warm-up was done: "Done."
    assert 'href="/learn/lesson/"' in daily
    kana, script = lesson_service.lesson_kana_for(learner=dana)[0]
    assert client.post("/learn/lesson/", {"kana": kana, "script": script}).status_code == 302
    # the second lesson under way goes on; once seen, its kana are recalled before the game
    assert len(lesson_service.lesson_kana_for(learner=dana)) == lesson_service.LESSON_SIZE - 1
    for kana, script in lesson_service.lesson_kana_for(learner=dana):
        client.post("/learn/lesson/", {"kana": kana, "script": script})
    assert daily_service.daily_phase(session=session) == "warmup"
    assert 'value="play"' not in client.get("/daily/").content.decode()
    client.post("/daily/", {"action": "warmup"})
    for prompt in Prompt.objects.filter(learner=dana, source="quiz", status="open"):
        client.post(
            "/learn/quiz/", {"action": "answer", "prompt": prompt.pk, "answer": prompt.kana_id}
        )
    assert daily_service.daily_phase(session=session) == "game"


def test_no_other_lesson_is_offered_while_kana_are_pending_or_after_a_skipped_warm_up(client, dana):
    """Another lesson beside the game only after a finished run with nothing pending (a
    lesson taken after a skip would never be recalled before the game)."""
    from learning.models import Prompt

    client.force_login(dana)
    session = daily_service.daily_session_get(learner=dana)
    client.post("/daily/", {"action": "skip_warmup"})  # the lesson skipped: straight to play
    session.refresh_from_db()
    assert daily_service.daily_phase(session=session) == "game"
    assert lesson_service.lesson_kana_for(learner=dana)  # there would be one
    assert not daily_service.daily_lesson_offered(session=session, phase="game")
    assert "Another lesson first" not in client.get("/daily/").content.decode()
    DailySession.objects.filter(pk=session.pk).update(warmup_done_at=None)
    session.refresh_from_db()
    for kana, script in lesson_service.lesson_kana_for(learner=dana):
        client.post("/learn/lesson/", {"kana": kana, "script": script})
    client.post("/daily/", {"action": "warmup"})
    asked = list(Prompt.objects.filter(learner=dana, source="quiz", status="open"))
    for prompt in asked:  # every answer wrong: all five pending, no new kana now
        wrong = next(k for k in prompt.choices or ["zz"] if k != prompt.kana_id)
        client.post("/learn/quiz/", {"action": "answer", "prompt": prompt.pk, "answer": wrong})
    assert daily_service.daily_phase(session=session) == "game"
    assert lesson_service.lesson_kana_for(learner=dana) == []
    daily = client.get("/daily/").content.decode()
    assert 'value="play"' in daily and "Another lesson first" not in daily


def test_a_lesson_waits_while_due_kana_are_pending_and_stops_at_the_days_maximum(dana):
    """Issue 27 (an adaptive lesson): no new kana while kana already met are due or were
    last answered wrong; with nothing pending, lessons follow one another up to
    LESSON_DAY_MAX cards a day."""
    yesterday = NOW - timedelta(days=1)
    enough = lesson_service.LESSON_PENDING_MAX
    due = ["a", "i", "u", "e", "o", "ka", "ki", "ku", "ke", "ko"][:enough]
    answer(dana, due[0], False, yesterday)  # last answered wrong: pending
    for kana in due[1:]:
        answer(dana, kana, True, yesterday - timedelta(days=5))  # due today: pending
    assert lesson_service.lesson_kana_for(learner=dana, now=NOW) == []
    # a lesson seen the day before yesterday, none since: today's comes whatever is pending
    from learning.models import KanaMemory

    KanaMemory.objects.create(
        learner=dana, kana_id="sa", script="hiragana", introduced_at=NOW - timedelta(days=2),
        reps=1, last_correct=True, last_review=NOW - timedelta(days=2),
        due=NOW + timedelta(days=3),
    )  # fmt: skip
    assert len(lesson_service.lesson_kana_for(learner=dana, now=NOW)) == lesson_service.LESSON_SIZE
    KanaMemory.objects.filter(learner=dana, kana_id="sa").update(
        introduced_at=NOW - timedelta(days=1)
    )
    assert lesson_service.lesson_kana_for(learner=dana, now=NOW) == []  # yesterday: it waits
    answer(dana, due[0], True, NOW)  # one fewer pending: the lesson may start
    assert len(lesson_service.lesson_kana_for(learner=dana, now=NOW)) == lesson_service.LESSON_SIZE
    plan = lesson_service.lesson_plan
    pool = [(k, "hiragana") for k in ("u", "e", "o", "ka", "ki", "ku", "ke", "ko")]
    limit = lesson_service.LESSON_PENDING_MAX
    assert plan(met=set(), taught_today=0, pool=pool, pending=limit) == []
    assert plan(met=set(), taught_today=0, pool=pool, pending=limit - 1) != []
    assert plan(met=set(), taught_today=0, pool=pool, waiting=1) == []
    assert len(plan(met=set(), taught_today=2, pool=pool, pending=3, waiting=2)) == 3  # under way
    assert len(plan(met=set(), taught_today=5, pool=pool, size=5, day_max=15)) == 5
    # pending kana hold a lesson back for a day at most (coverage of the syllabus)
    wait = lesson_service.LESSON_MAX_WAIT_DAYS
    assert plan(met=set(), taught_today=0, pool=pool, pending=limit, days_since_lesson=wait) == []
    late = plan(met=set(), taught_today=0, pool=pool, pending=limit, days_since_lesson=wait + 1)
    assert len(late) == 5
    assert plan(met=set(), taught_today=0, pool=pool, waiting=1, days_since_lesson=9) == []
    assert plan(met=set(), taught_today=15, pool=pool, size=5, day_max=15) == []


def test_a_lesson_card_out_of_turn_is_refused_and_changes_nothing(client, dana):
    from learning.models import KanaMemory, LearningEvent

    client.force_login(dana)
    current = lesson_service.lesson_kana_for(learner=dana)[0]
    other = lesson_service.lesson_kana_for(learner=dana)[1]
    assert client.post("/learn/lesson/", {"kana": other[0], "script": other[1]}).status_code == 409
    assert client.post("/learn/lesson/", {"kana": "xx", "script": "hiragana"}).status_code == 400
    assert client.post("/learn/lesson/", {"kana": "a", "script": "runes"}).status_code == 400
    assert not KanaMemory.objects.filter(learner=dana).exists()
    assert not LearningEvent.objects.filter(learner=dana).exists()
    assert (
        client.post("/learn/lesson/", {"kana": current[0], "script": current[1]}).status_code == 302
    )


def test_goal_can_be_set_and_is_checked(client, dana):
    client.force_login(dana)
    assert (
        client.post(
            "/daily/", {"action": "goal", "goal_kind": "minutes", "goal_value": "15"}
        ).status_code
        == 302
    )
    row = LearnerSettings.objects.get(learner=dana)
    assert (row.goal_kind, row.goal_value) == ("minutes", 15)
    for bad in (
        {"goal_kind": "minutes", "goal_value": "0"},
        {"goal_kind": "hours", "goal_value": "10"},
        {"goal_kind": "reviews", "goal_value": "ten"},
    ):
        assert client.post("/daily/", {"action": "goal", **bad}).status_code == 400
    row.refresh_from_db()
    assert (row.goal_kind, row.goal_value) == ("minutes", 15)
    assert client.post("/daily/", {"action": "fly"}).status_code == 400


def test_goal_progress_counts_reviews_or_distinct_minutes(dana):
    for i in range(6):
        answer(dana, "a", True, NOW.replace(hour=8) + timedelta(seconds=20 * i))
    answer(dana, "i", True, NOW.replace(hour=9))
    assert daily_service.daily_goal_for(learner=dana, now=NOW).done == 7
    daily_service.daily_goal_set(learner=dana, kind="minutes", value=10)
    goal = daily_service.daily_goal_for(learner=dana, now=NOW)
    assert (goal.done, goal.target, goal.reached, goal.percent) == (3, 10, False, 30)


def test_streak_counts_consecutive_days_up_to_today_or_yesterday(dana):
    from learning.selectors import streak_for

    for days_ago in (1, 2, 3, 5):
        answer(dana, "a", True, NOW - timedelta(days=days_ago))
    assert streak_for(learner=dana, now=NOW) == 3
    answer(dana, "a", True, NOW)
    assert streak_for(learner=dana, now=NOW) == 4


def test_summary_lists_practised_improved_still_weak_and_next_due(dana):
    yesterday = NOW - timedelta(days=1)
    answer(dana, "nu", False, yesterday)
    since = NOW.replace(hour=6)
    answer(dana, "nu", True, NOW.replace(hour=7))
    answer(dana, "ne", True, NOW.replace(hour=7, minute=5))
    answer(dana, "ne", False, NOW.replace(hour=7, minute=6))
    LearningEvent.objects.create(
        learner=dana,
        kana_id="ka",
        script="hiragana",
        kind="exposure",
        source="play",
        created_at=NOW.replace(hour=8),
    )
    summary = daily_service.daily_summary(
        learner=dana, since=since, now=NOW.replace(hour=7, minute=7)
    )
    assert [k.kana_id for k in summary.practised] == ["ka", "nu", "ne"]
    assert [k.kana_id for k in summary.improved] == ["nu"]
    assert "ne" in [k.kana_id for k in summary.still_weak]
    assert summary.next_due and all(due > since for _, due in summary.next_due)
    assert (summary.answers, summary.correct, summary.exposures) == (3, 2, 1)


def test_the_daily_game_does_not_print_romaji_on_every_card(dana):
    """It asks "how do you read this kana?": romaji only on hover (none while a question is
    open, tests/learning/test_no_answer_on_screen.py), never the "always" default."""
    session = daily_service.daily_session_get(learner=dana)
    table = daily_service.daily_game_start(session=session)
    # prompts "seen": about every card newly shown, unless answered right lately (issue 27)
    assert (table.options["romaji"], table.options["prompts"]) == ("hover", "seen")


def test_a_kana_is_never_listed_both_improved_and_still_weak(dana):
    """ノ was under both headings: right at last after a miss, yet weak in memory."""
    since = NOW.replace(hour=6)
    answer(dana, "no", False, NOW - timedelta(days=1))
    answer(dana, "no", False, NOW.replace(hour=7))
    answer(dana, "no", True, NOW.replace(hour=7, minute=1))
    summary = daily_service.daily_summary(
        learner=dana, since=since, now=NOW.replace(hour=7, minute=2)
    )
    improved = {k.kana_id for k in summary.improved}
    assert improved == {"no"}
    assert not improved & {k.kana_id for k in summary.still_weak}


def test_a_beginner_is_not_sent_to_a_warm_up_on_kana_never_shown(client, dana):
    client.force_login(dana)
    response = client.get("/daily/")
    assert response.context["phase"] == "lesson"  # the lesson first, never a quiz
    page = response.content.decode()
    assert 'value="warmup"' not in page


@pytest.mark.django_db(transaction=True)
def test_the_daily_game_result_leads_back_to_the_session(client, dana):
    from games.demo import _play_human_moves

    client.force_login(dana)
    client.post("/daily/", {"action": "skip_warmup"})
    location = client.post("/daily/", {"action": "play"})["Location"]
    session = DailySession.objects.get(learner=dana)
    from games.models import Table

    table = Table.objects.get(pk=session.table_id)
    assert location == table.get_absolute_url()
    assert 'href="/daily/"' not in client.get(location).content.decode().split("<main", 1)[1]
    _play_human_moves(table, dana, None)
    page = client.get(location).content.decode()
    assert '<a class="button primary" href="/daily/">' in page
    assert "Back to today's session: your summary" in page


def test_the_summary_says_a_practised_kanas_reading_in_the_page_language(client, dana):
    """A bare romaji tooltip ("no" for の) reads as an English word on a French page."""
    from django.conf import settings
    from django.utils import timezone

    session = daily_service.daily_session_get(learner=dana)
    answer(dana, "no", True, timezone.now())
    daily_service.daily_finish(session=session)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    client.force_login(dana)
    page = client.get("/daily/").content.decode()
    assert '<span title="se lit «\u00a0no\u00a0»">の</span>' in page
    assert 'title="no"' not in page


def test_the_summary_lists_say_each_kanas_reading_in_the_page_language(client, dana):
    """Improved, still weak and next due: "の se lit « no »", never a bare "no" (an English
    word on a French page)."""
    from django.conf import settings
    from django.utils import timezone

    session = daily_service.daily_session_get(learner=dana)
    answer(dana, "no", False, timezone.now())
    daily_service.daily_finish(session=session)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    client.force_login(dana)
    page = client.get("/daily/").content.decode()
    assert '<li><span lang="ja">の</span> se lit «\u00a0no\u00a0»' in page
    assert '<li><span lang="ja">の</span> no' not in page


def test_the_lesson_page_says_when_new_kana_wait_for_the_pending_ones(client, dana):
    """The adaptive lesson holds new kana back while kana met are pending: the lesson page
    says so, not that every kana of the syllabus was met."""
    from django.utils import timezone

    client.force_login(dana)
    earlier = timezone.now() - timedelta(hours=1)
    for kana in ["a", "i", "u", "e", "o"][: lesson_service.LESSON_PENDING_MAX]:
        answer(dana, kana, False, earlier)  # last answered wrong: pending
    assert lesson_service.lesson_kana_for(learner=dana) == []
    page = client.get("/learn/lesson/").content.decode()
    assert "No new kana right now" in page and "met every kana" not in page
    assert 'value="warmup"' in page  # the way on: the warm-up


def test_the_game_comes_first_for_a_returning_learner_without_a_backlog():
    """Session 24's rule (``daily.play_first_rule``): never on a learner's first day; else
    unless the due kana's answers (8 s each) are more than 3 warm-ups; a goal in reviews is
    measured against the 6 minutes of warm-up of the daily session the project measures."""
    rule = daily_service.play_first_rule
    assert not rule(returning=False, due=0, warmup_seconds=360.0)
    assert rule(returning=True, due=0, warmup_seconds=360.0)
    assert rule(returning=True, due=135, warmup_seconds=360.0)  # 1,080 s: three warm-ups
    assert not rule(returning=True, due=136, warmup_seconds=360.0)
    assert rule(returning=True, due=135, warmup_seconds=None) and not rule(
        returning=True, due=136, warmup_seconds=None
    )
    assert rule(returning=True, due=22, warmup_seconds=60.0)  # a 5-minute goal
    assert not rule(returning=True, due=23, warmup_seconds=60.0)
    assert not rule(returning=True, due=1, warmup_seconds=0.0)  # no warm-up at all


def _steps(page: str) -> list[str]:
    steps = page.split('<ol class="daily-steps">', 1)[1].split("</ol>", 1)[0]
    return [h.split("</h2>", 1)[0] for h in steps.split("<h2>")[1:]]


def _current(page: str) -> str:
    steps = page.split('<ol class="daily-steps">', 1)[1].split("</ol>", 1)[0]
    return steps.split('aria-current="step">', 1)[1].split("</li>", 1)[0]


def test_a_returning_learner_plays_first_then_warms_up_then_reads_the_summary(client, dana):
    from django.utils import timezone

    from games.models import Table
    from learning.models import Prompt

    now = timezone.now()
    answer(dana, "ka", False, now - timedelta(days=2))  # due again: the warm-up's after the game
    answer(dana, "ki", True, now - timedelta(days=3))
    client.force_login(dana)
    response = client.get("/daily/")
    page = response.content.decode()
    assert response.context["session"].play_first and response.context["phase"] == "game"
    assert not DailySession.objects.filter(learner=dana).exists()  # the GET wrote nothing
    assert _steps(page) == ["A game against CPU players", "New kana", "Warm-up", "Summary"]
    assert 'value="play"' in _current(page) and "Today the game comes first" in page
    assert 'value="warmup"' not in page and "Another lesson first" not in page
    assert page.count("After the game.") == 2 and "After the warm-up." in page
    location = client.post("/daily/", {"action": "play"})["Location"]
    session = DailySession.objects.get(learner=dana)
    assert session.play_first and session.warmup_done_at is None  # the POST kept the order
    assert location == Table.objects.get(pk=session.table_id).get_absolute_url()
    assert daily_service.daily_phase(session=session) == "playing"
    assert "Back to the game" in _current(client.get("/daily/").content.decode())
    Table.objects.filter(pk=session.table_id).update(status="finished")
    phase = daily_service.daily_phase(session=session)
    page = client.get("/daily/").content.decode()
    assert phase in ("lesson", "warmup")  # the warm-up's steps, after the game
    assert "Skip the warm-up" in _current(page) and "Skip to the game" not in page
    if phase == "lesson":
        while lesson := lesson_service.lesson_kana_for(learner=dana):
            kana, script = lesson[0]
            assert (
                client.post("/learn/lesson/", {"kana": kana, "script": script}).status_code == 302
            )
        assert daily_service.daily_phase(session=session) == "warmup"
    assert client.post("/daily/", {"action": "warmup"})["Location"] == "/learn/quiz/"
    asked = list(Prompt.objects.filter(learner=dana, source="quiz", status="open"))
    assert ("ka", "hiragana") in {(p.kana_id, p.script) for p in asked}
    for prompt in asked:
        client.post(
            "/learn/quiz/", {"action": "answer", "prompt": prompt.pk, "answer": prompt.kana_id}
        )
    session.refresh_from_db()
    assert daily_service.daily_phase(session=session) == "summary"
    page = client.get("/daily/").content.decode()
    assert "Kana practised" in _current(page) and page.count("Done.") == 3


def test_a_skipped_warm_up_after_the_game_leads_to_the_summary(client, dana):
    from django.utils import timezone

    from games.models import Table
    from learning.receivers import daily_result_panel

    answer(dana, "ka", False, timezone.now() - timedelta(days=2))
    client.force_login(dana)
    client.post("/daily/", {"action": "play"})
    session = DailySession.objects.get(learner=dana)
    Table.objects.filter(pk=session.table_id).update(status="finished")
    table = Table.objects.get(pk=session.table_id)
    assert daily_service.daily_phase(session=session) in ("lesson", "warmup")
    # under the game's result: back to the session's warm-up, not to a summary
    assert daily_result_panel(dana, table) == ("daily/result_panel.html", {"warmup_next": True})
    assert client.post("/daily/", {"action": "skip_warmup"}).status_code == 302
    session.refresh_from_db()
    assert daily_service.daily_phase(session=session) == "summary"
    assert daily_result_panel(dana, table)[1] == {"warmup_next": False}
    other = DailySession.objects.create(learner=dana, day=NOW.date(), started_at=NOW)
    assert daily_result_panel(other.learner, Table(pk=table.pk + 1)) is None


def test_a_newcomer_or_a_backlog_keeps_the_warm_up_before_the_game(client, dana, monkeypatch):
    from django.utils import timezone

    client.force_login(dana)
    page = client.get("/daily/").content.decode()  # a newcomer: the lesson first
    assert _steps(page) == ["New kana", "Warm-up", "A game against CPU players", "Summary"]
    answer(dana, "ka", True, timezone.now())  # answered today only: still the first day
    assert not daily_service.daily_play_first(learner=dana, now=timezone.now())
    answer(dana, "ki", False, timezone.now() - timedelta(days=2))
    assert daily_service.daily_play_first(learner=dana, now=timezone.now())
    monkeypatch.setattr(daily_service, "PLAY_FIRST_FACTOR", 0.001)  # one due kana: a backlog
    response = client.get("/daily/")
    assert not response.context["session"].play_first
    client.post("/daily/", {"action": "skip_warmup"})
    assert not DailySession.objects.get(learner=dana).play_first
