"""Is the predictions' calibration error model error or sampling noise? (issue 27)

    .venv/bin/python bench/srs_calib.py [--learners 8] [--seeds 2026,2027] [--processes 1]
    .venv/bin/python bench/srs_calib.py --learners 8 --seeds 101,102 --fit-out /tmp/w.json
    .venv/bin/python bench/srs_calib.py --learners 8 --calibration /tmp/w.json

The same answers and the same replay as ``bench/srs_predict.py`` (its ``_events_of``,
``replay`` and ``calibration_rmse``: ten equal-width bins, weighted by answers, days 15-29),
with, per answer kind:

- the reliability table (n, mean predicted, observed per bin) and the calibration RMSE;
- a bootstrap interval of the RMSE over learners (learners resampled with replacement,
  ``--boot`` times; 95 %, percentiles);
- the noise floor: the RMSE a perfectly calibrated model would get on the same answers
  (every outcome drawn as Bernoulli(predicted), the same bins; ``--boot`` draws, mean and
  95 %), and the RMSE of the simulator's own true P(correct) against the real outcomes
  (the ground truth's calibration error: what sampling alone leaves);
- the model error net of noise, sqrt(max(0, RMSE^2 - floor^2)) (the expected squared
  RMSE of a model is about its true squared error plus the floor's).

The simulated answers of each learner are cached (``--cache``, default
/tmp/kanagame-srs-events; keyed by seed, learner, world, exposure and a hash of the
simulator and learning/ sources), so larger samples and refits only simulate what is new.
``--fit-out``: the calibration weights of ``srs_predict.fit`` on these answers, written as
JSON (development seeds only, ``srs_sim.DEV_SEEDS``: an allow-list); ``--calibration``:
replay with such weights instead of ``srs.PREDICTION_CALIBRATION``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import pickle
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import srs_predict  # noqa: E402
import srs_sim  # noqa: E402

KINDS = srs_predict.KINDS
BINS = 10


def _source_hash() -> str:
    """What the simulated answers depend on: the simulator and the product's learning code."""
    digest = hashlib.sha256()
    files = [ROOT / "bench" / "srs_sim.py", *sorted((ROOT / "learning").rglob("*.py"))]
    for path in files:
        if "migrations" in path.parts or "tests" in path.parts:
            continue
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _cached_events(job, cache: Path, tag: str) -> list[dict]:
    index, seed, world, exposure, guess_aware = job
    path = cache / f"{tag}-{seed}-{world}-{exposure}-{int(guess_aware)}-{index}.pickle"
    if path.exists():
        return pickle.loads(path.read_bytes())
    events = srs_predict._events_of(job)
    path.write_bytes(pickle.dumps(events))
    return events


def _job(args):
    job, cache, tag = args
    return _cached_events(job, Path(cache), tag)


def events_for(seeds, learners, world="average", exposure=0.1, processes=1, cache=None):
    cache = Path(cache or "/tmp/kanagame-srs-events")
    cache.mkdir(parents=True, exist_ok=True)
    tag = _source_hash()
    jobs = [(i, seed, world, exposure, True) for seed in seeds for i in range(learners)]
    work = [(job, str(cache), tag) for job in jobs]
    if processes > 1:
        with Pool(processes) as pool:
            chunks = pool.map(_job, work)
    else:
        chunks = [_job(w) for w in work]
    return [e for chunk in chunks for e in chunk]


def _bin(p: float) -> int:
    return min(BINS - 1, int(p * BINS))


def _rmse(sums) -> float:
    """RMSE over bins from per-bin [n, sum predicted, sum observed] (bins with n > 0)."""
    total = sum(s[0] for s in sums)
    if not total:
        return float("nan")
    acc = 0.0
    for n, sp, so in sums:
        if n:
            acc += n * (sp / n - so / n) ** 2
    return math.sqrt(acc / total)


def _per_learner_bins(rows, key, outcome="correct"):
    found: dict = {}
    for e in rows:
        sums = found.setdefault(e["learner"], [[0, 0.0, 0.0] for _ in range(BINS)])
        b = sums[_bin(e[key])]
        b[0] += 1
        b[1] += e[key]
        b[2] += float(e[outcome])
    return found


def _pooled(per_learner, learners):
    sums = [[0, 0.0, 0.0] for _ in range(BINS)]
    for learner in learners:
        for b, s in zip(sums, per_learner[learner], strict=True):
            b[0] += s[0]
            b[1] += s[1]
            b[2] += s[2]
    return sums


