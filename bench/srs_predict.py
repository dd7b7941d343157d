"""Are the memory model's predictions worth anything? Replay answers, score P(correct).

    .venv/bin/python bench/srs_predict.py [--learners 30] [--seeds 2026,2027] [--json]
    .venv/bin/python bench/srs_predict.py --diagnose [--seeds 101,102]   # where it is off
    .venv/bin/python bench/srs_predict.py --tune [--learners 60]         # development seeds
    .venv/bin/python bench/srs_predict.py --fit [--learners 8]           # development seeds

The answers come from the simulated learners of ``bench/srs_sim.py`` (the product's loop,
"average" world, exposure effect 0.1), where the true P(correct) of every answer is known.
They are replayed in time order through ``learning.srs`` exactly as
``learning.services.memory.memory_review`` does: before each answer ``srs.predict`` gives
P(correct) from the learner's card for that (kana, script) (recall at the exact elapsed
time with the prediction's decay, calibrated for the answer's kind and source, guessing
folded in for k choices; the first answer's prior for a kana taught or seen in play), then
the answer is graded and the card reviewed.

Scored on the answers of days 15-29 (the baselines are fitted on days 0-14, a time-based
split), per answer kind (``quiz_choice``: warm-up and quiz among choices; ``typed`` (in the
quiz or at the table); ``play_prompt``: a prompt among choices during the game; ``write``: a
drawn kana, in the quiz):

- log-loss, RMSE over ten calibration bins (weighted by answers; the ``calibration_error``),
  AUC, and a reliability table (predicted vs observed per bin);
- baselines: ``constant`` (the training average of the kind), ``running_average`` (the
  learner's own share of right answers so far, per kind, starting from the constant), and
  ``hlr``: half-life regression (Settles & Meeder 2016), p = 2^(-lag/h), h = 2^(theta . x),
  x = (1, sqrt(1 + right), sqrt(1 + wrong), katakana) for the (learner, kana, script), lag in
  days since its last answer, guessing folded in like the model, fitted by gradient descent
  on log-loss over the training days;
- ``mean_abs_p_true``: mean |P - P_true| of each predictor (the simulator knows P_true).

``--json`` prints {"kinds": {KIND: {"n", "model", "constant", "running_average", "hlr",
"calibration_error"}}} (log-losses), the shape docs/bench.md documents.

``--diagnose``: per kind, the reliability table of the model beside the same model with
fsrs' own decay, and the answers grouped (first answer, after a wrong one, by time elapsed,
by fsrs stability) with the simulator's true P(correct), true recall and true chance of a
look-alike answer. ``--tune``: the sweep that chose ``srs.PREDICTION_DECAY`` (the pooled
log-loss of the scored days for each decay); ``--fit``: the per-kind calibration weights and
the first-answer priors ``srs`` holds (``fit``; since session 10 the product's weights and
monotone maps come from the same objective, converged, on 120 development learners:
``bench/srs_calib.py --fitter isotonic --fit-out``). Both accept the development seeds only
(``srs_sim.DEV_SEEDS``, an allow-list: any other seed is refused).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import srs_sim  # noqa: E402

from learning import srs  # noqa: E402

KINDS = ("quiz_choice", "typed", "play_prompt", "write")
BARE = dict.fromkeys(srs.PREDICTION_CALIBRATION, srs.IDENTITY_CALIBRATION)  # the power law alone
SPLIT_DAY = 15
EPS = 1e-6


def _events_of(job) -> list[dict]:
    index, seed, world_name, exposure, guess_aware = job
    world = next(w for w in srs_sim.WORLDS if w.name == world_name)
    learner = srs_sim.learner_make(world, index, seed)
    events: list[dict] = []
    run = srs_sim.Run(exposure=exposure, rules=srs_sim.Rules(guess_aware=guess_aware))
    srs_sim.arm_product(world, learner, run, recorder=events)
    for event in events:
        event["learner"] = (seed, index)
    return events


def _answer_kind(event: dict) -> str:
    """The product's answer kind of a simulated answer (older recordings lack it)."""
    return event.get("answer_kind") or ("reading" if event["choices"] else "typed")


