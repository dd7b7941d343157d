"""Exposures and recognition prompts recorded through play_observed."""

from datetime import timedelta

import pytest

from learning.models import KanaMemory, LearningEvent, Prompt
from learning.services.play import (
    MAX_OPEN_PROMPTS,
    PROMPT_TTL,
    PromptError,
    play_observed,
    prompt_answer,
    prompts_pending,
)

pytestmark = pytest.mark.django_db


def observe(user, t0, *, shown=(), hand=(), mode="every", move_id=1, table_id=11):
    play_observed(
        user=user,
        table_id=table_id,
        move_id=move_id,
        shown=list(shown),
        entered_hand=list(hand),
        prompt_mode=mode,
        at=t0,
    )


def test_exposures_are_one_event_per_kana_and_counted_not_reviewed(dana, t0):
    observe(
        dana,
        t0,
        shown=[("shi", "katakana"), ("a", "hiragana")],
        hand=[("shi", "katakana")],
        mode="off",
    )
    events = LearningEvent.objects.filter(learner=dana)
    assert sorted(events.values_list("kana_id", "script", "kind", "source")) == [
        ("a", "hiragana", "exposure", "play"),
        ("shi", "katakana", "exposure", "play"),
    ]
    assert set(events.values_list("table_id", "move_id")) == {(11, 1)}
    observe(dana, t0 + timedelta(seconds=5), shown=[("shi", "katakana")], mode="off", move_id=2)
    memory = KanaMemory.objects.get(learner=dana, kana_id="shi", script="katakana")
    assert (memory.exposures, memory.reps, memory.card, memory.due) == (2, 0, {}, None)
    assert not Prompt.objects.exists()


def test_one_move_writes_exposures_in_one_insert(dana, t0, django_assert_num_queries):
    observe(dana, t0, shown=[("ka", "hiragana")], mode="off")  # profile now cached
    pairs = [("sa", "hiragana"), ("shi", "hiragana"), ("su", "hiragana"), ("se", "hiragana")]
    # savepoint, event insert, memory insert-or-ignore, counter update, release
    with django_assert_num_queries(5):
        observe(dana, t0, shown=pairs, mode="off", move_id=2)
    assert LearningEvent.objects.filter(learner=dana, move_id=2).count() == 4


def test_teachers_and_unknown_kana_are_ignored(alice, dana, t0):
    observe(alice, t0, shown=[("a", "hiragana")])
    observe(dana, t0, shown=[("joker1", "hiragana"), ("xx", "katakana")])
    assert not LearningEvent.objects.exists()


def test_bad_prompt_mode_is_refused(dana, t0):
    with pytest.raises(ValueError):
        observe(dana, t0, hand=[("a", "hiragana")], mode="sometimes")


def test_a_card_entering_the_hand_gets_a_four_choice_prompt_with_look_alikes(dana, t0):
    observe(dana, t0, hand=[("shi", "katakana")])
    prompt = Prompt.objects.get(learner=dana)
    assert prompt.kind == "reading"
    assert len(prompt.choices) == 4 and "shi" in prompt.choices
    assert "tsu" in prompt.choices  # シ is asked against ツ
    [view] = prompts_pending(user=dana, table_id=11, at=t0)
    assert view.question == "シ"
    assert sorted(c.label for c in view.choices) == sorted(
        {"shi": "shi", "tsu": "tsu"}.get(k, k) for k in prompt.choices
    )


def test_learnt_confusions_come_before_the_visual_fallback(dana, t0):
    # dana keeps reading ぬ as "ha" (the fallback would be め first)
    for i in range(2):
        observe(dana, t0 + timedelta(minutes=i), hand=[("nu", "hiragana")], move_id=i)
        prompt = Prompt.objects.filter(learner=dana, status="open").get()
        wrong = "ha" if "ha" in prompt.choices else next(c for c in prompt.choices if c != "nu")
        prompt_answer(
            user=dana, prompt_id=prompt.pk, answer=wrong, at=t0 + timedelta(minutes=i, seconds=3)
        )
    assert LearningEvent.objects.filter(kind="answer", confused_with__gt="").count() == 2
    top = LearningEvent.objects.filter(kind="answer").values_list("confused_with", flat=True)[0]
    observe(dana, t0 + timedelta(minutes=5), hand=[("nu", "hiragana")], move_id=9)
    prompt = Prompt.objects.get(learner=dana, status="open")
    assert top in prompt.choices and "me" in prompt.choices