def _percentiles(values, lo=0.025, hi=0.975):
    values = sorted(values)
    pick = lambda q: values[min(len(values) - 1, max(0, round(q * (len(values) - 1))))]  # noqa: E731
    return pick(lo), pick(hi)


def measure(rows, key="model", boot=1000, seed=0) -> dict:
    """Reliability, RMSE, the bootstrap interval over learners, and the noise floor."""
    rng = random.Random(seed)
    per_learner = _per_learner_bins(rows, key)
    learners = sorted(per_learner)
    sums = _pooled(per_learner, learners)
    rmse = _rmse(sums)
    assert abs(rmse - srs_predict.calibration_rmse(rows, key)) < 2e-3  # the same figure
    boots = [
        _rmse(_pooled(per_learner, [rng.choice(learners) for _ in learners])) for _ in range(boot)
    ]
    floor = []
    for _ in range(boot):
        drawn = [[0, 0.0, 0.0] for _ in range(BINS)]
        for e in rows:
            b = drawn[_bin(e[key])]
            b[0] += 1
            b[1] += e[key]
            b[2] += rng.random() < e[key]
        floor.append(_rmse(drawn))
    floor_mean = sum(floor) / len(floor)
    truth = _rmse(_pooled(_per_learner_bins(rows, "p_true"), learners))
    return {
        "n": len(rows),
        "learners": len(learners),
        "observed": round(sum(e["correct"] for e in rows) / len(rows), 3),
        "rmse": round(rmse, 4),
        "interval": tuple(round(v, 4) for v in _percentiles(boots)),
        "floor": round(floor_mean, 4),
        "floor_interval": tuple(round(v, 4) for v in _percentiles(floor)),
        "floor_p95": round(_percentiles(floor, 0.95, 0.95)[0], 4),
        "net": round(math.sqrt(max(0.0, rmse**2 - floor_mean**2)), 4),
        "truth_rmse": round(truth, 4),
        "log_loss": round(srs_predict.log_loss(rows, key), 4),
        "reliability": [
            {
                "bin": f"{b / BINS:.1f}-{(b + 1) / BINS:.1f}",
                "n": s[0],
                "predicted": round(s[1] / s[0], 3),
                "observed": round(s[2] / s[0], 3),
            }
            for b, s in enumerate(sums)
            if s[0]
        ],  # fmt: skip
    }