def replay(
    events: list[dict],
    *,
    guess_aware: bool = True,
    decays: dict | None = None,
    calibration: dict | None = None,
    monotone: dict | None = None,
) -> None:
    """Add ``model`` (srs.predict before the answer) to every event, in time order, and what
    the diagnosis needs: ``stability`` (days; None before the first answer), ``elapsed`` (days
    since the last answer) and ``after_wrong`` (the last answer was wrong).
    ``guess_aware=False``: right picks graded with the earlier rule (Good unless slow).
    ``decays``: {name: decay} also stores srs.predict with that curve decay, without the
    per-kind calibration, under ``name`` (the tuning sweep, ``--tune``; the "before" column
    of ``--diagnose``). ``calibration`` replaces ``srs.PREDICTION_CALIBRATION``
    (``--fit`` replays with none: ``{}``) and ``monotone`` ``srs.PREDICTION_ISOTONIC``
    (``srs.predict``'s rule when None); ``raw`` is the predicted recall before them."""
    scheduler = srs.scheduler_build(fuzzing=False)
    cards: dict = {}
    wrong: dict = {}
    for event in sorted(events, key=lambda e: (e["learner"], e["day"])):
        key = (event["learner"], event["kana"], event["script"])
        at = srs_sim._moment(event["day"])
        card = cards.get(key)
        kind, taught = _answer_kind(event), event.get("taught", False)
        event["model"] = srs.predict(
            scheduler=scheduler, card=card, now=at, choices=event["choices"], kind=kind,
            taught=taught, calibration=calibration, source=_source(event),
            seen=_source(event) == "prompt", monotone=monotone,
        )  # fmt: skip
        event["raw"] = srs.predicted_recall(scheduler=scheduler, card=card, now=at)
        event["learning"] = card is not None and srs.in_learning_steps(card)
        event["difficulty"] = (card.difficulty or 5.0) if card is not None else 5.0
        for name, decay in (decays or {}).items():
            event[name] = srs.predict(
                scheduler=scheduler, card=card, now=at, choices=event["choices"], decay=decay,
                kind=kind, taught=taught, calibration=BARE, source=_source(event),
                seen=_source(event) == "prompt",
            )  # fmt: skip
        event["stability"] = card.stability if card is not None else None
        event["elapsed"] = (at - card.last_review).total_seconds() / 86400 if card else None
        event["after_wrong"] = wrong.get(key, False)
        wrong[key] = not event["correct"]
        card = card or srs.card_new(card_id=len(cards) + 1, now=at)
        if not guess_aware and event["choices"] > 0:
            ok, slow = event["correct"], event["ms"] > srs.SLOW_MS
            rating = srs.Rating.Hard if ok and slow else srs.Rating.Good if ok else srs.Rating.Again
            cards[key] = scheduler.review_card(card, rating, at, event["ms"])[0]
            continue
        cards[key] = srs.review(
            scheduler=scheduler, card=card, correct=event["correct"], response_ms=event["ms"],
            at=at, recognition=event["choices"] > 0,
        ).card  # fmt: skip


def _guess(p: float, choices: int) -> float:
    return p + (1 - p) / choices if choices > 1 else p


