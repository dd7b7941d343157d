"""In which order should the warm-up ask its due kana? Development seeds only (issue 27).

    .venv/bin/python bench/srs_due_order.py                       # loop arm, every 4/8-min cell
    .venv/bin/python bench/srs_due_order.py --orders desc:20 --arm fsrs,fsrs+game

The product's ``quiz.quiz_order`` asks the kana taught today first, then the due ones by due
date (most overdue first; since session 18, highest retrievability first under a backlog the
day's warm-up cannot answer, for a goal in minutes), then the weak ones. This script swaps
only the due kana's order (its orders replace the backlog rule),
inside ``bench/srs_sim.py``'s simulation (its learners, worlds and costs), and prints each
cell's day-44 recall against the product's order, paired over the same learners, with the
katakana / hiragana ratio. Orders (``--orders``, comma-separated):

- ``asc``: lowest retrievability first;
- ``desc``: highest retrievability first (those still likely remembered, before they are lost);
- ``desc:B``: ``desc`` when more than ``B`` kana are due, the product's order otherwise;
- ``fsrs``: the order of the flashcard arm, for the whole warm-up and not only its due kana:
  the kana taught today first (as the product does), then the due ones most overdue first
  (no backlog rule), then the others by due date, soonest first, leaving out any reviewed
  earlier the same day (the product asks its weak kana next, lowest retrievability first,
  and may come back to a kana the same day once ``srs.RECENT_RIGHT`` has passed). It asks
  whether the katakana share depends on which kana a day's reviews go to (docs/bench.md,
  "Session 23: which kana a day's reviews go to").

With ``--arm fsrs`` or ``fsrs+game`` the same swap is made in the flashcard arms' choice of
the next due card (their order is also most overdue first), so that a gain of the loop is
compared with what the same rule gives the baseline. ``--seeds`` accepts the development
seeds only: this is a tuning tool (docs/bench.md, "Session 13: the order of due kana").
"""

from __future__ import annotations

import argparse
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import srs_sim as S  # noqa: E402  (sets up Django)

from learning.services import quiz as Q  # noqa: E402

PRODUCT_ORDER = Q.quiz_order
FLASHCARD_NEXT = S.Flashcards._next


def _parse(order: str) -> tuple[str, int]:
    name, _sep, backlog = order.partition(":")
    if name not in ("asc", "desc", "fsrs") or (name == "fsrs" and backlog):
        raise SystemExit(f"unknown order {order!r}: asc, desc, desc:B or fsrs")
    return name, int(backlog or 0)


def _due_sorted(due: list, order: str, key_r, key_due) -> list:
    name, backlog = _parse(order)
    if name == "desc" and len(due) <= backlog:
        return sorted(due, key=key_due)
    return sorted(due, key=lambda c: -key_r(c) if name == "desc" else key_r(c))


def fsrs_order(cells, now=None, seconds=None, factor=None, balance=None):  # noqa: ARG001
    """The ``fsrs`` order (module docstring): taught today, due by due date, then the rest by
    due date, none reviewed earlier on ``now``'s day; the 12-hour rule of the product kept."""
    cells = list(cells)
    if now is not None:
        cells = [c for c in cells if not Q._recently_right(c, now)]
    taught = [c for c in PRODUCT_ORDER(cells) if c.state == "new"]
    due = sorted((c for c in cells if c.state == "due"), key=lambda c: c.due)
    ahead = sorted(
        (
            c
            for c in cells
            if c.state not in ("new", "due")
            and c.due is not None
            and not (now is not None and c.last_review and c.last_review.date() == now.date())
        ),
        key=lambda c: c.due,
    )
    chosen: dict = {}
    for cell in [*taught, *due, *ahead]:
        chosen.setdefault((cell.kana_id, cell.script), cell)
    return list(chosen.values())