def _solve(matrix, vector):
    """Gaussian elimination with partial pivoting (7 x 7: no numpy here)."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if abs(a[col][col]) < 1e-12:
            return [0.0] * n
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            for c in range(col, n + 1):
                a[r][c] -= f * a[col][c]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def fit_weights_newton(rows, steps: int = 30, ridge: float = 1e-3) -> tuple[float, ...]:
    """The same objective as ``srs_predict._fit_weights`` (log-loss of guess(sigmoid(w . x)),
    x = srs.calibration_features, from the identity, b kept >= 0.05 and f <= 0), minimised by
    Fisher scoring (Newton with the expected Hessian, a step halved until the loss falls)
    instead of 800 steps of gradient descent: converged, and fast enough for 100,000 answers
    in pure Python."""
    srs = srs_predict.srs
    feats = [
        srs.calibration_features(
            e["raw"], e["stability"], e["learning"], e["elapsed"], e["difficulty"]
        )
        for e in rows
    ]
    ys = [float(e["correct"]) for e in rows]
    ks = [e["choices"] for e in rows]
    eps = srs_predict.EPS
    m = len(feats[0])

    def loss_of(w):
        total = 0.0
        for x, y, k in zip(feats, ys, ks, strict=True):
            z = max(-30.0, min(30.0, sum(wi * xi for wi, xi in zip(w, x, strict=True))))
            q = min(1 - eps, max(eps, srs_predict._guess(1.0 / (1.0 + math.exp(-z)), k)))
            total -= math.log(q) if y else math.log(1 - q)
        return total / len(ys)

    w = list(srs.IDENTITY_CALIBRATION)
    current = loss_of(w)
    for _ in range(steps):
        grad = [0.0] * m
        hess = [[0.0] * m for _ in range(m)]
        for x, y, k in zip(feats, ys, ks, strict=True):
            z = max(-30.0, min(30.0, sum(wi * xi for wi, xi in zip(w, x, strict=True))))
            s_ = 1.0 / (1.0 + math.exp(-z))
            scale = (1 - 1 / k) if k > 1 else 1.0
            q = min(1 - eps, max(eps, srs_predict._guess(s_, k)))
            dq = scale * s_ * (1 - s_)  # dq/dz
            g = (q - y) / (q * (1 - q)) * dq
            h = dq * dq / (q * (1 - q))  # Fisher information of z
            for i in range(m):
                grad[i] += g * x[i]
                hx = h * x[i]
                row = hess[i]
                for j in range(i, m):
                    row[j] += hx * x[j]
        n = len(ys)
        for i in range(m):
            for j in range(i):
                hess[i][j] = hess[j][i]
        hess = [[v / n + (ridge if i == j else 0.0) for j, v in enumerate(r)] for i, r in
                enumerate(hess)]  # fmt: skip
        step = _solve(hess, [g / n for g in grad])
        scale_step = 1.0
        while scale_step > 1e-3:
            trial = [wi - scale_step * si for wi, si in zip(w, step, strict=True)]
            trial[1] = max(0.05, trial[1])  # monotone in time, as srs_predict's fit
            trial[5] = min(0.0, trial[5])
            loss = loss_of(trial)
            if loss < current - 1e-9:
                break
            scale_step /= 2
        else:
            break
        improvement = current - loss
        w, current = trial, loss
        if improvement < 1e-7:
            break
    return tuple(round(v, 3) for v in w)


def fit_newton(events) -> dict:
    """``srs_predict.fit`` with ``fit_weights_newton`` in place of its gradient descent."""
    original = srs_predict._fit_weights
    srs_predict._fit_weights = fit_weights_newton
    try:
        return srs_predict.fit(events, days_from=srs_predict.SPLIT_DAY)
    finally:
        srs_predict._fit_weights = original


def fit_isotonic(rows, weights, bins: int = 20) -> list[list[float]]:
    """Knots of ``srs.isotonic`` for one group: the recall R' of ``weights``
    (``srs.calibrated``) against the recall part of the outcome ((y - 1/k) / (1 - 1/k), an
    unbiased estimate of recall for a pick among k, y for a typed or drawn answer), over
    ``bins`` equal-count bins of R', pooled where they decrease (pool-adjacent-violators),
    between the anchors (0, 0) and (1, 1)."""
    srs = srs_predict.srs
    pairs = []
    for e in rows:
        x = srs.calibrated(e["raw"], "", e["stability"], {"": weights}, e["learning"],
                           e["elapsed"], e["difficulty"])  # fmt: skip
        k = e["choices"]
        y = float(e["correct"])
        pairs.append((x, (y - 1 / k) / (1 - 1 / k) if k > 1 else y))
    pairs.sort()
    blocks = []  # [n, sum x, sum y]
    for b in range(bins):
        chunk = pairs[b * len(pairs) // bins : (b + 1) * len(pairs) // bins]
        if chunk:
            blocks.append([len(chunk), sum(x for x, _ in chunk), sum(y for _, y in chunk)])
    pooled: list[list[float]] = []
    for block in blocks:
        pooled.append(block)
        while len(pooled) > 1 and pooled[-2][2] / pooled[-2][0] >= pooled[-1][2] / pooled[-1][0]:
            n, sx, sy = pooled.pop()
            pooled[-1] = [pooled[-1][0] + n, pooled[-1][1] + sx, pooled[-1][2] + sy]
    knots = [[round(sx / n, 4), round(min(1.0, max(0.0, sy / n)), 4)] for n, sx, sy in pooled]
    # anchored at (0, 0) and (1, 1): beyond the answers seen, the map goes back toward the
    # weights' own recall instead of staying flat (a kana answered right an hour ago is still
    # near certain, though the scored days hold few such answers)
    return [[0.0, 0.0], *knots, [1.0, 1.0]]


def fit_all(events) -> dict:
    """Weights by Fisher scoring, then each group's monotone map on the same answers."""
    found = fit_newton(events)  # replays with no calibration: raw, stability... on each event
    monotone = {}
    for group in srs_predict.CALIBRATION_GROUPS:
        if group not in found:
            continue
        rows = [e for e in events if e["stability"] is not None
                and e["day"] >= srs_predict.SPLIT_DAY
                and srs_predict.srs.calibration_kind(srs_predict._answer_kind(e),
                                                     srs_predict._source(e)) == group]  # fmt: skip
        monotone[group] = fit_isotonic(rows, tuple(found[group]["weights"]))
    found["isotonic"] = monotone
    return found


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=8, help="per seed")
    parser.add_argument("--first", type=int, default=0, help="first learner index")
    parser.add_argument("--seeds", default=",".join(map(str, srs_sim.HELD_OUT_SEEDS)))
    parser.add_argument("--world", default="average")
    parser.add_argument("--exposure", type=float, default=0.1)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--boot", type=int, default=1000)
    parser.add_argument("--cache", default=None)
    parser.add_argument("--calibration", default=None, help="JSON weights per group")
    parser.add_argument("--fit-out", default=None, help="fit on these (dev) answers, write JSON")
    parser.add_argument("--fitter", choices=("gradient", "newton", "isotonic"), default="gradient")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")]
    if args.fit_out and not set(seeds) <= set(srs_sim.DEV_SEEDS):  # an allow-list
        parser.error(f"--fit-out runs on the development seeds {srs_sim.DEV_SEEDS} only")
    started, cpu = time.perf_counter(), time.process_time()
    events = events_for(
        seeds, args.first + args.learners, args.world, args.exposure, args.processes, args.cache
    )
    if args.first:
        events = [e for e in events if e["learner"][1] >= args.first]
    simulated = time.perf_counter() - started
    if args.fit_out:
        found = (
            fit_all(events)
            if args.fitter == "isotonic"
            else fit_newton(events)
            if args.fitter == "newton"
            else srs_predict.fit(events, days_from=srs_predict.SPLIT_DAY)
        )
        Path(args.fit_out).write_text(json.dumps(found, indent=2))
        print(json.dumps(found, indent=2))
        return found
    calibration = monotone = None
    if args.calibration:
        found = json.loads(Path(args.calibration).read_text())
        calibration = {g: tuple(v["weights"]) for g, v in found.items() if "weights" in v}
        monotone = {g: tuple(map(tuple, k)) for g, k in found.get("isotonic", {}).items()}
        srs_predict.srs.TAUGHT_RECALL = found["taught_recall"]["value"]  # the fitted priors
        srs_predict.srs.SEEN_RECALL = found["seen_recall"]["value"]
    srs_predict.replay(events, calibration=calibration, monotone=monotone)
    srs_predict.baselines(events)
    test = [e for e in events if e["day"] >= srs_predict.SPLIT_DAY]
    result = {}
    for kind in KINDS:
        rows = [e for e in test if e["kind"] == kind]
        if rows:
            result[kind] = measure(rows, boot=args.boot) | {
                base: round(srs_predict.log_loss(rows, base), 4)
                for base in ("constant", "running_average")
            }
    heading = (
        f"{len(events)} answers, {len({e['learner'] for e in events})} learners, seeds {seeds}, "
        f"world {args.world}, exposure {args.exposure}, calibration "
        f"{args.calibration or 'srs.PREDICTION_CALIBRATION'}; scored on days >= "
        f"{srs_predict.SPLIT_DAY} (simulation {simulated:.0f} s; total "
        f"{time.perf_counter() - started:.0f} s wall, {time.process_time() - cpu:.0f} s CPU "
        "of this process)"
    )
    if args.json:
        print(json.dumps(result))
        return result
    print(heading + "\n")
    print(
        "| kind | n | learners | observed | log-loss model / constant / running avg | "
        "calib. RMSE | 95 % over learners | noise floor (95 %) | net of floor | true P's RMSE |"
    )
    print("| --- | ---: | ---: | ---: | --- | ---: | --- | --- | ---: | ---: |")
    for kind, r in result.items():
        print(
            f"| {kind} | {r['n']} | {r['learners']} | {r['observed']} | {r['log_loss']} / "
            f"{r['constant']} / {r['running_average']} | {r['rmse']} | "
            f"{r['interval'][0]}–{r['interval'][1]} | {r['floor']} "
            f"({r['floor_interval'][0]}–{r['floor_interval'][1]}) | {r['net']} | "
            f"{r['truth_rmse']} |"
        )
    for kind, r in result.items():
        print(f"\nReliability, {kind}:\n\n| bin | n | predicted | observed | difference |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for row in r["reliability"]:
            print(
                f"| {row['bin']} | {row['n']} | {row['predicted']} | {row['observed']} | "
                f"{row['observed'] - row['predicted']:+.3f} |"
            )
    return result


if __name__ == "__main__":
    main()
