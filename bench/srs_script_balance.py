"""Should the picker play the script whose kana are remembered less? Development seeds only
(issue 27: katakana day-44 recall below 80 % of hiragana in the short and fast-forgetting cells).

    .venv/bin/python bench/srs_script_balance.py                     # every 4/8-min cell, ~4 min
    .venv/bin/python bench/srs_script_balance.py --rules 0.9,0.95:with

The product's ``picker.rank`` puts first the presets of the script with more kana never
answered (coverage); once both scripts are met it ranks by need alone, and the mixed decks
(both scripts at once) lead most days. This script adds one rule after the product's ranking,
inside ``bench/srs_sim.py``'s simulation (its learners, worlds and costs; both playing arms,
``kanagame`` and ``fsrs+game``, play what the picker chose): when no coverage reason leads and
one script's mean retrievability over its 46 basic kana (fsrs' own curve, the picker's
signal; never-answered kana count 0) is below ``R`` times the other's, that script's presets
come first. Rules (``--rules``, comma-separated):

- ``R``: the lagging script's presets first, then the mixed ones, then the rest;
- ``R:with``: the lagging script's presets and the mixed ones first, by score.

It prints each cell's day-44 recall (katakana / hiragana ratio) for the loop and for
``fsrs+game``, the product's rule first, then each rule with the loop's paired difference
from the product's and the loop's lead over ``fsrs+game`` under the same rule. ``--seeds``
accepts the development seeds only (docs/bench.md, "Session 18: a script balance in the
picker").
"""

from __future__ import annotations

import argparse
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import srs_sim as S  # noqa: E402  (sets up Django)

from learning.services.quiz import lagging_script, script_recall_of  # noqa: E402

PRODUCT_RANK = S.rank


def _parse(rule: str) -> tuple[float, bool]:
    ratio, _sep, mode = rule.partition(":")
    if mode not in ("", "with"):
        raise SystemExit(f"unknown rule {rule!r}: R or R:with")
    return float(ratio), mode == "with"


def rank_with(rule: str):
    """``picker.rank`` with the lagging script's presets first (module docstring)."""
    ratio, with_mixed = _parse(rule)

    def rank(*, statuses, **kwargs):
        ranked = PRODUCT_RANK(statuses=statuses, **kwargs)
        if not ranked or ranked[0].reason_key == "coverage":
            return ranked
        low = lagging_script(script_recall_of(statuses.items()), ratio)
        if low is None:
            return ranked
        shows = [rec.options.get("script", "hiragana") for rec in ranked]
        first = [rec for rec, s in zip(ranked, shows, strict=True) if s == low]
        mixed = [rec for rec, s in zip(ranked, shows, strict=True) if s == "mixed"]
        rest = [rec for rec, s in zip(ranked, shows, strict=True) if s not in (low, "mixed")]
        if with_mixed:
            return sorted(first + mixed, key=lambda rec: -rec.score) + rest
        return first + mixed + rest

    return rank


def _job(job):
    rule, arm, minutes, game, world, seed, index = job
    S.rank = PRODUCT_RANK if rule is None else rank_with(rule)
    run = S.Run(minutes=minutes, game=game, exposure=0.1)
    result = S.run_one((world, arm, index, seed, run))
    return job, (result["recall"], result["recall_hiragana"], result["recall_katakana"])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="0.85,0.9,0.95,0.9:with")
    parser.add_argument("--learners", type=int, default=10, help="per seed")
    parser.add_argument("--seeds", default=",".join(map(str, S.DEV_SEEDS)))
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    seeds = S.dev_seeds_only(args.seeds)
    rules = [None, *args.rules.split(",")]
    for rule in rules[1:]:
        _parse(rule)
    cells = [
        (minutes, game, world.name)
        for minutes in (6, 10, 15)
        for game in (4, 8)
        if game < minutes
        for world in S.WORLDS
    ]
    learners = [(seed, index) for seed in seeds for index in range(args.learners)]
    arms = ("kanagame", "fsrs+game")
    jobs = [(r, a, *cell, *who) for r in rules for a in arms for cell in cells for who in learners]
    with Pool(args.processes) as pool:
        results = dict(pool.map(_job, jobs, chunksize=4))
    print("| cell | product: loop / fsrs+game | " + " | ".join(rules[1:]) + " |")
    print("| --- | --- |" + " --- |" * (len(rules) - 1))
    for cell in cells:

        def rows(rule, arm, cell=cell):
            return [results[(rule, arm, *cell, *who)] for who in learners]

        base = rows(None, "kanagame")
        played = S.recall_text(rows(None, "fsrs+game"))
        row = [f"{cell[0]}/{cell[1]} {cell[2]}", f"{S.recall_text(base)} / {played}"]
        for rule in rules[1:]:
            loop, game = rows(rule, "kanagame"), rows(rule, "fsrs+game")
            change = S.paired_text(base, loop)
            lead = S.paired_text(game, loop)
            row.append(f"{S.recall_text(loop)} {change}; lead {lead}")
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