def baselines(events: list[dict]) -> None:
    """``constant``, ``running_average`` and ``hlr`` on every event (fitted on days < split)."""
    train = [e for e in events if e["day"] < SPLIT_DAY]
    constant = {
        kind: sum(e["correct"] for e in train if e["kind"] == kind)
        / max(1, sum(1 for e in train if e["kind"] == kind))
        for kind in KINDS
    }
    right: dict = defaultdict(float)
    seen: dict = defaultdict(float)
    history: dict = {}
    for event in sorted(events, key=lambda e: (e["learner"], e["day"])):
        event["constant"] = constant[event["kind"]]
        key = (event["learner"], event["kind"])
        prior = 2.0  # the constant counts as two answers
        event["running_average"] = (right[key] + prior * constant[event["kind"]]) / (
            seen[key] + prior
        )
        right[key] += event["correct"]
        seen[key] += 1
        item = (event["learner"], event["kana"], event["script"])
        last, n_right, n_wrong = history.get(item, (None, 0, 0))
        event["hlr_x"] = (
            1.0, math.sqrt(1 + n_right), math.sqrt(1 + n_wrong),
            1.0 if event["script"] == "katakana" else 0.0,
        )  # fmt: skip
        event["lag"] = None if last is None else max(event["day"] - last, 1e-4)
        history[item] = (event["day"], n_right + event["correct"], n_wrong + (not event["correct"]))
    first = [e for e in train if e["lag"] is None]
    first_rate = {
        kind: sum(e["correct"] for e in first if e["kind"] == kind)
        / max(1, sum(1 for e in first if e["kind"] == kind))
        for kind in KINDS
    }
    theta = _hlr_fit([e for e in train if e["lag"] is not None])
    for event in events:
        if event["lag"] is None:
            event["hlr"] = _clip(first_rate[event["kind"]])
        else:
            event["hlr"] = _clip(_guess(_hlr_p(theta, event), event["choices"]))


def _hlr_p(theta, event) -> float:
    half_life = 2.0 ** max(
        -10.0, min(10.0, sum(t * x for t, x in zip(theta, event["hlr_x"], strict=True)))
    )
    return 2.0 ** (-event["lag"] / half_life)


def _hlr_fit(train: list[dict], steps: int = 300, rate: float = 0.05) -> list[float]:
    """Gradient descent on the log-loss of p' = guess(2^(-lag/h)), h = 2^(theta . x)."""
    theta = [0.0, 0.5, -0.5, 0.0]
    n = len(train)
    if not n:
        return theta
    for _ in range(steps):
        grad = [0.0] * len(theta)
        for event in train:
            x = event["hlr_x"]
            z = max(-10.0, min(10.0, sum(t * v for t, v in zip(theta, x, strict=True))))
            h = 2.0**z
            p = 2.0 ** (-event["lag"] / h)
            k = event["choices"]
            scale = (1 - 1 / k) if k > 1 else 1.0
            q = min(1 - EPS, max(EPS, _guess(p, k)))
            y = event["correct"]
            dloss_dq = (q - y) / (q * (1 - q))
            # dp/dz = p * ln2 * lag / h * ln2
            dp_dz = p * (math.log(2) ** 2) * event["lag"] / h
            g = dloss_dq * scale * dp_dz
            for i, v in enumerate(x):
                grad[i] += g * v
        theta = [t - rate * g / n for t, g in zip(theta, grad, strict=True)]
    return theta


def _clip(p: float) -> float:
    return min(1 - srs.PREDICTION_FLOOR, max(srs.PREDICTION_FLOOR, p))


def log_loss(rows, key) -> float:
    total = 0.0
    for e in rows:
        p = min(1 - EPS, max(EPS, e[key]))
        total -= math.log(p) if e["correct"] else math.log(1 - p)
    return total / len(rows)


def reliability(rows, key, bins: int = 10) -> list[dict]:
    table = []
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        inside = [e for e in rows if lo <= e[key] < hi or (b == bins - 1 and e[key] == 1.0)]
        if inside:
            table.append({
                "bin": f"{lo:.1f}-{hi:.1f}", "n": len(inside),
                "predicted": round(sum(e[key] for e in inside) / len(inside), 3),
                "observed": round(sum(e["correct"] for e in inside) / len(inside), 3),
            })  # fmt: skip
    return table


def calibration_rmse(rows, key) -> float:
    table = reliability(rows, key)
    n = sum(r["n"] for r in table)
    return math.sqrt(sum(r["n"] * (r["predicted"] - r["observed"]) ** 2 for r in table) / n)


