"""One rule of the simulated loop, paired: each learner run with a base value of a ``Rules``
field and with each other value, the same learners in every column (issue 27).

    .venv/bin/python bench/srs_rule_ab.py --rule play_ask_below --values 0.9,1 --seeds dev
    .venv/bin/python bench/srs_rule_ab.py --rule play_ask_below --values 1 --seeds held-out

This runs ``bench/srs_sim.py``'s loop (its learners, worlds and costs; exposure 0.1, every
4/8-minute cell, or the minutes of play in ``--games``: 0 is the warm-up alone) with
``Rules(FIELD=base)`` (``--base``, ``none`` by default) and with each of ``--values``, and
prints the day-44 recall (katakana / hiragana) and the paired change from the base (±95 %).
A value is a number, ``true``, ``false``, ``none`` or a word (``--rule prompts --values
new``). Values are chosen on the development seeds (``--seeds dev``, the default); the
held-out seeds report the one chosen.
``bench/srs_backlog_order.py`` is this for ``backlog_factor``.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import srs_sim as S  # noqa: E402  (sets up Django)

FIELDS = tuple(f.name for f in dataclasses.fields(S.Rules))


def _job(job):
    rule, value, minutes, game, world, seed, index = job
    run = S.Run(minutes=minutes, game=game, exposure=0.1, rules=S.Rules(**{rule: value}))
    result = S.run_one((world, "kanagame", index, seed, run))
    return job, (result["recall"], result["recall_hiragana"], result["recall_katakana"])


def seeds_of(text: str) -> tuple[int, ...]:
    named = {"dev": S.DEV_SEEDS, "held-out": S.HELD_OUT_SEEDS}
    return named.get(text) or tuple(int(seed) for seed in text.split(","))


def value_of(text: str):
    """``none`` → None, ``true``/``false`` → a bool, a number → a number, else the text (the
    ``prompts`` rule's modes)."""
    word = text.strip()
    named = {"none": None, "true": True, "false": False}
    if word.lower() in named:
        return named[word.lower()]
    try:
        return int(word)
    except ValueError:
        pass
    try:
        return float(word)
    except ValueError:
        return word


def paired_table(
    *, rule: str, base, values, labels, seeds, learners: int, minutes, processes: int,
    games=(4.0, 8.0),
) -> list[str]:  # fmt: skip
    """The Markdown table: one row a cell, the base's recall then each value's with its paired
    change; ``labels``: the column titles, the base's first."""
    cells = [
        (budget, game, world.name)
        for budget in minutes
        for game in games
        if game < budget
        for world in S.WORLDS
    ]
    who = [(seed, index) for seed in seeds for index in range(learners)]
    columns = [base, *values]
    jobs = [(rule, v, *cell, *w) for v in columns for cell in cells for w in who]
    if processes > 1:
        with Pool(processes) as pool:
            results = dict(pool.map(_job, jobs, chunksize=4))
    else:
        results = dict(map(_job, jobs))
    lines = [
        "| cell | " + " | ".join(labels) + " |",
        "| --- | ---: |" + " ---: |" * len(values),
    ]
    for cell in cells:
        before = [results[(rule, base, *cell, *w)] for w in who]
        row = [f"{cell[0]:g}/{cell[1]:g} {cell[2]}", S.recall_text(before)]
        for value in values:
            after = [results[(rule, value, *cell, *w)] for w in who]
            row.append(f"{S.recall_text(after)} {S.paired_text(before, after)}")
        lines.append("| " + " | ".join(row) + " |")
    print("\n".join(lines), flush=True)
    return lines


def main(argv=None) -> list[str]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rule", required=True, choices=FIELDS, help="a field of Rules")
    parser.add_argument(
        "--values", required=True, help="comma-separated: numbers, true, false, none or words"
    )
    parser.add_argument("--base", default="none", help="the base column's value")
    parser.add_argument("--learners", type=int, default=20, help="per seed")
    parser.add_argument("--seeds", default="dev", help="dev | held-out | comma-separated")
    parser.add_argument("--minutes", default="6,10,15")
    parser.add_argument("--games", default="4,8", help="minutes of play (0: warm-up only)")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    base = value_of(args.base)
    values = [value_of(v) for v in args.values.split(",")]
    return paired_table(
        rule=args.rule, base=base, values=values,
        labels=[f"{args.rule} {v}" for v in [args.base, *args.values.split(",")]],
        seeds=seeds_of(args.seeds), learners=args.learners,
        minutes=[float(m) for m in args.minutes.split(",")], processes=args.processes,
        games=[float(g) for g in args.games.split(",")],
    )  # fmt: skip


if __name__ == "__main__":
    main()
