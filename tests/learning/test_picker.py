"""The variant picker picks what a teacher would pick (hand-built memory states)."""

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model

from games.engines import get_engine
from learning import kana_table
from learning.picker import AssignmentInfo, KanaStatus, rank, recommend

ALL = sorted(get_engine("kazoku-families").practice({}))  # the 45 Kazoku kana
STRONG = KanaStatus(state="mastered", retrievability=0.97)
WEAK = KanaStatus(state="learning", retrievability=0.55, weak=True)


def everything(status, scripts=("hiragana", "katakana")):
    return {(k, s): status for k in ALL for s in scripts}


def best(statuses, **kwargs):
    return rank(statuses=statuses, **kwargs)[0]


def test_weak_katakana_in_the_s_and_t_rows_calls_for_kana_families_in_katakana():
    statuses = everything(STRONG)
    for k in ("sa", "shi", "su", "se", "so", "ta", "chi", "tsu", "te", "to"):
        statuses[(k, "katakana")] = WEAK
    rec = best(statuses)
    assert (rec.engine, dict(rec.options)) == (
        "kazoku-families",
        {"variant": "kana", "script": "katakana"},
    )
    assert {k for k, _ in rec.kana} >= {"shi", "tsu", "so"}
    # plain words: the kana themselves and why, not "groups (SA, TA)" (issue 25)
    assert rec.reason == "This game practises サ, シ, ス, which you often get wrong."


def test_the_reason_names_due_and_new_kana_in_plain_words():
    due = KanaStatus(state="due", retrievability=0.85)
    statuses = everything(STRONG)
    for k in ("ha", "hi", "fu", "he", "ho", "na", "ni", "nu", "ne", "no"):
        statuses[(k, "hiragana")] = due
    rec = best(statuses, engines=["kazoku-families"])
    assert rec.reason == "This game practises な, に, ぬ, which are due for review today."
    beginner = best({}, engines=["kazoku-families"])
    assert beginner.reason.startswith("This game shows you kana you have not met yet: ")
    for jargon in ("group", "(", "predicted", "%"):
        assert jargon not in rec.reason and jargon not in beginner.reason


def test_weak_vowels_across_rows_call_for_gojuon_families():
    statuses = everything(STRONG)
    for k in ("e", "ke", "se", "te", "ne", "he", "me", "re"):
        statuses[(k, "hiragana")] = WEAK
    rec = best(statuses)
    assert (rec.engine, dict(rec.options)) == (
        "kazoku-families",
        {"variant": "gojuon", "script": "hiragana"},
    )


def test_strong_kana_call_for_the_word_game():
    rec = best(everything(STRONG))
    assert rec.engine == "kazoku-words"
    assert "know most" in rec.reason


def test_without_the_word_engine_strong_learners_still_get_a_game():
    rec = best(everything(STRONG), engines=["kazoku-families"])
    assert rec.engine == "kazoku-families"


def test_due_kana_in_both_scripts_call_for_mixed_cards():
    due = KanaStatus(state="due", retrievability=0.85)
    statuses = everything(STRONG)
    for k in ("ka", "ki", "ku", "ke", "ko", "ma", "mi", "mu"):
        statuses[(k, "hiragana")] = due
        statuses[(k, "katakana")] = due
    rec = best(statuses)
    assert dict(rec.options) == {"variant": "kana", "script": "mixed"}


def test_a_beginner_starts_with_hiragana_families():
    rec = best({})
    assert rec.engine == "kazoku-families"
    # never mixed cards while knowing neither script (issue 25)
    assert rec.options["script"] == "hiragana"


def test_assignments_come_first_in_due_order():
    statuses = everything(STRONG)
    fixed = AssignmentInfo(
        id=4,
        engine="kazoku-families",
        options={"variant": "gojuon"},
        script="katakana",
        due_label="1 March",
    )
    rec_first, rec_second, *rest = rank(
        statuses=statuses,
        assignments=[
            fixed,
            AssignmentInfo(
                id=5, engine="recommended", options={}, script="hiragana", due_label="3 March"
            ),
        ],
    )
    assert rec_first.assignment_id == 4
    assert dict(rec_first.options) == {"variant": "gojuon", "script": "katakana"}
    assert rec_second.assignment_id == 5 and rec_second.options["script"] == "hiragana"
    assert "teacher" in rec_first.reason
    assert all(r.assignment_id is None for r in rest)


def test_every_recommendation_explains_itself_in_one_sentence():
    for rec in rank(statuses=everything(WEAK, scripts=("hiragana",))):
        assert rec.reason.endswith(".") and rec.reason.count(". ") == 0


