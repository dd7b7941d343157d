"""bench/srs_calib.py: the noise floor, the interval over learners, the fit's guards."""

import random
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import srs_calib  # noqa: E402
import srs_sim  # noqa: E402


def _rows(bias: float, learners: int = 20, per: int = 300, seed: int = 1) -> list[dict]:
    """Answers whose true chance is p; the model predicts p + bias (clipped)."""
    rng = random.Random(seed)
    rows = []
    for learner in range(learners):
        for _ in range(per):
            p = rng.uniform(0.05, 0.95)
            rows.append({
                "learner": (1, learner), "p_true": p, "correct": rng.random() < p,
                "model": min(0.98, max(0.02, p + bias)),
            })  # fmt: skip
    return rows


def test_a_calibrated_model_sits_on_the_noise_floor_and_a_biased_one_above_it():
    calibrated = srs_calib.measure(_rows(0.0), boot=200)
    assert calibrated["rmse"] < 2.5 * calibrated["floor"]
    assert calibrated["floor_interval"][0] <= calibrated["rmse"] <= calibrated["floor_p95"] * 1.5
    biased = srs_calib.measure(_rows(-0.1), boot=200)
    assert biased["rmse"] > 0.08 > 5 * biased["floor"]
    assert biased["interval"][0] > 0.05  # the interval over learners excludes the goal
    assert biased["net"] == pytest.approx((biased["rmse"] ** 2 - biased["floor"] ** 2) ** 0.5, 1e-2)
    # the same answers, fewer of them: a higher floor
    few = srs_calib.measure(_rows(0.0, learners=2, per=100), boot=200)
    assert few["floor"] > 2 * calibrated["floor"]


def test_the_monotone_map_is_non_decreasing_and_anchored():
    rng = random.Random(3)
    rows = []
    for _ in range(4000):
        raw = rng.uniform(0.05, 0.95)
        recall = raw**2  # the true recall is bent below the raw one
        rows.append({"raw": raw, "stability": 1.0, "learning": False, "elapsed": 1.0,
                     "difficulty": 5.0, "choices": 0,
                     "correct": rng.random() < recall})  # fmt: skip
    identity = srs_calib.srs_predict.srs.IDENTITY_CALIBRATION
    knots = srs_calib.fit_isotonic(rows, identity)
    assert knots[0] == [0.0, 0.0] and knots[-1] == [1.0, 1.0]
    assert [x for x, _ in knots] == sorted(x for x, _ in knots)
    assert [y for _, y in knots] == sorted(y for _, y in knots)
    mapped = srs_calib.srs_predict.srs.isotonic(0.5, [tuple(k) for k in knots])
    assert mapped == pytest.approx(0.25, abs=0.05)


def test_the_fit_runs_on_development_seeds_only():
    for seeds in ("2026", "101,2027", "999"):
        with pytest.raises(SystemExit):
            srs_calib.main(["--seeds", seeds, "--learners", "1", "--fit-out", "/dev/null"])
    assert set(srs_sim.DEV_SEEDS) == {101, 102}
