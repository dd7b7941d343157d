"""The SRS benchmarks measure what docs/bench.md says they measure."""

import math
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import srs_predict  # noqa: E402
import srs_sim  # noqa: E402


def test_every_arm_spends_the_same_learner_minutes_play_included():
    run = srs_sim.Run(minutes=6.0, game=4.0, exposure=0.1)
    rows = {arm: srs_sim.run_one(("average", arm, 0, 101, run)) for arm in srs_sim.ARMS}
    minutes = [row["minutes"] for row in rows.values()]
    assert max(minutes) <= 1.03 * min(minutes)
    assert rows["fsrs+game"]["play_minutes"] == rows["kanagame"]["play_minutes"] == 120.0
    assert rows["fsrs"]["play_minutes"] == 0.0
    assert all(0.0 <= row["recall"] <= 1.0 for row in rows.values())


def test_the_exposure_effect_reaches_every_arm_that_plays_and_only_those():
    def recall(arm, exposure):
        run = srs_sim.Run(minutes=6.0, game=4.0, exposure=exposure)
        return srs_sim.run_one(("average", arm, 1, 101, run))["recall"]

    assert recall("fsrs+game", 0.25) > recall("fsrs+game", 0.0)
    assert recall("fsrs", 0.25) == recall("fsrs", 0.0)


def test_scores_of_the_prediction_bench():
    rows = [
        {"p": 0.9, "correct": True},
        {"p": 0.8, "correct": True},
        {"p": 0.3, "correct": False},
        {"p": 0.8, "correct": False},
    ]
    # right answers ranked above wrong ones: 0.9 > 0.8, 0.3; 0.8 ties 0.8 (half)
    assert srs_predict.auc(rows, "p") == pytest.approx((2 + 1.5) / 4)
    expected = -(math.log(0.9) + math.log(0.8) + math.log(0.7) + math.log(0.2)) / 4
    assert srs_predict.log_loss(rows, "p") == pytest.approx(expected)
    table = srs_predict.reliability(rows, "p")
    assert [(r["bin"], r["n"]) for r in table] == [("0.3-0.4", 1), ("0.8-0.9", 2), ("0.9-1.0", 1)]
    perfect = [{"p": 0.5, "correct": i % 2 == 0} for i in range(10)]
    assert srs_predict.calibration_rmse(perfect, "p") == pytest.approx(0.0)


def test_the_replay_predicts_before_each_answer_with_the_products_code():
    from learning import srs

    events = [
        {"learner": (1, 0), "day": 0.0, "kana": "shi", "script": "katakana", "kind": "quiz_choice",
         "choices": 4, "correct": True, "ms": 3000},
        {"learner": (1, 0), "day": 0.5, "kana": "shi", "script": "katakana", "kind": "typed",
         "choices": 0, "correct": True, "ms": 3000},
    ]  # fmt: skip
    srs_predict.replay(events)
    assert events[0]["model"] == pytest.approx(srs.UNSEEN_RECALL + (1 - srs.UNSEEN_RECALL) / 4)
    # half a day after one right pick: between the unseen prior and certainty
    assert srs.UNSEEN_RECALL < events[1]["model"] < 1 - srs.PREDICTION_FLOOR