def auc(rows, key) -> float:
    """Probability that a right answer was predicted above a wrong one (ties count half)."""
    ranked = sorted(rows, key=lambda e: e[key])
    rank_sum, i = 0.0, 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][key] == ranked[i][key]:
            j += 1
        mid = (i + j + 1) / 2  # average 1-based rank of the tie
        rank_sum += mid * sum(1 for e in ranked[i:j] if e["correct"])
        i = j
    pos = sum(1 for e in rows if e["correct"])
    neg = len(rows) - pos
    if not pos or not neg:
        return float("nan")
    return (rank_sum - pos * (pos + 1) / 2) / (pos * neg)


PREDICTORS = ("model", "constant", "running_average", "hlr")
CALIBRATION_GROUPS = ("choice", "play_choice", "typed", "write")


def _source(event: dict) -> str:
    """The product's source of a simulated answer: a table's prompt, or the quiz."""
    return "prompt" if event["kind"] == "play_prompt" or event.get("in_play") else "quiz"


def _p_of(e: dict, weights) -> float:
    p = _guess(
        srs.calibrated(
            e["raw"],
            "",
            e["stability"],
            {"": weights},
            e["learning"],
            e["elapsed"],
            e["difficulty"],
        ),
        e["choices"],
    )
    return min(1 - srs.PREDICTION_FLOOR, max(srs.PREDICTION_FLOOR, p))


def _group_loss(rows, weights) -> float:
    total = 0.0
    for e in rows:
        p = _p_of(e, weights)
        total -= math.log(p) if e["correct"] else math.log(1 - p)
    return total / len(rows)


def _fit_weights(rows, steps: int = 800, rate: float = 0.2) -> tuple[float, ...]:
    """Gradient descent (with momentum) on the log-loss of guess(sigmoid(w . x)) over the
    rows, x = srs.calibration_features; from the identity; b kept above 0.05, f at most 0.
    The loop over rows is written out for the seven weights (the same operations in the same
    order as a generic dot product: the same floats, about three times faster)."""
    data = []
    for e in rows:
        x = srs.calibration_features(
            e["raw"], e["stability"], e["learning"], e["elapsed"], e["difficulty"]
        )
        k = e["choices"]
        data.append((*x, k, (1 - 1 / k) if k > 1 else 1.0, e["correct"]))
    assert len(srs.IDENTITY_CALIBRATION) == 7
    w0, w1, w2, w3, w4, w5, w6 = srs.IDENTITY_CALIBRATION
    v0 = v1 = v2 = v3 = v4 = v5 = v6 = 0.0
    n, exp, low, high = len(rows), math.exp, EPS, 1 - EPS
    for _ in range(steps):
        g0 = g1 = g2 = g3 = g4 = g5 = g6 = 0.0
        for x0, x1, x2, x3, x4, x5, x6, k, scale, correct in data:
            z = 0 + w0 * x0 + w1 * x1 + w2 * x2 + w3 * x3 + w4 * x4 + w5 * x5 + w6 * x6
            z = max(-30.0, min(30.0, z))
            s_ = 1.0 / (1.0 + exp(-z))
            q = min(high, max(low, s_ + (1 - s_) / k if k > 1 else s_))
            g = (q - correct) / (q * (1 - q)) * scale * s_ * (1 - s_)
            g0 += g * x0
            g1 += g * x1
            g2 += g * x2
            g3 += g * x3
            g4 += g * x4
            g5 += g * x5
            g6 += g * x6
        v0 = 0.8 * v0 - rate * g0 / n
        v1 = 0.8 * v1 - rate * g1 / n
        v2 = 0.8 * v2 - rate * g2 / n
        v3 = 0.8 * v3 - rate * g3 / n
        v4 = 0.8 * v4 - rate * g4 / n
        v5 = 0.8 * v5 - rate * g5 / n
        v6 = 0.8 * v6 - rate * g6 / n
        w0, w1, w2, w3, w4, w5, w6 = w0 + v0, w1 + v1, w2 + v2, w3 + v3, w4 + v4, w5 + v5, w6 + v6
        w1 = max(0.05, w1)  # monotone in time: b > 0, f <= 0
        w5 = min(0.0, w5)
    return tuple(round(v, 3) for v in (w0, w1, w2, w3, w4, w5, w6))


