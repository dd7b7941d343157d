"""A script balance in the warm-up (issue 27, session 25): when one script's mean retrievability
over its basic kana is below ``balance`` times the other's, the quiz asks that script's due kana
first, each script's own order kept; otherwise its order is unchanged. The rule names no
script (docs/bench.md, "Session 25")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from learning import syllabus
from learning.services import quiz as quiz_service
from learning.services.quiz import lagging_script, quiz_order, script_recall

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
OTHER = {"hiragana": "katakana", "katakana": "hiragana"}


def _cell(kana, script, *, state="mastered", recall=0.5, due_days_ago=-3.0, introduced=None):
    return SimpleNamespace(
        kana_id=kana, script=script, state=state, weak=False, retrievability=recall,
        due=NOW - timedelta(days=due_days_ago), introduced_at=introduced, last_correct=True,
        last_review=NOW - timedelta(days=5),
    )  # fmt: skip


def _learner(recall: dict[str, float], due: list[tuple[str, str, float, float]]):
    """Every basic kana answered, each script's at its recall, not due; ``due``: (kana,
    script, days overdue, recall) for the due ones (they replace the same kana)."""
    due_pairs = {(k, s) for k, s, _days, _r in due}
    cells = [
        _cell(k, s, recall=recall[s]) for k, s in syllabus.syllabus() if (k, s) not in due_pairs
    ]
    cells += [_cell(k, s, state="due", due_days_ago=d, recall=r) for k, s, d, r in due]
    return cells


def test_each_scripts_recall_is_its_mean_over_its_basic_kana_never_answered_counting_zero():
    cells = [_cell("a", "hiragana", recall=0.92), _cell("ka", "hiragana", recall=0.46)]
    cells += [_cell("i", "hiragana", state="new", recall=0.9)]  # taught, never answered: 0
    cells += [_cell("ga", "hiragana", recall=1.0)]  # voiced: not taught one by one, left out
    cells += [_cell("a", "katakana", recall=0.46)]
    recall = script_recall(cells)
    assert recall["hiragana"] == pytest.approx((0.92 + 0.46) / 46)
    assert recall["katakana"] == pytest.approx(0.46 / 46)
    assert script_recall([]) == {"hiragana": 0.0, "katakana": 0.0}


@pytest.mark.parametrize("low", ["hiragana", "katakana"])
def test_a_script_lags_only_below_the_ratio_times_the_other(low):
    high = OTHER[low]
    assert lagging_script({low: 0.37, high: 0.5}, 0.75) == low  # 0.37 < 0.375
    assert lagging_script({low: 0.375, high: 0.5}, 0.75) is None  # at the ratio: level enough
    assert lagging_script({low: 0.45, high: 0.5}, 0.75) is None
    assert lagging_script({low: 0.1, high: 0.8}, None) is None  # the rule off
    assert lagging_script({low: 0.0, high: 0.0}, 0.75) is None  # nothing remembered yet
    assert lagging_script({low: 0.5, high: 0.5}, 1.0) is None  # level


@pytest.mark.parametrize("low", ["hiragana", "katakana"])
def test_the_lagging_scripts_due_kana_come_first_each_script_in_its_own_order(low):
    high = OTHER[low]
    due = [
        ("a", high, 4.0, 0.3),  # the most overdue of all
        ("i", low, 1.0, 0.7),
        ("u", high, 3.0, 0.4),
        ("e", low, 2.0, 0.6),
    ]
    cells = _learner({low: 0.5, high: 0.8}, due)
    cells.append(_cell("o", high, state="new", introduced=NOW - timedelta(minutes=3)))

    def order(balance, seconds=None):
        got = quiz_order(cells, now=NOW, seconds=seconds, balance=balance)
        return [(c.kana_id, c.script) for c in got]

    product = order(None)
    assert product[:5] == [("o", high), ("a", high), ("u", high), ("e", low), ("i", low)]
    balanced = order(0.9)  # 0.5 < 0.72: the lagging script's due kana first
    assert balanced[:5] == [("o", high), ("e", low), ("i", low), ("a", high), ("u", high)]
    assert balanced[5:] == product[5:]  # the taught kana and everything after the due stay
    # under a backlog each script keeps the backlog's order (highest retrievability first)
    assert order(0.9, seconds=0.0)[:5] == [
        ("o", high), ("i", low), ("e", low), ("u", high), ("a", high)
    ]  # fmt: skip
    # within the ratio, or the rule off: the product's order
    assert order(0.6) == product
    assert [(c.kana_id, c.script) for c in quiz_order(cells, now=NOW)] == balanced  # 0.95


def test_the_signal_counts_kana_answered_right_recently_though_the_quiz_leaves_them_out():
    cells = _learner({"hiragana": 0.9, "katakana": 0.9}, [("a", "hiragana", 1.0, 0.5)])
    cells += [_cell("ka", "katakana", state="due", due_days_ago=2.0, recall=0.5)]
    recent = [c for c in cells if c.script == "katakana" and c.kana_id != "ka"]
    for c in recent:
        c.last_review = NOW - timedelta(hours=1)  # right an hour ago: not asked again now
    assert script_recall(cells)["katakana"] > 0.85 * script_recall(cells)["hiragana"]
    got = [(c.kana_id, c.script) for c in quiz_order(cells, now=NOW, balance=0.85)]
    assert got[:2] == [("ka", "katakana"), ("a", "hiragana")]  # most overdue first: unchanged


def test_the_products_ratio_and_its_default_use():
    assert quiz_service.SCRIPT_BALANCE == 0.95  # tuned on the development seeds (session 25)
    cells = _learner({"hiragana": 0.8, "katakana": 0.7}, [("a", "hiragana", 2.0, 0.5)])
    cells += [_cell("ka", "katakana", state="due", due_days_ago=1.0, recall=0.5)]
    got = [(c.kana_id, c.script) for c in quiz_order(cells, now=NOW)]  # 0.7 < 0.76: lagging
    assert got[:2] == [("ka", "katakana"), ("a", "hiragana")]
    off = [(c.kana_id, c.script) for c in quiz_order(cells, now=NOW, balance=None)]
    assert off[:2] == [("a", "hiragana"), ("ka", "katakana")]


def _memory(learner, kana, script, *, stability, last_days_ago, index):
    from fsrs import Card, State

    from learning import srs
    from learning.models import KanaMemory

    last = NOW - timedelta(days=last_days_ago)
    card = Card(
        card_id=index, state=State.Review, stability=stability, difficulty=5.0,
        due=last + timedelta(days=stability), last_review=last,
    )  # fmt: skip
    KanaMemory.objects.create(
        learner=learner, kana_id=kana, script=script, reps=3, last_correct=True,
        last_review=last, due=card.due, stability=stability, card=srs.card_to_json(card),
    )  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize("choice", ["both", "hiragana"])
def test_a_learner_taught_one_script_keeps_one_order(dana, choice):
    """Every hiragana remembered, two katakana learned before and due: katakana lag far below
    0.95 of hiragana. Taught both scripts, the katakana due come first; taught hiragana only
    (the learner's choice), the most overdue comes first whatever its script."""
    from learning.models import LearnerSettings, SyllabusChoice

    LearnerSettings.objects.create(learner=dana, syllabus=SyllabusChoice(choice))
    for index, (kana, script) in enumerate(syllabus.syllabus(("hiragana",))):
        if kana != "a":  # remembered: reviewed 2 days ago, due in 38
            _memory(dana, kana, script, stability=40.0, last_days_ago=2, index=index)
    _memory(dana, "a", "hiragana", stability=2.0, last_days_ago=6, index=100)  # 4 days over
    _memory(dana, "ka", "katakana", stability=2.0, last_days_ago=2.5, index=101)
    _memory(dana, "ki", "katakana", stability=2.0, last_days_ago=3, index=102)

    cells = quiz_service.quiz_cells_for(learner=dana, now=NOW)
    due = [(c.kana_id, c.script) for c in cells if c.state == "due"]
    assert sorted(due) == [("a", "hiragana"), ("ka", "katakana"), ("ki", "katakana")]
    if choice == "both":
        assert due == [("ki", "katakana"), ("ka", "katakana"), ("a", "hiragana")]
    else:
        assert due == [("a", "hiragana"), ("ki", "katakana"), ("ka", "katakana")]