def quiz_order_with(order: str):
    """``quiz.quiz_order`` with the due kana in ``order`` (the rest as the product does)."""
    if order == "fsrs":
        return fsrs_order

    def quiz_order(cells, now=None, seconds=None, factor=None, balance=None):
        # the product's backlog rule (seconds, factor: session 18) and script balance
        # (balance: session 25) give way to ``order``
        cells = list(cells)
        if now is not None:
            cells = [c for c in cells if not Q._recently_right(c, now)]
        due = [c for c in cells if c.state == "due"]
        due = _due_sorted(due, order, lambda c: c.retrievability, lambda c: c.due)
        rest = [c for c in PRODUCT_ORDER(cells) if c.state != "due"]
        taught = [c for c in rest if c.state == "new"]
        chosen: dict = {}
        for cell in [*taught, *due, *rest]:
            chosen.setdefault((cell.kana_id, cell.script), cell)
        return list(chosen.values())

    return quiz_order


def flashcards_next_with(order: str):
    if order == "fsrs":
        return FLASHCARD_NEXT  # the flashcard arms' own order

    def _next(self, moment, fresh, today):
        ready = [p for p, at in self.learning.items() if at <= moment]
        if ready or not isinstance(self.schedule, S.FsrsCards):
            return FLASHCARD_NEXT(self, moment, fresh, today)
        settled = [p for p in self.introduced if p not in self.learning]
        due = [p for p in settled if self.schedule.due(p) <= moment]
        if not due:
            return FLASHCARD_NEXT(self, moment, fresh, today)
        now, schedule = S._moment(moment), self.schedule

        def recall(pair):
            return schedule.scheduler.get_card_retrievability(schedule.cards[pair], now)

        return _due_sorted(due, order, recall, schedule.due)[0], "review"

    return _next


def _job(job):
    order, arm, minutes, game, world, seed, index, exposure = job
    S.quiz_order = PRODUCT_ORDER if order is None else quiz_order_with(order)
    S.Flashcards._next = FLASHCARD_NEXT if order is None else flashcards_next_with(order)
    run = S.Run(minutes=minutes, game=game, exposure=exposure)
    result = S.run_one((world, arm, index, seed, run))
    return job, (result["recall"], result["recall_hiragana"], result["recall_katakana"])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--orders", default="asc,desc,desc:10,desc:20,desc:40")
    parser.add_argument("--arm", default="kanagame", help="kanagame, fsrs or fsrs+game (comma)")
    parser.add_argument("--learners", type=int, default=10, help="per seed")
    parser.add_argument("--seeds", default=",".join(map(str, S.DEV_SEEDS)))
    parser.add_argument("--minutes", default="6,10,15", help="minutes a day (comma)")
    parser.add_argument("--games", default="4,8", help="minutes of play (comma; 0: none)")
    parser.add_argument("--exposure", type=float, default=0.1)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    seeds = S.dev_seeds_only(args.seeds)
    orders = [None, *args.orders.split(",")]
    for order in orders[1:]:
        _parse(order)
    games = [int(game) for game in args.games.split(",")]
    cells = [
        (arm, minutes, game, world.name)
        for arm in args.arm.split(",")
        for minutes in map(int, args.minutes.split(","))
        for game in games
        if game < minutes and not (arm == "fsrs" and game != games[0])  # fsrs does not play
        for world in S.WORLDS
    ]
    learners = [(seed, index) for seed in seeds for index in range(args.learners)]
    jobs = [
        (o, *cell, *learner, args.exposure)
        for o in orders
        for cell in cells
        for learner in learners
    ]
    with Pool(args.processes) as pool:
        results = dict(pool.map(_job, jobs, chunksize=4))
    print("| arm | cell | product order | " + " | ".join(orders[1:]) + " |")
    print("| --- | --- | ---: |" + " ---: |" * (len(orders) - 1))
    for cell in cells:
        base = [results[(None, *cell, *learner, args.exposure)] for learner in learners]
        minutes, game, world = cell[1:]
        row = [cell[0], f"{minutes}/{game} {world}", S.recall_text(base)]
        for order in orders[1:]:
            other = [results[(order, *cell, *learner, args.exposure)] for learner in learners]
            row.append(f"{S.recall_text(other)} {S.paired_text(base, other)}")
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