def fit(events: list[dict], days_from: float = 0.0) -> dict:
    """What ``srs`` is given (development seeds only, ``main`` refuses others): per
    calibration group (``srs.calibration_kind``), the weights (a, b, c, d, e, f, g) of
    R' = sigmoid(a + b logit R + c ln S + d L + e L ln S + f ln t + g D') (srs.calibrated)
    minimising the log-loss of the answers on reviewed kana of days >= ``days_from``
    (``--fit``: the scored days, SPLIT_DAY); and the recall part (the guess among choices
    taken out) of first answers on kana a lesson taught (``taught_recall``) and on kana
    never taught, seen in play (``seen_recall``: the simulation's questions at a table come as
    the card shows)."""
    replay(events, calibration={})
    found: dict = {}
    for group in CALIBRATION_GROUPS:
        rows = [e for e in events if e["stability"] is not None and e["day"] >= days_from
                and srs.calibration_kind(_answer_kind(e), _source(e)) == group]  # fmt: skip
        if not rows:
            continue
        weights = _fit_weights(rows)
        found[group] = {"weights": list(weights), "n": len(rows),
                        "log_loss": round(_group_loss(rows, weights), 4),
                        "log_loss_uncalibrated": round(
                            _group_loss(rows, srs.IDENTITY_CALIBRATION), 4)}  # fmt: skip
    for name, taught in (("taught_recall", True), ("seen_recall", False)):
        first = [e for e in events if e["stability"] is None and e.get("taught", False) == taught]
        if first:
            recall = []
            for e in first:
                k = e["choices"]
                recall.append((e["correct"] - 1 / k) / (1 - 1 / k) if k > 1 else e["correct"])
            found[name] = {"value": round(sum(recall) / len(recall), 3), "n": len(first)}
    return found


TUNE_DECAYS = (srs.FSRS_DEFAULT_DECAY, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)


def tune(events: list[dict]) -> dict:
    """The prediction's curve decay that minimises the log-loss of every scored answer
    (days >= SPLIT_DAY, the three kinds pooled), with each kind's log-loss and calibration
    error beside it. Run on development seeds only (``main`` refuses held-out ones)."""
    names = {f"decay {d}": d for d in TUNE_DECAYS}
    replay(events, decays=names)
    test = [e for e in events if e["day"] >= SPLIT_DAY]
    table = {}
    for name, decay in names.items():
        table[decay] = {"pooled": round(log_loss(test, name), 4)}
        for kind in KINDS:
            rows = [e for e in test if e["kind"] == kind]
            if rows:
                table[decay][kind] = (
                    round(log_loss(rows, name), 4), round(calibration_rmse(rows, name), 4)
                )  # fmt: skip
    best = min(table, key=lambda d: table[d]["pooled"])
    return {"best": best, "table": table}


DIAGNOSIS_GROUPS = (
    ("first answer", lambda e: e["stability"] is None),
    ("after a wrong answer", lambda e: e["stability"] is not None and e["after_wrong"]),
    ("after a right answer", lambda e: e["stability"] is not None and not e["after_wrong"]),
    ("elapsed < 1 h", lambda e: e["elapsed"] is not None and e["elapsed"] < 1 / 24),
    ("elapsed 1 h - 1 day", lambda e: e["elapsed"] is not None and 1 / 24 <= e["elapsed"] < 1),
    ("elapsed >= 1 day", lambda e: e["elapsed"] is not None and e["elapsed"] >= 1),
    ("fsrs S < 0.1 d", lambda e: e["stability"] is not None and e["stability"] < 0.1),
    ("fsrs S 0.1-0.3 d", lambda e: e["stability"] is not None and 0.1 <= e["stability"] < 0.3),
    ("fsrs S 0.3-1 d", lambda e: e["stability"] is not None and 0.3 <= e["stability"] < 1),
    ("fsrs S 1-3 d", lambda e: e["stability"] is not None and 1 <= e["stability"] < 3),
    ("fsrs S >= 3 d", lambda e: e["stability"] is not None and e["stability"] >= 3),
)


