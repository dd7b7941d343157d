"""Should the lesson keep to the day's minutes? Development seeds only (issue 27, session 14).

    .venv/bin/python bench/srs_lesson_budget.py                   # every cell, exposure 0.1
    .venv/bin/python bench/srs_lesson_budget.py --variants budget:5,budget,budget:12

The product's lesson (``lesson.lesson_plan``) waits while five kana already met are pending
in the quiz, for one day at most. For a learner whose daily goal is in minutes it can also
keep to those minutes (``review_seconds``, from ``warmup.warmup_seconds``: the goal's minutes
less the daily game's; ``lesson.lesson_fits``): a new lesson only when the pending kana's
answers and the lesson fit in a day's warm-up, and the pending kana hold it back for as many
days as the warm-up needs to answer them, not one (tried, not adopted: ``LESSON_BUDGET`` is
off). This script runs ``bench/srs_sim.py``'s loop (its learners, worlds and costs) with the
rule off (``Rules(lesson_budget=False)``: the product, as for a goal in reviews) and on, and
prints each cell's day-44
recall paired over the same learners, the katakana / hiragana ratio, the fewest kana asked by
day 30 by any learner and, beside each, the loop minus ``fsrs+game`` (same learners). The rule
itself is the product's: nothing of it is written here. Variants (``--variants``):

- ``budget``: the product's rule (an answer counted ``lesson.LESSON_ANSWER_SECONDS``);
- ``budget:S``: the same with an answer counted ``S`` seconds (a tighter or looser budget).

``--seeds`` accepts the development seeds only: this is a tuning tool (docs/bench.md,
"Session 14: a lesson that keeps to the day's minutes").
"""

from __future__ import annotations

import argparse
import statistics
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import srs_sim as S  # noqa: E402  (sets up Django)

BEFORE = "before"  # the rule off: what the product does (lesson.LESSON_BUDGET is off)


def rules_for(variant: str) -> S.Rules:
    """The loop's rules for a variant (``before``, ``budget`` or ``budget:S``)."""
    if variant == BEFORE:
        return S.Rules(lesson_budget=False)
    name, _sep, seconds = variant.partition(":")
    if name != "budget":
        raise SystemExit(f"unknown variant {variant!r}: budget or budget:S")
    if not seconds:
        return S.Rules(lesson_budget=True)
    return S.Rules(lesson_budget=True, lesson_answer_seconds=float(seconds))


def _job(job):
    variant, arm, minutes, game, world, seed, index = job
    rules = rules_for(variant) if arm == "kanagame" else S.Rules()
    run = S.Run(minutes=minutes, game=game, exposure=0.1, rules=rules)
    result = S.run_one((world, arm, index, seed, run))
    return job, (
        result["recall"],
        result["recall_hiragana"],
        result["recall_katakana"],
        result["asked_by_day_30"],
    )


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default="budget")
    parser.add_argument("--learners", type=int, default=10, help="per seed")
    parser.add_argument("--seeds", default=",".join(map(str, S.DEV_SEEDS)))
    parser.add_argument("--minutes", default="6,10,15")
    parser.add_argument("--game", default="4,8")
    parser.add_argument("--worlds", default=",".join(w.name for w in S.WORLDS))
    parser.add_argument("--no-flashcards", action="store_true", help="skip fsrs+game")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    seeds = S.dev_seeds_only(args.seeds)
    variants = [BEFORE, *args.variants.split(",")]
    for variant in variants:
        rules_for(variant)
    cells = [
        (float(minutes), float(game), world)
        for minutes in args.minutes.split(",")
        for game in args.game.split(",")
        if float(game) < float(minutes)
        for world in args.worlds.split(",")
    ]
    learners = [(seed, index) for seed in seeds for index in range(args.learners)]
    jobs = [(v, "kanagame", *c, *learner) for v in variants for c in cells for learner in learners]
    if not args.no_flashcards:
        jobs += [(BEFORE, "fsrs+game", *c, *learner) for c in cells for learner in learners]
    if args.processes > 1:
        with Pool(args.processes) as pool:
            results = dict(pool.map(_job, jobs, chunksize=4))
    else:
        results = dict(map(_job, jobs))
    table: dict = {}
    print("| cell | " + " | ".join(variants) + " |")
    print("| --- |" + " ---: |" * len(variants))
    for cell in cells:
        flash = None
        if not args.no_flashcards:
            flash = [results[(BEFORE, "fsrs+game", *cell, *learner)] for learner in learners]
        base = [results[(BEFORE, "kanagame", *cell, *learner)] for learner in learners]
        found = {}
        row = [f"{cell[0]:g}/{cell[1]:g} {cell[2]}"]
        for variant in variants:
            rows = [results[(variant, "kanagame", *cell, *learner)] for learner in learners]
            found[variant] = figures(rows, base if variant != BEFORE else None, flash)
            row.append(_fmt(found[variant]))
        table[row[0]] = found
        print("| " + " | ".join(row) + " |", flush=True)
    return table


def _diff(rows, other) -> tuple[float, float]:
    diffs = [100 * (a[0] - b[0]) for a, b in zip(rows, other, strict=True)]
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
    return statistics.mean(diffs), half


def figures(rows, base=None, flash=None) -> dict:
    """A variant's figures in one cell: recall, katakana / hiragana, fewest asked by day 30,
    paired differences with the rule off (``base``) and with ``fsrs+game`` (``flash``)."""
    mean = statistics.mean
    hira, kata = mean(r[1] for r in rows), mean(r[2] for r in rows)
    found = {
        "recall": 100 * mean(r[0] for r in rows),
        "ratio": kata / hira if hira else None,
        "asked_min": min(r[3] for r in rows),
    }
    if base is not None:
        found["minus_before"] = _diff(rows, base)
    if flash is not None:
        found["minus_fsrs_game"] = _diff(rows, flash)
    return found


def _fmt(found: dict) -> str:
    text = f"{found['recall']:.1f}"
    if found["ratio"] is not None:
        text += f" ({100 * found['ratio']:.0f} %)"
    if "minus_before" in found:
        text += " {:+.1f} (±{:.1f})".format(*found["minus_before"])
    if "minus_fsrs_game" in found:
        text += " [vs fsrs+game {:+.1f} ±{:.1f}]".format(*found["minus_fsrs_game"])
    return text + f" ≥{found['asked_min']}"


if __name__ == "__main__":
    main()