@pytest.mark.django_db
def test_recommend_reads_the_learners_memory_and_assignments(bob):
    from learning.classroom.models import Assignment, Classroom, Membership
    from learning.models import KanaMemory

    now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    KanaMemory.objects.bulk_create(  # every hiragana answered: katakana is behind in coverage
        KanaMemory(
            learner=bob,
            kana_id=k,
            script="hiragana",
            reps=5,
            stability=40.0,
            due=now + timedelta(days=30),
            last_review=now - timedelta(days=1),
        )  # fmt: skip
        for k in kana_table.kana_ids("hiragana")
    )
    for k in ("sa", "shi", "su", "se", "so", "ta", "chi", "tsu", "te", "to"):
        KanaMemory.objects.create(
            learner=bob,
            kana_id=k,
            script="katakana",
            reps=3,
            stability=2.0,
            due=now - timedelta(days=3),
        )
    recs = recommend(bob, now=now)
    assert recs[0].options == {"variant": "kana", "script": "katakana"}
    assert recs[0].kana_labels and all(len(g) == 1 for g in recs[0].kana_labels)

    tess = get_user_model().objects.create_user(username="tess", password="x-kana-2026")
    room = Classroom.objects.create(teacher=tess, name="2B", join_code="ABCD12")
    Membership.objects.create(classroom=room, student=bob)
    Assignment.objects.create(
        classroom=room, engine="recommended", script="hiragana", due_at=now + timedelta(days=2)
    )
    recs = recommend(bob, now=now)
    assert recs[0].assignment_id is not None and recs[0].options["script"] == "hiragana"


def test_while_katakana_has_kana_never_asked_its_games_come_first():
    """Issue 27: hiragana all answered and strong (the word game would lead), katakana never
    asked: the picker brings katakana in, and says why."""
    statuses = {(k, "hiragana"): STRONG for k in kana_table.kana_ids("hiragana")}
    recs = rank(statuses=statuses)
    assert recs[0].options["script"] in ("katakana", "mixed")
    first_katakana = next(r for r in recs if r.options.get("script") == "katakana")
    assert first_katakana.reason_key == "coverage"
    assert (
        "katakana" in first_katakana.reason
        and str(len(kana_table.kana_ids("katakana", basic_only=True))) in first_katakana.reason
    )
    shown = [r.options.get("script", "hiragana") for r in recs]
    assert shown.index("hiragana") > max(i for i, s in enumerate(shown) if s == "katakana")


def test_scripts_level_in_coverage_keep_the_score_order():
    assert rank(statuses=everything(STRONG))[0].reason_key == "context_strong"


def test_a_syllabus_of_one_script_recommends_only_that_script():
    recs = rank(statuses={}, scripts=("hiragana",))
    assert recs and all(r.options.get("script", "hiragana") == "hiragana" for r in recs)
    recs = rank(statuses={}, scripts=("katakana",))
    assert recs and all(r.options.get("script") == "katakana" for r in recs)


@pytest.mark.django_db
def test_a_japanese_reason_names_no_romaji_row(bob):
    """Issue 26 item 9: a Japanese reason never reads the romaji SA, TA (it names the kana)."""
    from django.utils import translation

    from learning.models import KanaMemory

    now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    weak = ("sa", "shi", "su", "se", "so", "ta", "chi", "tsu", "te", "to")
    # every kana of both scripts asked before (so coverage does not lead), the SA and TA rows
    # of katakana due and weak, the rest strong
    for script in ("hiragana", "katakana"):
        for k in kana_table.kana_ids(script):
            due_now = script == "katakana" and k in weak
            KanaMemory.objects.create(
                learner=bob, kana_id=k, script=script, reps=3,
                stability=2.0 if due_now else 60.0,
                due=now - timedelta(days=3) if due_now else now + timedelta(days=30),
            )  # fmt: skip
    with translation.override("ja"):
        reason = recommend(bob, now=now)[0].reason
    # the reason names the kana themselves (issue 25 item 8), never a romaji row name
    assert "サ" in reason and "SA" not in reason and "TA" not in reason
    assert "。 " not in reason and " (" not in reason  # Japanese punctuation, no spaces
    assert not any("a" <= ch.lower() <= "z" for ch in reason)


def test_families_holding_other_kana_are_named_by_what_they_hold_in_every_language():
    """Issue 26 item 11: the kana-row family YA holds わ and ん, the column O holds ん: their
    English and French names say so, as the Japanese ones (や・ゆ・よ・わ・ん, お段・ん) do."""
    from django.utils import translation

    from games.boards.kazoku_families import family_label

    for code in ("en", "fr"):
        with translation.override(code):
            assert family_label("kana", "ya") == "YA·YU·YO·WA·N"
            assert family_label("kana", "ka") == "KA"
            assert family_label("gojuon", "o") == "O·N"
            assert family_label("gojuon", "a") == "A"
    with translation.override("ja"):
        assert family_label("kana", "ya") == "や・ゆ・よ・わ・ん"
