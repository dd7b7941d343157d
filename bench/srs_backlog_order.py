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
seeds report it (docs/bench.md, "Session 18: the warm-up's order under a backlog"). The
pairing is ``bench/srs_rule_ab.py``'s, for the rule ``backlog_factor``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import srs_rule_ab  # noqa: E402  (sets up Django)
import srs_sim as S  # noqa: E402


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
    return srs_rule_ab.paired_table(
        rule="backlog_factor", base=None, values=factors,
        labels=["most overdue first", *(f"factor {f:g}" for f in factors)],
        seeds=srs_rule_ab.seeds_of(args.seeds), learners=args.learners,
        minutes=[float(m) for m in args.minutes.split(",")], processes=args.processes,
    )  # fmt: skip


if __name__ == "__main__":
    main()