def test_right_answer_reviews_the_kana_with_server_side_time(dana, t0):
    observe(dana, t0, hand=[("tsu", "katakana")])
    prompt = Prompt.objects.get(learner=dana)
    # the learner makes game moves for a minute; the board then displays the prompt
    shown = t0 + timedelta(minutes=1)
    prompts_pending(user=dana, table_id=11, at=shown)
    prompts_pending(user=dana, table_id=11, at=shown + timedelta(seconds=2))  # a refresh
    result = prompt_answer(
        user=dana, prompt_id=prompt.pk, answer="tsu", at=shown + timedelta(milliseconds=3200)
    )
    assert result.correct and result.glyph == "ツ"
    event = LearningEvent.objects.get(learner=dana, kind="answer")
    assert (event.correct, event.response_ms, event.source, event.table_id) == (
        True,
        3200,
        "prompt",
        11,
    )
    memory = KanaMemory.objects.get(learner=dana, kana_id="tsu", script="katakana")
    assert memory.reps == 1 and memory.errors == 0 and memory.due > t0
    assert memory.card["card_id"] == memory.pk


def test_a_prompt_never_displayed_has_no_response_time(dana, t0):
    observe(dana, t0, hand=[("tsu", "katakana")])
    prompt = Prompt.objects.get(learner=dana)
    prompt_answer(user=dana, prompt_id=prompt.pk, answer="tsu", at=t0 + timedelta(seconds=1))
    event = LearningEvent.objects.get(learner=dana, kind="answer")
    assert event.response_ms is None


def test_every_answer_stores_the_prediction_made_before_it(dana, t0):
    observe(dana, t0, hand=[("tsu", "katakana")])
    prompt = Prompt.objects.get(learner=dana)
    prompt_answer(user=dana, prompt_id=prompt.pk, answer="shi", at=t0 + timedelta(seconds=5))
    first = LearningEvent.objects.get(learner=dana, kind="answer")
    # never answered, its card seen in play (it entered the hand): the prior of a kana seen
    # in play, with a one-in-four guess folded in
    from learning import srs

    assert first.predicted == pytest.approx(srs.SEEN_RECALL + (1 - srs.SEEN_RECALL) / 4)
    # an hour later, right after a failure: the card's own recall at the exact elapsed time
    later = t0 + timedelta(hours=1)
    observe(dana, later, hand=[("tsu", "katakana")], move_id=8)
    again = Prompt.objects.get(learner=dana, status="open")
    prompt_answer(user=dana, prompt_id=again.pk, answer="tsu", at=later)
    second = LearningEvent.objects.filter(learner=dana, kind="answer").latest("created_at")
    assert 0.25 < second.predicted < 1.0
    assert second.predicted != first.predicted


def test_wrong_answer_records_the_confusion_and_an_error(dana, t0):
    observe(dana, t0, hand=[("tsu", "katakana")])
    prompt = Prompt.objects.get(learner=dana)
    result = prompt_answer(user=dana, prompt_id=prompt.pk, answer="shi", at=t0)
    assert not result.correct and result.given == "shi"
    event = LearningEvent.objects.get(learner=dana, kind="answer")
    assert (event.correct, event.confused_with) == (False, "shi")
    assert KanaMemory.objects.get(learner=dana, kana_id="tsu", script="katakana").errors == 1


def test_answers_are_checked_and_never_graded_twice(dana, bob, t0):
    observe(dana, t0, hand=[("a", "hiragana")])
    prompt = Prompt.objects.get(learner=dana)
    with pytest.raises(PromptError) as err:
        prompt_answer(user=bob, prompt_id=prompt.pk, answer="a", at=t0)
    assert err.value.status == 404
    with pytest.raises(PromptError) as err:
        prompt_answer(user=dana, prompt_id=prompt.pk, answer="zzz", at=t0)
    assert err.value.status == 400
    prompt_answer(user=dana, prompt_id=prompt.pk, answer="a", at=t0)
    with pytest.raises(PromptError) as err:
        prompt_answer(user=dana, prompt_id=prompt.pk, answer="a", at=t0)
    assert err.value.status == 409
    assert LearningEvent.objects.filter(kind="answer").count() == 1


def test_unanswered_prompts_expire_and_cannot_be_answered(dana, t0):
    observe(dana, t0, hand=[("a", "hiragana")])
    prompt = Prompt.objects.get(learner=dana)
    later = t0 + PROMPT_TTL + timedelta(seconds=1)
    assert prompts_pending(user=dana, table_id=11, at=later) == []
    with pytest.raises(PromptError) as err:
        prompt_answer(user=dana, prompt_id=prompt.pk, answer="a", at=later)
    assert err.value.status == 409
    prompt.refresh_from_db()
    assert prompt.status == "expired"
    assert not LearningEvent.objects.filter(kind="answer").exists()