def diagnose(events: list[dict]) -> dict:
    """Where the predictions are off, per kind, on the scored days: the reliability table of
    the model and of the same model with fsrs' own decay (``fsrs_decay``), then groups of
    answers (first, after a wrong one, by elapsed time, by fsrs stability; first answers
    also over every day, for they are rare once scoring starts) with the mean
    prediction, the share right and, from the simulator, the true P(correct), the true recall
    and the true chance of answering a look-alike once recalled."""
    replay(events, decays={"fsrs_decay": TUNE_DECAYS[0]})
    test = [e for e in events if e["day"] >= SPLIT_DAY]
    found = {}
    for kind in KINDS:
        rows = [e for e in test if e["kind"] == kind]
        if not rows:
            continue
        groups = {}
        every_day = [e for e in events if e["kind"] == kind]
        for label, member, scope in (
            *((label, member, rows) for label, member in DIAGNOSIS_GROUPS),
            ("first answer, days 0-29", DIAGNOSIS_GROUPS[0][1], every_day),
        ):
            inside = [e for e in scope if member(e)]
            if inside:
                groups[label] = {"n": len(inside)} | {
                    key: round(sum(float(e[key]) for e in inside) / len(inside), 3)
                    for key in ("model", "fsrs_decay", "correct", "p_true", "recall_true",
                                "p_confusion")
                }  # fmt: skip
        found[kind] = {
            "calibration_error": {
                key: round(calibration_rmse(rows, key), 4) for key in ("model", "fsrs_decay")
            },
            "reliability": {key: reliability(rows, key) for key in ("model", "fsrs_decay")},
            "groups": groups,
        }
    return found


