"""Tune the Yokai CPU team on development seeds (docs/bench.md reports held-out seeds).

    .venv/bin/python bench/yokai_tune.py --level 5 --games 200 --seed 100000 [--set margin=1]

Plays ``--games`` all-``hard`` games per player count (2, 3, 4) at one level, starting at
``--seed`` (development seeds start at 100000; the figures of docs/bench.md use seed 1, so
the two sets never overlap), with the bot parameters given by ``--set name=value`` (the
module constants of ``games/engines/yokai/bots.py``), and prints the win rate per player
count and the share of games ending with every family grouped and with the shape exact.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from engines import yokai_outcomes  # noqa: E402  (bench/engines.py)

from games.engines.yokai import bots  # noqa: E402


def play(task: tuple[int, int, int, int, dict]) -> tuple[int, int, int, int]:
    level, players, seed, games, params = task
    for name, value in params.items():
        setattr(bots, name, value)
    wins = grouped = shaped = 0
    for outcome in yokai_outcomes(level, players, "hard", games, seed):
        wins += outcome["won"]
        grouped += outcome["families_ok"]
        shaped += bool(outcome.get("objective_ok"))
    return players, wins, grouped, shaped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=int, default=5)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    params = {}
    for item in args.set:
        name, value = item.split("=", 1)
        params[name] = type(getattr(bots, name))(float(value))  # the constant's own type
    tasks = [(args.level, int(p), args.seed, args.games, params) for p in args.players.split(",")]
    with multiprocessing.Pool(max(1, args.processes)) as pool:
        results = pool.map(play, tasks)
    total = 0
    for players, wins, grouped, shaped in results:
        total += wins
        print(
            f"level {args.level} players {players}: won {wins / args.games:.1%}, "
            f"grouped {grouped / args.games:.1%}, shape {shaped / args.games:.1%}"
        )
    print(f"mean win {total / (args.games * len(tasks)):.1%}  params {params}")


if __name__ == "__main__":
    main()