def test_a_deal_opens_at_most_a_few_prompts(dana, t0):
    hand = [(k, "hiragana") for k in ("a", "ka", "sa", "ta", "na", "ha", "ma")]
    observe(dana, t0, hand=hand)
    assert Prompt.objects.filter(status="open").count() == MAX_OPEN_PROMPTS
    assert LearningEvent.objects.filter(kind="exposure").count() == 7


def remembered(user, kana_id, *, stability, last_review, due, script="hiragana"):
    """A KanaMemory in the Review state with a real fsrs card."""
    card = {
        "card_id": 1,
        "state": 2,
        "step": None,
        "stability": stability,
        "difficulty": 5.0,
        "due": due.isoformat(),
        "last_review": last_review.isoformat(),
    }
    return KanaMemory.objects.create(
        learner=user,
        kana_id=kana_id,
        script=script,
        reps=4,
        stability=stability,
        due=due,
        last_review=last_review,
        card=card,
    )


def test_new_mode_asks_only_about_kana_that_need_work(dana, t0):
    remembered(
        dana, "a", stability=60.0, last_review=t0 - timedelta(days=2), due=t0 + timedelta(days=40)
    )  # mastered
    remembered(
        dana, "i", stability=4.0, last_review=t0 - timedelta(days=1), due=t0 + timedelta(days=3)
    )  # learning, well remembered
    remembered(
        dana, "u", stability=2.0, last_review=t0 - timedelta(days=1), due=t0 - timedelta(hours=1)
    )  # due
    remembered(
        dana, "e", stability=2.0, last_review=t0 - timedelta(days=9), due=t0 + timedelta(hours=5)
    )  # not due yet, but weak (retrievability < 0.8)
    hand = [(k, "hiragana") for k in ("a", "i", "u", "e", "ka")]
    observe(dana, t0, hand=hand, mode="new")
    asked = set(Prompt.objects.values_list("kana_id", flat=True))
    assert asked == {"u", "e", "ka"}


def test_every_mode_asks_about_every_card(dana, t0):
    remembered(
        dana, "a", stability=60.0, last_review=t0 - timedelta(days=2), due=t0 + timedelta(days=40)
    )
    observe(dana, t0, hand=[("a", "hiragana")], mode="every")
    assert Prompt.objects.filter(kana_id="a").exists()


def test_a_kana_failed_last_time_is_asked_among_four_readings_however_stable(dana, t0):
    KanaMemory.objects.create(
        learner=dana,
        kana_id="fu",
        script="hiragana",
        reps=4,
        stability=12.0,
        due=t0 - timedelta(days=1),
        last_correct=False,
    )
    observe(dana, t0, hand=[("fu", "hiragana")], mode="new")
    assert Prompt.objects.get().kind == "reading"


def test_a_kana_with_one_right_pick_is_asked_as_typed_recall(dana, t0):
    KanaMemory.objects.create(learner=dana, kana_id="mu", script="hiragana")
    observe(dana, t0, hand=[("mu", "hiragana")], mode="new")
    first = Prompt.objects.get()
    assert first.kind == "reading"
    prompt_answer(user=dana, prompt_id=first.pk, answer="mu", at=t0)
    assert KanaMemory.objects.get(kana_id="mu").last_correct is True
    later = t0 + timedelta(days=1)
    observe(dana, later, hand=[("mu", "hiragana")], mode="new")
    assert Prompt.objects.get(status="open").kind == "typed"


def test_kana_last_answered_right_are_asked_as_typed_romaji(dana, t0):
    KanaMemory.objects.create(
        learner=dana,
        kana_id="fu",
        script="hiragana",
        reps=4,
        stability=1.0,
        due=t0 - timedelta(days=1),
        last_correct=True,
    )
    observe(dana, t0, hand=[("fu", "hiragana")], mode="new")
    prompt = Prompt.objects.get()
    assert prompt.kind == "typed"
    with pytest.raises(PromptError):
        prompt_answer(user=dana, prompt_id=prompt.pk, answer="   ", at=t0)
    result = prompt_answer(user=dana, prompt_id=prompt.pk, answer=" FU ", at=t0)
    assert result.correct


