"""Koi-Koi bots and speed: round shares per bot level, hard decision time, random rounds/s.

    .venv/bin/python bench/engines_koikoi.py                 # 2,000 rounds per pairing
    .venv/bin/python bench/engines_koikoi.py --rounds 200    # a quick look
    .venv/bin/python bench/engines_koikoi.py --write         # also updates docs/bench.md

Round share: over seeded 12-round games (seats swapped every other game), the share of the
points each level scored, the share of rounds it won (a round nobody wins counts for
neither), and the share of games it won (ties split).
Decision time: every ``hard`` decision of those games, wall clock, ms.
Speed: random legal actions through the contract (``to_act`` + ``legal_actions`` + a random
choice + ``apply``), CPU time, as in bench/engines.py.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.engines import write_block  # noqa: E402
from games.engines import get_engine  # noqa: E402

PAIRINGS = (("hard", "normal"), ("normal", "easy"), ("hard", "easy"))


def match(first: str, second: str, rounds: int, seed: int, times: list[float]) -> dict:
    engine = get_engine("koikoi")
    bots = {level: engine.bot(level) for level in (first, second)}
    won = {first: 0, second: 0}
    points = {first: 0, second: 0}
    games_won = {first: 0.0, second: 0.0}
    played = 0
    game = 0
    while played < rounds:
        order = (first, second) if game % 2 == 0 else (second, first)
        rng = random.Random(seed + game)
        state = engine.new_game(2, seed + game, {})
        game += 1
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            level = order[seat]
            view = engine.view(state, seat)
            legal = engine.legal_actions(state, seat)
            started = time.perf_counter()
            action = bots[level].choose(view, legal, rng)
            if level == "hard":
                times.append((time.perf_counter() - started) * 1000)
            state, _ = engine.apply(state, seat, action)
        for _round, winner, gained, _why in state.results:
            if winner >= 0:
                won[order[winner]] += 1
                points[order[winner]] += gained
        played += len(state.results)
        ranks = engine.outcome(state)["ranks"]
        winners = [order[seat] for seat in (0, 1) if ranks[seat] == 1]
        for level in winners:
            games_won[level] += 1 / len(winners)
    total_points = sum(points.values()) or 1
    return {
        "pair": f"{first} vs {second}",
        "rounds": played,
        "won": {level: won[level] / played for level in won},
        "points": {level: points[level] / total_points for level in points},
        "games": game,
        "games_won": {level: games_won[level] / game for level in games_won},
    }


def random_rounds_per_s(games: int, seed: int) -> tuple[float, float]:
    engine = get_engine("koikoi")
    started = time.process_time()
    rounds = actions = 0
    for g in range(games):
        rng = random.Random(seed + g)
        state = engine.new_game(2, seed + g, {})
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            actions += 1
        rounds += len(state.results)
    seconds = time.process_time() - started
    return rounds / seconds, actions / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per pairing")
    parser.add_argument("--games", type=int, default=400, help="random games for the speed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    lines = [
        f"seed {args.seed}, load average {os.getloadavg()[0]:.1f} at start",
        "",
        "| pairing | rounds | rounds won | share of points | games (12 rounds) | games won |",
        "| --- | ---: | --- | --- | ---: | --- |",
    ]
    times: list[float] = []
    for first, second in PAIRINGS:
        row = match(first, second, args.rounds, args.seed, times)
        won = ", ".join(f"{k} {v:.1%}" for k, v in row["won"].items())
        pts = ", ".join(f"{k} {v:.1%}" for k, v in row["points"].items())
        games = ", ".join(f"{k} {v:.1%}" for k, v in row["games_won"].items())
        lines.append(
            f"| {row['pair']} | {row['rounds']} | {won} | {pts} | {row['games']} | {games} |"
        )
        print(lines[-1], flush=True)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    lines += [
        "",
        f"hard decisions: {len(times)}, median {times[len(times) // 2]:.2f} ms, "
        f"p95 {p95:.2f} ms, max {times[-1]:.2f} ms (load average {os.getloadavg()[0]:.1f})",
    ]
    rounds_s, actions_s = random_rounds_per_s(args.games, args.seed)
    lines.append(
        f"random play through the contract: {rounds_s:,.0f} rounds/s, {actions_s:,.0f} "
        f"actions/s over {args.games} 12-round games, CPU time "
        f"(load average {os.getloadavg()[0]:.1f})"
    )
    text = "\n".join(lines)
    print(text)
    if args.write:
        write_block("koikoi", text)


if __name__ == "__main__":
    main()
