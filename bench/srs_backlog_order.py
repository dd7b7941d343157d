"""The warm-up's order under a backlog, paired: each learner run with the earlier order (due
kana most overdue first, always) and with the product's rule at each factor (issue 27).

    .venv/bin/python bench/srs_backlog_order.py --factors 1,1.5,2 --seeds dev   # tuning, ~3 min
    .venv/bin/python bench/srs_backlog_order.py --seeds held-out                # the check, ~2 min

``quiz.quiz_order`` asks the due kana highest retrievability first when their answers come to
more than ``factor`` times the day's warm-up (``quiz.backlogged``; the learner's goal in
minutes), most overdue first otherwise. This runs ``bench/srs_sim.py``'s loop (its learners,
worlds and costs; exposure 0.1, every 4/8-minute cell) with ``Rules(backlog_factor=None)``
(the earlier order) and with each factor, the same learners in every column, and prints the
day-44 recall (katakana / hiragana) and the paired change from the earlier order (±95 %).
The factor is chosen on the development seeds (``--seeds dev``, the default); the held-out
seeds report it (docs/bench.md, "Session 18: the warm-up's order under a backlog").
"""

from __future__ import annotations

import argparse
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import srs_sim as S  # noqa: E402  (sets up Django)


def _job(job):
    factor, minutes, game, world, seed, index = job
    run = S.Run(minutes=minutes, game=game, exposure=0.1, rules=S.Rules(backlog_factor=factor))
    result = S.run_one((world, "kanagame", index, seed, run))
    return job, (result["recall"], result["recall_hiragana"], result["recall_katakana"])


def _seeds(text: str) -> tuple[int, ...]:
    named = {"dev": S.DEV_SEEDS, "held-out": S.HELD_OUT_SEEDS}
    return named.get(text) or tuple(int(seed) for seed in text.split(","))


def main(argv=None) -> list[str]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--factors", default=str(S.BACKLOG_FACTOR), help="comma-separated")
    parser.add_argument("--learners", type=int, default=20, help="per seed")
    parser.add_argument("--seeds", default="dev", help="dev | held-out | comma-separated")
    parser.add_argument("--minutes", default="6,10,15")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    factors = [float(f) for f in args.factors.split(",")]
    if any(f <= 0 for f in factors):
        raise SystemExit("a factor is a positive number of warm-ups")
    cells = [
        (minutes, game, world.name)
        for minutes in (float(m) for m in args.minutes.split(","))
        for game in (4.0, 8.0)
        if game < minutes
        for world in S.WORLDS
    ]
    learners = [(seed, index) for seed in _seeds(args.seeds) for index in range(args.learners)]
    columns = [None, *factors]
    jobs = [(f, *cell, *who) for f in columns for cell in cells for who in learners]
    if args.processes > 1:
        with Pool(args.processes) as pool:
            results = dict(pool.map(_job, jobs, chunksize=4))
    else:
        results = dict(map(_job, jobs))
    lines = [
        "| cell | most overdue first | " + " | ".join(f"factor {f:g}" for f in factors) + " |",
        "| --- | ---: |" + " ---: |" * len(factors),
    ]
    for cell in cells:
        base = [results[(None, *cell, *who)] for who in learners]
        row = [f"{cell[0]:g}/{cell[1]:g} {cell[2]}", S.recall_text(base)]
        for factor in factors:
            other = [results[(factor, *cell, *who)] for who in learners]
            row.append(f"{S.recall_text(other)} {S.paired_text(base, other)}")
        lines.append("| " + " | ".join(row) + " |")
    print("\n".join(lines), flush=True)
    return lines


if __name__ == "__main__":
    main()