def test_confusions_count_both_ways(dana, t0):
    from learning.services.play import confusions_for

    for i in range(2):
        LearningEvent.objects.create(
            learner=dana,
            kana_id="shi",
            script="katakana",
            kind="answer",
            correct=False,
            confused_with="tsu",
            source="quiz",
            created_at=t0 + timedelta(minutes=i),
        )
    LearningEvent.objects.create(
        learner=dana,
        kana_id="tsu",
        script="katakana",
        kind="answer",
        correct=False,
        confused_with="chi",
        source="quiz",
        created_at=t0,
    )
    found = confusions_for(learner=dana, pairs=[("tsu", "katakana"), ("shi", "katakana")])
    assert found[("tsu", "katakana")] == ["shi", "chi"]
    assert found[("shi", "katakana")] == ["tsu"]


def test_a_fast_right_choice_on_a_new_kana_is_recorded_with_its_kind_and_graded_hard(dana, t0):
    observe(dana, t0, hand=[("ki", "hiragana")])
    prompt = Prompt.objects.get(learner=dana)
    prompts_pending(user=dana, table_id=11, at=t0)
    prompt_answer(user=dana, prompt_id=prompt.pk, answer="ki", at=t0 + timedelta(seconds=1))
    event = LearningEvent.objects.get(kind="answer")
    assert (event.answer_kind, event.response_ms) == ("reading", 1000)
    memory = KanaMemory.objects.get(learner=dana, kana_id="ki")
    from learning import srs

    easy = srs.review(
        scheduler=srs.scheduler_build(fuzzing=False),
        card=srs.card_new(card_id=memory.pk, now=t0),
        correct=True,
        response_ms=1000,
        at=t0 + timedelta(seconds=1),
    ).card
    good = srs.review(
        scheduler=srs.scheduler_build(fuzzing=False),
        card=srs.card_new(card_id=memory.pk, now=t0),
        correct=True,
        response_ms=3000,
        at=t0 + timedelta(seconds=1),
    ).card
    # one right pick in four on a kana never answered may be a guess: Hard, not Good or Easy
    assert memory.stability < good.stability
    # and a fast typed answer on a kana never answered is Good at most (issue 27), not Easy
    assert easy.stability == good.stability


def test_the_quiz_page_starts_the_response_time_when_it_shows_the_question(client, dana):
    from factories import taught

    from learning.services import quiz as quiz_service

    taught(dana)
    quiz_service.quiz_start(learner=dana)
    client.force_login(dana)
    assert not Prompt.objects.filter(learner=dana, displayed_at__isnull=False).exists()
    client.get("/learn/quiz/")
    shown = Prompt.objects.filter(learner=dana, displayed_at__isnull=False)
    assert shown.count() == 1  # only the question on screen, not the nine waiting
    first = shown.get()
    client.get("/learn/quiz/")  # a reload does not restart the clock
    assert Prompt.objects.get(pk=first.pk).displayed_at == first.displayed_at


def test_card_sightings_cost_two_statements_and_three_with_questions_on(
    dana, t0, django_assert_num_queries
):
    """``cards_observed`` (Bozu: one card per move): insert-or-ignore and one counter update;
    with the questions on, one read of the counts before (no question is due here)."""
    from games.engines import get_engine
    from learning.services.cards import cards_observed, sightings_for

    eng = get_engine("bozu")
    questions = [eng.card_question(card, {}) for card in ("p003", "p004")]

    def seen(move_id: int, ask: bool) -> None:
        options = {"engine": "bozu", "questions": questions, "ask": ask, "at": t0}
        cards_observed(user=dana, table_id=11, move_id=move_id, **options)

    seen(1, False)  # the profile is cached from here on
    # savepoint, insert-or-ignore, update, release
    with django_assert_num_queries(4):
        seen(2, False)
    # savepoint, insert-or-ignore, read, update, release (seen twice before: nothing asked)
    with django_assert_num_queries(5):
        seen(3, True)
    assert sightings_for(learner=dana, engine="bozu") == {"p003": 3, "p004": 3}
    assert not Prompt.objects.exists()
    seen(4, True)  # seen three times before now: one question, about the first card
    assert list(Prompt.objects.values_list("kind", "card", "kana_id")) == [("card", "p003", "na")]


@pytest.mark.parametrize(
    ("answer", "script"), [("o", "hiragana"), ("wo", "hiragana"), ("o", "katakana")]
)
def test_o_typed_for_wo_is_right_and_no_confusion_with_o(dana, t0, answer, script):
    """Issue 26 item 7: を is pronounced o today; typing "o" for it is right (both accepted),
    not an お confusion."""
    KanaMemory.objects.create(
        learner=dana, kana_id="wo", script=script, reps=4, stability=12.0,
        due=t0 - timedelta(days=1), last_correct=True,  # typed: its last answer was right
    )  # fmt: skip
    observe(dana, t0, hand=[("wo", script)], mode="new")
    prompt = Prompt.objects.get()
    assert prompt.kind == "typed"
    result = prompt_answer(user=dana, prompt_id=prompt.pk, answer=answer, at=t0)
    assert result.correct
    event = LearningEvent.objects.get(learner=dana, kind="answer")
    assert (event.correct, event.confused_with) == (True, "")


