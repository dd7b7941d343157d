"""How fast each script is met, and what it is recalled at: the loop against pure ``fsrs``
(issue 27, the katakana share). A diagnostic: nothing is tuned by it.

    .venv/bin/python bench/srs_coverage.py                          # 6 and 10 min, no play
    .venv/bin/python bench/srs_coverage.py --minutes 10 --games 4 --exposure 0.1

Runs ``bench/srs_sim.py``'s arms (its learners, worlds and costs) and prints per cell and arm:
the kana of each script first answered before days 5, 10, 20 and 30 (of 45 each), the
day-44 recall of each script and their ratio (the goal's katakana share), and the answers of
the 44 days. ``--games 0`` runs the loop's warm-up alone, which is what pure ``fsrs`` is
compared with minute for minute (docs/bench.md, "Session 23: which kana a day's reviews go
to").
"""

from __future__ import annotations

import argparse
import sys
from multiprocessing import Pool
from pathlib import Path
from statistics import mean

sys.path.insert(0, str(Path(__file__).resolve().parent))
import srs_sim as S  # noqa: E402  (sets up Django)


def _job(job):
    arm, minutes, game, exposure, world, seed, index = job
    run = S.Run(minutes=minutes, game=game, exposure=exposure)
    return job, S.run_one((world, arm, index, seed, run))


def rows(results: list[dict]) -> dict:
    """The averages of one cell and arm's learners."""
    found = {
        script: [mean(r["first_asked"][script][i] for r in results) for i in range(4)]
        for script in S.SCRIPTS
    }
    hira = mean(r["recall_hiragana"] for r in results)
    kata = mean(r["recall_katakana"] for r in results)
    found.update(
        recall_hiragana=hira,
        recall_katakana=kata,
        share=kata / hira if hira else 0.0,
        answers=mean(r["answers"] for r in results),
    )
    return found


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arms", default="fsrs,kanagame")
    parser.add_argument("--minutes", default="6,10")
    parser.add_argument("--games", default="0", help="minutes of play of the loop (comma)")
    parser.add_argument("--exposure", type=float, default=0.0)
    parser.add_argument("--worlds", default=",".join(w.name for w in S.WORLDS))
    parser.add_argument("--learners", type=int, default=10, help="per seed")
    parser.add_argument("--seeds", default=",".join(map(str, S.DEV_SEEDS)))
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    seeds = [int(seed) for seed in args.seeds.split(",")]
    games = [float(game) for game in args.games.split(",")]
    cells = [
        (arm, float(minutes), game, args.exposure, world)
        for minutes in args.minutes.split(",")
        for game in games
        for world in args.worlds.split(",")
        for arm in args.arms.split(",")
        if game < float(minutes) and not (arm not in S.PLAYING and game != games[0])
    ]
    learners = [(seed, index) for seed in seeds for index in range(args.learners)]
    jobs = [(*cell, *learner) for cell in cells for learner in learners]
    with Pool(args.processes) as pool:
        results = dict(pool.map(_job, jobs, chunksize=2))
    days = " / ".join(str(day) for day in S.FIRST_ASKED_DAYS)
    print(f"| cell | arm | hiragana met by day {days} | katakana met by day {days} |"
          " recall h / k | share | answers |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | ---: | ---: |")
    for cell in cells:
        arm, minutes, game, _exposure, world = cell
        found = rows([results[(*cell, *learner)] for learner in learners])
        met = {s: " / ".join(f"{n:.1f}" for n in found[s]) for s in S.SCRIPTS}
        played = f"{game:g}" if arm in S.PLAYING else "0"
        print(
            f"| {minutes:g}/{played} {world} | {arm} | {met['hiragana']} | {met['katakana']} | "
            f"{found['recall_hiragana']:.3f} / {found['recall_katakana']:.3f} | "
            f"{100 * found['share']:.0f} % | {found['answers']:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
