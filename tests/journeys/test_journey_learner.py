"""Journeys (c) and (d): a returning self-learner's daily session on a tablet (768×1024) in
English (the game first, then the warm-up), and a newcomer from sign-up through the first
lesson to their first game on a phone (360×740)."""

from __future__ import annotations

import pytest
from journey_harness import PASSWORD, open_journey
from journey_play import answer_questions, finish_for, play_moves, table_code

pytestmark = [pytest.mark.journey, pytest.mark.django_db(transaction=True)]

TABLET = (768, 1024)
PHONE = (360, 740)


@pytest.fixture
def learner(kana):
    """A self-learner who answered a few kana four days ago: they are due today."""
    from django.utils import timezone

    from kanagame.accounts.services import user_create
    from learning.services.memory import memory_review

    user = user_create(username="dana", password=PASSWORD, role="self", display_name="Dana")
    when = timezone.now() - timezone.timedelta(days=4)
    for kana in ("a", "i", "u", "ka", "ki"):
        memory_review(learner=user, kana_id=kana, script="hiragana", correct=True,
                      response_ms=3000, source="quiz", at=when, confused_with="")  # fmt: skip
    return user


def _log_in(journey, username: str) -> None:
    page = journey.page
    journey.go("/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state("networkidle")


def _lesson(journey, label: str) -> None:
    """Today's lesson from the daily session: each new kana, then its end page."""
    page = journey.page
    page.locator("main a[href='/learn/lesson/']").first.click()
    page.wait_for_url("**/learn/lesson/")
    journey.step(label)
    for _ in range(12):
        got_it = page.locator("main .lesson-card form button[type=submit]")
        if not got_it.count():
            break
        got_it.click()
        page.wait_for_load_state("networkidle")
    journey.step(f"{label}: done")


def _warm_up(journey) -> None:
    """Answer the warm-up's questions (typed or chosen) until the way back shows.

    The answer is posted by HTMX: like a person, wait for the next question (or the end)
    before answering again, or a click lands on a card that is being replaced."""
    page = journey.page
    for _ in range(15):
        if page.get_by_role("link", name="Back to the daily session").count():
            return
        form = page.locator("#quiz-card form.prompt")
        if not form.count():
            return
        asked = form.locator("input[name=prompt]").get_attribute("value")
        typed = form.locator("input[name=answer]")
        if typed.count():
            typed.fill("a")
            form.locator("button[type=submit]").first.click()
        else:
            form.locator("button[name=answer]").first.click()
        page.wait_for_function(
            "(id) => !document.querySelector(`#quiz-card input[name=prompt][value='${id}']`)",
            arg=asked,
        )


def test_a_self_learner_walks_the_daily_session(learner, live_server, browser):
    context, journey = open_journey(browser, live_server.url, "learner-en", TABLET, "en")
    page = journey.page
    _log_in(journey, "dana")
    journey.go("/daily/")
    journey.step("daily session: the game first")
    # a returning learner without a backlog: the game, then the warm-up (session 24)
    steps = page.locator("ol.daily-steps > li h2").all_inner_texts()
    assert steps == ["A game against CPU players", "New kana", "Warm-up", "Summary"], steps
    page.locator("button[value=play]").click()
    page.wait_for_url("**/play/t/**")
    journey.step("the recommended game")
    answer_questions(journey)
    play_moves(journey, 1)
    journey.step("after a question and a move")
    finish_for(table_code(page), learner)
    page.reload()
    journey.step("result")
    page.get_by_role("link", name="Back to today's session: the warm-up").click()
    page.wait_for_url("**/daily/")
    journey.step("daily: the warm-up is next")
    if page.locator("main a[href='/learn/lesson/']").count():  # new kana come first
        _lesson(journey, "lesson")
    page.locator("button[value=warmup]").click()
    page.wait_for_url("**/learn/quiz/**")
    journey.step("warm-up question")
    _warm_up(journey)
    journey.step("warm-up done")
    page.get_by_role("link", name="Back to the daily session").first.click()
    page.wait_for_url("**/daily/")
    journey.step("summary")
    current = page.locator("li[aria-current=step] h2")  # the last step (after the warm-up)
    assert current.count() == 1 and current.inner_text() == "Summary"
    steps = page.locator("ol.daily-steps > li")  # numbered by the list: the fourth of four
    assert steps.count() == 4 and steps.nth(3).get_attribute("aria-current") == "step"
    context.close()
    journey.check()


def test_a_newcomer_signs_up_and_reaches_a_first_game(kana, live_server, browser):
    context, journey = open_journey(browser, live_server.url, "newcomer-en", PHONE, "en")
    page = journey.page
    journey.go("/signup/")
    journey.step("sign-up")
    page.locator("input[name=role][value=self]").check()
    page.fill("input[name=username]", "newcomer")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/daily/")
    journey.step("led to the daily session")
    assert page.locator("button[value=warmup]").count() == 0  # no quiz on kana never shown
    _lesson(journey, "first lesson")
    page.locator("button[value=warmup]").click()
    page.wait_for_url("**/learn/quiz/**")
    _warm_up(journey)
    journey.step("recalled the lesson's kana")
    page.get_by_role("link", name="Back to the daily session").first.click()
    page.wait_for_url("**/daily/")
    page.locator("button[value=play]").click()
    page.wait_for_url("**/play/t/**")
    journey.step("first game")
    answer_questions(journey)
    play_moves(journey, 1)
    journey.step("first game, a move later")
    context.close()
    journey.check()