def test_o_typed_for_o_stays_o_and_wo_typed_for_o_is_wrong(dana, t0):
    KanaMemory.objects.create(
        learner=dana, kana_id="o", script="hiragana", reps=4, stability=12.0,
        due=t0 - timedelta(days=1), last_correct=True,  # typed: its last answer was right
    )  # fmt: skip
    observe(dana, t0, hand=[("o", "hiragana")], mode="new")
    prompt = Prompt.objects.get()
    assert not prompt_answer(user=dana, prompt_id=prompt.pk, answer="wo", at=t0).correct


def test_seen_mode_asks_about_cards_shown_as_well_as_those_entering_the_hand(dana, t0):
    """Issue 27: the daily table (mode "seen") asks about every card newly shown in the
    learner's own view, not only the cards entering the hand."""
    shown = [("ka", "hiragana"), ("ku", "hiragana")]
    observe(dana, t0, shown=shown, hand=[("ki", "hiragana")], mode="seen")
    assert set(Prompt.objects.values_list("kana_id", flat=True)) == {"ka", "ki", "ku"}
    Prompt.objects.all().delete()
    observe(dana, t0, shown=shown, hand=[("ki", "hiragana")], mode="new", move_id=2)
    assert set(Prompt.objects.values_list("kana_id", flat=True)) == {"ki"}  # the hand only


def test_seen_mode_asks_a_kana_still_remembered_unless_answered_right_recently(dana, t0):
    """Issue 27, session 19: on the daily table a kana is asked whatever its state (mastered,
    not due for weeks) once its last right answer is 12 hours old; mode "new" asks only the
    kana that need work. Neither asks one answered right an hour ago."""
    remembered(
        dana, "a", stability=60.0, last_review=t0 - timedelta(days=2), due=t0 + timedelta(days=40)
    )  # mastered, answered right two days ago
    remembered(
        dana, "i", stability=60.0, last_review=t0 - timedelta(hours=1), due=t0 + timedelta(days=40)
    )
    KanaMemory.objects.filter(kana_id__in=["a", "i"]).update(last_correct=True)
    hand = [("a", "hiragana"), ("i", "hiragana")]
    observe(dana, t0, shown=hand, mode="seen")
    assert list(Prompt.objects.values_list("kana_id", flat=True)) == ["a"]
    Prompt.objects.all().delete()
    observe(dana, t0, hand=hand, mode="new", move_id=2)
    assert not Prompt.objects.exists()


def test_seen_mode_through_the_batched_hook_asks_about_shown_cards(dana, t0):
    from learning.services.play import SeenStep, plays_observed

    step = SeenStep(move_id=3, shown=(("sa", "katakana"),), entered_hand=())
    plays_observed(user=dana, table_id=11, prompt_mode="seen", steps=[step], at=t0)
    assert list(Prompt.objects.values_list("kana_id", "script")) == [("sa", "katakana")]
    plays_observed(user=dana, table_id=12, prompt_mode="new", steps=[step], at=t0)
    assert not Prompt.objects.filter(table_id=12).exists()


def test_a_kana_answered_right_hours_ago_is_not_asked_again_even_in_its_learning_step(dana, t0):
    """Issue 27: fsrs' learning steps make a kana just answered right due again minutes
    later; asking it then, at a recall near 1, teaches next to nothing."""
    KanaMemory.objects.create(learner=dana, kana_id="mu", script="hiragana")
    observe(dana, t0, hand=[("mu", "hiragana")], mode="new")
    prompt_answer(user=dana, prompt_id=Prompt.objects.get().pk, answer="mu", at=t0)
    soon = t0 + timedelta(hours=2)
    assert KanaMemory.objects.get(kana_id="mu").due <= soon  # fsrs would ask it again
    observe(dana, soon, hand=[("mu", "hiragana")], mode="new", move_id=2)
    assert not Prompt.objects.filter(status="open").exists()
    observe(dana, t0 + timedelta(hours=13), hand=[("mu", "hiragana")], mode="new", move_id=3)
    assert Prompt.objects.filter(status="open", kana_id="mu").exists()
    observe(dana, soon, hand=[("mu", "hiragana")], mode="every", move_id=4, table_id=12)
    assert Prompt.objects.filter(table_id=12).exists()  # "every" asks whatever