def _print_diagnosis(found: dict) -> None:
    for kind, d in found.items():
        print(f"\n### {kind}: calibration error {d['calibration_error']}\n")
        print("| bin | n | predicted | observed | n (fsrs decay) | predicted | observed |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        by_bin = {}
        for key in ("model", "fsrs_decay"):
            for row in d["reliability"][key]:
                by_bin.setdefault(row["bin"], {})[key] = row
        for label in sorted(by_bin):
            cells = []
            for key in ("model", "fsrs_decay"):
                row = by_bin[label].get(key)
                cells += [str(row["n"]), str(row["predicted"]), str(row["observed"])] if row else [
                    "", "", ""]  # fmt: skip
            print(f"| {label} | " + " | ".join(cells) + " |")
        print(
            "\n| answers | n | predicted | predicted (fsrs decay) | observed | true P | "
            "true recall | true look-alike |"
        )
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for label, g in d["groups"].items():
            print(
                f"| {label} | {g['n']} | {g['model']} | {g['fsrs_decay']} | {g['correct']} | "
                f"{g['p_true']} | {g['recall_true']} | {g['p_confusion']} |"
            )


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=30, help="per seed")
    parser.add_argument(
        "--seeds", default=None, help="default: the held-out seeds (--tune: the development ones)"
    )
    parser.add_argument("--world", default="average")
    parser.add_argument("--exposure", type=float, default=0.1)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--old-choice-grading", action="store_true", help="right picks Good unless slow"
    )
    parser.add_argument(
        "--tune", action="store_true", help="sweep the prediction's decay (development seeds)"
    )
    parser.add_argument(
        "--diagnose", action="store_true", help="where the predictions are off, per kind"
    )
    parser.add_argument(
        "--fit", action="store_true",
        help="fit srs.PREDICTION_CALIBRATION and srs.TAUGHT_RECALL (development seeds)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    guess_aware = not args.old_choice_grading
    started = time.perf_counter()
    fitting = args.tune or args.fit
    default_seeds = srs_sim.DEV_SEEDS if fitting else srs_sim.HELD_OUT_SEEDS
    seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else list(default_seeds)
    if fitting and not set(seeds) <= set(srs_sim.DEV_SEEDS):  # an allow-list, not a block-list
        parser.error(f"--tune and --fit run on the development seeds {srs_sim.DEV_SEEDS} only")
    jobs = [
        (i, seed, args.world, args.exposure, guess_aware)
        for seed in seeds
        for i in range(args.learners)
    ]
    with Pool(args.processes) as pool:
        events = [e for chunk in pool.map(_events_of, jobs) for e in chunk]
    heading = (
        f"{len(events)} answers, {len(jobs)} learners, seeds {seeds}, world {args.world}, "
        f"exposure {args.exposure}; scored on days >= {SPLIT_DAY}"
    )
    if args.fit:
        found = fit(events, days_from=SPLIT_DAY)
        print(f"{heading} ({time.perf_counter() - started:.0f} s)\n")
        print(json.dumps(found, indent=2))
        return found
    if args.tune:
        found = tune(events)
        print(f"{heading} ({time.perf_counter() - started:.0f} s)\n")
        print("| decay | log-loss, kinds pooled | " + " | ".join(
            f"{kind}: log-loss / calib." for kind in KINDS) + " |")  # fmt: skip
        print("| ---: | ---: |" + " ---: |" * len(KINDS))
        for decay, row in found["table"].items():
            cells = [f"{row[k][0]} / {row[k][1]}" if k in row else "" for k in KINDS]
            print(f"| {decay} | {row['pooled']} | " + " | ".join(cells) + " |")
        print(f"\nbest decay (lowest pooled log-loss): {found['best']}")
        return found
    if args.diagnose:
        found = diagnose(events)
        print(f"{heading} ({time.perf_counter() - started:.0f} s)")
        _print_diagnosis(found)
        return found
    replay(events, guess_aware=guess_aware)
    baselines(events)
    test = [e for e in events if e["day"] >= SPLIT_DAY]
    kinds = {}
    detail = {}
    for kind in KINDS:
        rows = [e for e in test if e["kind"] == kind]
        if not rows:
            continue
        kinds[kind] = {
            "n": len(rows),
            **{name: round(log_loss(rows, name), 4) for name in PREDICTORS},
            "calibration_error": round(calibration_rmse(rows, "model"), 4),
        }
        detail[kind] = {
            "auc": {name: round(auc(rows, name), 3) for name in PREDICTORS},
            "calibration_rmse": {
                name: round(calibration_rmse(rows, name), 4) for name in PREDICTORS
            },
            "mean_abs_p_true": {
                name: round(sum(abs(e[name] - e["p_true"]) for e in rows) / len(rows), 4)
                for name in PREDICTORS
            },
            "observed": round(sum(e["correct"] for e in rows) / len(rows), 3),
            "reliability": reliability(rows, "model"),
        }
    if args.json:
        print(json.dumps({"kinds": kinds}))
    else:
        print(f"{heading} ({time.perf_counter() - started:.0f} s)\n")
        print(
            "| kind | n | observed | log-loss model | constant | running avg | HLR | calib. "
            "RMSE model | AUC model / HLR | mean abs(P − P_true) model / HLR |"
        )
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for kind, k in kinds.items():
            d = detail[kind]
            print(
                f"| {kind} | {k['n']} | {d['observed']} | {k['model']} | {k['constant']} | "
                f"{k['running_average']} | {k['hlr']} | {k['calibration_error']} | "
                f"{d['auc']['model']} / {d['auc']['hlr']} | "
                f"{d['mean_abs_p_true']['model']} / {d['mean_abs_p_true']['hlr']} |"
            )
        for kind in kinds:
            print(f"\nReliability, {kind} (model):\n\n| bin | n | predicted | observed |")
            print("| --- | ---: | ---: | ---: |")
            for row in detail[kind]["reliability"]:
                print(f"| {row['bin']} | {row['n']} | {row['predicted']} | {row['observed']} |")
    return {"kinds": kinds, "detail": detail}


if __name__ == "__main__":
    main()
